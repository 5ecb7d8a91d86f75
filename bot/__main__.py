"""``python -m bot``: start the bot with the settings from the environment / ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys
from datetime import timedelta

import discord

from . import create_bot
from .config import Settings, SettingsError, load_settings
from .storage import ShardScope, StorageError, Store

log = logging.getLogger("bot")


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
    )
    async with bot:
        await bot.start(settings.token)


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"wari-bot: {exc}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
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
    except StorageError as exc:
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
