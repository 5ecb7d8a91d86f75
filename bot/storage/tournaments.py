"""Tournaments: the events, their players and their pairings.

The database is the truth of an event, and every step of it is a guarded write, so that a
restart or a second process at any moment neither repeats nor loses one:

- a round's pairings are written in the transaction that moves the event's ``round`` from the
  one before (:meth:`TournamentQueries.start_round`): a round starts once;
- a pairing's game is linked where none is (:meth:`~TournamentQueries.create_tournament_game`), and a
  game's result is copied to its pairing where none is yet (:meth:`~TournamentQueries.record_result`):
  a result counts once;
- joining and leaving run under the event's lock, so the last free place goes to one player;
- a team battle's teams are written with the event, in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .backend import Conflict, Row
from .database import Database, Queries, time_text
from .games import GameQueries
from .rows import GameRow, row_as, shown_name, to_column

#: How long a finished event whose podium Discord refused is tried again, a sweep at a time.
PODIUM_RETRIES = timedelta(days=1)


def lock_key(tournament_id: int) -> int:
    """The lock of one event: negative, so that it never meets a channel's or a player's."""
    return -tournament_id


@dataclass(frozen=True)
class TournamentRow:
    """An event: its settings, its state, and the messages that show it."""

    id: int
    guild_id: int
    #: Where it was made: its messages are posted there, its games run in threads of it.
    channel_id: int
    name: str
    #: ``swiss``, ``round-robin`` or ``arena``.
    format: str
    variant: str
    clock: str
    #: Swiss: how many rounds (round-robin: set at the start; arena: none).
    rounds: int | None
    max_players: int | None
    rated: int
    #: Round-robin: 1, or 2 for a double round-robin.
    cycles: int
    #: Arena: its length in minutes.
    duration: int | None
    starts_at: datetime
    #: Arena: when no new game is paired any more (set at the start).
    ends_at: datetime | None
    #: ``open`` (taking players), ``running``, ``paused``, ``finished`` or ``cancelled``.
    status: str
    #: The round under way (0 before the start; an arena counts its waves of pairings).
    round: int
    #: The last round whose pairings were posted.
    announced: int
    #: The sign-up message (Join/Leave), the standings kept current, the podium once it ended.
    message_id: int | None
    standings_message_id: int | None
    podium_message_id: int | None
    created_by: int
    created_at: datetime
    finished_at: datetime | None
    #: The thread of the channel where all its games are played (opened at its first round).
    thread_id: int | None = None
    #: A recurring event's schedule and this edition's number in it (``None``: a one-off).
    schedule_id: int | None = None
    edition: int | None = None
    #: The server's Discord scheduled event that shows it, and the status last given to it
    #: (:data:`DISCORD_STATUSES`; ``refused``: Discord would not make it).
    discord_event_id: int | None = None
    discord_event_status: str | None = None
    #: A team battle's count of each team's best players that score (``None``: not a battle).
    leaders: int | None = None

    @classmethod
    def from_row(cls, row: Row) -> TournamentRow:
        return row_as(cls, row)

    @property
    def over(self) -> bool:
        return self.status in ("finished", "cancelled")


@dataclass(frozen=True)
class EntrantRow:
    """A player of an event, with their rating in its rule set when they joined."""

    tournament_id: int
    user_id: int
    name: str | None
    rating: float
    #: The first round they may be paired in (a late joiner's is the next one).
    joined_round: int
    #: They left (or were removed) after this round: not paired again (``None``: still in).
    withdrawn_after: int | None
    joined_at: datetime
    #: In a team battle, the number of the team they play for (fixed when they joined).
    team: int | None = None

    @classmethod
    def from_row(cls, row: Row) -> EntrantRow:
        return row_as(cls, row)

    @property
    def shown(self) -> str:
        return shown_name(self.user_id, self.name)


@dataclass(frozen=True)
class TeamRow:
    """A team of a battle: its number there, the server's role that makes a member one of it, and
    the role's name when the battle was made (shown even if the role is deleted)."""

    tournament_id: int
    team: int
    role_id: int
    name: str

    @classmethod
    def from_row(cls, row: Row) -> TeamRow:
        return row_as(cls, row)


@dataclass(frozen=True)
class PairingRow:
    """One board of one round: who moves first, against whom (``None``: a bye), its game, its result."""

    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int | None
    game_id: int | None
    #: The first mover's points (1, 0.5, 0); ``None`` until known.
    result: float | None
    #: The result was set without a game played to its end (a removal, a moderator's ruling).
    forfeit: int
    #: Why a moderator set the result by hand.
    reason: str | None
    created_at: datetime
    finished_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> PairingRow:
        return row_as(cls, row)

    @property
    def bye(self) -> bool:
        return self.second_id is None

    def has(self, user_id: int) -> bool:
        return user_id in (self.first_id, self.second_id)


