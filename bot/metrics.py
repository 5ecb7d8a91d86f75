"""What an operator watches: a Prometheus endpoint and a health check, on ``METRICS_PORT``.

``/metrics`` counts the interactions the bot handled (slash commands and button presses, with
how long each took, and those answered with an error, by the error's kind), its REST calls to
Discord by outcome (and, through aiohttp, every response by status, 429s among them), and
reads at each scrape the live games, the database's latency and the gateway's latency per
shard. ``/healthz`` answers 200 when the database answers and the gateway is connected, else
503 (for a container's or a load balancer's liveness probe).

Every bot has a registry of its own (not prometheus-client's global one), so that several bots
in one process (the tests) keep apart.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord.ext.commands import Bot
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

log = logging.getLogger(__name__)

#: Seconds the health check and a scrape wait for the database before calling it down.
DATABASE_TIMEOUT = 5.0
#: Interactions must be answered within 3 s; the buckets straddle that.
INTERACTION_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
REST_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """The bot's metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.interactions = Counter(
            "wari_interactions",
            "Interactions handled: kind is command or button; name the command or the button's kind.",
            ["kind", "name", "outcome"],
            registry=registry,
        )
        self.interaction_errors = Counter(
            "wari_interaction_errors",
            "Interactions answered with an error, by kind (command or button) and error: refusal (a "
            "rule, told to the user), cooldown, database, or unexpected (a bug: see the log).",
            ["kind", "error"],
            registry=registry,
        )
        self.interaction_seconds = Histogram(
            "wari_interaction_seconds",
            "How long the bot took to handle an interaction (from its dispatch to its handler's end).",
            ["kind"],
            buckets=INTERACTION_BUCKETS,
            registry=registry,
        )
        self.rest_requests = Counter(
            "wari_discord_rest_requests",
            "REST calls to Discord by method and outcome: 2xx, the HTTP status of an error, or error.",
            ["method", "status"],
            registry=registry,
        )
        self.rest_seconds = Histogram(
            "wari_discord_rest_seconds",
            "How long a REST call to Discord took, rate-limit waits included.",
            ["method"],
            buckets=REST_BUCKETS,
            registry=registry,
        )
        self.http_responses = Counter(
            "wari_discord_http_responses",
            "Every HTTP response Discord sent (retries included), by status.",
            ["status"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "wari_discord_rate_limited",
            "Responses 429 (too many requests) from Discord, retried or not.",
            registry=registry,
        )
        self.live_games = Gauge("wari_live_games", "Games being played (on this process's shards).", registry=registry)
        self.database_up = Gauge("wari_database_up", "1 if the database answered the last probe.", registry=registry)
        self.database_seconds = Gauge(
            "wari_database_latency_seconds", "How long the last probe of the database took.", registry=registry
        )
        self.gateway_connected = Gauge(
            "wari_gateway_connected", "1 if the bot is connected to Discord's gateway (every shard).", registry=registry
        )
        self.gateway_seconds = Gauge(
            "wari_gateway_latency_seconds",
            "Heartbeat latency of each shard's gateway connection.",
            ["shard"],
            registry=registry,
        )

    # -- hooks ----------------------------------------------------------------------------

    def trace_config(self) -> aiohttp.TraceConfig:
        """Counts every response of discord.py's HTTP session, the 429s it retries by itself among them."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(
            _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            status = params.response.status
            self.http_responses.labels(str(status)).inc()
            if status == 429:
                self.rate_limited.inc()

        trace.on_request_end.append(on_request_end)
        return trace

    def instrument(self, bot: Bot) -> None:
        """Wrap where ``bot`` sends REST calls and handles interactions. Called from ``setup_hook``:
        by then ``bot.http`` is the client that will be used (a simulation installs its own first)."""
        http = bot.http
        request = http.request

        async def counted_request(route: discord.http.Route, *args: Any, **kwargs: Any) -> Any:
            status = "error"
            start = time.perf_counter()
            try:
                result = await request(route, *args, **kwargs)
                status = "2xx"
                return result
            except discord.RateLimited:  # a 429 to wait too long for (the session's trace counted it)
                status = "429"
                raise
            except discord.HTTPException as exc:
                status = str(exc.status)
                raise
            finally:
                self.rest_requests.labels(route.method, status).inc()
                self.rest_seconds.labels(route.method).observe(time.perf_counter() - start)

        setattr(http, "request", counted_request)  # noqa: B010 (an instance attribute shadows the method)

        # discord.py hands a slash command to ``tree._call`` and a press of a persistent
        # (dynamic) button to the view store's ``schedule_dynamic_item_call``, each in a task of
        # its own: timing those calls times the handling of the interaction.
        tree = bot.tree
        call = tree._call

        async def timed_call(interaction: discord.Interaction[Any]) -> None:
            await self._timed("command", lambda: _command_name(interaction), call(interaction))

        setattr(tree, "_call", timed_call)  # noqa: B010

        store = bot._connection._view_store
        schedule = store.schedule_dynamic_item_call

        async def timed_press(component_type: int, factory: type, *args: Any, **kwargs: Any) -> None:
            await self._timed("button", lambda: factory.__name__, schedule(component_type, factory, *args, **kwargs))

        setattr(store, "schedule_dynamic_item_call", timed_press)  # noqa: B010

    async def _timed(self, kind: str, name: Callable[[], str], handling: Awaitable[None]) -> None:
        outcome = "error"
        start = time.perf_counter()
        try:
            await handling
            outcome = "ok"
        finally:
            self.interaction_seconds.labels(kind).observe(time.perf_counter() - start)
            self.interactions.labels(kind, name(), outcome).inc()

    def count_error(self, interaction: discord.Interaction[Any], error: str) -> None:
        """An interaction was answered with ``error`` (one of :attr:`interaction_errors`' kinds)."""
        kind = "command" if interaction.type is discord.InteractionType.application_command else "button"
        self.interaction_errors.labels(kind, error).inc()

    # -- reading the state ------------------------------------------------------------------

    async def probe(self, bot: Bot) -> tuple[bool, bool]:
        """Read what is read at each scrape (live games, the database's and the gateway's
        latencies) into the gauges: whether the database answered, and the gateway is connected."""
        database = await self._probe_database(bot)
        connected = gateway_connected(bot)
        self.gateway_connected.set(1 if connected else 0)
        self.gateway_seconds.clear()
        for shard, latency in _latencies(bot):
            self.gateway_seconds.labels(str(shard)).set(latency)
        return database, connected

    async def _probe_database(self, bot: Bot) -> bool:
        store = getattr(bot, "store", None)
        if store is None:
            self.database_up.set(0)
            return False
        start = time.perf_counter()
        try:
            live = await asyncio.wait_for(store.games.count_live_games(), DATABASE_TIMEOUT)
        except Exception as exc:  # whatever it is, the database is not answering
            log.warning("the database did not answer the health probe: %s: %s", type(exc).__name__, exc)
            self.database_up.set(0)
            return False
        self.database_seconds.set(time.perf_counter() - start)
        self.database_up.set(1)
        self.live_games.set(live)
        return True


def _command_name(interaction: discord.Interaction) -> str:
    try:
        command = interaction.command
    except Exception:  # the interaction names no command this tree knows
        command = None
    return command.qualified_name if command is not None else "unknown"


def _latencies(bot: discord.Client) -> list[tuple[int, float]]:
    found = bot.latencies if isinstance(bot, discord.AutoShardedClient) else [(bot.shard_id or 0, bot.latency)]
    return [(shard, latency) for shard, latency in found if math.isfinite(latency)]


def gateway_connected(bot: discord.Client) -> bool:
    """Whether the bot is logged in and every gateway connection it runs is open."""
    if bot.is_closed() or not bot.is_ready():
        return False
    if isinstance(bot, discord.AutoShardedClient):
        return bool(bot.shards) and not any(shard.is_closed() for shard in bot.shards.values())
    ws = bot.ws
    return ws is not None and bool(getattr(ws, "open", False))


class MetricsError(RuntimeError):
    """The metrics cannot be served (the port is taken); the message says which and what to do."""


class MetricsServer:
    """The HTTP server of ``/metrics`` and ``/healthz`` (on every interface: a scraper in another
    container must reach it; keep the port off the public internet)."""

    def __init__(self, bot: Bot, metrics: Metrics, port: int, host: str = "0.0.0.0") -> None:  # noqa: S104
        self.bot, self.metrics, self.port, self.host = bot, metrics, port, host
        app = web.Application()
        app.router.add_get("/metrics", self.serve_metrics)
        app.router.add_get("/healthz", self.serve_health)
        self.runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        """:raises MetricsError: if the port cannot be listened on (taken by another process)."""
        await self.runner.setup()
        try:
            await web.TCPSite(self.runner, self.host, self.port).start()
        except OSError as exc:
            await self.runner.cleanup()
            raise MetricsError(
                f"cannot serve the metrics on METRICS_PORT {self.port} ({exc.strerror or exc}): "
                "choose a free port (each process of a sharded bot on one machine needs its own)"
            ) from exc
        log.info("serving /metrics and /healthz on port %d", self.port)

    async def stop(self) -> None:
        await self.runner.cleanup()

    async def serve_metrics(self, _request: web.Request) -> web.Response:
        await self.metrics.probe(self.bot)
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def serve_health(self, _request: web.Request) -> web.Response:
        database, gateway = await self.metrics.probe(self.bot)
        healthy = database and gateway
        body = {"database": "ok" if database else "down", "gateway": "connected" if gateway else "disconnected"}
        return web.Response(status=200 if healthy else 503, text=json.dumps(body), content_type="application/json")
