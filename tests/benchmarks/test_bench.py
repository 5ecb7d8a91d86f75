"""``python -m benchmarks.bench`` runs the real bot through SimCord to the end and reports its figures."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.echo import Echo

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_plays_its_games_to_the_end():
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench", "--games", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "presses/s" in run.stdout
    # both echoes ran beside it, one press each after each of the bot's, and the ratios are printed
    number = r"([\d.]+)"
    bot_done = float(re.search(rf"^per press: +p50 [\d.]+ ms, p99 {number} ms", run.stdout, re.M)[1])
    bot_answered = float(re.search(rf"^answered in: +p50 [\d.]+ ms, p99 {number} ms", run.stdout, re.M)[1])
    assert 0 < bot_answered <= bot_done * 1.01  # the answer comes before the ping
    for name in ("echo", "echo\\+ping"):
        section = re.search(
            rf"^{name}: .*\n  per press: +p50 [\d.]+ ms, p99 {number} ms.*\n"
            rf"  answered in: +p50 [\d.]+ ms, p99 {number} ms.*\n.*\n"
            rf"  bot / {name}: done p50 [\d.]+x, p99 {number}x; answered p50 [\d.]+x, p99 {number}x; CPU [\d.]+x",
            run.stdout,
            re.M,
        )
        assert section, run.stdout
        done, answered, done_ratio, answered_ratio = map(float, section.groups())  # each printed to 0.01
        assert done_ratio == pytest.approx(bot_done / done, rel=0.02, abs=0.01)
        assert answered_ratio == pytest.approx(bot_answered / answered, rel=0.02, abs=0.01)


@pytest.mark.parametrize("pings", [False, True], ids=["echo", "echo+ping"])
def test_an_echo_answers_each_press_by_editing_its_board(pings):
    echo = Echo(pings=pings)
    try:
        took = [echo.press() for _ in range(12)]
        assert all(0 < press.answered <= press.done and press.cpu >= 0 for press in took)
        assert echo.board.content == "pressed 1"  # the twelfth press, on the first of the six cups
        assert len(echo.board.components) == 2 and echo.board.embeds[0].description.count("\n") == 13
        # the pinging echo keeps one ping, a new message that mentions the presser; the other posts none
        others = [message for message in echo.channel.history() if message.id != echo.board.id]
        assert [message.content for message in others] == ([f"<@{echo.player.id}>, your move"] if pings else [])
    finally:
        echo.close()
