"""The bot itself: a ``commands.Bot`` that opens the database and loads the cogs in ``setup_hook``."""

from __future__ import annotations

import hashlib
import json
import logging
import random
from pathlib import Path

import discord
from discord.ext import commands

from .service import WariService
from .storage import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.wari",)
COMMANDS_DIGEST_KEY = "commands_digest"


class WariBot(commands.Bot):
    """Hosts Wari games. Build it with :func:`create_bot`; nothing connects until it is started."""

    store: Store
    service: WariService

    def __init__(
        self,
        database_path: str | Path,
        *,
        dev_guild_id: int | None = None,
        challenge_timeout: int = 600,
        rng: random.Random | None = None,
    ) -> None:
        # Slash commands and buttons need no privileged intent, nor even the member list.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True), help_command=None)
        self.database_path = Path(database_path)
        self.dev_guild_id = dev_guild_id
        self.challenge_timeout = challenge_timeout
        self.rng = rng

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.database_path)
        self.service = WariService(self.store, challenge_timeout=self.challenge_timeout, rng=self.rng)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync slash commands to the dev guild every time, or globally only when they changed.

        A global sync on every start is needless and rate-limited; the digest of the command
        tree kept in the database tells whether Discord already has this version.
        """
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to the development guild %s", self.dev_guild_id)
            return
        payload = json.dumps([command.to_dict(self.tree) for command in self.tree.get_commands()], sort_keys=True)
        digest = hashlib.sha256(payload.encode()).hexdigest()
        if await self.store.get_meta(COMMANDS_DIGEST_KEY) == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return
        await self.tree.sync()
        await self.store.set_meta(COMMANDS_DIGEST_KEY, digest)
        log.info("slash commands synced globally (they may take a while to appear)")

    async def on_ready(self) -> None:
        log.info("logged in as %s (id %s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()


def create_bot(
    database_path: str | Path, *, dev_guild_id: int | None = None, challenge_timeout: int = 600, rng: random.Random | None = None
) -> WariBot:
    """The fully configured bot, not connected. ``python -m bot``, the tests and the sandbox use it."""
    return WariBot(database_path, dev_guild_id=dev_guild_id, challenge_timeout=challenge_timeout, rng=rng)
