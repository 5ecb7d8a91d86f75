"""The operator's log at its default level: the pairing library's own lines, which name players by
their raw Discord ids, stay out of it; ``LOG_LEVEL=DEBUG`` lets them in for a developer."""

from __future__ import annotations

import logging

import pytest

from bot.__main__ import setup_logging
from bot.config import load_settings
from bot.tournament import Entrant, Pairing, PairingError, pair_swiss

AMA, KOFI, ESI, YAW = 424242424242424201, 424242424242424202, 424242424242424203, 424242424242424204
#: Four players who have all met after three rounds: a fourth cannot be paired, and the library
#: says so at INFO and WARNING with their ids before the project refuses it.
ENTRANTS = [
    Entrant(AMA, "Ama", 1900),
    Entrant(KOFI, "Kofi", 1850),
    Entrant(ESI, "Esi", 1800),
    Entrant(YAW, "Yaw", 1750),
]
PLAYED = [
    Pairing(1, AMA, ESI, 1.0),
    Pairing(1, KOFI, YAW, 1.0),
    Pairing(2, AMA, KOFI, 0.5),
    Pairing(2, ESI, YAW, 0.5),
    Pairing(3, AMA, YAW, 1.0),
    Pairing(3, KOFI, ESI, 1.0),
]


@pytest.fixture
def fresh_logging():
    """Put back the root logger and the library's logger as they were: setup_logging changes them."""
    root, library = logging.getLogger(), logging.getLogger("caissify_pairings")
    handlers, level, library_level = list(root.handlers), root.level, library.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    library.setLevel(library_level)


def operator_log(capsys, log_level: str) -> str:
    """What the operator's terminal shows while a round that cannot be paired is tried, with the
    bot's logging set up as ``python -m bot`` sets it up at ``log_level``."""
    setup_logging(load_settings({"DISCORD_TOKEN": "x", "LOG_LEVEL": log_level}, env_file=None))
    with pytest.raises(PairingError):
        pair_swiss(ENTRANTS, PLAYED, 4, 5, system="dutch")
    return capsys.readouterr().err


def test_at_the_default_level_the_pairing_library_logs_nothing_and_no_raw_id(capsys, fresh_logging):
    shown = operator_log(capsys, "INFO")
    assert "caissify" not in shown
    assert not any(str(user) in shown for user in (AMA, KOFI, ESI, YAW))


def test_at_debug_the_pairing_librarys_lines_are_shown_for_a_developer(capsys, fresh_logging):
    shown = operator_log(capsys, "DEBUG")
    assert "caissify_pairings" in shown and "Multiple forced byes" in shown
