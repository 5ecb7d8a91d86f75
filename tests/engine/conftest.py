"""The rules run twice: once on the pure-Python reference, once on the compiled core.

A test module opts in with ``pytestmark = pytest.mark.usefixtures("backend")``: every test of it
then runs with :func:`bot.engine.core.machine_for` handing out that backend's machines (games
created inside the test use them). The compiled run carries the ``compiled_core`` marker
(``tests/conftest.py``): skipped, saying why, where the extension was not built.
"""

import pytest

from bot.engine import core


@pytest.fixture(
    params=[
        pytest.param(backend, marks=pytest.mark.compiled_core) if backend == "compiled" else backend
        for backend in core.BACKENDS
    ]
)
def backend(request, monkeypatch):
    monkeypatch.setattr(core, "default_backend", lambda: request.param)
    return request.param
