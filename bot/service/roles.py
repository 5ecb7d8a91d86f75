"""Roles that call players, and rating-tier roles (issue 37): what a server chose, and when a call
may be made.

A server may name a role pinged when one of its tournaments opens for sign-up and when it starts,
and a role pinged when someone seeks a game; members give themselves those roles (``/wari
notify``). A call is claimed in the database before it is posted, so it is made once whatever
the processes and restarts: an event's two calls once each, a seek call at most once per
:data:`SEEK_CALL_COOLDOWN` in a server.

Rating-tier roles: bands of :data:`TIER_VARIANT`'s rating, ``tier_step`` points wide, each a role
the bot makes the first time a player of the server enters it (moderators may rename it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from datetime import datetime, timedelta

from bot.ratings import family
from bot.storage import RatingChange, Store
from bot.storage.settings import CALL_ROLES, ServerRoles

#: A server's seek role is pinged at most this often: a busy queue calls its players once, not
#: at each new search (a player who cancels and seeks again calls nobody a second time).
SEEK_CALL_COOLDOWN = timedelta(minutes=30)
#: The rating the tier roles follow: the rule set of a server's leaderboard by default.
TIER_VARIANT = "wari"
#: The kinds of call a server may give a role to (``/wari notify``'s choices).
CALL_KINDS = tuple(CALL_ROLES)
#: How many of a server's rated players are read at once to hand out the tier roles.
PAGE = 500


def band_of(points: int, step: int) -> int:
    """The lowest rating of the band of ``step`` points that holds ``points`` (1537, 200 → 1400)."""
    return points // step * step


def tier_ratings(changes: Iterable[RatingChange]) -> dict[int, int]:
    """The ratings a game's rating changes (:attr:`bot.service.Table.ratings`) left its players
    in :data:`TIER_VARIANT`, by player (none for a game of another rule set, or unrated)."""
    return {change.user_id: change.after.points for change in changes if family(change.variant) == TIER_VARIANT}


class RoleService:
    """A server's calling roles and tier roles, and the calls it made."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def server_roles(self, guild_id: int) -> ServerRoles:
        return await self._store.settings.server_roles(guild_id)

    async def set_call_role(self, guild_id: int, kind: str, role_id: int | None) -> None:
        """The role pinged for ``kind`` (one of :data:`CALL_KINDS`; ``None``: no calls)."""
        await self._store.settings.set_call_role(guild_id, kind, role_id)

    async def set_tier_step(self, guild_id: int, step: int | None) -> None:
        """Bands of ``step`` points (``None``: no tier roles)."""
        await self._store.settings.set_tier_step(guild_id, step)

    async def set_tier_role(self, guild_id: int, lowest: int, role_id: int) -> None:
        await self._store.settings.set_tier_role(guild_id, lowest, role_id)

    async def claim_seek_call(self, guild_id: int, now: datetime) -> bool:
        """Whether a seek may call the server's seek role now (noted if so)."""
        return await self._store.settings.claim_call(guild_id, "seek", now, again_after=SEEK_CALL_COOLDOWN)

    async def claim_event_call(self, guild_id: int, tournament_id: int, moment: str, now: datetime) -> bool:
        """Whether the event's call at ``moment`` (``open``, ``start``) is still to make (noted if so)."""
        what = f"tournament:{tournament_id}:{moment}"
        return await self._store.settings.claim_call(guild_id, what, now, again_after=None)

    async def forget_retired_role(self, guild_id: int, role_id: int) -> None:
        """A retired band's role was deleted from Discord (or was gone already)."""
        await self._store.settings.forget_retired_role(guild_id, role_id)

    async def retired_roles(self) -> dict[int, list[int]]:
        """Every server's retired bands' roles still to delete (after a restart)."""
        return await self._store.settings.retired_roles()

    async def count_tier_players(self, guild_id: int) -> int:
        """How many players of the server are rated in :data:`TIER_VARIANT`."""
        return await self._store.settings.count_server_players(guild_id, TIER_VARIANT)

    async def tier_players(self, guild_id: int) -> AsyncIterator[int]:
        """The players of the server rated in :data:`TIER_VARIANT`, by user id, read :data:`PAGE`
        at a time as the hand-out goes (no leaderboard to sort, no names to look up)."""
        after = 0
        while True:
            page = await self._store.settings.server_players(guild_id, TIER_VARIANT, after=after, limit=PAGE)
            for user_id in page:
                yield user_id
            if len(page) < PAGE:
                return
            after = page[-1]

    async def tier_points(self, user_id: int) -> int:
        """A player's rating in :data:`TIER_VARIANT` now."""
        return (await self._store.ratings.rating_in(user_id, TIER_VARIANT)).points
