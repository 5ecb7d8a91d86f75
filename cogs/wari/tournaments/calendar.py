"""Every tournament is also a Discord scheduled event of its server (its Events list, where members
say they are interested): made with the tournament (external, the channel as its place, an
estimated end), started when it starts, completed when it ends, cancelled when it is called off.

The status last given to it is kept with the tournament, so each step that shows the event
(:meth:`cogs.wari.tournaments.runs.TournamentRunner.show`) brings Discord's up to date once and
a restart misses nothing. It is a view: a refusal never stops the tournament. Without the Manage
Events permission the moderator who made the event is told once (:mod:`.moderation`); the
tournament then carries on without one (``refused``), as after a moderator deleted it (``gone``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.clock import Clock
from bot.service.tournaments import TournamentService
from bot.storage import TournamentRow

from .views import describe

log = logging.getLogger("cogs.wari")

#: The Discord event's status for each status of the tournament.
WANTED = {
    "open": "scheduled",
    "running": "active",
    "paused": "active",
    "finished": "completed",
    "cancelled": "cancelled",
}
#: What the bot stops trying: Discord refused to make it, or it was deleted.
SETTLED = ("refused", "gone")
#: A guess of how many moves each player makes in a game, for the estimated end.
MOVES_A_GAME = 25
#: Discord wants an event's start to come: one starting sooner is not made.
LEAD = timedelta(seconds=5)


def round_length(clock: str) -> timedelta:
    """About how long a round lasts: both players' time for a game of :data:`MOVES_A_GAME` moves each."""
    parsed = Clock.parse(clock)
    if parsed.per_move is not None:
        return parsed.per_move * MOVES_A_GAME
    assert parsed.base is not None  # a clock is per move or per player
    return 2 * (parsed.base + parsed.increment * MOVES_A_GAME)


def expected_end(row: TournamentRow) -> datetime:
    """When the event should be over: an arena's length; a Swiss's rounds, or a round-robin's
    (its players less one, guessed from its limit, by its cycles), each :func:`round_length`."""
    if row.format == "arena":
        return row.starts_at + timedelta(minutes=row.duration or 30)
    rounds = row.rounds or ((row.max_players or 8) - 1) * row.cycles
    return row.starts_at + rounds * round_length(row.clock)


class DiscordEvents:
    """Keeps each tournament's Discord scheduled event in step with it (see the module)."""

    def __init__(self, client: discord.Client, tournaments: TournamentService) -> None:
        self.client = client
        self.tournaments = tournaments

    async def sync(self, row: TournamentRow) -> bool:
        """Bring the tournament's Discord event up to date (made, if it has none and is still to
        start). ``False`` only when Discord just refused to make it for want of permission."""
        wanted = WANTED[row.status]
        if row.discord_event_status == wanted or row.discord_event_status in SETTLED:
            return True
        if row.discord_event_id is None:
            return await self._create(row) if row.status == "open" and row.starts_at > now() + LEAD else True
        await self._move(row, wanted)
        return True

    async def _create(self, row: TournamentRow) -> bool:
        guild = self.client.get_guild(row.guild_id)
        channel = guild.get_channel(row.channel_id) if guild is not None else None
        if guild is None or channel is None:
            return True
        try:
            made = await guild.create_scheduled_event(
                name=row.name,
                start_time=row.starts_at,
                end_time=expected_end(row),
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=f"#{channel.name}",
                description=describe(row),
            )
        except discord.Forbidden as exc:
            log.warning("tournament %s: no Discord event (%s); it runs without one", row.id, exc)
            await self._note(row, None, "refused")
            return False
        except discord.HTTPException as exc:
            log.warning("tournament %s: Discord did not make its event (%s); trying at its next step", row.id, exc)
            return True
        await self._note(row, made.id, "scheduled")
        return True

    async def _move(self, row: TournamentRow, wanted: str) -> None:
        """Move the Discord event on to ``wanted``, as Discord allows: a scheduled event is started
        before it is completed, and one under way is ended (not cancelled) when called off."""
        assert row.discord_event_id is not None
        guild = self.client.get_guild(row.guild_id)
        if guild is None:
            return
        try:
            event = await guild.fetch_scheduled_event(row.discord_event_id)
            status = event.status
            if wanted in ("active", "completed") and status is discord.EventStatus.scheduled:
                event = await event.start()
            elif wanted == "cancelled" and status is discord.EventStatus.scheduled:
                event = await event.cancel()
            if wanted in ("completed", "cancelled") and event.status is discord.EventStatus.active:
                await event.end()
        except discord.NotFound:
            log.info("tournament %s: its Discord event was deleted; it goes on without one", row.id)
            await self._note(row, row.discord_event_id, "gone")
            return
        except discord.Forbidden as exc:
            log.warning("tournament %s: cannot update its Discord event (%s); it goes on without", row.id, exc)
            await self._note(row, row.discord_event_id, "refused")
            return
        except discord.HTTPException as exc:
            log.warning("tournament %s: Discord did not update its event (%s); trying again", row.id, exc)
            return
        await self._note(row, row.discord_event_id, wanted)

    async def _note(self, row: TournamentRow, event_id: int | None, status: str) -> None:
        await self.tournaments.set_messages(row.id, discord_event_id=event_id, discord_event_status=status)
