"""Tournaments moving on by themselves: each sweep, and each time one of their games ends, the
event takes its next step (:meth:`bot.service.TournamentService.advance`), and what the step did
is shown: the games of a new round start in the event's one thread (opened from its sign-up
message at its first round; each game a board message there), the round's pairings are posted
there with links (pinging each player once: the games ping nobody after), the standings message
in the channel is redrawn, and the podium is posted there at the end. So a 20-player arena
makes one thread, not one per game.

The database says what was shown: a pairing's game is started until it is linked, its board
posted until the game notes it (the game's clock waits for its board, so a crash or a refusal in
between costs nobody time), a round's pairings are posted once every game of it has its board
(they link them all) until the event notes them ``announced``, the podium until its message is
noted. So a restart at any moment shows each thing once (at worst a message posted twice, never
none; never two boards of a game), and a step that fails is taken again by the next sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine.notation import parse_rules_code
from bot.i18n import _
from bot.names import plain_name
from bot.pictures.crosstable import crosstable_png
from bot.service import PlayerService, Refusal, Table, WariService
from bot.service.tournaments import Advance, Event, TournamentService
from bot.storage import GameRow, PairingRow, TournamentRow

from ..boards import Boards
from ..followup import Notices
from ..languages import Languages
from ..presenter import Message, Presenter
from ..roles import RoleCalls
from ..threads import THREAD_ARCHIVE_MINUTES
from ..views import board_link, replaced_board
from .calendar import DiscordEvents
from .standings import crosstable, podium_message, standings_message
from .views import called_off_text, round_messages, signup_message

log = logging.getLogger("cogs.wari")


class TournamentRunner:
    """Takes events' steps and shows them (see the module's documentation)."""

    def __init__(
        self,
        client: discord.Client,
        service: WariService,
        tournaments: TournamentService,
        presenter: Presenter,
        languages: Languages,
        boards: Boards,
        notices: Notices,
        players: PlayerService,
        role_calls: RoleCalls,
    ) -> None:
        self.client = client
        #: The calls of the server's tournament role: at sign-up (:mod:`.moderation`) and at the start.
        self.role_calls = role_calls
        self.players = players
        self.service = service
        self.tournaments = tournaments
        self.presenter = presenter
        self.languages = languages
        self.boards = boards
        #: What follows a new game's board: a tournament game is between people, so its notices
        #: (its first ping) are all (the games' ends come back through :meth:`on_game_end`).
        self.notices = notices
        #: One step at a time per event in this process (a sweep and a game's end may meet).
        self._locks: dict[int, asyncio.Lock] = {}
        #: The server's Discord scheduled event of each tournament, kept in step at each step.
        self.calendar = DiscordEvents(client, tournaments)

    async def run_due(self) -> None:
        """The sweep's part: a step for every event that may have one due."""
        for row in await self.tournaments.to_run(now()):
            try:
                await self.advance(row.id)
            except Exception:
                log.exception("tournament %s could not move on; the next sweep tries again", row.id)

    async def on_game_end(self, table: Table) -> None:
        """A game ended: if it is a tournament's, its event moves on at once (a tournament's game
        carries its event from its start: another needs no read)."""
        if table.row.tournament_id is None:
            return
        pairing = await self.tournaments.pairing_of_game(table.row.id)
        if pairing is not None:
            await self.advance(pairing.tournament_id)

    @contextlib.asynccontextmanager
    async def _stepping(self, tournament_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield

    async def advance(self, tournament_id: int) -> Event:
        """Take the event's step due now, and show what it did."""
        async with self._stepping(tournament_id):
            step = await self.tournaments.advance(tournament_id, now(), self.server_roles)
            async with self.languages.public(step.event.row.guild_id):
                return await self.show(step)

    async def start_now(self, tournament_id: int) -> Event:
        """A moderator starts an open event now: its first step is shown as any step is (the
        sign-up message redrawn, round 1 started and announced).

        :raises Refusal: if it has started already."""
        async with self._stepping(tournament_id):
            step = await self.tournaments.start_now(tournament_id, now(), self.server_roles)
            async with self.languages.public(step.event.row.guild_id):
                return await self.show(step)

    def server_roles(self, guild_id: int) -> dict[int, str] | None:
        """A server's roles now, by id, their names, which a team battle's teams follow before its
        start (``None`` where the bot does not see the server: then no team is dropped)."""
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.unavailable:
            return None
        return {role.id: role.name for role in guild.roles}

    async def show(self, step: Advance) -> Event:
        event = step.event
        if step.called_off:
            await self.presenter.post(event.row.channel_id, Message(content=called_off_text(step)))
        if step.new_round or step.called_off or step.finished:
            await self.presenter.edit(event.row.channel_id, event.row.message_id, signup_message(event))
        to_start = await self.tournaments.games_to_start(event)
        thread_id = await self.event_thread(event) if to_start else None
        if thread_id is not None:  # else Discord refused the thread: the next step tries again
            for pairing in to_start:
                await self.start_game(event, pairing, thread_id)
        event = await self.tournaments.event(event.row.id)
        boards_shown = [await self.show_board(table) for table in await self.tournaments.unseen_games(event)]
        links = await self.links(event)
        if event.row.status == "running" and event.row.round > event.row.announced:
            await self.announce(event, links)
            await self.role_calls.tournament_started(event.row)
        if step.results or step.new_round or step.finished or any(boards_shown):
            await self.redraw_standings(event, links)
        if event.row.status == "finished" and event.row.podium_message_id is None:
            posted = await self.presenter.post(event.row.channel_id, podium_message(event))
            if posted is not None:
                await self.tournaments.set_messages(event.row.id, podium_message_id=posted.id)
                if event.row.thread_id is not None:  # its games are over: the thread leaves the list
                    await self.presenter.archive_thread(event.row.thread_id)
        await self.calendar.sync(event.row)
        if step.next_edition is not None:
            await self.open_edition(step.next_edition)
        return event

    async def moderated(self, event: Event) -> None:
        """A moderator paused, resumed or cancelled the event: its Discord event follows, and a
        recurring event called off before its start has its next edition all the same."""
        async with self.languages.public(event.row.guild_id):
            await self.calendar.sync(event.row)
            if event.row.status == "cancelled":
                roles = self.server_roles(event.row.guild_id) if event.battle else None
                following, _stopped = await self.tournaments.next_edition(event, now(), roles)
                if following is not None:
                    await self.open_edition(following)

    async def open_edition(self, row: TournamentRow) -> None:
        """A recurring event's next edition, made by a step: its sign-up message (posted until it is
        noted, so a restart posts it once) and its Discord event."""
        if row.message_id is None:
            posted = await self.presenter.post(row.channel_id, signup_message(await self.tournaments.event(row.id)))
            if posted is None:
                return  # Discord refused: the next step of the edition before tries again
            await self.tournaments.set_messages(row.id, message_id=posted.id)
            await self.role_calls.tournament_opened(row, posted.id)
        await self.calendar.sync(row)

    async def start_game(self, event: Event, pairing: PairingRow, thread_id: int) -> None:
        """A pairing's game, in the event's thread; its board follows (:meth:`show_board`)."""
        assert pairing.second_id is not None  # a bye has no game
        first, second = event.entrant(pairing.first_id), event.entrant(pairing.second_id)
        with contextlib.suppress(Refusal):  # started meanwhile (another process, an earlier try)
            await self.service.starts.start_tournament_game(
                guild_id=event.row.guild_id,
                channel_id=thread_id,
                pairing=pairing,
                names=(first.name if first else None, second.name if second else None),
                rules=parse_rules_code(event.row.variant),
                clock=event.row.clock,
                rated=bool(event.row.rated),
                now=now(),
            )

    async def event_thread(self, event: Event) -> int | None:
        """The thread every game of the event is played in: the one noted with it (reopened if
        archived), or a new one, noted. One deleted is replaced, and the log says so. ``None``
        (and a log line) if Discord refuses: the next step tries again."""
        row = event.row
        if row.thread_id is not None:
            try:
                thread = self.client.get_channel(row.thread_id) or await self.client.fetch_channel(row.thread_id)
            except discord.NotFound:
                log.warning("tournament %s: its thread %s was deleted; opening another", row.id, row.thread_id)
            except discord.HTTPException as exc:
                log.warning("tournament %s: could not read its thread (%s); trying again", row.id, exc)
                return None
            else:
                await self.presenter.archive_thread(thread.id, archived=False)
                return thread.id
        channel = self.client.get_channel(row.channel_id) or await self.client.fetch_channel(row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %s: channel %s cannot hold threads", row.id, row.channel_id)
            return None
        try:
            thread = await self.open_thread(channel, row)
        except discord.HTTPException as exc:
            log.warning("tournament %s: could not open a thread for its games (%s); trying again", row.id, exc)
            return None
        await self.tournaments.set_messages(row.id, thread_id=thread.id)
        return thread.id

    async def open_thread(self, channel: discord.TextChannel, row: TournamentRow) -> discord.Thread:
        """A thread for the event's games, opened from its sign-up message (so the channel shows it
        under the event it belongs to), or from the channel if that message is gone."""
        name = _("{event} · games", event=plain_name(row.name))[:100]
        if row.message_id is not None:
            try:
                signup = channel.get_partial_message(row.message_id)
                return await signup.create_thread(name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            except discord.HTTPException as exc:
                log.info("tournament %s: no thread from its sign-up message (%s); opening one", row.id, exc)
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )

    async def show_board(self, table: Table) -> bool:
        """Post the board of a game its players were never shown (just started, or a crash or
        Discord's refusal came between its start and its board) in its thread, its clock starting
        as it is shown. Whether it was shown: if Discord refuses, the clock waits and the next
        step tries again.

        Two steps at once (two processes) may both post it: the game's versioned write keeps the
        first board recorded, and the other takes its message back, as a ping does."""
        row = table.row
        started = self.service.starts.with_clock_started(table, now())
        posted = await self.presenter.post(row.channel_id, await self.boards.message(started))
        if posted is None:
            return False
        shown = await self.service.starts.first_shown(started, posted.id, now())
        if shown is None:
            await self.presenter.delete(row.channel_id, posted.id)
            return False
        await self.service.games.shown(shown)
        if row.message_id is not None:  # a board shown with its clock waiting (`/wari board`) must not look live
            await self.presenter.edit(row.channel_id, row.message_id, replaced_board(shown))
        await self.notices.game_changed(shown)
        return True

    async def links(self, event: Event) -> dict[int, str]:
        """Links to the boards of the event's games, by game id."""
        games: list[GameRow] = await self.tournaments.games_of(event)
        return {game.id: board_link(game) for game in games if game.message_id is not None}

    async def announce(self, event: Event, links: dict[int, str]) -> None:
        """Post the pairings of the rounds not announced yet in the event's thread (pinging their
        players once: the only notification of their games), once
        every game of them shows its board: the announcement links them all (a game started or
        shown later waits for the next step, and so does the announcement)."""
        pairings = [p for p in event.pairings if event.row.announced < p.round <= event.row.round]
        if any(not p.bye and p.result is None and p.game_id not in links for p in pairings):
            return
        where = event.row.thread_id or event.row.channel_id  # with the boards (an old event: none there)
        posted = [await self.presenter.post(where, m) for m in round_messages(event, pairings, links)]
        if all(message is not None for message in posted):
            await self.tournaments.mark_announced(event)

    async def standings(self, event: Event, links: dict[int, str]) -> Message:
        """The standings message, its crosstable a picture where the server's boards are pictures
        (drawn in a worker thread) and text elsewhere."""
        _language, style = await self.players.server_settings(event.row.guild_id)
        picture = None
        if style == "image" and event.row.format != "arena" and event.pairings:
            picture = await asyncio.to_thread(crosstable_png, crosstable(event))
        return standings_message(event, links, picture)

    async def redraw_standings(self, event: Event, links: dict[int, str]) -> None:
        """The standings message, edited (or posted, the first time, or if it was deleted)."""
        message = await self.standings(event, links)
        if await self.presenter.edit(event.row.channel_id, event.row.standings_message_id, message):
            return
        posted = await self.presenter.post(event.row.channel_id, message)
        if posted is not None:
            await self.tournaments.set_messages(event.row.id, standings_message_id=posted.id)
