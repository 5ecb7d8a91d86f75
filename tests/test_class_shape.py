"""Classes are composed, not stacked: no class of ``bot/`` or ``cogs/`` holds more than two
classes of the project in its MRO (itself and at most one base). A new family of operations
adds an object the others are given (as :class:`bot.service.WariService` holds its parts over
one :class:`bot.service.base.Tables`, and :class:`bot.storage.Store` its queries over one
database handle), so a reader following a call finds it where the attribute names it."""

from __future__ import annotations

import importlib
import inspect

from tests.test_imports import PACKAGES, ROOT, modules_under

#: How many classes of the project a class's MRO may hold: itself and one base.
MOST_CLASSES_OF_THE_PROJECT = 2


def project_classes() -> list[type]:
    """Every class the modules of the project define (a module run as a program is left out)."""
    modules = [importlib.import_module(name) for name in modules_under(ROOT, PACKAGES) if not name.endswith("__main__")]
    return [
        member
        for module in modules
        for _, member in inspect.getmembers(module, inspect.isclass)
        if member.__module__ == module.__name__
    ]


def of_the_project(cls: type) -> bool:
    return cls.__module__.split(".")[0] in PACKAGES


def test_no_class_of_the_project_stacks_more_than_one_base_of_the_project():
    classes = project_classes()
    assert {"WariService", "Tables", "GameService", "Store", "WariCog"} <= {cls.__name__ for cls in classes}
    stacked = {
        f"{cls.__module__}.{cls.__qualname__}": [ancestor.__qualname__ for ancestor in chain]
        for cls in classes
        if len(chain := [ancestor for ancestor in cls.__mro__ if of_the_project(ancestor)])
        > MOST_CLASSES_OF_THE_PROJECT
    }
    assert stacked == {}


def test_the_parts_of_the_game_service_hold_a_channel_by_the_same_lock():
    from bot.service import WariService

    service = WariService(store=None)  # no query runs: only the locks are looked at
    held = service.tables.lock(7)
    for part in (service.challenges, service.starts, service.games, service.pings):
        assert part._tables.lock(7) is held and part._tables.lock(8) is not held
