"""The terminal game (``python -m bot.terminal``), driven with real text in and real text out."""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.engine import Game
from bot.engine.notation import from_position
from bot.render import board_text, result_text
from bot.terminal import EXIT_INTERRUPTED, main, parse_args, play

ROOT = Path(__file__).resolve().parents[2]
MOVE_LINE = re.compile(r"^Move (\d+) · ([AB])\((\d+),(\d+)\)", re.MULTILINE)


def run(text: str, *argv: str, game: Game | None = None, echo: bool = True) -> tuple[int, str]:
    """Play one session with ``text`` as the keyboard; return the exit status and the screen."""
    out = io.StringIO()
    status = play(io.StringIO(text), out, parse_args(list(argv)), echo=echo, game=game)
    return status, out.getvalue()


def shadow(*houses: int, variant: str = "wari", first: str = "A") -> Game:
    game = Game(variant, first)
    for house in houses:
        game.play(house)
    return game


def prompts(screen: str) -> int:
    return screen.count("your move (") + screen.count("Your move (")


def subprocess_run(*argv: str, stdin: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.terminal", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


# -- two players at one keyboard ----------------------------------------------------------


def test_worked_example_of_the_rules_shows_every_board():
    status, screen = run("5\n7\n2\n12\n", "--opponent", "human", "--first", "A")
    assert status == 0
    for ply in range(5):  # the opening and the board after each of the four moves
        assert board_text(shadow(*(5, 7, 2, 12)[:ply])) in screen
    final = shadow(5, 7, 2, 12)
    assert final.board == (5, 1, 6, 6, 0, 6, 0, 6, 6, 5, 5, 0) and final.scores == (0, 2)
    assert screen.count(board_text(final)) == 1
    assert "Move 1 · A(5,4): Player A sowed 4 seeds from house 5." in screen
    assert "Move 4 · B(12,5)+2: Player B sowed 5 seeds from house 12 and captured 2 from house 5." in screen
    assert "Player B · houses 7–12 · prisoners: 2" in screen and "Player A · houses 1–6 · prisoners: 0" in screen
    # After B's capture it is A's turn again, and the input ended there.
    after = screen.split("Move 4 ·")[1]
    assert after.count("Player A, your move (houses 1–6, or s to surrender): ") == 1
    assert screen.endswith("\nGoodbye.\n")
    assert "Traceback" not in screen


def test_every_invalid_input_says_why_and_asks_again():
    keys = ["5", "7", "abc", "5.0", "", "0", "13", "-1", "8", "5", "q", "2"]
    status, screen = run("\n".join(keys) + "\n", "--opponent", "human", "--first", "A")
    assert status == 0
    for message in (
        "'abc' is not a number: type a house number from 1 to 6, or s to surrender.",
        "'5.0' is not a number: type a house number from 1 to 6, or s to surrender.",
        "Please type a house number (1 to 6), or s to surrender.",
        "There is no house 0: houses are numbered 1 to 12 (Player A plays houses 1 to 6).",
        "There is no house 13: houses are numbered 1 to 12 (Player A plays houses 1 to 6).",
        "There is no house -1: houses are numbered 1 to 12 (Player A plays houses 1 to 6).",
        "House 8 is not Player A's: Player A plays houses 1 to 6.",
        "House 5 is empty: choose a house with seeds in it.",
        "To give up, type s to surrender; to leave without finishing, press Ctrl-D.",
    ):
        assert screen.count(message) == 1, message
    # Nine refusals, each followed by the same question again; then A(2,4) was played.
    assert screen.count("Player A, your move (houses 1–6, or s to surrender): ") == 2 + 9
    assert "Move 3 · A(2,4): Player A sowed 4 seeds from house 2." in screen
    assert board_text(shadow(5, 7, 2)) in screen


def test_a_move_the_rules_forbid_is_refused_with_the_engines_reason():
    game = from_position("w1 wari 1,0,0,0,0,1,0,0,0,0,0,0 23:23 A")
    reason = game.why_illegal(1)
    assert reason
    status, screen = run("1\n6\n", "--opponent", "human", game=game)
    assert status == 0
    refusal = f"House 1 cannot be played now. {reason[0].upper() + reason[1:]}."
    assert refusal in screen and "B has no seeds" in refusal
    assert "Move 1 · A(6,1): Player A sowed 1 seed from house 6." in screen


def test_the_refusal_names_the_player_to_move_and_their_houses():
    status, screen = run("3\n7\n", "--opponent", "human", "--first", "B")
    assert "House 3 is not Player B's: Player B plays houses 7 to 12." in screen
    assert "Move 1 · B(7,4): Player B sowed 4 seeds from house 7." in screen


def test_surrender_with_s_ends_the_game_for_the_opponent():
    status, screen = run("5\n  S \n", "--opponent", "human", "--first", "A")
    assert status == 0
    assert "Move 2 · Player B surrendered." in screen
    ending = "Game over. Player A wins: Player B surrendered (score 0–0).\nFinal score: Player A 0, Player B 0.\n"
    assert ending in screen
    assert screen.endswith("Final score: Player A 0, Player B 0.\n")


def test_who_moves_first_is_asked_and_quit_leaves_at_once():
    status, screen = run("q\n", "--opponent", "human")
    assert status == 0
    assert screen == "Who moves first? [1] player A [2] player B [q] quit: q\nGoodbye.\n"
    status, screen = run("q\n", "--opponent", "random")
    assert screen.startswith("Who moves first? [1] you [2] the computer [q] quit: ")
    assert "┌" not in screen


def test_a_wrong_answer_to_who_moves_first_is_asked_again():
    status, screen = run("3\nyes\n2\n7\n", "--opponent", "human")
    assert screen.count("Please type 1, 2 or q.") == 2
    assert "Player B, your move (houses 7–12" in screen and "Move 1 · B(7,4)" in screen


def test_end_of_input_mid_game_says_goodbye_cleanly():
    status, screen = run("5\n7\n", "--opponent", "human", "--first", "A", echo=False)
    assert status == 0
    # Without echo the prompt is left open; the goodbye starts on a fresh line.
    assert screen.endswith("Player A, your move (houses 1–6, or s to surrender): \nGoodbye.\n")
    assert "Game over" not in screen


def test_end_of_input_at_the_first_question():
    status, screen = run("", "--opponent", "expert")
    assert (status, screen) == (0, "Who moves first? [1] you [2] the computer [q] quit: \nGoodbye.\n")


class Interrupting(io.StringIO):
    """A keyboard on which Ctrl-C is pressed after the given lines."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_exits_with_130_and_no_traceback():
    out = io.StringIO()
    status = play(Interrupting("5\n"), out, parse_args(["--opponent", "human", "--first", "A"]))
    assert status == EXIT_INTERRUPTED == 130
    assert out.getvalue().endswith("Player B, your move (houses 7–12, or s to surrender): \nInterrupted. Goodbye.\n")


def test_kalah_extra_turn_asks_the_same_player_again():
    status, screen = run(
        "2\n1\n", "--opponent", "human", "--first", "A", "--variant", "kalah", "--houses", "4", "--seeds", "3"
    )
    assert "Kalah 4x3 for two players" in screen
    assert "Move 1 · A(2,3): Player A sowed 3 seeds from house 2. Extra turn!" in screen
    after = screen.split("Move 1 ·")[1]
    assert after.split("Move 2 ·")[0].rstrip().endswith("Player A, your move (houses 1–4, or s to surrender): 1")
    assert "store: 1" in screen


# -- against the computer -------------------------------------------------------------------


def test_greedy_opponent_is_reproducible_with_a_seed():
    keys = "1\n2\n3\n4\n5\n6\n" * 3
    argv = ("--opponent", "greedy", "--seed", "7", "--first", "B")
    first, second = run(keys, *argv), run(keys, *argv)
    assert first == second
    status, screen = first
    assert "you are A (houses 1–6, the bottom row), the computer is B (houses 7–12, the top row)" in screen
    moves = MOVE_LINE.findall(screen)
    assert moves[0][1] == "B" and len(moves) >= 6
    assert screen.count("The computer (B, greedy) is THINKING") == sum(1 for m in moves if m[1] == "B")
    # Every move shown is the one replayed on a shadow board, and so is the board after it.
    game = Game("wari", "B")
    for _number, player, house, seeds in moves:
        assert game.to_move.name == player and game.board[int(house) - 1] == int(seeds)
        game.play(int(house))
        assert board_text(game) in screen
    assert f"Move {moves[0][0]} · B({moves[0][2]},4): the computer sowed 4 seeds from house {moves[0][2]}." in screen


def test_a_searching_computer_prints_thinking_dots():
    status, screen = run("", "--opponent", "expert", "--time", "0.05", "--first", "B")
    assert status == 0
    assert re.search(r"The computer \(B, expert\) is THINKING\.+ and empties house (7|8|9|10|11|12)\.\n", screen)
    assert "Move 1 · B(" in screen and screen.endswith("Goodbye.\n")


def test_surrender_against_the_computer():
    status, screen = run("s\n", "--opponent", "random", "--first", "A", "--seed", "1")
    assert "Move 1 · You surrendered." in screen
    ending = "Game over. The computer wins: you surrendered (score 0–0).\nFinal score: you (A) 0, the computer (B) 0.\n"
    assert ending in screen


def test_you_win_reads_as_english():
    game = from_position("w1 wari 0,0,0,0,0,1,1,1,0,0,0,0 24:21 A")
    status, screen = run("6\n", "--opponent", "random", game=game)
    assert "Move 1 · A(6,1)+2: you sowed 1 seed from house 6 and captured 2 from house 7." in screen
    assert "Game over. You win 26–21 (more than half of the seeds captured)." in screen
    assert screen.endswith("Final score: you (A) 26, the computer (B) 21.\n")


def test_a_whole_game_against_random_ends_with_the_winner_and_the_score():
    # The human side types 1, 2, ..., 6 over and over: refused houses are simply asked again,
    # so each move is the first legal house after the previous attempt.
    keys = "1\n2\n3\n4\n5\n6\n" * 2000
    status, screen = run(keys, "--opponent", "random", "--seed", "3", "--first", "A")
    assert status == 0 and "Goodbye" not in screen
    game = Game("wari", "A")
    for _, player, house, _ in MOVE_LINE.findall(screen):
        assert game.to_move.name == player
        game.play(int(house))
    assert game.is_over
    expected = result_text(game.outcome, ("you", "the computer"))
    expected = expected.replace("you wins", "you win")
    expected = expected[0].upper() + expected[1:]
    a, b = game.outcome.scores
    tail = f"Game over. {expected}\nFinal score: you (A) {a}, the computer (B) {b}.\n"
    assert screen.endswith(tail)
    assert board_text(game) in screen.split("Game over.")[0]


def test_random_first_player_follows_the_seed():
    def first_mover(seed: str) -> str:
        return run("", "--opponent", "human", "--first", "random", "--seed", seed)[1]

    screens = {first_mover(str(seed)) for seed in range(12)}
    assert any("Player A, your move" in s for s in screens) and any("Player B, your move" in s for s in screens)
    assert first_mover("5") == first_mover("5")


# -- the command line -------------------------------------------------------------------------


def test_bad_options_are_refused_with_usage(capsys):
    assert main(["--houses", "4"]) == 2
    assert "only kalah lets you choose houses" in capsys.readouterr().err
    assert main(["--opponent", "grandmaster"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["--time", "0"]) == 2
    assert main(["--first", "C"]) == 2
    assert "choose A, B or random" in capsys.readouterr().err


def test_help_lists_the_levels_and_the_exit_statuses(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for word in ("--opponent", "--first", "--time", "--seed", "random", "greedy", "mcts", "expert", "130"):
        assert word in text


def test_real_process_with_piped_input():
    done = subprocess_run("--opponent", "human", "--first", "A", stdin="5\n7\n2\n12\nx\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert board_text(shadow(5, 7, 2, 12)) in done.stdout
    # Piped input is echoed after its prompt, so the transcript reads like the screen.
    assert "Player B, your move (houses 7–12, or s to surrender): 12\n" in done.stdout
    assert "'x' is not a number" in done.stdout
    assert done.stdout.endswith("Player A, your move (houses 1–6, or s to surrender): \nGoodbye.\n")


def test_real_process_plays_a_whole_game_against_the_computer():
    done = subprocess_run("--opponent", "random", "--seed", "11", "--first", "B", stdin="1\n2\n3\n4\n5\n6\n" * 2000)
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"Game over\. (You win|The computer wins|Draw),? \d+–\d+ \(.+\)\.\nFinal score: you \(A\) \d+, "
        r"the computer \(B\) \d+\.\n$",
        done.stdout,
    )


def test_real_process_bad_option_has_no_traceback():
    done = subprocess_run("--variant", "chess", stdin="")
    assert done.returncode == 2 and "invalid choice" in done.stderr and "Traceback" not in done.stderr


@contextlib.contextmanager
def sigint_at_default():
    """Children started in this block get Ctrl-C's default action, as from an interactive shell.

    An ignored SIGINT is inherited through exec, and Python then never raises KeyboardInterrupt:
    pytest started as a background job of a script (``make test &``, ``sh -c '... &'``) ignores
    SIGINT, and so would the game started here. Any other handler is reset to the default by exec.
    """
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def read_until(fd: int, done, seconds: float) -> bytes:
    """Bytes read from ``fd`` until ``done(bytes so far)`` or the end of the stream; fails after ``seconds``."""
    seen = b""
    deadline = time.monotonic() + seconds
    while not done(seen):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise AssertionError(f"nothing more after {seconds} s; the output so far: {seen!r}")
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        seen += chunk
    return seen


def test_real_process_ctrl_c_exits_cleanly():
    with sigint_at_default():
        process = subprocess.Popen(
            [sys.executable, "-m", "bot.terminal", "--opponent", "human"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
    try:
        out = process.stdout.fileno()
        # The prompt is written and flushed inside the game's session, right before it reads the
        # keyboard: from then on Ctrl-C is answered, whether it comes before the read or during it.
        seen = read_until(out, lambda seen: seen.endswith(b"[q] quit: "), 120)
        assert seen.endswith(b"[q] quit: ")
        process.send_signal(signal.SIGINT)
        # Standard input stays open: only the signal can end the game, and the output is read to its end.
        seen += read_until(out, lambda seen: False, 120)
        assert process.wait(timeout=120) == EXIT_INTERRUPTED == 130
        err = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            stream.close()
    assert seen.decode().endswith("quit: \nInterrupted. Goodbye.\n")
    assert err == b""


def asleep_in_a_system_call(thread: int) -> bool:
    """Whether the thread (its native id) of this process sleeps in the kernel, other than on a lock
    such as the GIL: here, the game waiting for the keyboard. Without Linux's /proc, say yes."""
    task = Path(f"/proc/self/task/{thread}")
    try:
        state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        return state == "S" and "futex" not in (task / "wchan").read_text()
    except OSError:
        return True


def test_ctrl_c_noted_while_the_game_waits_for_the_keyboard_ends_it_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python answers SIGINT in two steps: its C handler notes the signal at once, and the main
    thread raises KeyboardInterrupt at its next bytecode. A read of the keyboard that starts just
    after the note (or one the signal does not interrupt) never learns of it: Ctrl-C would wait for
    Enter. Here the note is made for certain: the signal is handled on another thread once the game
    waits for a real keyboard pipe, as the real process's race does once in a while."""
    keys_read, keys_write = os.pipe()
    screen_read, screen_write = os.pipe()
    answered = threading.Event()
    pressed: list[float] = []
    game_thread = threading.get_native_id()

    def press_ctrl_c_at_the_prompt() -> None:
        read_until(screen_read, lambda seen: seen.endswith(b"[q] quit: "), 60)
        deadline = time.monotonic() + 60
        while not asleep_in_a_system_call(game_thread) and time.monotonic() < deadline:
            time.sleep(0.001)  # the game is on its way to wait for the keyboard
        pressed.append(time.monotonic())
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # handled here, not on the game's thread
        if not answered.wait(5):  # the game missed it: Enter lets it go on (and notice it)
            os.write(keys_write, b"\n")

    presser = threading.Thread(target=press_ctrl_c_at_the_prompt)
    try:
        with open(keys_read, encoding="utf-8") as keys, open(screen_write, "w", encoding="utf-8") as screen_out:
            monkeypatch.setattr(sys, "stdin", keys)
            monkeypatch.setattr(sys, "stdout", screen_out)
            with sigint_at_default():
                presser.start()
                status = main(["--opponent", "human"])
            answered.set()
        took = time.monotonic() - pressed[0]
        screen = read_until(screen_read, lambda seen: False, 10).decode()
    finally:
        answered.set()
        presser.join()
        for fd in (keys_write, screen_read):
            os.close(fd)
    assert status == EXIT_INTERRUPTED
    assert screen == "\nInterrupted. Goodbye.\n"  # after the prompt, which the presser read
    assert took < 2, f"Ctrl-C was answered only {took:.1f} s later, after Enter"


def test_ctrl_c_while_setting_up_exits_with_130_and_no_traceback(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("bot.terminal.play", interrupted)  # e.g. while the computer player is made
    assert main(["--opponent", "human"]) == EXIT_INTERRUPTED
    assert capsys.readouterr().out == "\nInterrupted. Goodbye.\n"


# -- replaying a game record (--replay) ---------------------------------------------------------


def worked_record(*, surrender: bool = True, tags: dict | None = None) -> tuple[Game, str]:
    from bot.engine.notation import record

    game = shadow(5, 7, 2, 12)
    if surrender:
        game.surrender("B")
    return game, record(
        game, "Ama", "Kofi", tags=tags or {"Event": "Wari for Discord", "Game": "4", "Clock": "1d/move"}
    )


def test_replay_shows_every_board_move_by_move_and_the_result():
    from bot.terminal import replay

    _, text = worked_record()
    out = io.StringIO()
    assert replay(text, io.StringIO(), out) == 0
    screen = out.getvalue()
    assert screen.startswith(
        "Wari · game #4 · Wari for Discord · clock 1d/move\n"
        "A: Ama (houses 1–6, the bottom row) · B: Kofi (houses 7–12, the top row)\n5 moves recorded.\n"
    )
    positions = [board_text(shadow(*(5, 7, 2, 12)[:ply])) for ply in range(5)]
    where = [screen.index(board) for board in positions]
    assert where == sorted(where)  # the opening, then the board after each move, in order
    assert "Move 4 · B(12,5)+2: Kofi sowed 5 seeds from house 12 and captured 2 from house 5." in screen
    assert "Move 5 · Kofi surrendered." in screen
    assert screen.endswith("Game over. Ama wins: Kofi surrendered (score 0–2).\nFinal score: Ama 0, Kofi 2.\n")
    assert "Enter" not in screen  # not stepping: no prompt at all


def test_replay_on_a_terminal_waits_for_enter_and_q_stops():
    from bot.terminal import replay

    _, text = worked_record()
    out = io.StringIO()
    assert replay(text, io.StringIO("\n\nq\n"), out, step=True) == 0
    screen = out.getvalue()
    assert screen.count("Enter: next move · q: stop ") == 3
    assert "Move 2 · B(7,5)" in screen and "Move 3" not in screen
    assert screen.endswith(
        "\nAma · houses 1–6 · prisoners: 0\nEnter: next move · q: stop Goodbye.\n"
    )  # a terminal echoes the q


def test_replay_of_an_unfinished_or_aborted_record_says_why_it_stops():
    from bot.terminal import replay

    _, text = worked_record(surrender=False, tags={"Status": "aborted"})
    out = io.StringIO()
    replay(text, io.StringIO(), out)
    assert out.getvalue().endswith("\nThe record ends after move 4: the game was aborted, with no winner.\n")
    _, text = worked_record(surrender=False, tags={"Game": "9"})
    out = io.StringIO()
    replay(text, io.StringIO(), out)
    assert out.getvalue().endswith("\nThe record ends after move 4: the game was not finished.\n")


def test_real_process_replays_a_record_file_without_waiting_when_input_is_not_a_terminal(tmp_path):
    game, text = worked_record()
    path = tmp_path / "wari-game-4.txt"
    path.write_text(text, encoding="utf-8")
    done = subprocess_run("--replay", str(path), stdin="")
    assert done.returncode == 0, done.stderr
    # The last board is the position after move 4 (its house 12 marked); the surrender sowed nothing.
    assert board_text(game).replace(" 0  5  5", "›0  5  5") in done.stdout and "Enter" not in done.stdout
    assert done.stdout.endswith("Final score: Ama 0, Kofi 2.\n")
    piped = subprocess_run("--replay", "-", stdin=text)
    assert piped.returncode == 0 and piped.stdout == done.stdout


def test_real_process_refuses_a_missing_file_or_a_bad_record(tmp_path):
    missing = subprocess_run("--replay", str(tmp_path / "none.txt"), stdin="")
    assert missing.returncode == 1 and "cannot read" in missing.stderr and missing.stdout == ""
    bad = tmp_path / "bad.txt"
    bad.write_text(worked_record()[1].replace("B(12,5)+2", "B(12,5)+3"), encoding="utf-8")
    done = subprocess_run("--replay", str(bad), stdin="")
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert "is not a valid game record: move 4: the record says B(12,5)+3 but the move is B(12,5)+2" in done.stderr


def test_real_process_on_a_terminal_steps_on_enter(tmp_path):
    import pty

    path = tmp_path / "wari-game-4.txt"
    path.write_text(worked_record()[1], encoding="utf-8")
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.terminal", "--replay", str(path)],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    os.close(terminal)
    seen = b""

    def read_until(marker: bytes, count: int) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while seen.count(marker) < count and time.monotonic() < deadline:
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk

    prompt = "Enter: next move · q: stop ".encode()
    read_until(prompt, 1)
    assert seen.count(prompt) == 1 and b"Move 1" not in seen  # it waits before the first move
    os.write(controller, b"\n")
    read_until(prompt, 2)
    assert b"Move 1 \xc2\xb7 A(5,4)" in seen and b"Move 2" not in seen
    os.write(controller, b"q\n")
    out, err = process.communicate(timeout=30)
    os.close(controller)
    assert process.returncode == 0 and err == b""
    assert (seen + out).decode().endswith("Goodbye.\n") and b"Move 2" not in seen + out
