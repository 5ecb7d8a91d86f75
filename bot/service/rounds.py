"""How an event moves on, step by step: its start (round 1, or the arena's first wave), the results
of its games that ended, its next round once every game of one has ended (a Swiss is paired by
the FIDE Dutch system, a round-robin follows Berger tables, an arena pairs players as soon as they
are free), and its end. Each is a guarded write (:mod:`bot.storage.tournaments`), so a second try
(a retry, another process) does nothing twice. :meth:`bot.service.TournamentService.advance`
decides which is due. A moderator may also set a game's result by hand, or have the engine
adjudicate a game cut short (:meth:`Rounds.rule`, :func:`adjudicate`).

A game's result counts for the pairing once (:meth:`bot.storage.Store.record_result`): a win for
the first mover is 1, a draw 0.5, a loss 0; a game a moderator aborted is scored as a draw. A bye
is worth a win (:data:`bot.tournament.BYE_POINTS`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from bot.ai.expert import ExpertPlayer
from bot.engine import Game, Player
from bot.i18n import N_
from bot.storage import GameRow, PairingRow, Store
from bot.tournament import (
    BYE_POINTS,
    MIN_TEAMS,
    Pairing,
    PairingError,
    arena_pairs,
    pair_swiss,
    round_robin_rounds,
)

from .event import Advance, Event
from .table import Refusal

#: A Swiss without ``rounds`` plays this many.
DEFAULT_ROUNDS = 5
#: An event that has fewer players than this at its start is called off.
MIN_PLAYERS = 2
#: How long the engine thinks to adjudicate a game a moderator cut short, and the lead (in its
#: units, about 4 a seed) it takes to call it a win rather than a draw.
ADJUDICATION_SECONDS = 0.5
ADJUDICATION_MARGIN = 8.0

log = logging.getLogger(__name__)


def game_points(game: GameRow) -> float:
    """The first mover's (side A's) points from a game that ended: a moderator's abort is a draw."""
    return {"A": 1.0, "B": 0.0}.get(game.result or "", 0.5)


def adjudicate(game: Game) -> float:
    """Side A's points in a game cut short, as the expert judges the position (exact where the
    search proves it): a lead of :data:`ADJUDICATION_MARGIN` wins, less is a draw."""
    if game.outcome is not None or game.to_move is None:
        winner = game.outcome.winner if game.outcome is not None else None
        return 0.5 if winner is None else (1.0 if winner is Player.A else 0.0)
    score = ExpertPlayer(seed=0).choose(game, ADJUDICATION_SECONDS).score
    for_a = score if game.to_move is Player.A else -score
    return 1.0 if for_a >= ADJUDICATION_MARGIN else 0.0 if for_a <= -ADJUDICATION_MARGIN else 0.5


def too_few(event: Event) -> bool:
    """Whether the event is called off at its start: fewer than :data:`MIN_PLAYERS` players, or a
    battle with players of fewer than two teams (nobody could meet anyone: teammates never meet)."""
    return len(event.active) < MIN_PLAYERS or (event.battle and event.teams_playing < MIN_TEAMS)


