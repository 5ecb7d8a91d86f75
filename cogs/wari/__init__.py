"""The Wari cog: ``/wari`` commands, challenges and boards with persistent buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import BUTTONS, WariCog
from .translator import CatalogTranslator

if TYPE_CHECKING:
    from bot.client import WariBot

__all__ = ["WariCog", "setup", "teardown"]


async def setup(bot: WariBot) -> None:
    await bot.add_cog(WariCog(bot, bot.services))
    bot.add_dynamic_items(*BUTTONS)
    await bot.tree.set_translator(CatalogTranslator())


async def teardown(bot: WariBot) -> None:
    bot.remove_dynamic_items(*BUTTONS)
    await bot.tree.set_translator(None)
