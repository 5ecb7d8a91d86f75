"""``python -m bot``: start the bot with the settings from the environment / ``.env``."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from datetime import UTC, datetime, timedelta

import discord

from . import create_bot
from .config import Settings, SettingsError, load_settings
from .metrics import MetricsError
from .storage import ShardScope, StorageError, Store

log = logging.getLogger("bot")

#: Libraries whose own INFO and WARNING lines are for their developers, not the bot's operator:
#: caissify-pairings names players by their raw Discord ids when a round is hard to pair. Below
#: ``LOG_LEVEL=DEBUG`` only their errors are logged; the bot says in its own words what matters
#: (a tournament that ends because its next round cannot be paired).
QUIET_LIBRARIES = ("caissify_pairings",)


class JsonFormatter(logging.Formatter):
    """One JSON object a line (``LOG_FORMAT=json``): time, level, logger, message, and exc_info
    for an exception. The message is the line the text format shows, secrets masked alike."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        elif record.stack_info:
            line["exc_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(settings: Settings) -> None:
    """discord.py's logging setup, at the level and in the format of the settings."""
    level = getattr(logging, settings.log_level)
    if settings.log_format == "json":
        discord.utils.setup_logging(level=level, formatter=JsonFormatter(), root=True)
    else:  # discord.py's own format (in colour on a terminal)
        discord.utils.setup_logging(level=level, root=True)
    for library in QUIET_LIBRARIES:
        logging.getLogger(library).setLevel(logging.NOTSET if level <= logging.DEBUG else logging.ERROR)


async def _run(settings: Settings) -> None:
    # Open (and check) the database before connecting, so a broken file or an unreachable server
    # fails fast with one clear line; the bot then uses this connection.
    shards = None
    if settings.shard_count:
        assert settings.shard_ids is not None  # load_settings sets the ids with the count (all shards by default)
        shards = ShardScope(settings.shard_count, settings.shard_ids)
    store = await Store.open(settings.database, shards=shards)
    log.info("database: %s%s", store.label, f"; running {shards}" if shards else "")
    hours = settings.backup_interval_hours
    bot = create_bot(
        settings.database,
        shard_count=settings.shard_count,
        shard_ids=settings.shard_ids,
        dev_guild_id=settings.dev_guild_id,
        challenge_timeout=settings.challenge_timeout,
        backup_every=timedelta(hours=hours) if hours else None,
        backup_keep=settings.backup_keep,
        store=store,
        metrics_port=settings.metrics_port,
        table_seeds=settings.table_seeds,
        cup_emojis=settings.cup_emojis,
    )
    async with bot:
        await bot.start(settings.token)


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"wari-bot: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings)
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        log.error(
            "Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal (Bot > Reset Token) "
            "and update .env"
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused the gateway intents; this bot needs none that are privileged")
        return 1
    except (StorageError, MetricsError) as exc:
        log.error("%s", exc)
        return 1
    except OSError as exc:  # aiohttp's connection errors are OSErrors too
        log.error("cannot reach Discord (%s): check the network connection", exc.__class__.__name__)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
