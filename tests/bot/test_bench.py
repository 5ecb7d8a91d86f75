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
    # the bare echo ran beside it, one press after each of the bot's, and the ratio is printed
    bot_p99 = float(re.search(r"per press: +p50 [\d.]+ ms, p99 ([\d.]+) ms", run.stdout)[1])
    echo_p99 = float(re.search(r"echo per press: +p50 [\d.]+ ms, p99 ([\d.]+) ms", run.stdout)[1])
    ratio = float(re.search(r"bot / echo: +p50 [\d.]+x, p99 ([\d.]+)x", run.stdout)[1])
    assert echo_p99 > 0 and ratio == pytest.approx(bot_p99 / echo_p99, rel=0.02)


def test_the_echo_answers_each_press_by_editing_its_board():
    echo = Echo()
    try:
        took = [echo.press() for _ in range(12)]
        assert all(latency > 0 and cpu >= 0 for latency, cpu in took)
        assert echo.board.content == "pressed 1"  # the twelfth press, on the first of the six cups
        assert len(echo.board.components) == 2 and echo.board.embeds[0].description.count("\n") == 13
    finally:
        echo.close()
