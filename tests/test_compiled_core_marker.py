"""The ``compiled_core`` marker (``tests/conftest.py``): where the compiled core was not built, a
developer's run skips a marked test and says why; CI, which builds the core, fails it instead."""

import pytest

from bot.engine import core
from tests.conftest import pytest_runtest_setup


def test_without_the_compiled_core_ci_fails_a_marked_test_and_a_developer_skips_it(request, monkeypatch):
    monkeypatch.setattr(core, "_core", None)
    pytest_runtest_setup(request.node)  # not marked: it runs without the core
    request.node.add_marker(pytest.mark.compiled_core)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"the compiled core was not built \(CI builds it"):
        pytest_runtest_setup(request.node)
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="not built on this machine"):
        pytest_runtest_setup(request.node)
    monkeypatch.setattr(core, "_core", object())  # built: the marked test runs
    pytest_runtest_setup(request.node)
