"""How a persistent button finds the feature that handles it: one registry per bot, kept on the
bot itself so that it goes with it (a registry beside the bot, keyed by it, would keep every bot
alive through its handlers, which reach back to it).

A button's custom id carries its kind and what it needs (``wari:cup:<game>:<ply>:<house>``), so it
works after a restart with no view kept in memory; its callback hands the press to the handler
the cog registered for that kind (:func:`register`), with the values read from the id.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

import discord

#: A press's handler: the interaction, then the values the button's custom id carries.
Handler = Callable[..., Awaitable[None]]

#: The attribute of the bot that holds its registry.
_REGISTRY = "wari_button_handlers"


def register(client: discord.Client, handlers: Mapping[str, Handler]) -> None:
    """The handlers of ``client``'s buttons, by kind (the cog registers them when it loads)."""
    setattr(client, _REGISTRY, dict(handlers))


def unregister(client: discord.Client) -> None:
    setattr(client, _REGISTRY, {})


def _handlers(client: discord.Client) -> Mapping[str, Handler]:
    return getattr(client, _REGISTRY, {})


async def dispatch(interaction: discord.Interaction, kind: str, *values: object) -> None:
    """Hand a press of a ``kind`` button to its handler."""
    handler = _handlers(interaction.client).get(kind)
    if handler is None:  # the cog is not loaded (being reloaded): the press still gets an answer
        await interaction.response.send_message("Wari is restarting: press again in a moment.", ephemeral=True)
        return
    await handler(interaction, *values)


def custom_ids(message: discord.Message) -> set[str]:
    """The custom ids of the buttons on ``message`` as Discord last sent it."""
    return {
        child.custom_id
        for row in message.components
        for child in getattr(row, "children", ())
        if getattr(child, "custom_id", None)
    }
