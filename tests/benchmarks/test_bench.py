"""``python -m benchmarks.bench`` runs the real bot through SimCord to the end and reports its figures."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from simcord.components import walk_components

from benchmarks.echo import Echo, bot_board

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
    # every echo ran beside it, one press each after each of the bot's, and the ratios are printed
    number = r"([\d.]+)"
    bot_done = float(re.search(rf"^per press: +p50 [\d.]+ ms, p99 {number} ms", run.stdout, re.M)[1])
    bot_answered = float(re.search(rf"^answered in: +p50 [\d.]+ ms, p99 {number} ms", run.stdout, re.M)[1])
    assert 0 < bot_answered <= bot_done * 1.01  # the answer comes before the ping
    ratios = {}
    for name in ("echo", "echo\\+ping", "echo\\+write", "echo\\+v2", "echo\\+v2\\+write"):
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
        ratios[name.replace("\\", "")] = done_ratio
    # the closing table places the bot against the echo, against the echo that answers with the bot's
    # board, and that board against the echo's embed: the same figures as above
    table = dict(re.findall(r"^\| ([a-z0-9+]+ / [a-z0-9+]+) \| [\d.]+x \| ([\d.]+)x \|", run.stdout, re.M))
    assert {"bot / echo", "bot / echo+v2", "echo+v2 / echo", "bot / echo+v2+write"} <= set(table), run.stdout
    assert float(table["bot / echo"]) == ratios["echo"]
    assert float(table["bot / echo+v2"]) == ratios["echo+v2"]
    assert float(table["echo+v2 / echo"]) == pytest.approx(ratios["echo"] / ratios["echo+v2"], rel=0.03, abs=0.01)


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


@pytest.mark.parametrize("writes", [False, True], ids=["echo+v2", "echo+v2+write"])
def test_the_v2_echo_answers_each_press_with_the_board_the_bot_draws(writes):
    echo = Echo(v2=True, writes=writes)
    try:
        took = [echo.press() for _ in range(12)]
        assert all(0 < press.answered <= press.done for press in took)
        board, last_cup = echo.board, echo.cups[12 % len(echo.cups)].rsplit(":", 1)[1]
        # a V2 message (its flag set, no content, no embed) showing the bot's layout, component for
        # component, its status line saying which cup the last press was on
        assert board.flags.components_v2 and board.content == "" and board.embeds == []
        drawn, shown = list(walk_components(list(bot_board()))), list(walk_components(board.components))
        assert len(shown) == 19
        assert [component["type"] for component in shown] == [component["type"] for component in drawn]
        texts = [component.get("content") for component in drawn]
        texts[1] = f"{texts[1]} (pressed {last_cup})"
        assert [component.get("content") for component in shown] == texts
        # the buttons look the same and carry the bot's ids under the echo's prefix, as long
        buttons = [(button.get("label"), button.get("custom_id")) for button in drawn if button["type"] == 2]
        assert [(button.get("label"), button.get("custom_id")) for button in shown if button["type"] == 2] == [
            (label, custom_id.replace("wari:", "echo:", 1)) for label, custom_id in buttons
        ]
        # the writing echo saved each press before answering it; the other has no database
        assert echo.saved() == (f"pressed {last_cup}" if writes else None)
    finally:
        echo.close()
