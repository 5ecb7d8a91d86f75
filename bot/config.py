"""Settings, read once from the environment (and a ``.env`` file beside the project).

Every setting is documented in ``.env.example``. Nothing here is ever logged in full: the
token is kept out of ``repr`` so a stray ``print(settings)`` cannot leak it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload

from dotenv import load_dotenv

from .storage.database import scheme_of
from .storage.postgres import url_problem

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = PROJECT_ROOT / "data" / "wari.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and what to do."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)
    #: The database: a SQLite file, or a ``postgresql://`` URL (kept out of ``repr``: it may hold a password).
    database: Path | str = field(default=DEFAULT_DATABASE, repr=False)
    #: Commands are synced to this guild at every start (instant), and not globally.
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: ``text`` (discord.py's lines) or ``json`` (one JSON object a line, for a log collector).
    log_format: str = "text"
    #: Seconds before an unanswered challenge expires.
    challenge_timeout: int = 600
    #: Hours between automatic backups of the database (0: none).
    backup_interval_hours: int = 24
    #: How many automatic backups are kept (the oldest beyond are deleted).
    backup_keep: int = 7
    #: The shards of the whole bot, and those this process runs (``None``: no sharding).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: The port of the Prometheus ``/metrics`` and the ``/healthz`` endpoints (``None``: not served).
    metrics_port: int | None = None
    #: Seeds on board of the endgame tables the bot builds for itself when it has none (0: none).
    table_seeds: int = 15
    #: Whether the cup buttons show pictures of their seeds, application emojis the bot uploads.
    cup_emojis: bool = True

    @property
    def database_path(self) -> Path | None:
        """The SQLite file (``None`` on PostgreSQL)."""
        return self.database if isinstance(self.database, Path) else None


@overload
def _int(environ: dict[str, str], name: str, default: int, *, minimum: int = 1, maximum: int | None = None) -> int: ...
@overload
def _int(
    environ: dict[str, str], name: str, default: None, *, minimum: int = 1, maximum: int | None = None
) -> int | None: ...
def _int(
    environ: dict[str, str], name: str, default: int | None, *, minimum: int = 1, maximum: int | None = None
) -> int | None:
    """The whole number ``environ[name]`` holds (within the bounds), or ``default`` if it is unset."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise SettingsError(f"{name} must be at most {maximum}, not {value}")
    return value


def _switch(environ: dict[str, str], name: str, default: bool) -> bool:
    """``environ[name]`` as ``on`` or ``off`` (``default`` if unset)."""
    raw = environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in ("on", "off"):
        raise SettingsError(f"{name} must be on or off, not {raw!r}")
    return raw == "on"


def _environment(environ: dict[str, str] | None, env_file: Path | None) -> dict[str, str]:
    """``environ``, or ``os.environ`` after loading ``env_file`` (which never overrides it)."""
    if environ is not None:
        return environ
    if env_file is not None:
        load_dotenv(env_file, override=False)
    return dict(os.environ)


def _database(environ: dict[str, str]) -> Path | str:
    """``DATABASE_URL`` (``postgresql://...`` or ``sqlite:///path``), else ``DATABASE_PATH``.

    A malformed URL is named by what is wrong with it, never quoted: it may hold a password."""
    url = environ.get("DATABASE_URL", "").strip()
    if url.startswith(("postgresql://", "postgres://")):
        if (problem := url_problem(url)) is not None:
            raise SettingsError(f"DATABASE_URL {problem}")
        return url
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    if url:
        scheme = scheme_of(url)
        if scheme == "sqlite":
            raise SettingsError("DATABASE_URL for SQLite must be sqlite:///relative/path or sqlite:////absolute/path")
        found = f"not {scheme}://" if scheme else "and it has no scheme:// at its start"
        raise SettingsError(f"DATABASE_URL must start with postgresql:// or sqlite:///, {found}")
    path = environ.get("DATABASE_PATH", "").strip()
    return Path(path) if path else DEFAULT_DATABASE


def load_database(
    environ: dict[str, str] | None = None, *, env_file: Path | None = PROJECT_ROOT / ".env"
) -> Path | str:
    """Only the database (no token needed): for ``python -m bot.storage``."""
    return _database(_environment(environ, env_file))


def _shards(environ: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS``: the whole bot's shards and this process's (default: all)."""
    count = _int(environ, "SHARD_COUNT", None)
    raw = environ.get("SHARD_IDS", "").strip()
    if count is None:
        if raw:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot")
        return None, None
    if not raw:
        return count, tuple(range(count))
    try:
        ids = tuple(sorted({int(part) for part in raw.split(",") if part.strip()}))
    except ValueError:
        raise SettingsError(f"SHARD_IDS must be shard numbers separated by commas, like 0,1, not {raw!r}") from None
    if not ids or ids[0] < 0 or ids[-1] >= count:
        raise SettingsError(f"SHARD_IDS must be numbers from 0 to {count - 1} (SHARD_COUNT is {count}), not {raw!r}")
    return count, ids


def load_settings(environ: dict[str, str] | None = None, *, env_file: Path | None = PROJECT_ROOT / ".env") -> Settings:
    """Read the settings; ``environ`` defaults to ``os.environ`` after loading ``env_file``.

    :raises SettingsError: for a missing token or a malformed value.
    """
    environ = _environment(environ, env_file)
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
            "(Discord Developer Portal > your application > Bot > Reset Token)"
        )
    level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    log_format = environ.get("LOG_FORMAT", "text").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise SettingsError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    shard_count, shard_ids = _shards(environ)
    return Settings(
        token=token,
        database=_database(environ),
        dev_guild_id=_int(environ, "DEV_GUILD_ID", None),
        log_level=level,
        log_format=log_format,
        challenge_timeout=_int(environ, "CHALLENGE_TIMEOUT", 600, maximum=7 * 24 * 3600),
        backup_interval_hours=_int(environ, "BACKUP_INTERVAL_HOURS", 24, minimum=0, maximum=30 * 24),
        backup_keep=_int(environ, "BACKUP_KEEP", 7, maximum=1000),
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics_port=_int(environ, "METRICS_PORT", None, maximum=65535),
        table_seeds=_int(environ, "TABLE_SEEDS", 15, minimum=0, maximum=16),
        cup_emojis=_switch(environ, "CUP_EMOJIS", True),
    )
