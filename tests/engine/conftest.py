"""The rules run twice: once on the pure-Python reference, once on the compiled core.

A test module opts in with ``pytestmark = pytest.mark.usefixtures("backend")``: every test of it
then runs with :func:`bot.engine.core.machine_for` handing out that backend's machines (games
created inside the test use them). The compiled run is skipped, and says why, where the
extension was not built.
"""

import os

import pytest

from bot.engine import core


@pytest.fixture(params=core.BACKENDS)
def backend(request, monkeypatch):
    if request.param == "compiled" and core._core is None:
        if os.environ.get("CI"):  # CI builds the core: a missing one is a failure there
            pytest.fail("the compiled core was not built", pytrace=False)
        pytest.skip("the compiled core was not built on this machine")
    monkeypatch.setattr(core, "default_backend", lambda: request.param)
    return request.param
