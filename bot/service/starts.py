"""Every way a game starts at once, with no challenge to answer: against the bot, an exhibition,
a pair that ``/wari seek`` matched, a tournament's pairing; and which finished game a rematch replays.

A tournament game is started by a sweep, not by a player at the board, and its board is posted
after the game is stored: its clock waits for that board (:meth:`StartService.with_clock_started`,
:meth:`StartService.first_shown`), so a process that dies in between, or Discord refusing the
board, costs nobody time on a game they could not see."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot.clock import DEFAULT_CLOCK, ClockState
from bot.engine import Game, Player, Rules
from bot.engine.notation import record, rules_code, snapshot
from bot.i18n import N_
from bot.storage import SERVER, Conflict, PairingRow, SeekRow

from .base import Tables
from .table import Refusal, Table, channel_busy
from .turns import STILL, check_first, check_level, opening, parse_clock, pings_and_clock

#: The columns a clock's start sets (its deadline, the banked times, the next ping).
CLOCK_COLUMNS = ("deadline", "time_a", "time_b", "ping_at", "ping_kind")


class StartService:
    """Games that start at once."""

    def __init__(self, tables: Tables) -> None:
        #: The channels' locks and games, shared with the other parts of the game service.
        self._tables = tables
        self._store = tables.store

    async def play_computer(
        self,
        *,
        guild_id: int,
        channel_id: int,
        human_id: int,
        computer_id: int,
        level: str,
        rules: Rules,
        first: str,
        now: datetime,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
        names: tuple[str | None, str | None] = (None, None),
        venue: str = SERVER,
    ) -> Table:
        """Start a game against the bot itself at once. ``first``: me (the human), opponent, random.
        ``names``: the human's and the bot's, as the server shows them; ``venue``: where it is played
        (:data:`bot.storage.SERVER`, ...)."""
        check_first(first)
        if first == "random":
            first = self._tables.rng.choice(("me", "opponent"))
        levels: tuple[str | None, str | None]
        if first == "me":
            players, levels = (human_id, computer_id), (None, level)
        else:
            players, levels, names = (computer_id, human_id), (level, None), names[::-1]
        return await self._create(
            guild_id,
            channel_id,
            players,
            levels,
            rules,
            now,
            actor=human_id,
            clock=clock,
            thread=thread,
            names=names,
            venue=venue,
        )

    async def exhibition(
        self,
        *,
        guild_id: int,
        channel_id: int,
        computer_id: int,
        levels: tuple[str, str],
        rules: Rules,
        now: datetime,
        autoplay: bool = False,
        computer_name: str | None = None,
        venue: str = SERVER,
    ) -> Table:
        """Two computer levels play each other in the channel (no clock: nobody waits on a person)."""
        return await self._create(
            guild_id,
            channel_id,
            (computer_id, computer_id),
            levels,
            rules,
            now,
            actor=None,
            autoplay=autoplay,
            names=(computer_name, computer_name),
            venue=venue,
        )

    async def start_paired(
        self, *, guild_id: int, channel_id: int, seeks: tuple[SeekRow, SeekRow], rules: Rules, now: datetime
    ) -> Table:
        """The game of two waits that ``/wari seek`` paired, in ``channel_id`` (their thread); who
        moves first is drawn. Nobody gets a turn ping: the game's first message calls both."""
        a, b = seeks if self._tables.rng.random() < 0.5 else seeks[::-1]
        return await self._create(
            guild_id,
            channel_id,
            (a.user_id, b.user_id),
            (None, None),
            rules,
            now,
            actor=a.user_id,
            clock=a.clock,
            thread=True,
            names=(a.user_name, b.user_name),
        )

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        players: tuple[int, int],
        levels: tuple[str | None, str | None],
        rules: Rules,
        now: datetime,
        *,
        actor: int | None,
        clock: str | None = None,
        thread: bool = False,
        autoplay: bool = False,
        names: tuple[str | None, str | None] = (None, None),
        pairing: PairingRow | None = None,
        rated: bool = True,
        venue: str = SERVER,
    ) -> Table:
        for level in filter(None, levels):
            check_level(level)
        async with self._tables.lock(channel_id):
            if pairing is None:  # an event's games share its thread (one per player: the database's index)
                await self._tables.check_not_event_thread(channel_id)
                if running := await self._store.games.live_game(channel_id):
                    raise channel_busy(running)
            await self._tables.open_challenge_in(channel_id, now)  # an unposted one must not block the channel
            game = Game(rules, Player.A)
            start = opening(parse_clock(clock) if clock else None, game, players, levels, actor, now)
            if pairing is not None:  # its clock waits for its board (see the module)
                start = {**start, **STILL}
            columns = dict(
                guild_id=guild_id,
                channel_id=channel_id,
                player_a=players[0],
                player_b=players[1],
                variant=rules_code(rules),
                record=record(game, *map(str, players)),
                position=snapshot(game),
                level_a=levels[0],
                level_b=levels[1],
                autoplay=int(autoplay),
                clock=clock,
                thread=int(thread),
                name_a=names[0],
                name_b=names[1],
                rated=int(rated),
                venue=venue,
                **start,
            )
            try:
                if pairing is not None:  # the game and its pairing's link in one transaction
                    row = await self._store.tournaments.create_tournament_game(pairing, now=now, **columns)
                else:
                    row = await self._store.games.create_game(now=now, **columns)
            except Conflict:
                raise Refusal(N_("This channel has an open challenge. Wait until it is answered or expires.")) from None
            return Table.of(row)

    async def start_tournament_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        pairing: PairingRow,
        names: tuple[str | None, str | None],
        rules: Rules,
        clock: str,
        rated: bool,
        now: datetime,
    ) -> Table:
        """The game of a tournament's pairing, in ``channel_id``: the event's thread, which its other
        games share (so not ``thread``, which archives a game's own thread as it ends). The first
        mover is the pairing's. Its clock waits until its board is shown (:meth:`first_shown`). Nobody gets
        a turn ping: the round's announcement calls both.

        :raises Refusal: the pairing has its game already (another process, or an earlier try).
        """
        assert pairing.second_id is not None  # a bye is no game
        players = (pairing.first_id, pairing.second_id)
        return await self._create(
            guild_id,
            channel_id,
            players,
            (None, None),
            rules,
            now,
            actor=pairing.first_id,
            clock=clock,
            names=names,
            pairing=pairing,
            rated=rated,
        )

    def with_clock_started(self, table: Table, now: datetime) -> Table:
        """``table`` with the clock of the player to move started at ``now`` (their whole time
        for a move, or what they have banked), as its first board shows it: not stored yet, see
        :meth:`first_shown`. Nobody is pinged: the round's announcement calls the players."""
        clock = table.clock
        waiting = ClockState(None, table.clock_state.banks)
        levels = (table.row.level_a, table.row.level_b)
        columns = pings_and_clock(
            clock, waiting, table.game, table.row.players, levels, mover=None, actor=table.user_to_move, now=now
        )
        return Table(dataclasses.replace(table.row, **columns), table.game)

    async def first_shown(self, started: Table, message_id: int, now: datetime) -> Table | None:
        """Store that ``started`` (see :meth:`with_clock_started`) is shown in ``message_id``: the
        game's board and its clock start together, in a versioned write. ``None`` if the game
        changed since it was read (another process showed it first, or it ended): then nothing
        is written, and the caller takes its message back."""
        columns = {name: getattr(started.row, name) for name in CLOCK_COLUMNS}
        try:
            row, muted, _ = await self._store.games.save_game(started.row, now=now, message_id=message_id, **columns)
        except Conflict:
            return None
        self._tables.live.keep(row, muted)  # its first press needs no read
        return Table(row, started.game)

    async def rematch_of(self, game_id: int, user_id: int, channel_id: int) -> Table:
        """The finished game of channel ``channel_id`` (where Rematch was pressed, and where the
        new game is played) that ``user_id`` asks to play again (they must have played in it;
        another channel's game is not found: a forged button's, which would start a game there)."""
        row = await self._store.games.get_game(game_id)
        if row is None or row.channel_id != channel_id or row.status != "finished":
            raise Refusal(N_("Only a finished game can be played again."))
        table = Table.of(row)
        player = table.player(user_id)
        if player is None or table.level(player) is not None:
            raise Refusal(
                N_("Only the players of this game can ask for a rematch. Start your own with `/wari challenge`.")
            )
        return table
