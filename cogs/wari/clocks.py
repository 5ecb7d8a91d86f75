"""Keeping games moving: turn pings and reminders, time-outs, expired challenges, and clocks
paused while the bot was down. One sweep every :data:`SWEEP_SECONDS` does it all, reading only
the due rows (indexed), so it stays cheap with thousands of live games; a heartbeat of its own
notes that the bot is alive.

Every deadline and every due ping is stored, so nothing here is lost or doubled by a restart:
a ping stays due until it is recorded as posted (a compare-and-set: a ping posted for a game
that moved on meanwhile is taken back), and a time-out is a versioned write like a move.
"""

from __future__ import annotations

from datetime import datetime

import discord
from discord.ext import commands, tasks

from bot.clock import duration
from bot.i18n import _
from bot.service import HEARTBEAT, Table

from .base import CogBase, log, now
from .views import board_link, mention_only

SWEEP_SECONDS = 30


def ping_text(table: Table, kind: str) -> str:
    """A turn ping or a reminder: it mentions the player to move and links the board."""
    row, user = table.row, f"<@{table.user_to_move}>"
    if kind == "turn":
        return _("{player}, your move in game #{number} → {board}", player=user, number=row.id, board=board_link(row))
    assert row.deadline is not None  # a reminder is due only before a deadline
    left = duration(row.deadline - row.ping_at) if row.ping_at else _("little time")
    when = discord.utils.format_dt(row.deadline, "R")
    return _(
        "⏰ {player}, about {left} left for your move in game #{number} (time runs out {when}) → {board}",
        player=user,
        left=left,
        number=row.id,
        when=when,
        board=board_link(row),
    )


class ClockSweeps(CogBase):
    #: When the gateway connection was lost, while it is (``None`` while connected).
    _offline_since: datetime | None = None

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweep(self) -> None:
        """Everything time brings, each part on its own so that one failure does not stop the rest."""
        if self._offline_since is not None:
            return  # nobody can press while Discord is away: no time-outs, no pings meanwhile
        for part in (self.close_expired_challenges, self.end_games_on_time, self.send_due_pings):
            try:
                await part()
            except Exception:
                log.exception("the sweep could not %s; will try again", part.__name__.replace("_", " "))

    @tasks.loop(seconds=HEARTBEAT.total_seconds())
    async def heartbeat(self) -> None:
        """Note that the bot is alive, in a loop of its own so that a slow sweep never looks
        like an outage; after one, pause every running clock for its length.

        Players cannot move while the bot (or its connection to Discord) is down, so that time
        is not theirs to lose: each deadline moves on by the length of the outage, once, and the
        board says so.
        """
        if self._offline_since is None:
            await self._note_alive()

    async def _note_alive(self) -> None:
        """Note that the bot is alive; if it was away, pause the running clocks for as long."""
        try:
            gap, tables = await self.service.credit_downtime(now())
        except Exception:
            log.exception("could not note that the bot is alive; will try again")
            return
        if tables:
            log.info("the bot was away for %s: paused the clocks of %d games", duration(gap), len(tables))
        for table in tables:
            try:
                await self.redraw(table)
            except Exception:  # an uncaught error would stop this loop for good
                log.exception("could not redraw game %s after the outage", table.row.id)

    @sweep.before_loop
    @heartbeat.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        if self._offline_since is None:
            self._offline_since = now()
            log.warning("lost the connection to Discord: clocks wait until it is back")

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self._back_online()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self._back_online()

    async def _back_online(self) -> None:
        """Credit the outage, if it was one, then let the sweeps run again: in that order, so that
        no sweep ends a game on time in between."""
        if self._offline_since is not None:
            try:
                await self._note_alive()
            finally:
                self._offline_since = None

    async def end_games_on_time(self) -> None:
        """End every game whose player to move let the deadline pass: the opponent wins."""
        moment = now()
        for row in await self.bot.store.games_past_deadline(moment):
            try:
                table = await self.service.time_out(row, moment)
                if table is not None:
                    async with self.public(row.guild_id):
                        await self.announce_end(table, self.time_out_text(table))
            except Exception:
                log.exception("could not end game %s on time; will try again", row.id)

    async def send_due_pings(self) -> None:
        moment = now()
        for row in await self.bot.store.games_due_a_ping(moment):
            try:
                await self.deliver_ping(row.id, row.channel_id, moment)
            except Exception:
                log.exception("could not ping in game %s; will try again", row.id)

    async def deliver_ping(self, game_id: int, channel_id: int, moment: datetime) -> None:
        """Post the ping the game is due, if it is due: a new message that mentions only the
        player to move (Discord notifies nobody of a mention added by an edit), then delete the
        game's previous ping, so a channel holds at most one per game. A player who turned pings
        off gets none.

        It runs under the channel's lock, so no move or ending comes between reading the game
        and recording its ping; the compare-and-set of the record keeps other processes right.
        """
        async with self.service.lock(channel_id):
            found = await self.bot.store.game_to_ping(game_id)
            if found is None:
                return
            row, muted = found
            if not row.live or row.ping_at is None or row.ping_at > moment or row.message_id is None:
                return
            assert row.ping_kind is not None  # stored together with ping_at
            table = Table.of(row)
            user = table.user_to_move
            posted = None
            if user is not None and user not in muted:
                async with self.public(row.guild_id):
                    text = ping_text(table, row.ping_kind)
                try:
                    posted = await self.bot.get_partial_messageable(channel_id).send(
                        text, allowed_mentions=mention_only(user)
                    )
                except (discord.Forbidden, discord.NotFound) as exc:
                    log.warning("cannot ping in game %s, and will not retry: %s", row.id, exc)
                except discord.HTTPException as exc:
                    log.warning("could not ping in game %s (the sweep tries again): %s", row.id, exc)
                    return
            clock = table.clock
            next_at: datetime | None = None  # the reminder a turn ping leads to, if the clock gives one
            if row.ping_kind == "turn" and clock is not None and clock.reminder_before and row.deadline:
                next_at = row.deadline - clock.reminder_before
            recorded = await self.bot.store.record_ping(
                row,
                message_id=posted.id if posted else None,
                next_at=next_at,
                next_kind="reminder" if next_at is not None else None,
            )
            stale = row.ping_message_id if recorded else (posted.id if posted else None)
            await self.delete_message(channel_id, stale)

    async def forget_ping(self, table: Table) -> None:
        """Delete the last ping of a game that ended (read afresh: one may have come meanwhile)."""
        async with self.service.lock(table.row.channel_id):
            row = await self.bot.store.get_game(table.row.id)
        await self.delete_message(table.row.channel_id, row.ping_message_id if row else None)
