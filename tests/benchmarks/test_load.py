"""The rate limiter of the benchmarks answers 429 as Discord does and discord.py waits and retries
by itself; ``python -m benchmarks.load`` and ``python -m benchmarks.startup_redraw`` run at a
tiny size and report sane figures."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import discord
import pytest
from discord.ext import commands
from simcord import Env

from benchmarks.ratelimit import GLOBAL_LIMIT, RateLimiter, installed

ROOT = Path(__file__).resolve().parents[2]


class Poster(commands.Bot):
    """A bare bot whose ``/post`` posts ``count`` messages at once, spread over the server's
    first ``channels`` channels."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True), help_command=None
        )

    async def setup_hook(self) -> None:
        @self.tree.command(name="post", description="Post messages at once")
        async def post(interaction: discord.Interaction, count: int, channels: int) -> None:
            await interaction.response.send_message("posting")
            assert interaction.guild is not None
            targets = interaction.guild.text_channels[:channels]
            await asyncio.gather(*(targets[index % channels].send(f"message {index}") for index in range(count)))

        await self.tree.sync()


@asynccontextmanager
async def limited(*, enforce: bool = True) -> AsyncIterator[tuple[Env, RateLimiter]]:
    env = Env(Poster())
    limiter = RateLimiter(lambda: env.now().timestamp(), enforce=enforce)
    with installed(env, limiter):
        await env.start()
        try:
            yield env, limiter
        finally:
            await env.shutdown()
    env.raise_errors()


async def test_a_channel_over_its_limit_is_answered_429_and_discord_py_retries_when_it_says():
    async with limited() as (env, limiter):
        guild = env.create_guild("Limits")
        channel = guild.create_text_channel("busy")
        member = guild.add_member(env.create_user("poster"))
        path = f"/channels/{channel.id}/messages"
        limiter.spend("POST", path, 5)  # another process of the bot posted five messages here just now
        result = await member.slash(channel, "post", count=2, channels=1)
        assert result.acknowledged and result.response is not None  # the answer is exempt
        assert limiter.waiting_in(channel.id)  # the click returned; the posts wait out the limit
        await env.advance_time(5.0)
        assert not limiter.waiting_requests()
        refused, *served = [answer for answer in limiter.answers if answer.path == path]
        assert (refused.status, refused.scope, refused.retry_after) == (429, "user", 5.0)
        assert [answer.status for answer in served] == [200, 200]
        assert all(answer.at >= refused.retry_after for answer in served)  # discord.py waited as told
        assert sorted(message.content for message in channel.history()) == ["message 0", "message 1", "posting"]
        assert limiter.refusals() == {"user": 1}


async def test_over_fifty_requests_a_second_are_answered_429_global_and_all_pass_a_second_later():
    async with limited() as (env, limiter):
        guild = env.create_guild("Limits")
        channels = [guild.create_text_channel(f"c{index}") for index in range(60)]
        member = guild.add_member(env.create_user("poster"))
        await member.slash(channels[0], "post", count=60, channels=60)
        assert limiter.refusals()["global"] >= 1
        assert limiter.waiting_requests() > 0
        await env.advance_time(1.0)
        assert not limiter.waiting_requests()
        assert all(
            f"message {index}" in [m.content for m in channel.history()] for index, channel in enumerate(channels)
        )
        assert limiter.busiest_window == GLOBAL_LIMIT  # never more than Discord allows
        assert limiter.most_invalid() == sum(limiter.refusals().values())


async def test_without_enforcing_the_limiter_only_counts_what_it_would_refuse():
    async with limited(enforce=False) as (env, limiter):
        guild = env.create_guild("Limits")
        channel = guild.create_text_channel("busy")
        member = guild.add_member(env.create_user("poster"))
        await member.slash(channel, "post", count=8, channels=1)
        assert not limiter.waiting_requests() and not limiter.refusals()  # all posted at once
        assert len([m for m in channel.history() if m.content.startswith("message")]) == 8
        assert limiter.would_refuse() == {"user": 3}  # Discord takes 5 in 5 s


async def test_with_a_latency_each_request_takes_its_round_trip_in_simulated_time():
    env = Env(Poster())
    limiter = RateLimiter(lambda: env.now().timestamp(), latency=0.2)
    with installed(env, limiter):
        await env.start()  # the start's calls take no time (SimCord makes them in its own task)
        assert env.now().timestamp() == limiter.started
        try:
            guild = env.create_guild("Far")
            channel = guild.create_text_channel("far")
            member = guild.add_member(env.create_user("poster"))
            await member.slash(channel, "post", count=3, channels=1)  # at once: gathered
            assert limiter.waiting_in(channel.id)  # the click returned; the posts are on their way
            await env.advance_time(1.0)
            posts = [answer for answer in limiter.answers if answer.method == "POST"]
            # discord.py sends the first alone (the bucket unknown), then the other two at once
            assert [round(answer.at, 3) for answer in posts] == [0.1, 0.3, 0.3]
            assert len(channel.history()) == 4
        finally:
            await env.shutdown()
    env.raise_errors()


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def row(output: str, name: str) -> list[str]:
    """The values of a row of a benchmark's table (one per column, split on two spaces)."""
    line = next(line for line in output.splitlines() if line.startswith(name))
    return re.split(r"\s{2,}", line[len(name) :].strip())


def test_the_load_benchmark_reports_its_figures_beside_a_baseline_without_limits():
    output = run("benchmarks.load", "--games", "20", "--minutes", "3")
    header = re.split(r"\s{2,}", output.splitlines()[0].strip())
    assert header == ["rate-limited", "no limits"]
    assert row(output, "games (live at once)") == ["20", "20"]
    presses = [int(value) for value in row(output, "presses ")]
    assert presses[0] == presses[1] > 20 * 3 * 60 / 40  # the same players press alike; ~ a move in 31 s
    for rate in row(output, "presses / simulated s"):
        assert 0.4 < float(rate) < 1.2
    for value in row(output, "REST calls (all) / press"):
        assert 1.0 <= float(value.split(" / ")[1]) <= 4.0
    assert row(output, "429 global / per channel")[0] == "0 / 0"  # twenty games ask little of Discord
    for delays in row(output, "ping delay from move p50/p99/max s"):
        assert delays == "-" or 0 <= float(delays.split(" / ")[0]) <= 120
    assert row(output, "backlog") == ["steady", "steady"]
    assert row(output, "bot errors (SimCord)") == ["0", "0"]


def test_the_startup_redraw_benchmark_redraws_every_board_oldest_first_within_the_global_limit():
    output = run("benchmarks.startup_redraw", "--games", "60", "--spread", "30")
    assert row(output, "boards behind at restart")[0].startswith("60 ")
    assert row(output, "boards still behind at the end") == ["0"]
    after = float(row(output, "all boards redrawn after")[0].split()[0])
    assert 1.0 <= after < 30  # sixty edits cannot all pass in the first second
    global_429, per_channel_429 = map(int, row(output, "429 global / per channel")[0].split(" / "))
    assert global_429 >= 1 and per_channel_429 == 0
    assert row(output, "redrawn oldest change first")[0].startswith("100.0%")
    assert row(output, "bot errors (SimCord)") == ["0"]


@pytest.mark.parametrize("name", ["benchmarks.load", "benchmarks.startup_redraw"])
def test_the_benchmarks_explain_their_options(name):
    assert "--games" in run(name, "--help")
