"""Keeping games moving: turn pings and reminders, time-outs, expired challenges, and clocks
paused while the bot was down. One sweep every :data:`SWEEP_SECONDS` does it all, reading only
the due rows (indexed), so it stays cheap with thousands of live games.

Every deadline and every due ping is stored, so nothing here is lost or doubled by a restart:
a ping is claimed in the database before it is posted (a claim that is never recorded falls
due again after :data:`PING_LEASE`), and a time-out is a versioned write like a move.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from datetime import datetime, timedelta

import discord
from discord.ext import tasks

from bot.clock import duration
from bot.service import Table
from bot.storage import GameRow

from .base import CogBase, log, now
from .views import mention_only

SWEEP_SECONDS = 30
PING_LEASE = timedelta(minutes=1)


def board_link(row: GameRow) -> str:
    """A masked link to the game's board message."""
    return f"[board](https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id})"


def ping_text(table: Table, kind: str) -> str:
    """A turn ping or a reminder: it mentions the player to move and links the board."""
    row, user = table.row, table.user_to_move
    if kind == "turn":
        return f"<@{user}>, your move in game #{row.id} → {board_link(row)}"
    left = duration(row.deadline - row.ping_at) if row.ping_at else "little time"
    when = discord.utils.format_dt(row.deadline, "R")
    return f"⏰ <@{user}>, about {left} left for your move in game #{row.id} (time runs out {when}) → {board_link(row)}"


class ClockSweeps(CogBase):
    _ping_locks: defaultdict[int, asyncio.Lock]

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweep(self) -> None:
        """Everything time brings, each part on its own so that one failure does not stop the rest."""
        for part in (self.resume_clocks, self.close_expired_challenges, self.end_games_on_time, self.send_due_pings):
            try:
                await part()
            except Exception:
                log.exception("the sweep could not %s; will try again", part.__name__.replace("_", " "))

    @sweep.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def resume_clocks(self) -> None:
        """Note that the bot is alive; after an outage, pause every running clock for its length.

        Players cannot move while the bot is down, so the time is not theirs to lose: each
        deadline moves on by the length of the outage, once, and the board says so.
        """
        gap, tables = await self.service.credit_downtime(now())
        if tables:
            log.info("the bot was silent for %s: paused the clocks of %d games", duration(gap), len(tables))
        for table in tables:
            await self.redraw(table)

    async def end_games_on_time(self) -> None:
        """End every game whose player to move let the deadline pass: the opponent wins."""
        moment = now()
        for row in await self.bot.store.games_past_deadline(moment):
            table = await self.service.time_out(row, moment)
            if table is not None:
                await self.announce_end(table, self.time_out_text(table))

    async def send_due_pings(self) -> None:
        moment = now()
        for row in await self.bot.store.games_due_a_ping(moment):
            await self.deliver_ping(row, moment)

    async def deliver_ping(self, row: GameRow, moment: datetime) -> None:
        """Post the ping ``row`` is due, if it is due: a new message that mentions only the player to
        move (Discord notifies nobody of a mention added by an edit), then delete the game's previous
        ping, so a channel holds at most one per game. A player who turned pings off gets none."""
        if row.ping_at is None or row.ping_at > moment or row.message_id is None:
            return
        async with self._ping_locks[row.id]:
            until = moment + PING_LEASE
            if not await self.bot.store.claim_ping(row, until):
                return  # delivered meanwhile, or the game moved on
            table = Table.of(row)
            user = table.user_to_move
            posted = None
            if user is not None and await self.bot.store.pings_enabled(user):
                try:
                    posted = await self.bot.get_partial_messageable(row.channel_id).send(
                        ping_text(table, row.ping_kind), allowed_mentions=mention_only(user)
                    )
                except discord.HTTPException as exc:
                    log.warning("could not ping in game %s (trying again in %s): %s", row.id, duration(PING_LEASE), exc)
                    return
            clock = table.clock
            remind = row.ping_kind == "turn" and clock is not None and clock.reminder_before and row.deadline
            next_at = row.deadline - clock.reminder_before if remind else None
            await self.bot.store.record_ping(
                row, until, message_id=posted.id if posted else None, next_at=next_at, next_kind="reminder" if remind else None
            )
            await self.delete_message(row.channel_id, row.ping_message_id)
