"""``python -m bot.terminal`` (the ``wari`` command): the classic text game in a terminal.

You play against a friend at the same keyboard or against any computer level. The board is
drawn after every move with :func:`bot.render.board_text` (B's row on top, read right to left;
A's row below; B's prisoners in the left cup, A's in the right one), followed by the last move
in words and a prompt naming the player to move.

- Against the computer you are always player **A** (houses 1..n, the bottom row, nearest to
  you) and the computer is **B**; ``--first`` (or the question asked at the start) only decides
  who moves first.
- At your turn type the number of a house of yours to empty it, or ``s`` to surrender. Anything
  else is refused with the reason (not a number, no such house, not your house, an empty house,
  or the variant's rule that forbids it, in the engine's words) and asked again.
- While the computer searches it shows ``THINKING`` and a dot each time its search reports
  progress (the ``progress`` callback of :meth:`bot.ai.Strategy.choose`).
- End of input (Ctrl-D) at any prompt prints ``Goodbye.`` and exits with status 0; Ctrl-C
  prints ``Interrupted. Goodbye.`` and exits with status 130 (128 + SIGINT, the shell's
  convention). Neither shows a traceback.

When standard input is not a terminal (a pipe or a file), every line read is echoed after its
prompt so that the transcript reads as it would on screen.

``wari --replay FILE`` shows a game record (``wari-record/1``, as ``/wari record`` downloads it;
see ``docs/record-format.md``) move by move: the players and the tags first, the opening board,
then every move in words with the board after it, and the result (or why the record stops).
When standard input is a terminal it waits for Enter before each move (``q`` stops); otherwise
(a pipe, a file, a script, or ``FILE`` is ``-`` for standard input) it prints every board at
once. A file that cannot be read or is not a valid record is refused on standard error with
exit status 1; the other options are ignored.

>>> import io
>>> out = io.StringIO()
>>> play(io.StringIO("5\\n"), out, parse_args(["--opponent", "human", "--first", "A"]))
0
>>> "A(5,4): Player A sowed 4 seeds from house 5." in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import os
import random
import re
import select
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, TextIO

from .ai import DEFAULT_LEVEL, LEVELS, Strategy, make_player
from .engine import VARIANTS, Game, Outcome, Player, Rules, rules_for
from .engine.notation import NotationError, from_record
from .render import board_text, describe_move, houses_of, result_text

__all__ = ["Options", "TerminalGame", "build_parser", "main", "parse_args", "play", "replay"]

HUMAN = "human"
#: Exit statuses of :func:`main` / :func:`play`.
EXIT_OK, EXIT_INTERRUPTED = 0, 130
GOODBYE = "Goodbye."

_SURRENDER = {"s", "surrender"}
_QUIT = {"q", "quit", "exit"}
_INTEGER = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True)
class Options:
    """What the command line chose (see :func:`build_parser`)."""

    rules: Rules
    #: ``"human"`` for two players at one keyboard, else a level of :data:`bot.ai.LEVELS` (B).
    opponent: str = DEFAULT_LEVEL
    #: Seconds the computer may think per move.
    seconds: float = 1.0
    #: Seeds the computer player and a random first player, for reproducible games.
    seed: int | None = None
    #: ``Player.A``, ``Player.B``, ``"random"``, or ``None`` to ask.
    first: Player | str | None = None
    #: ``--replay``: the game record file to show (``-`` for standard input) instead of playing.
    replay: str | None = None


class _EndOfInput(Exception):
    """The input stream ended (Ctrl-D): leave quietly."""


class Lines(Protocol):
    """Where the session reads what is typed: a text stream, or a :class:`Keyboard`."""

    def readline(self) -> str: ...


class Keyboard:
    """The lines typed on a file descriptor, waited for so that Ctrl-C is never missed.

    Python answers SIGINT in two steps: its C handler notes the signal at once, and the main
    thread raises KeyboardInterrupt at its next bytecode. A plain ``readline`` blocks in ``read()``;
    a signal noted after Python's last look but before that ``read()`` starts (or on another
    thread) interrupts nothing, and the game would answer Ctrl-C only after the next Enter. So the
    wait is in ``select()`` on the keyboard *and* on the signals' wake-up pipe, which the C handler
    writes to: a signal at any moment, even just before the wait, ends it, and KeyboardInterrupt
    is raised as soon as Python runs again. Reads happen only once ``select()`` says they will not
    block, so no read can hide a signal either.
    """

    def __init__(self, fd: int, wakeup: int, encoding: str) -> None:
        self.fd, self.wakeup = fd, wakeup
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.pending = ""
        self.ended = False

    def readline(self) -> str:
        """The next line with its newline, the last one without it, ``""`` at the end of input."""
        while "\n" not in self.pending and not self.ended:
            ready, _, _ = select.select([self.fd, self.wakeup], [], [])
            if self.wakeup in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wakeup, 512)  # a signal's byte: its exception, if any, is raised here
            if self.fd in ready:
                chunk = os.read(self.fd, 4096)
                self.ended = not chunk
                self.pending += self.decoder.decode(chunk, final=self.ended)
        line, newline, self.pending = self.pending.partition("\n")
        return line + newline


@contextlib.contextmanager
def keyboard(stream: TextIO) -> Iterator[Lines]:
    """``stream`` read through a :class:`Keyboard` while the block runs, with a wake-up pipe of its
    own for the signals; ``stream`` itself where it has no file descriptor (a test's StringIO)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both of the last two
        yield stream
        return
    wakeup_read, wakeup_write = os.pipe()
    try:
        for end in (wakeup_read, wakeup_write):
            os.set_blocking(end, False)  # the C handler must never block on a full pipe
        previous = signal.set_wakeup_fd(wakeup_write, warn_on_full_buffer=False)
        try:
            yield Keyboard(fd, wakeup_read, stream.encoding)
        finally:
            signal.set_wakeup_fd(previous)
    finally:
        os.close(wakeup_read)
        os.close(wakeup_write)


class TerminalGame:
    """One session of the text game, reading ``stdin`` and writing ``stdout``.

    ``game`` may be a game already set up (for example from a position string); otherwise a new
    one is started after asking who moves first. :meth:`run` returns the exit status.
    """

    def __init__(
        self,
        stdin: Lines,
        stdout: TextIO,
        options: Options,
        *,
        echo: bool = False,
        game: Game | None = None,
    ) -> None:
        self.stdin, self.stdout, self.options, self.echo = stdin, stdout, options, echo
        self.game = game
        self.computer: Strategy | None = None
        if options.opponent != HUMAN:
            self.computer = make_player(options.opponent, options.seed)
        #: How each player is named in sentences ("you" / "the computer", or "Player A" / "Player B").
        self.names: tuple[str, str] = ("Player A", "Player B") if self.computer is None else ("you", "the computer")

    # -- input and output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the next line, stripped; :class:`_EndOfInput` at the end."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise _EndOfInput
        if self.echo:
            self.stdout.write(line if line.endswith("\n") else line + "\n")
            self.stdout.flush()
        return line.strip()

    # -- the session --------------------------------------------------------------------------

    def run(self) -> int:
        try:
            if self.game is None:
                first = self.choose_first()
                if first is None:
                    self.say(GOODBYE)
                    return EXIT_OK
                self.game = Game(self.options.rules, first)
            game = self.game
            self.introduce()
            self.show_position()
            while (mover := game.to_move) is not None:  # None once the game is over
                if self.computer is not None and mover is Player.B:
                    self.computer_moves()
                elif not self.human_moves(mover):
                    break
            self.show_result()
            return EXIT_OK
        except _EndOfInput:
            # The prompt is still on its line: finish it first.
            self.say()
            self.say(GOODBYE)
            return EXIT_OK
        except KeyboardInterrupt:
            self.say()
            self.say(f"Interrupted. {GOODBYE}")
            return EXIT_INTERRUPTED

    def choose_first(self) -> Player | None:
        """The first player from the options, at random, or asked; ``None`` to quit."""
        first = self.options.first
        if first == "random":
            return random.Random(self.options.seed).choice((Player.A, Player.B))
        if first is not None:
            return Player.parse(first) if isinstance(first, str) else Player(first)
        if self.computer is None:
            question = "Who moves first? [1] player A [2] player B [q] quit: "
        else:
            question = "Who moves first? [1] you [2] the computer [q] quit: "
        while True:
            answer = self.ask(question).lower()
            if answer == "1":
                return Player.A
            if answer == "2":
                return Player.B
            if answer in _QUIT:
                return None
            self.say("Please type 1, 2 or q.")

    @property
    def playing(self) -> Game:
        """The game of the session (:meth:`run` sets one up first when none was given)."""
        if self.game is None:
            raise RuntimeError("the session has no game yet: run() sets one up")
        return self.game

    def introduce(self) -> None:
        rules = self.playing.rules
        a, b = (f"houses {houses_of(rules, p)}, the {row} row" for p, row in ((Player.A, "bottom"), (Player.B, "top")))
        title = rules.label.capitalize()
        if self.computer is None:
            self.say(f"{title} for two players: Player A has {a}; Player B has {b}.")
        else:
            self.say(f"{title} against the computer ({self.computer.name}): you are A ({a}), the computer is B ({b}).")
        if rules.stores_on_path:
            self.say("A's store is the cup on the right of the board, B's the cup on the left.")
        else:
            self.say("A's prisoners go in the cup on the right of the board, B's in the cup on the left.")
        self.say("Type the number of a house to empty it, or s to surrender. Ctrl-D leaves the game.")

    def who(self, player: Player) -> str:
        """The player in a sentence with their letter: ``you (A)``, ``the computer (B)``, ``Player A``."""
        return self.names[player] if self.computer is None else f"{self.names[player]} ({player.name})"

    def row_title(self, player: Player) -> str:
        if self.computer is None:
            return self.names[player]
        if player is Player.A:
            return "You (A)"
        return f"The computer (B, {self.computer.name})"

    def show_position(self) -> None:
        """The board framed by who owns each row, with their prisoners (Kalah: store)."""
        game = self.playing
        cup = "store" if game.rules.stores_on_path else "prisoners"
        self.say()
        for player in (Player.B, None, Player.A):
            if player is None:
                self.say(board_text(game))
            else:
                houses = houses_of(game.rules, player)
                self.say(f"{self.row_title(player)} · houses {houses} · {cup}: {game.scores[player]}")

    def show_move(self) -> None:
        game = self.playing
        move = game.last_move
        assert move is not None  # shown after a move was played
        text = describe_move(move, self.names[move.player], game.rules)
        notation, _, words = text.partition(" ")
        text = f"{notation.strip('`')}: {words}" if notation.startswith("`") else _sentence(text)
        self.say()
        self.say(f"Move {game.ply} · {text}")

    # -- the moves ----------------------------------------------------------------------------

    def computer_moves(self) -> None:
        game = self.playing
        assert self.computer is not None  # run() lets the computer move only when there is one
        self.stdout.write(f"{self.row_title(Player.B)} is THINKING")
        self.stdout.flush()

        def dot() -> None:
            self.stdout.write(".")
            self.stdout.flush()

        decision = self.computer.choose(game.copy(), self.options.seconds, dot)
        self.say(f" and empties house {decision.house}.")
        game.play(decision.house)
        self.show_move()
        self.show_position()

    def human_moves(self, mover: Player) -> bool:
        """Ask ``mover`` for a house until one is legal and play it; ``False`` after a surrender."""
        game = self.playing
        rules = game.rules
        own = houses_of(rules, mover)
        first, last = 1 + rules.houses * mover, rules.houses * (mover + 1)
        if self.computer is None:
            prompt = f"{self.names[mover]}, your move (houses {own}, or s to surrender): "
        else:
            prompt = f"Your move (houses {own}, or s to surrender): "
        while True:
            answer = self.ask(prompt)
            house, problem = self.parse_house(answer, mover, first, last)
            if problem:
                self.say(problem)
                continue
            if house is None:  # surrender
                game.surrender(mover)
                self.show_move()
                return False
            game.play(house)
            self.show_move()
            self.show_position()
            return True

    def parse_house(self, answer: str, mover: Player, first: int, last: int) -> tuple[int | None, str | None]:
        """``(house, None)`` for a legal house, ``(None, None)`` to surrender, else ``(None, why)``."""
        game = self.playing
        pits = game.rules.pits
        you = "you" if self.computer is not None else self.names[mover]
        you_play = f"{you} {'play' if you == 'you' else 'plays'} houses {first} to {last}"
        word = answer.lower()
        if word in _SURRENDER:
            return None, None
        if not answer:
            return None, f"Please type a house number ({first} to {last}), or s to surrender."
        if word in _QUIT:
            return None, "To give up, type s to surrender; to leave without finishing, press Ctrl-D."
        if not _INTEGER.fullmatch(answer):
            return None, f"{answer!r} is not a number: type a house number from {first} to {last}, or s to surrender."
        house = int(answer)
        if not 1 <= house <= pits:
            return None, f"There is no house {house}: houses are numbered 1 to {pits} ({you_play})."
        if game.rules.owner(house) != mover:
            whose = "yours" if you == "you" else f"{you}'s"
            return None, f"House {house} is not {whose}: {you_play}."
        if not game.board[house - 1]:
            return None, f"House {house} is empty: choose a house with seeds in it."
        reason = game.why_illegal(house)
        if reason:
            return None, f"House {house} cannot be played now. {_sentence(reason)}."
        return house, None

    # -- the end --------------------------------------------------------------------------------

    def show_result(self) -> None:
        outcome = self.playing.outcome
        assert outcome is not None  # shown once the game is over
        self.say()
        self.say(f"Game over. {self.result_line(outcome)}")
        a, b = outcome.scores
        self.say(f"Final score: {self.who(Player.A)} {a}, {self.who(Player.B)} {b}.")

    def result_line(self, outcome: Outcome) -> str:
        text = result_text(outcome, self.names)
        if outcome.winner is not None and self.names[outcome.winner] == "you":
            text = text.replace("you wins", "you win", 1)
        return _sentence(text)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- replaying a record -----------------------------------------------------------------------

#: Why a record stops before the game's end, from its ``Status`` tag (``/wari record`` writes it).
_UNFINISHED = {
    "aborted": "the game was aborted, with no winner",
    "live": "the game was still being played when the record was written",
}


def replay(text: str, stdin: Lines, stdout: TextIO, *, step: bool = False) -> int:
    """Show the game record ``text`` move by move on ``stdout``; return the exit status.

    With ``step``, wait for a line from ``stdin`` before each move (``q`` or end of input stops).

    :raises NotationError: if ``text`` is not a valid record (nothing is shown then).

    >>> import io
    >>> out = io.StringIO()
    >>> record = '[Format "wari-record/1"]\\n[Variant "wari"]\\n[First "A"]\\n[Result "*"]\\n[Reason ""]\\n\\nA(5,4)\\n'
    >>> replay(record, io.StringIO(), out)
    0
    >>> print(out.getvalue().split("Move 1 · ")[1].splitlines()[0])
    A(5,4): Player A sowed 4 seeds from house 5.
    """
    final, tags = from_record(text)
    rules = final.rules
    start = Game.from_state(rules, final.start_state)
    session = TerminalGame(stdin, stdout, Options(rules=rules, opponent=HUMAN), game=start)
    names = tuple(
        (tags.get(f"Player{side.name}") or "").strip() or f"Player {side.name}" for side in (Player.A, Player.B)
    )
    a, b = (f"Player {side.name}" if name == side.name else name for side, name in zip(Player, names, strict=True))
    session.names = (a, b)
    try:
        _introduce_record(session, tags, final)
        session.show_position()
        for move in final.moves:
            if step and not _wait(session):
                session.say(GOODBYE)
                return EXIT_OK
            start.replay(move)
            session.show_move()
            if move.ending is None:
                session.show_position()
        if start.outcome is not None:
            session.show_result()
        else:
            why = _UNFINISHED.get(tags.get("Status", ""), "the game was not finished")
            session.say()
            session.say(f"The record ends after move {start.ply}: {why}.")
        return EXIT_OK
    except KeyboardInterrupt:
        session.say()
        session.say(f"Interrupted. {GOODBYE}")
        return EXIT_INTERRUPTED


def _introduce_record(session: TerminalGame, tags: dict[str, str], game: Game) -> None:
    rules = game.rules
    parts = [rules.label.capitalize()]
    if tags.get("Game"):
        parts.append(f"game #{tags['Game']}")
    if tags.get("Event"):
        parts.append(tags["Event"])
    if tags.get("Date"):
        parts.append(f"started {tags['Date']}")
    if tags.get("Clock") and tags["Clock"] != "-":
        parts.append(f"clock {tags['Clock']}")
    session.say(" · ".join(parts))
    a, b = session.names
    session.say(
        f"A: {a} (houses {houses_of(rules, Player.A)}, the bottom row) · "
        f"B: {b} (houses {houses_of(rules, Player.B)}, the top row)"
    )
    session.say(f"{game.ply} move{'s' if game.ply != 1 else ''} recorded.")


def _wait(session: TerminalGame) -> bool:
    """Wait for Enter before the next move; ``False`` to stop (``q`` or end of input)."""
    try:
        answer = session.ask("Enter: next move · q: stop ")
    except _EndOfInput:
        session.say()
        return False
    return answer.lower() not in _QUIT


def _replay_file(path: str, keys: Lines) -> int:
    """``wari --replay FILE``: read the record, then :func:`replay` it (stepping on a terminal, on ``keys``)."""
    try:
        if path == "-":
            text, step = sys.stdin.read(), False
        else:
            with open(path, encoding="utf-8-sig") as source:
                text = source.read()
            step = sys.stdin.isatty()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"wari: cannot read {path}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 1
    try:
        return replay(text.lstrip("\ufeff"), keys, sys.stdout, step=step)
    except NotationError as exc:
        print(f"wari: {path} is not a valid game record: {exc}", file=sys.stderr)
        return 1


# -- the command line -------------------------------------------------------------------------


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"the thinking time must be more than 0 and at most 3600 seconds, not {text}")
    return value


