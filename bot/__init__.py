"""Wari for Discord: the bot package. ``create_bot`` builds the bot without connecting.

The Discord client is imported on first use, so the engine, the AI and the terminal game
(``bot.engine``, ``bot.ai``, ``bot.terminal``) load without discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import WariBot, create_bot

__all__ = ["WariBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import client

        return getattr(client, name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
