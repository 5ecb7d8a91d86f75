"""How the bot reaches a game's players where it is no member (a group DM, a server that did not
add it: ``venue`` :data:`bot.storage.INTERACTION`). There it may only answer interactions: a new
message is the answer to a command or press, or a follow-up of it (Discord allows a user-installed
app 5 follow-ups an interaction, within the 15 minutes its token lasts), and a message is edited
only through the interaction that shows it. So what the bot would post by itself elsewhere (a
notice, an announcement, a turn ping) is said through the interaction that caused it, and what
would need the bot to speak unprompted (the sweep's pings, reminders and time-outs) does not
happen there: a clock's time-out is applied at the game's next press or ``/wari board``
(:func:`clock_note` says so on the board).

Where the bot may post (a server that added it, its own DM), the same calls post in the channel.
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import N_, _
from bot.service import Table
from bot.storage import INTERACTION, ChallengeRow, GameRow

from .presenter import Message, Presenter, mention_only

log = logging.getLogger("cogs.wari")

#: A board's line, where the bot only answers interactions and the game has a clock.
CLOCK_NOTE = N_(
    "⏱ Here I only answer presses: a move not made in time ends the game at the next press "
    "or `/wari board`, and I send no reminders."
)


def through_interactions(row: GameRow) -> bool:
    """Whether the bot may reach ``row``'s game only through interactions (see the module)."""
    return row.venue == INTERACTION


def clock_note(table: Table) -> str | None:
    """The board's plain word on its clock where the bot only answers interactions (``None``
    elsewhere, or without a clock): in the language of the moment."""
    if not through_interactions(table.row) or table.clock is None:
        return None
    return _(CLOCK_NOTE)


async def say_through(presenter: Presenter, via: discord.Interaction, message: Message) -> discord.Message | None:
    """``message`` as the answer to ``via``, or a follow-up once it was answered. It tells what
    has happened already: Discord's refusal is only logged (``None``)."""
    try:
        return await presenter.answer(via, message)
    except discord.HTTPException as exc:
        log.warning("could not follow up interaction %s: %s", via.id, exc)
        return None


async def publish(presenter: Presenter, via: discord.Interaction, row: GameRow, message: Message) -> None:
    """A new message about ``row``'s game, caused by ``via``: in the channel where the bot may
    post, else through ``via``."""
    if through_interactions(row):
        await say_through(presenter, via, message)
    else:
        await presenter.post(row.channel_id, message)


async def notify_through(
    presenter: Presenter, via: discord.Interaction, about: GameRow | ChallengeRow, text: str, user_id: int
) -> None:
    """A new message that notifies ``user_id`` alone of something ``via`` did to a game or a
    challenge (a declined challenge, an answered offer): in the channel where the bot may post,
    else through ``via``."""
    if about.venue == INTERACTION:
        await say_through(presenter, via, Message(content=text, allowed_mentions=mention_only(user_id)))
    else:
        await presenter.notify(about.channel_id, text, user_id)
