"""The bot's slash commands as a test walks them: every command wherever it lives (in ``/wari``,
``/wari-mod`` or one of their sub-groups), and options it can run with, so that a story can try
each one, and a command added later is tried too."""

from __future__ import annotations

import discord
from discord import app_commands


def slash_commands(bot) -> list[app_commands.Command]:
    """Every slash command of ``bot``'s tree (not the groups), in the tree's order."""
    return [command for command in bot.tree.walk_commands() if isinstance(command, app_commands.Command)]


def required_options(command: app_commands.Command, *, member, channel, roles=()) -> dict:
    """A value for each option ``command`` cannot run without: its first choice, its smallest
    number, ``member``, ``channel``, the next of ``roles`` (a team battle's teams are two different
    roles), some text."""
    values = {}
    unused_roles = iter(roles)
    for parameter in command.parameters:
        if not parameter.required:
            continue
        kind = parameter.type
        value: object
        if parameter.choices:
            value = parameter.choices[0].value
        elif kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
            value = parameter.min_value if parameter.min_value is not None else 1
        elif kind in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            value = member
        elif kind is discord.AppCommandOptionType.channel:
            value = channel
        elif kind is discord.AppCommandOptionType.role:
            value = next(unused_roles)
        elif kind is discord.AppCommandOptionType.boolean:
            value = False
        else:
            value = "x" * int(parameter.min_value or 1)  # a string's smallest length
        values[parameter.display_name] = value
    return values
