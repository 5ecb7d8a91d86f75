"""Re-verifying the shipped puzzles with the generator's own check (issue 39).

``WARI_TABLES=/tmp/tables python -m bot.ai.puzzles verify --variant oware --jobs 2`` searches
every legal move of every shipped puzzle of a variant at the verifying budget and at the
confirming budget (:data:`.generate.VERIFY_NODES`, :data:`.generate.CONFIRM_NODES`), with the
endgame tables the expert would use (:meth:`bot.ai.tables.Table.for_variant`), and keeps a puzzle
only if its first move is the unique best by the margin at both (:func:`.solver.unique_best`) and
every result it claims still holds. It prints the figures, writes one CSV row a puzzle, and with
``--drop`` removes the failed lines from the data file (the others keep their ids and order).
"""

from __future__ import annotations

import csv
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import astuple, dataclass, fields
from multiprocessing import get_context
from pathlib import Path
from typing import TextIO

from ..tables import Table
from . import Puzzle, data_file, format_line, parse_line, read_file
from .generate import CONFIRM_NODES, VERIFY_NODES
from .solver import Value, beats, margin_over_rest, move_values, unique_best

#: Why a puzzle fails, as the report says it.
REASONS = {
    "better": "another move as good or better",
    "margin": "margin smaller than claimed",
    "change": "change-of-result claim unproven",
}
#: The margin recorded for a change of result (:func:`.solver.margin_over_rest`).
CHANGE_OF_RESULT = 99.0


@dataclass(frozen=True)
class Verdict:
    """One puzzle re-checked: kept, or failed for a reason of :data:`REASONS` at a budget."""

    id: str
    kept: bool
    #: A key of :data:`REASONS`, empty when kept.
    reason: str
    #: The node budget of the last search (the one that failed, or the confirmation).
    nodes: int
    #: The solution's margin over the next move at that search (99: a change of result).
    margin: float
    #: The margin the data file claims.
    claimed: float
    #: The move that was as good or better, or not beaten by the margin (0 when kept).
    rival: int
    seconds: float


def failure(values: dict[int, Value], puzzle: Puzzle) -> tuple[str, int]:
    """Why ``values`` do not support ``puzzle`` (a reason of :data:`REASONS` and the rival
    move), or ``("", 0)`` when they do: the first move is the unique best by the margin, a claimed
    change of result is one, a ``win`` goal is a won game, a ``draw`` goal an exact draw."""
    first = puzzle.solution[0]
    best = values[first]
    others = {house: value for house, value in values.items() if house != first}
    rival = max(others, key=lambda house: others[house].score)
    if others[rival].score >= best.score:
        return "better", rival
    if unique_best(values) != first:
        beaten_by_result = puzzle.margin >= CHANGE_OF_RESULT
        unbeaten = next(house for house in sorted(others) if not beats(best, others[house]))
        return ("change" if beaten_by_result else "margin"), unbeaten
    if puzzle.margin >= CHANGE_OF_RESULT and margin_over_rest(values, first) < CHANGE_OF_RESULT:
        return "change", rival
    if puzzle.goal.kind == "win" and best.result != 1:
        return "change", rival  # "win the game": a won game no longer
    if puzzle.goal.kind == "draw" and not (best.exact and best.result == 0):
        return "change", rival  # "save the game": not a proven draw
    return "", 0


def recheck(puzzle: Puzzle, table: Table | None, budgets: Sequence[int] = (VERIFY_NODES, CONFIRM_NODES)) -> Verdict:
    """``puzzle`` searched at each budget in turn (stopping at the first that fails it)."""
    began = time.perf_counter()
    game = puzzle.game()
    reason, rival, nodes, margin = "", 0, 0, 0.0
    for nodes in budgets:
        values = move_values(game, nodes, table)
        reason, rival = failure(values, puzzle)
        margin = margin_over_rest(values, puzzle.solution[0])
        if reason:
            break
    seconds = time.perf_counter() - began
    return Verdict(puzzle.id, not reason, reason, nodes, round(margin, 2), puzzle.margin, rival, round(seconds, 2))