class Rounds:
    """The steps of an event (see the module's documentation); each fills in the step it is given."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def begin(self, event: Event, now: datetime, step: Advance) -> None:
        if too_few(event):
            if await self._store.tournaments.update_tournament(
                event.row.id, {"status": "cancelled", "finished_at": now}, expect=("open",)
            ):
                step.called_off = True
            return
        if event.row.format == "arena":
            ends_at = now + timedelta(minutes=event.row.duration or 0)
            await self._arena_wave(event, now, step, ends_at=ends_at)
            return
        if event.row.format == "round-robin":
            schedule = round_robin_rounds(event.model_entrants, double=event.row.cycles == 2)
            pairs = schedule[0]
            step.new_round = await self._store.tournaments.start_round(
                event.row.id, after=0, pairings=self._rows_of(pairs), now=now, rounds=len(schedule)
            )
            return
        await self.next_round(event, now, step)

    async def next_round(self, event: Event, now: datetime, step: Advance) -> None:
        row = event.row
        if row.round >= (row.rounds or 0):
            await self.finish(event, now, step)
            return
        number = row.round + 1
        if row.format == "round-robin":
            pairs = round_robin_rounds(event.model_entrants, double=row.cycles == 2)[number - 1]
            pairs = [p for p in pairs if not self._withdrawn(event, p, number)]
        else:
            try:  # the library's Dutch engine is pure Python: a second or more for a big event
                pairs = await asyncio.to_thread(
                    pair_swiss, event.model_entrants, event.model_pairings, number, row.rounds or DEFAULT_ROUNDS
                )
            except PairingError:  # no pairing keeps the rules (few players, many rounds): it ends here
                log.info(
                    "tournament %s ends after round %s: round %s cannot be paired (no pairing keeps the rules)",
                    row.id,
                    row.round,
                    number,
                )
                await self.finish(event, now, step)
                return
        step.new_round = await self._store.tournaments.start_round(
            row.id, after=row.round, pairings=self._rows_of(pairs), now=now
        )

    @staticmethod
    def _withdrawn(event: Event, pairing: Pairing, number: int) -> bool:
        """A round-robin pairing with a player who has left: not played (their opponent rests)."""
        gone = {e.user_id for e in event.entrants if e.withdrawn_after is not None and e.withdrawn_after < number}
        return pairing.first in gone or pairing.second in gone

    @staticmethod
    def _rows_of(pairs: list[Pairing]) -> list[tuple[int, int | None, float | None]]:
        """Pairings as stored: a bye is scored at once."""
        return [(p.first, p.second, BYE_POINTS if p.second is None else None) for p in pairs]

    async def arena_step(self, event: Event, now: datetime, step: Advance) -> None:
        assert event.row.ends_at is not None  # set at the start
        if now < event.row.ends_at:
            await self._arena_wave(event, now, step)
        elif not event.open_pairings:
            await self.finish(event, now, step)

    async def _arena_wave(self, event: Event, now: datetime, step: Advance, ends_at: datetime | None = None) -> None:
        """Pair the arena's free players (none playing now), in the order they became free."""
        busy = {user for p in event.open_pairings for user in (p.first_id, p.second_id)}
        finished_at: dict[int, datetime] = {}
        last_opponent: dict[int, int | None] = {}
        first_moves: dict[int, int] = {}
        for p in event.pairings:
            if p.second_id is None:
                continue
            first_moves[p.first_id] = first_moves.get(p.first_id, 0) + 1
            for me, them in ((p.first_id, p.second_id), (p.second_id, p.first_id)):
                last_opponent[me] = them
                finished_at[me] = p.finished_at or p.created_at
        free = [e for e in event.active if e.user_id not in busy]
        free.sort(key=lambda e: (finished_at.get(e.user_id, e.joined_at), e.user_id))
        ratings = {e.user_id: e.rating for e in event.entrants}
        waiting = [e.user_id for e in free]
        teams = event.team_of  # a team battle's teammates never meet
        pairs = arena_pairs(waiting, last_opponent, ratings, first_moves, teams=teams)
        if not pairs and not busy:  # only two who just met, and nobody else playing: they meet again
            pairs = arena_pairs(waiting, last_opponent, ratings, first_moves, allow_repeat=True, teams=teams)
        if not pairs and ends_at is None:
            return
        columns = {"ends_at": ends_at} if ends_at is not None else {}
        step.new_round = await self._store.tournaments.start_round(
            event.row.id, after=event.row.round, pairings=[(a, b, None) for a, b in pairs], now=now, **columns
        )

    async def collect_results(self, event: Event, now: datetime) -> list[PairingRow]:
        """Copy the result of every game of the event that ended into its pairing (once)."""
        recorded = []
        for pairing in event.open_pairings:
            if pairing.game_id is None:
                continue
            game = await self._store.games.get_game(pairing.game_id)
            if game is None or game.live:
                continue
            if await self._store.tournaments.record_result(
                pairing, game_points(game), now, forfeit=game.status == "aborted"
            ):
                recorded.append(pairing)
        return recorded

    async def finish(self, event: Event, now: datetime, step: Advance) -> None:
        step.finished = await self._store.tournaments.update_tournament(
            event.row.id, {"status": "finished", "finished_at": now}, expect=("running",)
        )

    # -- results by hand ------------------------------------------------------------------------

    async def rule(self, event: Event, *, user_id: int, result: float, reason: str, now: datetime) -> PairingRow:
        """A moderator sets the result of ``user_id``'s current (or else last) game: ``result``
        is that player's points."""
        pairing = event.current_pairing(user_id) or next(
            (p for p in reversed(event.pairings) if p.has(user_id) and not p.bye), None
        )
        if pairing is None:
            raise Refusal(N_("This player has no game in this tournament."))
        first_points = result if pairing.first_id == user_id else 1.0 - result
        await self.rule_pairing(pairing, first_points, reason, now)
        return pairing

    async def rule_pairing(self, pairing: PairingRow, first_points: float, reason: str, now: datetime) -> None:
        """Set a pairing's result by hand (the first mover's points), the reason kept."""
        await self._store.tournaments.rule_result(pairing, first_points, reason, now)

    async def adjudication(self, game: Game) -> float:
        return await asyncio.to_thread(adjudicate, game)
