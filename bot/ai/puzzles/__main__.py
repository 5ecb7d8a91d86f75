"""``python -m bot.ai.puzzles build --variant wari --count 1200``: find puzzles in self-play;
``verify --variant wari --jobs 2 [--drop]``: re-check the shipped ones (:mod:`.verify`)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bot.engine import VARIANTS
from bot.engine.core import _core


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.puzzles", description="Puzzles from self-play.")
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="find new puzzles and append them to the variant's data file")
    b.add_argument("--variant", choices=VARIANTS, default="wari")
    b.add_argument("--count", type=int, required=True, help="how many new puzzles to find")
    b.add_argument("--seed", type=int, default=None, help="self-play seed (default: the count already there)")
    b.add_argument("--jobs", type=int, default=1, help="processes playing games (default 1)")
    b.add_argument("--minutes", type=float, default=None, help="stop after this long, whatever was found")
    b.add_argument("--verify-nodes", type=int, default=None, help="node budget of the verifying search of each move")
    b.add_argument("--dir", type=Path, default=None, help="where the data files are (default: the shipped ones)")
    r = commands.add_parser("rerate", help="apply the difficulty formula again to a data file (no search)")
    r.add_argument("--variant", choices=VARIANTS, default="wari")
    r.add_argument("--dir", type=Path, default=None, help="where the data files are (default: the shipped ones)")
    v = commands.add_parser("verify", help="re-check every shipped puzzle of a variant with the generator's check")
    v.add_argument("--variant", choices=VARIANTS, default="wari")
    v.add_argument("--jobs", type=int, default=1, help="processes searching (default 1)")
    v.add_argument(
        "--report", type=Path, default=None, help="CSV file of the verdicts (default /tmp/puzzles-<variant>.csv)"
    )
    v.add_argument("--drop", action="store_true", help="remove the failed puzzles from the data file (no renumbering)")
    v.add_argument("--ids", default="", help="only these puzzles (comma-separated ids)")
    v.add_argument("--limit", type=int, default=None, help="only the first N puzzles (of --ids, or of the file)")
    v.add_argument("--minutes", type=float, default=None, help="stop after this long, with what was checked")
    v.add_argument("--dir", type=Path, default=None, help="where the data files are (default: the shipped ones)")
    args = parser.parse_args(argv)
    if _core is None:
        print("python -m bot.ai.puzzles: the compiled core was not built (pip install -e .)", file=sys.stderr)
        return 1
    from .generate import VERIFY_NODES, build, rerate

    if args.command == "verify":
        return run_verify(args)
    if args.command == "rerate":
        print(f"{rerate(args.variant, args.dir)} ratings changed")
        return 0

    verify = args.verify_nodes or VERIFY_NODES
    new = build(args.variant, args.count, args.seed, args.jobs, args.dir, minutes=args.minutes, verify=verify)
    print(f"{len(new)} new {args.variant} puzzles")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """The ``verify`` command: 0 when every puzzle checked was kept (or the failed ones dropped)."""
    from .verify import verify

    report = args.report or Path(tempfile.gettempdir()) / f"puzzles-{args.variant}.csv"
    only = tuple(ident.strip() for ident in args.ids.split(",") if ident.strip())
    verdicts = verify(args.variant, args.jobs, report, args.drop, args.dir, only, args.limit, args.minutes)
    return 0 if args.drop or all(verdict.kept for verdict in verdicts) else 2


if __name__ == "__main__":
    sys.exit(main())
