"""Settings, read once from the environment (and a ``.env`` file beside the project).

Every setting is documented in ``.env.example``. Nothing here is ever logged in full: the
token is kept out of ``repr`` so a stray ``print(settings)`` cannot leak it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = PROJECT_ROOT / "data" / "wari.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and what to do."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)
    database_path: Path = DEFAULT_DATABASE
    #: Commands are synced to this guild at every start (instant), and not globally.
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: Seconds before an unanswered challenge expires.
    challenge_timeout: int = 600


def _int(
    environ: dict[str, str], name: str, default: int | None, *, minimum: int = 1, maximum: int | None = None
) -> int | None:
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


def load_settings(environ: dict[str, str] | None = None, *, env_file: Path | None = PROJECT_ROOT / ".env") -> Settings:
    """Read the settings; ``environ`` defaults to ``os.environ`` after loading ``env_file``.

    :raises SettingsError: for a missing token or a malformed value.
    """
    if environ is None:
        if env_file is not None:
            load_dotenv(env_file, override=False)
        environ = dict(os.environ)
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
            "(Discord Developer Portal > your application > Bot > Reset Token)"
        )
    level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    path = environ.get("DATABASE_PATH", "").strip()
    return Settings(
        token=token,
        database_path=Path(path) if path else DEFAULT_DATABASE,
        dev_guild_id=_int(environ, "DEV_GUILD_ID", None),
        log_level=level,
        challenge_timeout=_int(environ, "CHALLENGE_TIMEOUT", 600, maximum=7 * 24 * 3600),
    )
