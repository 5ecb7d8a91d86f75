"""The bot itself: a ``commands.Bot`` whose ``setup_hook`` is the composition root: it opens the
database, builds every service once (:func:`bot.service.services.build_services`) and loads the
cog, which receives them."""

from __future__ import annotations

import hashlib
import json
import logging
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands, tasks

from .ai.tables.background import TableBuilder
from .emojis import CupEmojis, forget_cup_emojis
from .metrics import Metrics, MetricsServer
from .service import SeekService, WariService
from .service.services import Services, build_services
from .storage import ShardScope, Store
from .storage.backup import AutomaticBackups

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.wari",)
COMMANDS_DIGEST_KEY = "commands_digest"
#: How often the bot looks whether an automatic backup is due (at most; less with shorter intervals).
BACKUP_CHECK = timedelta(hours=1)


class WariBot(commands.Bot):
    """Hosts Wari games. Build it with :func:`create_bot`; nothing connects until it is started."""

    store: Store
    #: Every service, built once in :meth:`setup_hook`; the cog is given them.
    services: Services

    def __init__(
        self,
        database: str | Path,
        *,
        dev_guild_id: int | None = None,
        challenge_timeout: int = 600,
        rng: random.Random | None = None,
        backup_every: timedelta | None = None,
        backup_keep: int = 7,
        store: Store | None = None,
        metrics_port: int | None = None,
        table_seeds: int = 0,
        cup_emojis: bool = False,
        **sharding: Any,
    ) -> None:
        # Slash commands and buttons need no privileged intent, nor even the member list.
        # The bot plays no sound: discord.py's warnings that voice needs PyNaCl and davey are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        #: The bot's metrics, counted only when they are served (``metrics_port``).
        self.metrics = Metrics() if metrics_port is not None else None
        self.metrics_port = metrics_port
        self.metrics_server: MetricsServer | None = None
        # discord.py's HTTP session reports each response to the metrics (429s it retries included).
        traced: dict[str, Any] = {"http_trace": self.metrics.trace_config()} if self.metrics is not None else {}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            # A message that forgets to say whom it may notify notifies nobody: every message that
            # must ping names its users (a name like "@everyone" in a message then pings no one).
            allowed_mentions=discord.AllowedMentions.none(),
            **traced,
            **sharding,
        )
        #: A SQLite file (``Path``) or a ``postgresql://`` URL.
        self.database = database if isinstance(database, str) and "://" in database else Path(database)
        self.dev_guild_id = dev_guild_id
        self.challenge_timeout = challenge_timeout
        self.rng = rng
        self.backup_every = backup_every
        self.backup_keep = backup_keep
        self.backups: tasks.Loop | None = None
        self.automatic_backups: AutomaticBackups | None = None
        if store is not None:
            self.store = store
        #: Builds the endgame tables missing at start-up (``table_seeds`` seeds; 0: none).
        self.tables = TableBuilder(table_seeds) if table_seeds else None
        #: The cup pictures, found or uploaded once ready (``cup_emojis``; else the cups show as text).
        self.cup_emojis: CupEmojis | None = CupEmojis(self, uploads=self.syncs_commands) if cup_emojis else None

    @property
    def shard_scope(self) -> ShardScope | None:
        """The shards this process runs, whose servers' games its sweeps look after (``None``: all)."""
        return None

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: only one of a sharded bot's processes does."""
        return True

    async def setup_hook(self) -> None:
        if self.metrics is not None:
            self.metrics.instrument(self)
        if not hasattr(self, "store"):
            self.store = await Store.open(self.database, shards=self.shard_scope)
        self.services = build_services(
            self.store, clock=discord.utils.utcnow, challenge_timeout=self.challenge_timeout, rng=self.rng
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.syncs_commands:
            await self.sync_commands()
        if self.backup_every and self.store.path is not None:
            check = min(self.backup_every, BACKUP_CHECK)
            self.automatic_backups = AutomaticBackups(
                self.store.path, every=self.backup_every, keep=self.backup_keep, check=check
            )
            self.backups = tasks.loop(seconds=check.total_seconds())(self.back_up_if_due)
            self.backups.start()
        if self.metrics is not None and self.metrics_port is not None:
            self.metrics_server = MetricsServer(self, self.metrics, self.metrics_port)
            await self.metrics_server.start()
        if self.tables is not None:
            self.tables.start()
        # The cup pictures, uploaded in the background once ready (the commands' process uploads).
        if self.cup_emojis is not None:
            self.cup_emojis.start()
        else:
            forget_cup_emojis()  # another bot's, in a process that ran one before (the tests)

    @property
    def service(self) -> WariService:
        """The games' service (:attr:`services`), for the tools that look inside the bot: the
        sandbox and the tests."""
        return self.services.games

    @property
    def seeks(self) -> SeekService:
        """The seeks' service (:attr:`services`), for the tests."""
        return self.services.seeks

    async def stop_metrics(self) -> None:
        """Stop serving ``/metrics`` and ``/healthz`` (at :meth:`close`)."""
        if self.metrics_server is not None:
            server, self.metrics_server = self.metrics_server, None
            await server.stop()

    async def sync_commands(self) -> None:
        """Sync slash commands to the dev guild every time, or globally only when they changed.

        A global sync on every start is needless and rate-limited; the digest of the command
        tree kept in the database tells whether Discord already has this version.
        """
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            if await self._sync(guild):
                log.info("slash commands synced to the development guild %s", self.dev_guild_id)
            return
        # With the translations: a new or changed translation is a change Discord must hear of.
        translator = self.tree.translator
        commands_ = [
            await command.get_translated_payload(self.tree, translator) if translator else command.to_dict(self.tree)
            for command in self.tree.get_commands()
        ]
        payload = json.dumps(commands_, sort_keys=True)
        digest = hashlib.sha256(payload.encode()).hexdigest()
        if await self.store.get_meta(COMMANDS_DIGEST_KEY) == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return
        if await self._sync(None):
            await self.store.set_meta(COMMANDS_DIGEST_KEY, digest)
            log.info("slash commands synced globally (they may take a while to appear)")

    async def _sync(self, guild: discord.Object | None) -> bool:
        """Send the command tree; a refusal (a Discord outage, a rate limit) is a warning, not a
        crash: the commands Discord already has keep working, and the next start tries again."""
        try:
            await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            log.warning(
                "could not sync the slash commands (Discord answered %s %s); going on with the commands Discord "
                "already has, the next start tries again",
                exc.status,
                exc.text or "with no reason",
            )
            return False
        return True

    async def back_up_if_due(self) -> None:
        """One turn of the automatic backups: a backup when the newest is an interval old, then
        the oldest beyond :attr:`backup_keep` are deleted, in a thread. It never raises: a failure
        is a warning (a run of them for lack of space, one), and the next turn tries again."""
        assert self.automatic_backups is not None  # setup_hook starts the backups only with it
        await self.automatic_backups.turn(discord.utils.utcnow())

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (id %s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds)
        )

    async def close(self) -> None:
        if self.backups is not None:
            self.backups.cancel()
        if self.tables is not None:
            await self.tables.stop()
        if self.cup_emojis is not None:
            await self.cup_emojis.stop()
        await self.stop_metrics()
        await super().close()  # unloads the cog first: it stops the computer's searches, whose moves it shows
        if hasattr(self, "services"):
            self.services.close()
        if hasattr(self, "store"):
            await self.store.close()


