"""How often one member, and one whole server, may run the commands that cost the bot work or
post a message: the numbers :mod:`cogs.wari.cooldowns` enforces, in one place."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """``rate`` uses per ``per`` seconds, counted from the first use of a window."""

    rate: int
    per: float


@dataclass(frozen=True)
class Budget:
    """What one member (``user``) and one whole server (``server``) may spend; with
    ``per_channel``, what one member may spend in one channel and what the whole channel may."""

    user: Limit
    server: Limit
    per_channel: bool = False


#: The budgets, by name. Why these numbers:
#:
#: - ``look``: a member reading their stats, the leaderboard and a record or two in a row needs
#:   about four; eight a minute is more than anyone reads and still at most eight messages a
#:   minute from one member (the pages are turned with buttons, which are not limited). A
#:   server of active players gets 30 a minute: about one chart every two seconds, which the
#:   bot draws easily, while a crowd (or a raid of alt accounts) cannot keep it drawing.
#: - ``game``: starting games is rarer: a challenge, a seek, a game against the bot, a rematch
#:   offered with ``/wari challenge`` after a quick loss: five a minute leaves room for a
#:   declined challenge or a mistyped option, but no flood of boards. A server gets 20 a
#:   minute: a busy club starting many games at once, and no more boards than a channel can
#:   read.
#:
#: - ``post``: every command that posts in a channel (the two above when they post, and
#:   ``/wari board``, ``draw``, ``takeback``, the Rematch button) also spends from the channel's
#:   own budget: four a minute for one member in one channel, twelve for the whole channel.
#:   Each posts one message, or two where a player is called (a challenge and its ping), so one
#:   member can make the bot post at most eight messages a minute in a channel, and a crowd 24,
#:   well under Discord's 5 messages per 5 seconds per channel (60 a minute).
LIMITS: dict[str, Budget] = {
    "look": Budget(user=Limit(8, 60.0), server=Limit(30, 60.0)),
    "game": Budget(user=Limit(5, 60.0), server=Limit(20, 60.0)),
    "post": Budget(user=Limit(4, 60.0), server=Limit(12, 60.0), per_channel=True),
}