def _recheck_line(line: str) -> Verdict:
    """A pool worker's job: the puzzle of a data line, with the variant's tables (opened once a
    process: :meth:`.Table.for_variant` caches them)."""
    puzzle = parse_line(line)
    return recheck(puzzle, Table.for_variant(puzzle.variant))


def recheck_all(
    puzzles: Sequence[Puzzle], jobs: int, on_verdict: Callable[[Verdict], None], minutes: float | None = None
) -> list[Verdict]:
    """Every puzzle re-checked in ``jobs`` processes, in file order; stops early after ``minutes``."""
    lines = [format_line(puzzle) for puzzle in puzzles]
    began = time.perf_counter()
    verdicts: list[Verdict] = []
    pool = get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        results = pool.imap(_recheck_line, lines) if pool else map(_recheck_line, lines)
        for verdict in results:
            verdicts.append(verdict)
            on_verdict(verdict)
            if minutes is not None and time.perf_counter() - began > 60 * minutes:
                break
    finally:
        if pool:
            pool.terminate()
    return verdicts


def summary(variant: str, verdicts: Sequence[Verdict], total: int) -> str:
    """The figures of a run: checked (of how many), kept, dropped by reason, time a puzzle."""
    dropped = Counter(verdict.reason for verdict in verdicts if not verdict.kept)
    kept = sum(verdict.kept for verdict in verdicts)
    seconds = sum(verdict.seconds for verdict in verdicts) / max(1, len(verdicts))
    reasons = ", ".join(f"{dropped[key]} {text}" for key, text in REASONS.items())
    return (
        f"{variant}: {len(verdicts)} of {total} checked, {kept} kept, {len(verdicts) - kept} failed "
        f"({reasons}); {seconds:.2f} s a puzzle in one process"
    )


def write_report(path: Path, verdicts: Iterable[Verdict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(field.name for field in fields(Verdict))
        writer.writerows(astuple(verdict) for verdict in verdicts)


def drop_lines(path: Path, ids: Iterable[str]) -> int:
    """Remove the puzzles ``ids`` from the data file at ``path``; every other line (comments
    included) stays as it is, so no id changes. Returns how many lines went."""
    gone = set(ids)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if line.partition("\t")[0] not in gone]
    path.write_text("".join(kept), encoding="utf-8")
    return len(lines) - len(kept)


def verify(
    variant: str,
    jobs: int = 1,
    report: Path | None = None,
    drop: bool = False,
    folder: Path | None = None,
    only: Sequence[str] = (),
    limit: int | None = None,
    minutes: float | None = None,
    out: TextIO | None = None,
) -> list[Verdict]:
    """Re-check the variant's puzzles (those of ``only`` if given, the first ``limit``), print
    the figures, write the report and, with ``drop``, remove the failed ones from the data file."""
    out = out or sys.stdout  # looked up now: a test captures it
    path = data_file(variant) if folder is None else folder / f"{variant}.txt"
    puzzles = [puzzle for puzzle in read_file(path) if not only or puzzle.id in only][:limit]
    table = Table.for_variant(variant)
    print(f"{variant}: {len(puzzles)} puzzles, tables: {f'{table.seeds} seeds' if table else 'none'}", file=out)

    def show(verdict: Verdict) -> None:
        if not verdict.kept:
            print(
                f"  {verdict.id}: {REASONS[verdict.reason]} at {verdict.nodes // 1000}k nodes "
                f"(margin {verdict.margin:g}, claimed {verdict.claimed:g}, move {verdict.rival})",
                file=out,
                flush=True,
            )

    verdicts = recheck_all(puzzles, jobs, show, minutes)
    print(summary(variant, verdicts, len(puzzles)), file=out)
    if report is not None:
        write_report(report, verdicts)
        print(f"report: {report}", file=out)
    if drop:
        removed = drop_lines(path, (verdict.id for verdict in verdicts if not verdict.kept))
        print(f"{removed} lines removed from {path}", file=out)
    return verdicts
