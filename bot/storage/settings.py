"""What players and servers choose for themselves: turn pings, language, how boards are drawn,
the roles that call players and the rating-tier roles (with the calls made)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .database import Queries, time_text

#: How a server's boards are drawn: a text drawing in the embed, or a picture attached to it.
BOARD_STYLES = ("text", "image")


#: The roles a server may have the bot ping, by the kind of call.
CALL_ROLES = {"tournaments": "tournament_role", "seeks": "seek_role"}


@dataclass(frozen=True)
class ServerRoles:
    """A server's roles that call players (``None``: none) and the width of its rating bands
    (``None``: no tier roles), with each band's role by the lowest rating in it, and the roles of
    bands retired (another width, or the tiers stopped) that the bot is still to delete."""

    tournaments: int | None = None
    seeks: int | None = None
    tier_step: int | None = None
    tiers: dict[int, int] = field(default_factory=dict)
    retired: tuple[int, ...] = ()


def retired_band(role_id: int) -> int:
    """The ``lowest`` of a retired band's row in ``tier_roles``: minus its role's id. No rating is
    below zero, so a negative ``lowest`` marks a role to delete (and the id keeps the key unique)
    without a column of its own; the row goes once Discord has deleted the role."""
    return -role_id


class SettingsQueries(Queries):
    """Each player's settings (``user_settings``) and each server's (``guild_settings``)."""

    async def pings_enabled(self, user_id: int) -> bool:
        rows = await self._db.read("SELECT pings FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(rows[0]["pings"]) if rows else True

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self._set("user_settings", "user_id", user_id, "pings", int(enabled))

    async def user_language(self, user_id: int) -> str | None:
        """The language a player chose for what only they read (``None``: their Discord's)."""
        rows = await self._db.read("SELECT language FROM user_settings WHERE user_id = ?", (user_id,))
        return rows[0]["language"] if rows else None

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        await self._set("user_settings", "user_id", user_id, "language", language)

    async def server_settings(self, guild_id: int) -> tuple[str | None, str]:
        """A server's language for its public messages (``None``: its Discord locale) and board style."""
        rows = await self._db.read("SELECT language, board FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return (rows[0]["language"], rows[0]["board"]) if rows else (None, "text")

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        await self._set("guild_settings", "guild_id", guild_id, "language", language)

    async def set_board_style(self, guild_id: int, style: str) -> None:
        if style not in BOARD_STYLES:
            raise ValueError(f"board style must be one of {BOARD_STYLES}, not {style!r}")
        await self._set("guild_settings", "guild_id", guild_id, "board", style)

    async def server_roles(self, guild_id: int) -> ServerRoles:
        rows = await self._db.read(
            "SELECT tournament_role, seek_role, tier_step FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        tiers = await self._db.read("SELECT lowest, role_id FROM tier_roles WHERE guild_id = ?", (guild_id,))
        bands = {row["lowest"]: row["role_id"] for row in tiers if row["lowest"] >= 0}
        retired = tuple(sorted(row["role_id"] for row in tiers if row["lowest"] < 0))
        if not rows:
            return ServerRoles(tiers=bands, retired=retired)
        row = rows[0]
        return ServerRoles(row["tournament_role"], row["seek_role"], row["tier_step"], bands, retired)

    async def set_call_role(self, guild_id: int, kind: str, role_id: int | None) -> None:
        """The role pinged for ``kind`` of call (a key of :data:`CALL_ROLES`; ``None``: none)."""
        await self._set("guild_settings", "guild_id", guild_id, CALL_ROLES[kind], role_id)

    async def set_tier_step(self, guild_id: int, step: int | None) -> None:
        """The width of the server's rating bands (``None``: no tier roles). Unless the width stays
        the same, the bands' roles of now are retired in the same write (:func:`retired_band`):
        kept until Discord has deleted them, whatever restarts or changes come meanwhile."""
        await self._db.write(
            (
                "UPDATE tier_roles SET lowest = -role_id WHERE guild_id = ? AND lowest >= 0 AND NOT EXISTS "
                "(SELECT 1 FROM guild_settings WHERE guild_id = ? AND tier_step = ?)",
                (guild_id, guild_id, step),
            ),
            self._upsert("guild_settings", "guild_id", guild_id, "tier_step", step),
        )

    async def set_tier_role(self, guild_id: int, lowest: int, role_id: int) -> None:
        """The role of the band starting at ``lowest``, which the bot made (so it may delete it)."""
        await self._db.write(
            (
                "INSERT INTO tier_roles (guild_id, lowest, role_id) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, lowest) DO UPDATE SET role_id = excluded.role_id",
                (guild_id, lowest, role_id),
            ),
        )

    async def forget_retired_role(self, guild_id: int, role_id: int) -> None:
        """A retired band's role is gone from Discord: nothing left to delete."""
        await self._db.write(
            ("DELETE FROM tier_roles WHERE guild_id = ? AND lowest = ?", (guild_id, retired_band(role_id)))
        )

    async def retired_roles(self) -> dict[int, list[int]]:
        """The retired bands' roles still to delete, by server (all servers: a process picks its own)."""
        rows = await self._db.read("SELECT guild_id, role_id FROM tier_roles WHERE lowest < 0 ORDER BY role_id")
        retired: dict[int, list[int]] = {}
        for row in rows:
            retired.setdefault(row["guild_id"], []).append(row["role_id"])
        return retired

    async def count_server_players(self, guild_id: int, variant: str) -> int:
        """How many players are rated in ``variant`` in the server (those its tier roles follow)."""
        (row,) = await self._db.read(
            "SELECT COUNT(*) AS n FROM guild_players WHERE guild_id = ? AND variant = ?", (guild_id, variant)
        )
        return int(row["n"])

    async def server_players(self, guild_id: int, variant: str, *, after: int, limit: int) -> list[int]:
        """A page of the server's players rated in ``variant``, by user id after ``after``: the
        primary key's order, so a page costs the same however far in, and a rated game meanwhile
        moves nobody across pages."""
        rows = await self._db.read(
            "SELECT user_id FROM guild_players WHERE guild_id = ? AND variant = ? AND user_id > ? "
            "ORDER BY user_id LIMIT ?",
            (guild_id, variant, after, limit),
        )
        return [row["user_id"] for row in rows]

    async def claim_call(self, guild_id: int, what: str, now: datetime, *, again_after: timedelta | None) -> bool:
        """Whether the call ``what`` may be made now, noted as made if so: never made, or made
        ``again_after`` ago or more (``None``: a call made once, ever). Two processes asking at
        once: one is told yes."""
        # No stored time is at or before "": with no ``again_after``, a call made is never made again.
        made_before = time_text(now - again_after) if again_after is not None else ""
        claimed = await self._db.write_one(
            "INSERT INTO role_calls (guild_id, what, called_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, what) DO UPDATE SET called_at = excluded.called_at "
            "WHERE role_calls.called_at <= ? RETURNING what",
            (guild_id, what, time_text(now), made_before),
        )
        return bool(claimed)

    async def _set(self, table: str, key: str, key_value: int, column: str, value: object) -> None:
        """Set one setting, creating the row with defaults for the others."""
        await self._db.write(self._upsert(table, key, key_value, column, value))

    @staticmethod
    def _upsert(table: str, key: str, key_value: int, column: str, value: object) -> tuple[str, tuple]:
        """The statement that sets one setting (names are ours, not input)."""
        return (
            f"INSERT INTO {table} ({key}, {column}) VALUES (?, ?) "
            f"ON CONFLICT ({key}) DO UPDATE SET {column} = excluded.{column}",
            (key_value, value),
        )
