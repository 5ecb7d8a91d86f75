"""What an operator watches: the Prometheus metrics, the health check and the JSON log lines."""

import json
import logging
import socket
import sys
from pathlib import Path

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from simcord import Env

from bot.__main__ import JsonFormatter
from bot.config import SettingsError, load_settings
from bot.metrics import Metrics, MetricsError, MetricsServer
from tests.conftest import close_bot, make_bot, populate
from tests.helpers import enabled_houses, press, start_game


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def samples(text: str) -> dict[tuple, float]:
    """Every sample of a scrape: (name, labels as sorted pairs) -> value."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(found: dict[tuple, float], metric: str, **labels: str) -> float:
    """The sum of the samples of ``metric`` whose labels include ``labels``."""
    return sum(
        value for (sample, pairs), value in found.items() if sample == metric and labels.items() <= dict(pairs).items()
    )


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def test_metrics_and_json_logs_are_settings_off_by_default():
    settings = load_settings({"DISCORD_TOKEN": "t"})
    assert settings.metrics_port is None and settings.log_format == "text"
    custom = load_settings({"DISCORD_TOKEN": "t", "METRICS_PORT": "9108", "LOG_FORMAT": "JSON"})
    assert (custom.metrics_port, custom.log_format) == (9108, "json")
    for bad in ({"METRICS_PORT": "http"}, {"METRICS_PORT": "70000"}, {"METRICS_PORT": "0"}, {"LOG_FORMAT": "xml"}):
        with pytest.raises(SettingsError):
            load_settings({"DISCORD_TOKEN": "t", **bad})
    root = Path(__file__).resolve().parents[2]
    for name in ("METRICS_PORT", "LOG_FORMAT"):
        assert f"\n{name}=" in (root / ".env.example").read_text()
        assert f"| `{name}` |" in (root / "README.md").read_text()


async def test_the_metrics_count_interactions_rest_calls_and_live_games(database):
    port = free_port()
    bot = make_bot(database, metrics_port=port)
    env = Env(bot)
    await env.start()
    try:
        world = populate(env, database)
        board = await start_game(world)
        await press(world.alice, board, 3)
        await press(world.alice, board, enabled_houses(board)[0])  # Bob's cup: refused, and answered
        for refusal in (503, 429):
            env.inject_error("POST", "/channels/*/messages", status=refusal)
            with pytest.raises(discord.HTTPException):
                await bot.get_partial_messageable(world.channel.id).send("Discord refuses")
        status, text = await get(port, "/metrics")
        assert status == 200
        found = samples(text)
        assert total(found, "wari_interactions_total", kind="command", name="wari challenge", outcome="ok") == 1
        assert total(found, "wari_interactions_total", kind="button", outcome="ok") == 3  # Accept, two cups
        assert total(found, "wari_interaction_seconds_count", kind="button") == 3
        assert total(found, "wari_interaction_errors_total", kind="button", error="refusal") == 1
        assert total(found, "wari_interaction_errors_total", error="database") == 0
        assert total(found, "wari_discord_rest_requests_total", status="2xx") >= 1
        assert total(found, "wari_discord_rest_requests_total", method="POST", status="503") == 1
        assert total(found, "wari_discord_rest_requests_total", method="POST", status="429") == 1
        assert total(found, "wari_live_games") == 1
        assert total(found, "wari_database_up") == 1 and total(found, "wari_gateway_connected") == 1
        assert ("wari_gateway_latency_seconds", (("shard", "0"),)) in found

        status, text = await get(port, "/healthz")
        assert status == 200 and json.loads(text) == {"database": "ok", "gateway": "connected"}
        await bot.store.close()
        status, text = await get(port, "/healthz")
        assert status == 503 and json.loads(text)["database"] == "down"
        await press(world.bob, board, enabled_houses(board)[0])  # answered: the database is down
        found = samples((await get(port, "/metrics"))[1])
        assert total(found, "wari_interaction_errors_total", kind="button", error="database") == 1
    finally:
        await bot.stop_metrics()
        await env.shutdown()
        await close_bot(bot)


def test_a_json_log_line_is_one_json_object():
    formatter = JsonFormatter()
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 1, "database: %s", ("wari.sqlite3",), sys.exc_info())
    line = formatter.format(record)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["level"] == "ERROR" and parsed["logger"] == "bot" and parsed["message"] == "database: wari.sqlite3"
    assert "ValueError: boom" in parsed["exc_info"] and parsed["time"].endswith("+00:00")


async def test_every_response_of_discord_py_s_session_is_counted_429s_among_them():
    metrics = Metrics()

    async def limited(_request: web.Request) -> web.Response:
        return web.Response(status=429)

    app = web.Application()
    app.router.add_get("/limited", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.trace_config()]) as session:
            for _ in range(2):
                async with session.get(f"http://127.0.0.1:{port}/limited") as response:
                    assert response.status == 429
    finally:
        await runner.cleanup()
    found = samples(generate_latest(metrics.registry).decode())
    assert total(found, "wari_discord_http_responses_total", status="429") == 2
    assert total(found, "wari_discord_rate_limited_total") == 2


async def test_a_port_taken_stops_the_start_with_one_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = MetricsServer(make_bot("unused.sqlite3"), Metrics(), port, host="127.0.0.1")
        with pytest.raises(MetricsError, match=f"METRICS_PORT {port}"):
            await server.start()
