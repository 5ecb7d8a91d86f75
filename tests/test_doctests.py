"""The doctests of the ``__main__`` modules, which pytest's ``--doctest-modules`` never collects
(it skips every file named ``__main__.py``); every other module's run from ``testpaths``."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAINS = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for package in ("bot", "cogs")
    for path in (ROOT / package).rglob("__main__.py")
)


def test_every_main_module_is_found():
    assert "bot.engine.__main__" in MAINS and "bot.__main__" in MAINS


@pytest.mark.parametrize("name", MAINS)
def test_the_examples_of_a_main_module(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples of {name} failed"
