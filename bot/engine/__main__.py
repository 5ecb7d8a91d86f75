"""Command line of the rules engine: ``python -m bot.engine {perft,replay,bench}``.

- ``perft --variant V --depth D``: one line per depth: depth, move sequences, seconds.
- ``replay [FILE]``: JSON lines in (``{"variant", "first", "moves"}``), one JSON line of states
  out; or, when the input's first line starts with ``[Format``, one or more game records
  (``wari-record/1``, see ``docs/record-format.md``), one JSON line out per record with its final
  position string and result. Reads ``FILE``, or standard input when it is absent or ``-``.
- ``bench``: perft speed in positions per second on each engine, the expert's nodes per second,
  and whole games per second through :class:`Game`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from .core import default_backend, machine_for
from .game import Game, IllegalMoveError, Player
from .notation import NotationError, from_record, position
from .rules import VARIANTS, rules_for

#: How a game record begins (its first tag); anything else is read as JSON lines.
RECORD_START = "[Format"


def _state_json(game: Game) -> dict[str, Any]:
    outcome = game.outcome
    return {
        "pits": list(game.board),
        "stores": list(game.scores),
        "to_move": game.to_move.name if game.to_move is not None else None,
        "legal": game.legal_moves,
        "over": outcome is not None,
        "result": outcome.result if outcome else None,
        "reason": outcome.termination.value if outcome else None,
    }


def replay_line(line: str) -> dict[str, Any]:
    """The answer to one input line of ``replay``: the states, or an error."""
    try:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError("each line must be a JSON object")
        moves = request.get("moves", [])
        if not isinstance(moves, list):
            raise ValueError('"moves" must be a list of house numbers')
        rules = rules_for(request.get("variant", "wari"), request.get("houses"), request.get("seeds"))
        game = Game(rules, Player.parse(str(request.get("first", "A"))))
    except (ValueError, TypeError, RecursionError) as exc:  # json.JSONDecodeError is a ValueError
        return {"error": str(exc) or exc.__class__.__name__, "at": None}
    states = [_state_json(game)]
    for index, house in enumerate(moves):
        try:
            game.play(house)
        except IllegalMoveError as exc:
            states.append({"error": str(exc), "at": index})
            break
        states.append(_state_json(game))
    return {"states": states}


def replay_record(text: str) -> dict[str, Any]:
    """The answer to one game record: its final position and result, or an error.

    >>> from bot.engine.notation import record
    >>> game = Game("wari")
    >>> _ = game.play(5), game.surrender("B")
    >>> replay_record(record(game, "Ama", "Kofi"))  # doctest: +NORMALIZE_WHITESPACE
    {'variant': 'wari', 'plies': 2, 'position': 'w1 wari 4,4,4,4,0,5,5,5,5,4,4,4 0:0 B',
     'result': 'A', 'reason': 'surrender', 'players': ['Ama', 'Kofi']}
    """
    try:
        game, tags = from_record(text)
    except NotationError as exc:
        return {"error": str(exc), "at": None}
    outcome = game.outcome
    return {
        "variant": tags["Variant"],
        "plies": game.ply,
        "position": position(game),
        "result": outcome.result if outcome else None,
        "reason": outcome.termination.value if outcome else None,
        "players": [tags.get("PlayerA", "A"), tags.get("PlayerB", "B")],
    }


def _records(first: str, rest: TextIO) -> list[str]:
    """The records of a stream that begins with the line ``first``: each begins with ``[Format``."""
    records: list[list[str]] = []
    for line in (first, *rest):
        if line.lstrip().startswith(RECORD_START) or not records:
            records.append([])
        records[-1].append(line)
    return ["".join(lines) for lines in records]


def replay(source: TextIO, sink: TextIO) -> int:
    """Answer ``source``: every JSON line (blank lines are skipped) or every game record.

    A game record is recognised by its first line, ``[Format ...``. Returns the games answered.
    """
    answered = 0
    for line in source:
        if not line.strip():
            continue
        if not answered and line.lstrip("\ufeff \t").startswith(RECORD_START):
            for text in _records(line.lstrip("\ufeff"), source):
                sink.write(json.dumps(replay_record(text), separators=(",", ":"), ensure_ascii=False) + "\n")
                answered += 1
            break
        sink.write(json.dumps(replay_line(line), separators=(",", ":")) + "\n")
        answered += 1
    sink.flush()
    return answered


def perft(variant: str, depth: int, houses: int | None, seeds: int | None, out: TextIO) -> None:
    machine = machine_for(rules_for(variant, houses, seeds))
    start = machine.start()
    for d in range(1, depth + 1):
        began = time.perf_counter()
        count = machine.perft(start, d)
        print(f"{d} {count} {time.perf_counter() - began:.3f}s", file=out, flush=True)


def bench(depth: int, out: TextIO, search_seconds: float = 1.0) -> None:
    """Perft from the start of every variant on each engine, the expert's search speed, then
    whole games through the :class:`Game` API."""
    print(f"perft from the start position, one core (python at depth {depth}, compiled at {depth + 3}):", file=out)
    for variant in VARIANTS:
        for backend in _backends():
            machine = machine_for(rules_for(variant), backend)
            plies = depth if backend == "python" else depth + 3
            began = time.perf_counter()
            count = machine.perft(machine.start(), plies)
            seconds = time.perf_counter() - began
            print(
                f"  {variant:6} {backend:8} {count:>11} positions in {seconds:6.2f}s "
                f"= {count / seconds:>13,.0f} positions/s",
                file=out,
            )
    print(f"the expert's search, {search_seconds:g}s from the start position, one core:", file=out)
    from bot.ai.expert import ExpertPlayer

    for variant in VARIANTS:
        decision = ExpertPlayer().choose(Game(variant), search_seconds)
        rate = decision.nodes / max(decision.seconds, 1e-9)
        print(f"  {variant:6} {decision.nodes:>11,} nodes, depth {decision.depth:2} = {rate:>13,.0f} nodes/s", file=out)
    print("random games through Game.play (legal moves, records, end detection):", file=out)
    import random

    rng = random.Random(1)
    for variant in VARIANTS:
        moves, began = 0, time.perf_counter()
        while time.perf_counter() - began < 1.0:
            game = Game(variant)
            while not game.is_over:
                game.play(rng.choice(game.legal_moves))
                moves += 1
        seconds = time.perf_counter() - began
        print(f"  {variant:6} {moves / seconds:>11,.0f} moves/s", file=out)


def _backends() -> list[str]:
    """The engines on this machine: the Python reference, and the compiled core when built."""
    return ["python"] if default_backend() == "python" else ["python", "compiled"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("perft", help="count move sequences from the start position")
    p.add_argument("--variant", default="wari", choices=VARIANTS)
    p.add_argument("--depth", type=int, default=6)
    p.add_argument("--houses", type=int, help="kalah only: houses per player (1..10)")
    p.add_argument("--seeds", type=int, help="kalah only: seeds per house (1..10)")
    r = commands.add_parser("replay", help="replay JSON-lines games or game records (from FILE or standard input)")
    r.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="JSON lines or wari-record/1 records (default: standard input)",
    )
    b = commands.add_parser("bench", help="print perft, search and game speeds")
    b.add_argument(
        "--depth", type=int, default=8, help="perft depth for the Python engine (the compiled one goes 3 deeper)"
    )
    b.add_argument("--search", type=float, default=1.0, help="seconds of search for the nodes/s figure")
    args = parser.parse_args(argv)
    try:
        if args.command == "perft":
            perft(args.variant, args.depth, args.houses, args.seeds, sys.stdout)
        elif args.command == "replay":
            if args.file == "-":
                replay(sys.stdin, sys.stdout)
            else:
                try:
                    source = open(args.file, encoding="utf-8")  # noqa: SIM115 (closed below)
                except OSError as exc:
                    print(
                        f"python -m bot.engine replay: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr
                    )
                    return 1
                with source:
                    replay(source, sys.stdout)
        else:
            bench(args.depth, sys.stdout, args.search)
    except ValueError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing left to say
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
