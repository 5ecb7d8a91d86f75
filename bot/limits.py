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
    """What one member (``user``) and one whole server (``server``) may spend."""

    user: Limit
    server: Limit


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
#: Together one member can make the bot post at most 13 messages a minute through these
#: commands, in all channels; Discord's own limit is 5 messages per 5 seconds per channel.
LIMITS: dict[str, Budget] = {
    "look": Budget(user=Limit(8, 60.0), server=Limit(30, 60.0)),
    "game": Budget(user=Limit(5, 60.0), server=Limit(20, 60.0)),
}