def _first(text: str) -> Player | str:
    key = text.strip().lower()
    if key == "random":
        return "random"
    try:
        return Player.parse(key)
    except ValueError:
        raise argparse.ArgumentTypeError(f"choose A, B or random, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    levels = "\n".join(f"  {name:<8} {player.summary}" for name, player in LEVELS.items())
    parser = argparse.ArgumentParser(
        prog="wari",
        description="Play Wari (or Oware, Awari, Ouril, Kalah) in the terminal, against a friend or the computer.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "Against the computer you are player A (houses 1-6, the bottom row) and the computer\n"
            "is B. At your turn type a house number, or s to surrender.\n\n"
            f"Computer levels, weakest first:\n{levels}\n\n"
            "Ctrl-D at any prompt leaves the game (exit status 0); Ctrl-C interrupts it (status 130)."
        ),
    )
    parser.add_argument("--variant", default="wari", type=str.lower, choices=VARIANTS, help="rule set (default: wari)")
    parser.add_argument("--houses", type=int, help="kalah only: houses per player, 1 to 10 (default 6)")
    parser.add_argument("--seeds", type=int, help="kalah only: seeds per house, 1 to 10 (default 4)")
    parser.add_argument(
        "--opponent",
        default=DEFAULT_LEVEL,
        type=str.lower,
        choices=(HUMAN, *LEVELS),
        help=f"'human' for two players at one keyboard, or a computer level (default: {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--time",
        dest="seconds",
        type=_seconds,
        default=1.0,
        metavar="SECONDS",
        help="thinking time per computer move (default: 1.0)",
    )
    parser.add_argument(
        "--seed", type=int, help="seed for the computer's random choices and a random first player (reproducible games)"
    )
    parser.add_argument(
        "--first",
        type=_first,
        metavar="{A,B,random}",
        help="who moves first; A is you against the computer (default: ask)",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        help="show a game record (as /wari record downloads it; - for standard input) move by move instead of playing;"
        " on a terminal, Enter shows the next move",
    )
    return parser


