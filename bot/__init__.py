"""Wari for Discord: the bot package. ``create_bot`` builds the bot without connecting."""

from .client import WariBot, create_bot

__all__ = ["WariBot", "create_bot"]
