"""``python -m bot.bench`` runs the real bot through SimCord to the end and reports its figures."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.echo import Echo

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_plays_its_games_to_the_end():
    run = subprocess.run(
        [sys.executable, "-m", "bot.bench", "--games", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "presses/s" in run.stdout
    # both echoes ran beside it, one press each after each of the bot's, and the ratios are printed
    bot_p99 = float(re.search(r"^per press: +p50 [\d.]+ ms, p99 ([\d.]+) ms", run.stdout, re.M)[1])
    for name in ("echo", "echo\\+ping"):
        section = re.search(rf"^{name}: .*\n  per press: +p50 [\d.]+ ms, p99 ([\d.]+) ms.*\n.*\n  bot / {name}: p50 [\d.]+x, p99 ([\d.]+)x",
                            run.stdout, re.M)
        assert section, run.stdout
        echo_p99, ratio = float(section[1]), float(section[2])
        assert echo_p99 > 0 and ratio == pytest.approx(bot_p99 / echo_p99, rel=0.02)


@pytest.mark.parametrize("pings", [False, True], ids=["echo", "echo+ping"])
def test_an_echo_answers_each_press_by_editing_its_board(pings):
    echo = Echo(pings=pings)
    try:
        took = [echo.press() for _ in range(12)]
        assert all(latency > 0 and cpu >= 0 for latency, cpu in took)
        assert echo.board.content == "pressed 1"  # the twelfth press, on the first of the six cups
        assert len(echo.board.components) == 2 and echo.board.embeds[0].description.count("\n") == 13
        # the pinging echo keeps one ping, a new message that mentions the presser; the other posts none
        others = [message for message in echo.channel.history() if message.id != echo.board.id]
        assert [message.content for message in others] == (["<@%d>, your move" % echo.player.id] if pings else [])
    finally:
        echo.close()
