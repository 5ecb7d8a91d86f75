"""What players and servers choose for themselves: turn pings, language, how boards are drawn."""

from __future__ import annotations

from .database import Queries

#: How a server's boards are drawn: a text drawing in the embed, or a picture attached to it.
BOARD_STYLES = ("text", "image")


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

    async def _set(self, table: str, key: str, key_value: int, column: str, value: object) -> None:
        """Set one setting, creating the row with defaults for the others (names are ours, not input)."""
        await self._db.write(
            (
                f"INSERT INTO {table} ({key}, {column}) VALUES (?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET {column} = excluded.{column}",
                (key_value, value),
            ),
        )