class TournamentQueries(Queries):
    """Events: creating, joining, rounds, results, and the games of their pairings (started by
    ``games`` in the transaction that links them)."""

    def __init__(self, database: Database, games: GameQueries) -> None:
        super().__init__(database)
        self._games = games

    async def create_tournament(
        self, *, now: datetime, teams: Sequence[tuple[int, str]] = (), **columns: Any
    ) -> TournamentRow:
        """A new event; a team battle's ``teams`` (role id, name; numbered in this order) with it."""
        columns = {"created_at": now, **columns}
        names, marks = ", ".join(columns), ", ".join("?" for _ in columns)
        async with self._db.writing():
            (row,) = await self._db.rows(
                f"INSERT INTO tournaments ({names}) VALUES ({marks}) RETURNING *",
                tuple(to_column(value) for value in columns.values()),
            )
            for number, (role_id, name) in enumerate(teams, start=1):
                await self._db.step(
                    "INSERT INTO tournament_teams (tournament_id, team, role_id, name) VALUES (?, ?, ?, ?)",
                    (row["id"], number, role_id, name),
                )
        return TournamentRow.from_row(row)

    async def teams(self, tournament_id: int) -> list[TeamRow]:
        """A team battle's teams, in their order (none for another event)."""
        rows = await self._db.read(
            "SELECT * FROM tournament_teams WHERE tournament_id = ? ORDER BY team", (tournament_id,)
        )
        return [TeamRow.from_row(row) for row in rows]

    async def keep_teams(self, tournament_id: int, teams: Sequence[TeamRow]) -> None:
        """A battle still to start keeps only ``teams``, under the names given (its roles' now).
        A team dropped is deleted only while the battle is open and nobody plays for it (a player
        who joined for it meanwhile keeps it)."""
        kept = [team.team for team in teams]
        not_kept = f"AND team NOT IN ({', '.join('?' for _ in kept)}) " if kept else ""
        async with self._db.writing():
            await self._db.step(
                f"DELETE FROM tournament_teams WHERE tournament_id = ? {not_kept}"
                "AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = tournament_teams.tournament_id "
                "AND t.status = 'open') "
                "AND NOT EXISTS (SELECT 1 FROM tournament_players p "
                "WHERE p.tournament_id = tournament_teams.tournament_id AND p.team = tournament_teams.team)",
                (tournament_id, *kept),
            )
            for team in teams:
                await self._db.step(
                    "UPDATE tournament_teams SET name = ? WHERE tournament_id = ? AND team = ?",
                    (team.name, tournament_id, team.team),
                )

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return await self._db.one(TournamentRow, "SELECT * FROM tournaments WHERE id = ?", (tournament_id,))

    async def tournaments_of(self, guild_id: int, *, over: bool, limit: int = 25) -> list[TournamentRow]:
        """A server's events, newest first: the finished and cancelled ones, or the others."""
        condition = "IN ('finished', 'cancelled')" if over else "NOT IN ('finished', 'cancelled')"
        rows = await self._db.read(
            f"SELECT * FROM tournaments WHERE guild_id = ? AND status {condition} ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [TournamentRow.from_row(row) for row in rows]

    async def tournaments_to_run(self, now: datetime) -> list[TournamentRow]:
        """The events (on this process's shards) that may have a step due: running ones, open
        ones whose start has come, and finished ones whose podium is not posted yet (Discord
        refused it: it is tried again, for a day)."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            "SELECT * FROM tournaments WHERE (status = 'running' OR (status = 'open' AND starts_at <= ?)"
            f" OR (status = 'finished' AND podium_message_id IS NULL AND finished_at > ?)){mine} ORDER BY id",
            (time_text(now), time_text(now - PODIUM_RETRIES), *params),
        )
        return [TournamentRow.from_row(row) for row in rows]

    async def update_tournament(
        self, tournament_id: int, columns: Mapping[str, object], *, expect: tuple[str, ...] = ()
    ) -> bool:
        """Change an event's columns; with ``expect``, only if its status is one of them."""
        sets = ", ".join(f"{name} = ?" for name in columns)
        condition = f" AND status IN ({', '.join('?' for _ in expect)})" if expect else ""
        params = (*map(to_column, columns.values()), tournament_id, *expect)
        async with self._db.writing():
            rows = await self._db.rows(f"UPDATE tournaments SET {sets} WHERE id = ?{condition} RETURNING id", params)
        return bool(rows)

    # -- players --------------------------------------------------------------------------

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self._db.read(
            "SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY rating DESC, user_id", (tournament_id,)
        )
        return [EntrantRow.from_row(row) for row in rows]

    async def join_tournament(
        self, tournament_id: int, *, user_id: int, name: str, rating: float, now: datetime, team: int | None = None
    ) -> EntrantRow:
        """Add a player (a late joiner plays from the next round), in a team battle for ``team``.

        :raises Conflict: ``"joined"`` (they are in already), ``"full"``, or ``"closed"`` (the
            event is over, or its format takes no late joiner now).
        """
        async with self._db.writing():
            await self._db.lock(lock_key(tournament_id))
            (event,) = map(
                TournamentRow.from_row, await self._db.rows("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
            )
            mine = await self._db.rows(
                "SELECT * FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
            )
            if mine and EntrantRow.from_row(mine[0]).withdrawn_after is None:
                raise Conflict("joined")
            if not late_joining_allowed(event):
                raise Conflict("closed")
            (count,) = await self._db.rows(
                "SELECT COUNT(*) AS n FROM tournament_players WHERE tournament_id = ? AND withdrawn_after IS NULL",
                (tournament_id,),
            )
            if event.max_players is not None and count["n"] >= event.max_players:
                raise Conflict("full")
            if mine:
                await self._db.step(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
                )
            (row,) = await self._db.rows(
                "INSERT INTO tournament_players (tournament_id, user_id, name, rating, joined_round, joined_at, team) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (tournament_id, user_id, name, rating, event.round + 1, time_text(now), team),
            )
        return EntrantRow.from_row(row)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> EntrantRow:
        """Take a player out: before the start they are simply gone; after it they withdraw
        after the round under way (their results stay).

        :raises Conflict: ``"absent"`` (not a player of it, or gone already), ``"closed"`` (it is over).
        """
        async with self._db.writing():
            await self._db.lock(lock_key(tournament_id))
            (event,) = map(
                TournamentRow.from_row, await self._db.rows("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
            )
            if event.over:
                raise Conflict("closed")
            if event.status == "open":
                rows = await self._db.rows(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ? RETURNING *",
                    (tournament_id, user_id),
                )
            else:
                rows = await self._db.rows(
                    "UPDATE tournament_players SET withdrawn_after = ? "
                    "WHERE tournament_id = ? AND user_id = ? AND withdrawn_after IS NULL RETURNING *",
                    (event.round, tournament_id, user_id),
                )
            if not rows:
                raise Conflict("absent")
        return EntrantRow.from_row(rows[0])

    # -- rounds and results -------------------------------------------------------------------

    async def pairings(self, tournament_id: int) -> list[PairingRow]:
        rows = await self._db.read(
            "SELECT * FROM tournament_pairings WHERE tournament_id = ? ORDER BY round, board", (tournament_id,)
        )
        return [PairingRow.from_row(row) for row in rows]

    async def start_round(
        self,
        tournament_id: int,
        *,
        after: int,
        pairings: list[tuple[int, int | None, float | None]],
        now: datetime,
        **columns: Any,
    ) -> bool:
        """Round ``after + 1`` with these pairings (first, second or ``None`` for a bye, result
        already known or ``None``), and ``columns`` of the event changed with it, if the event is
        still at round ``after`` and running or about to: ``False`` if another process (or an
        earlier try) started it."""
        number = after + 1
        sets = "".join(f", {name} = ?" for name in columns)
        async with self._db.writing():
            moved = await self._db.rows(
                f"UPDATE tournaments SET round = ?, status = 'running'{sets} "
                "WHERE id = ? AND round = ? AND status IN ('open', 'running') RETURNING id",
                (number, *map(to_column, columns.values()), tournament_id, after),
            )
            if not moved:
                return False
            for board, (first, second, result) in enumerate(pairings, start=1):
                finished = time_text(now) if result is not None else None
                await self._db.step(
                    "INSERT INTO tournament_pairings (tournament_id, round, board, first_id, second_id, result, "
                    "created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, number, board, first, second, result, time_text(now), finished),
                )
        return True

    async def create_tournament_game(self, pairing: PairingRow, *, now: datetime, **columns: Any) -> GameRow:
        """Start the live game of ``pairing`` (``columns`` as :meth:`GameQueries.create_game`'s) and link it,
        in one transaction.

        :raises Conflict: the pairing has its game already, or the channel is busy.
        """
        columns = {"created_at": now, "updated_at": now, "tournament_id": pairing.tournament_id, **columns}
        async with self._db.writing():
            await self._db.lock(columns["channel_id"])
            game = await self._games.insert_game(columns)
            linked = await self._db.rows(
                "UPDATE tournament_pairings SET game_id = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND game_id IS NULL RETURNING board",
                (game.id, pairing.tournament_id, pairing.round, pairing.board),
            )
            if not linked:
                raise Conflict("the pairing has its game already")
        return game

    async def event_in_thread(self, channel_id: int) -> TournamentRow | None:
        """The event whose games are played in thread ``channel_id``, if it is one's."""
        return await self._db.one(TournamentRow, "SELECT * FROM tournaments WHERE thread_id = ?", (channel_id,))

    async def pairing_of_game(self, game_id: int) -> PairingRow | None:
        return await self._db.one(PairingRow, "SELECT * FROM tournament_pairings WHERE game_id = ?", (game_id,))

    async def unseen_games(self, tournament_id: int) -> list[GameRow]:
        """The live games of the event's open pairings that no board shows with its clock running:
        none was posted (the process died, or Discord refused, between the game's start and its
        board), or its clock never started."""
        rows = await self._db.read(
            "SELECT games.* FROM tournament_pairings JOIN games ON games.id = tournament_pairings.game_id "
            "WHERE tournament_pairings.tournament_id = ? AND tournament_pairings.result IS NULL "
            "AND games.status = 'live' AND (games.message_id IS NULL OR games.deadline IS NULL) ORDER BY games.id",
            (tournament_id,),
        )
        return [GameRow.from_row(row) for row in rows]

    async def record_result(
        self, pairing: PairingRow, result: float, now: datetime, *, forfeit: bool = False, reason: str | None = None
    ) -> bool:
        """Write a pairing's result once; ``False`` if it had one already."""
        async with self._db.writing():
            rows = await self._db.rows(
                "UPDATE tournament_pairings SET result = ?, forfeit = ?, reason = ?, finished_at = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND result IS NULL RETURNING board",
                (result, int(forfeit), reason, time_text(now), pairing.tournament_id, pairing.round, pairing.board),
            )
        return bool(rows)

    async def rule_result(self, pairing: PairingRow, result: float, reason: str, now: datetime) -> None:
        """A moderator's ruling: the pairing's result, whatever it was, with the reason kept."""
        forfeit = int(pairing.game_id is None or pairing.result is None)
        await self._db.write(
            (
                "UPDATE tournament_pairings SET result = ?, forfeit = ?, reason = ?, finished_at = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ?",
                (result, forfeit, reason, time_text(now), pairing.tournament_id, pairing.round, pairing.board),
            )
        )

    async def finished_entered(
        self, user_id: int, *, limit: int = 100, within: tuple[int, datetime, datetime] | None = None
    ) -> list[tuple[TournamentRow, list[EntrantRow], list[PairingRow]]]:
        """The finished events a player entered, their latest ``limit`` (``within``: a server's
        that finished between two times), each with the players and pairings its final standings
        are computed from: three reads, however many events there are."""
        where = ""
        params: tuple[object, ...] = ()
        if within is not None:
            where = " AND t.guild_id = ? AND t.finished_at >= ? AND t.finished_at < ?"
            params = (within[0], time_text(within[1]), time_text(within[2]))
        rows = await self._db.read(
            "SELECT t.* FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id "
            f"WHERE p.user_id = ? AND t.status = 'finished'{where} ORDER BY t.id DESC LIMIT ?",
            (user_id, *params, limit),
        )
        ids = [row["id"] for row in rows]
        entrants: dict[int, list[EntrantRow]] = {number: [] for number in ids}
        pairings: dict[int, list[PairingRow]] = {number: [] for number in ids}
        if ids:
            marks = ", ".join("?" for _ in ids)
            for row in await self._db.read(
                f"SELECT * FROM tournament_players WHERE tournament_id IN ({marks}) ORDER BY rating DESC, user_id", ids
            ):
                entrants[row["tournament_id"]].append(EntrantRow.from_row(row))
            for row in await self._db.read(
                f"SELECT * FROM tournament_pairings WHERE tournament_id IN ({marks}) ORDER BY round, board", ids
            ):
                pairings[row["tournament_id"]].append(PairingRow.from_row(row))
        return [(TournamentRow.from_row(row), entrants[row["id"]], pairings[row["id"]]) for row in rows]


def late_joining_allowed(event: TournamentRow) -> bool:
    """Open events take players; a running Swiss until its second round starts (a late joiner
    plays from the next round); a running arena while it lasts; a round-robin never once started."""
    if event.status == "open":
        return True
    if event.status not in ("running", "paused"):
        return False
    if event.format == "swiss":
        return event.round < 2
    return event.format == "arena"
