"""Challenges: made (to a member, or open to anyone in the channel), accepted, declined,
withdrawn and expired. The other ways a game starts are in :mod:`.starts`."""

from __future__ import annotations

from datetime import datetime

from bot.clock import DEFAULT_CLOCK
from bot.engine import Game, Player, Rules
from bot.engine.notation import parse_rules_code, record, rules_code, snapshot
from bot.i18n import N_
from bot.ratings import Rating, family
from bot.storage import SERVER, ChallengeRow, Conflict

from .base import Tables
from .table import CHALLENGE_CLOSED, Closed, Refusal, Table, channel_busy
from .turns import check_first, opening, parse_clock


class ChallengeService:
    """Challenges and their answers."""

    def __init__(self, tables: Tables) -> None:
        #: The channels' locks and games, shared with the other parts of the game service.
        self._tables = tables
        self._store = tables.store

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        rules: Rules,
        first: str,
        now: datetime,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
        rematch_of: int | None = None,
        names: tuple[str | None, str | None] = (None, None),
        rating_range: tuple[int | None, int | None] = (None, None),
        rated: bool = True,
        venue: str = SERVER,
    ) -> ChallengeRow:
        """Open a challenge; ``names`` are the challenger's and the opponent's, as the server shows them;
        ``venue``: where it is played (:data:`bot.storage.SERVER`...).
        An ``opponent_id`` of :data:`bot.storage.ANYONE` is an open challenge, which anyone in the
        channel whose rating in its rule set lies in ``rating_range`` may accept."""
        self.check_challenge(challenger_id, opponent_id, first, clock)
        async with self._tables.lock(channel_id):
            await self._tables.check_not_event_thread(channel_id)
            if running := await self._store.games.live_game(channel_id):
                raise channel_busy(running)
            if await self._tables.open_challenge_in(channel_id, now):
                raise Refusal(N_("This channel already has an open challenge. Wait until it is answered or expires."))
            try:
                return await self._store.games.add_challenge(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=challenger_id,
                    opponent_id=opponent_id,
                    variant=rules_code(rules),
                    first=first,
                    created_at=now,
                    expires_at=now + self._tables.challenge_timeout,
                    clock=clock,
                    thread=thread,
                    rematch_of=rematch_of,
                    challenger_name=names[0],
                    opponent_name=names[1],
                    min_rating=rating_range[0],
                    max_rating=rating_range[1],
                    rated=rated,
                    venue=venue,
                )
            except Conflict:
                raise Refusal(N_("This channel got busy just now. Try again when it is free.")) from None

    @staticmethod
    def check_challenge(challenger_id: int, opponent_id: int, first: str, clock: str) -> None:
        """Refuse a challenge that can never be made, whatever the channel holds."""
        check_first(first)
        parse_clock(clock)  # a stored clock code is always one the bot knows
        if challenger_id == opponent_id:
            raise Refusal(N_("You can't challenge yourself. Pick another member of this server."))

    async def set_challenge_message(self, challenge: ChallengeRow, message_id: int) -> None:
        await self._store.games.set_challenge_message(challenge.id, message_id)

    async def drop_unposted(self, challenge: ChallengeRow) -> None:
        """Remove a challenge whose message Discord refused to post: nobody could answer it."""
        async with self._tables.lock(challenge.channel_id):
            await self._store.games.delete_challenge(challenge.id)

    async def _open_challenge(self, challenge_id: int, channel_id: int, now: datetime) -> ChallengeRow:
        challenge = await self._store.games.get_challenge(challenge_id)
        if challenge is None or challenge.channel_id != channel_id or challenge.expires_at <= now:
            raise Closed(CHALLENGE_CLOSED)
        return challenge

    async def accept(
        self, challenge_id: int, user_id: int, channel_id: int, now: datetime, user_name: str | None = None
    ) -> Table:
        """The challenged member accepts: the game starts, its first player settled. ``user_name``:
        their name as the server shows it now."""
        async with self._tables.lock(channel_id):
            challenge = await self._open_challenge(challenge_id, channel_id, now)
            if challenge.open:
                await self._check_open_to(challenge, user_id)
            elif user_id != challenge.opponent_id:
                raise self._not_yours(challenge, user_id)
            (a, name_a), (b, name_b) = (
                (challenge.challenger_id, challenge.challenger_name),
                (user_id, user_name or challenge.opponent_name),  # the challenged member, or anyone's taker
            )
            first = challenge.first if challenge.first != "random" else self._tables.rng.choice(("me", "opponent"))
            if first == "opponent":
                (a, name_a), (b, name_b) = (b, name_b), (a, name_a)  # A always moves first: the starting member is A
            game = Game(parse_rules_code(challenge.variant), Player.A)
            start = opening(parse_clock(challenge.clock), game, (a, b), (None, None), user_id, now)
            try:
                row = await self._store.games.start_game(
                    challenge,
                    player_a=a,
                    player_b=b,
                    name_a=name_a,
                    name_b=name_b,
                    record=record(game, str(a), str(b)),
                    position=snapshot(game),
                    now=now,
                    **start,
                )
            except Conflict:
                raise Closed(CHALLENGE_CLOSED) from None
            return Table.of(row)

    async def decline(self, challenge_id: int, user_id: int, channel_id: int, now: datetime) -> ChallengeRow:
        return await self._close_challenge(challenge_id, user_id, channel_id, now, by="opponent")

    async def withdraw(self, challenge_id: int, user_id: int, channel_id: int, now: datetime) -> ChallengeRow:
        return await self._close_challenge(challenge_id, user_id, channel_id, now, by="challenger")

    async def _close_challenge(
        self, challenge_id: int, user_id: int, channel_id: int, now: datetime, by: str
    ) -> ChallengeRow:
        async with self._tables.lock(channel_id):
            challenge = await self._open_challenge(challenge_id, channel_id, now)
            if user_id != getattr(challenge, f"{by}_id"):
                raise self._not_yours(challenge, user_id)
            if not await self._store.games.delete_challenge(challenge.id):
                raise Closed(CHALLENGE_CLOSED)
            return challenge

    async def rating_of(self, user_id: int, variant: str) -> Rating:
        """``user_id``'s rating in the rule set of ``variant`` (a new player's if not rated yet)."""
        return await self._store.ratings.rating_in(user_id, variant)

    async def _check_open_to(self, challenge: ChallengeRow, user_id: int) -> None:
        """An open challenge is anyone's but the challenger's, within its rating range."""
        if user_id == challenge.challenger_id:
            raise Refusal(N_("This is your own open challenge: wait for someone to accept it, or withdraw it."))
        low, high = challenge.min_rating, challenge.max_rating
        if low is None and high is None:
            return
        rating = await self.rating_of(user_id, challenge.variant)
        if (low is not None and rating.points < low) or (high is not None and rating.points > high):
            raise Refusal(
                N_("This challenge is for players rated {low}–{high} in {variant}; your rating is {rating}."),
                low=low if low is not None else "…",
                high=high if high is not None else "…",
                variant=family(challenge.variant),
                rating=rating.points,
            )

    @staticmethod
    def _not_yours(challenge: ChallengeRow, user_id: int) -> Refusal:
        challenger, opponent = challenge.names
        if challenge.open:
            return Refusal(N_("Only the challenger can withdraw an open challenge. You can accept it."))
        if user_id == challenge.challenger_id:
            return Refusal(N_("Only {name} can accept or decline. You can withdraw your challenge."), name=opponent)
        if user_id == challenge.opponent_id:
            return Refusal(N_("Only the challenger can withdraw. You can accept or decline."))
        return Refusal(
            N_("This challenge is between {challenger} and {opponent}."), challenger=challenger, opponent=opponent
        )

    async def expire_due(self, now: datetime) -> list[ChallengeRow]:
        """Remove every challenge past its time and return them (to update their messages)."""
        expired = []
        for challenge in await self._store.games.due_challenges(now):
            async with self._tables.lock(challenge.channel_id):
                if await self._store.games.delete_challenge(challenge.id):
                    expired.append(challenge)
        return expired
