"""What players remember: ``/wari stats``, ``/wari leaderboard`` and ``/wari history``."""

from __future__ import annotations

from .base import CogBase

#: This feature's persistent buttons (registered by the extension's setup).
BUTTONS: tuple = ()


class StandingsCommands(CogBase):
    pass
