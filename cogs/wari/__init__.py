"""The Wari cog: ``/wari`` commands, challenges and boards with persistent buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import records, standings
from .cog import WariCog
from .views import ChallengeButton, CupButton, DrawButton, NextMoveButton, RematchButton

if TYPE_CHECKING:
    from bot.client import WariBot

__all__ = ["WariCog", "setup", "teardown"]

#: Every button that outlives the process: found again from its custom id after a restart.
BUTTONS = (CupButton, ChallengeButton, NextMoveButton, RematchButton, DrawButton, *records.BUTTONS, *standings.BUTTONS)


async def setup(bot: WariBot) -> None:
    await bot.add_cog(WariCog(bot))
    bot.add_dynamic_items(*BUTTONS)


async def teardown(bot: WariBot) -> None:
    bot.remove_dynamic_items(*BUTTONS)
