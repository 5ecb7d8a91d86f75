"""The Wari cog: ``/wari`` commands, challenges and boards with persistent buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import BUTTONS, WariCog

if TYPE_CHECKING:
    from bot.client import WariBot

__all__ = ["WariCog", "setup", "teardown"]


async def setup(bot: WariBot) -> None:
    await bot.add_cog(WariCog(bot))
    bot.add_dynamic_items(*BUTTONS)


async def teardown(bot: WariBot) -> None:
    bot.remove_dynamic_items(*BUTTONS)