def parse_args(argv: list[str] | None = None) -> Options:
    """Options from command-line words; errors exit through argparse (status 2) with usage."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = rules_for(args.variant, args.houses, args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    return Options(
        rules=rules, opponent=args.opponent, seconds=args.seconds, seed=args.seed, first=args.first, replay=args.replay
    )


def play(
    stdin: Lines, stdout: TextIO, options: Options | None = None, *, echo: bool = False, game: Game | None = None
) -> int:
    """Play one session on these streams and return the exit status (see the module docstring)."""
    return TerminalGame(stdin, stdout, options or parse_args([]), echo=echo, game=game).run()


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # Ctrl-C outside the game's own prompts (while the computer player is set up, or a second
        # Ctrl-C while the first is answered): the same words and status, never a traceback.
        with contextlib.suppress(OSError, ValueError):  # stdout may be gone already
            print(f"\nInterrupted. {GOODBYE}", flush=True)
        return EXIT_INTERRUPTED


def _main(argv: list[str] | None) -> int:
    try:
        options = parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already explained on stderr
        return exc.code if isinstance(exc.code, int) else 2
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # what has reconfigure (a replaced stream may not)
            with contextlib.suppress(ValueError):  # never die on a terminal that cannot draw the board
                stream.reconfigure(errors="replace")
    echo = not sys.stdin.isatty()
    try:
        with keyboard(sys.stdin) as keys:
            if options.replay is not None:
                return _replay_file(options.replay, keys)
            return play(keys, sys.stdout, options, echo=echo)
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): nothing more can be shown.
        with contextlib.suppress(OSError):  # stdout is replaced for the rest of the process: no context to close it in
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 1


if __name__ == "__main__":
    sys.exit(main())