class ShardedWariBot(WariBot, commands.AutoShardedBot):
    """The bot as one process of a sharded deployment: ``shard_count`` shards in all, of which it
    runs ``shard_ids`` (every process of the bot shares one PostgreSQL database)."""

    @property
    def shard_scope(self) -> ShardScope:
        assert self.shard_ids is not None  # create_bot always passes them
        return ShardScope(self.shard_count, tuple(sorted(self.shard_ids)))

    @property
    def syncs_commands(self) -> bool:
        """The process that runs shard 0 syncs; the others would only repeat it."""
        assert self.shard_ids is not None  # create_bot always passes them
        return 0 in self.shard_ids


def create_bot(
    database: str | Path, *, shard_count: int | None = None, shard_ids: tuple[int, ...] | None = None, **options: Any
) -> WariBot:
    """The fully configured bot, not connected. ``python -m bot``, the tests and the sandbox use it.

    ``database`` is a SQLite file (or ``sqlite:///`` URL) or a ``postgresql://`` URL. With a
    ``shard_count``, the bot runs as an :class:`~discord.ext.commands.AutoShardedBot` of the
    ``shard_ids`` given (default: all of them). ``options`` are :class:`WariBot`'s:
    ``backup_every``, the interval of automatic backups of a SQLite file (``None``, the default
    here: none; the settings' default is a day); ``store``, the database already opened (and
    checked), so that a start checks it once; ``metrics_port``, where to serve ``/metrics`` and
    ``/healthz`` (``None``, the default: nowhere, and nothing is counted); ``table_seeds``, the
    endgame tables to build in the background when they are missing (0, the default here: none;
    the settings' default is 12 seeds).
    """
    if shard_count is None:
        return WariBot(database, **options)
    ids = list(shard_ids) if shard_ids is not None else list(range(shard_count))
    return ShardedWariBot(database, shard_count=shard_count, shard_ids=ids, **options)
