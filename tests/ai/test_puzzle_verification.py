"""The generator's check (:func:`bot.ai.puzzles.generate.verified_first_move`): it rejects the
puzzles a second engine refuted (issue 39), and a fixed sample of the shipped puzzles passes it."""

import csv
import hashlib
import io
from pathlib import Path

import pytest

from bot.ai.puzzles import Puzzle, format_line, parse_line, puzzle_by_id, puzzles_for
from bot.ai.puzzles.__main__ import main
from bot.ai.puzzles.generate import CONFIRM_NODES, VERIFY_NODES, verified_first_move
from bot.ai.puzzles.verify import recheck
from bot.ai.tables import VARIANTS as TABLE_VARIANTS
from bot.ai.tables import Table
from bot.ai.tables import build as build_tables
from bot.engine import VARIANTS

pytestmark = pytest.mark.compiled_core  # puzzles are searched by the compiled core

#: The five oware puzzles Aalina refuted, as they were shipped (dropped since): three where another
#: move is better, two whose "change of result" was two losing moves.
REFUTED = {
    "oware-0795": "oware-0795\tw1 oware 2,0,2,1,9,7,7,3,0,7,6,1 0:3 A\t1\tbest:4\tdefense\t1210\t1\t4.25\tsearch300k",
    "oware-0883": "oware-0883\tw1 oware 0,1,0,2,16,2,0,19,0,0,1,1 6:0 A\t2\tbest:4\tdefense\t1490\t1\t4.75\tsearch300k",
    "oware-0207": "oware-0207\tw1 oware 0,0,0,4,2,2,2,3,3,5,4,0 9:14 A\t5\tcapture:3\tcapture\t950\t1\t3\tsearch300k",
    "oware-0089": (
        "oware-0089\tw1 oware 0,0,0,2,0,3,0,0,0,3,2,0 24:14 B\t10,1,11\tcapture:2\tcapture\t1200\t1\t99\tsearch300k"
    ),
    "oware-0900": "oware-0900\tw1 oware 4,0,1,0,0,5,0,0,6,0,3,0 17:12 B\t9\tcapture:2\tcapture\t800\t1\t99\tsearch300k",
}
#: The search that sees oware-0207's answer lose (by 8 seeds): about a minute, too long for CI.
DEEP_ENOUGH_FOR_0207 = 60_000_000


#: The seeds of the tables built here (a third of a second a variant).
SMALL = 8


@pytest.fixture(scope="module")
def small_tables_folder(tmp_path_factory) -> Path:
    """8-seed tables of the variants that have tables: the generator always searches with tables."""
    folder = tmp_path_factory.mktemp("tables")
    for variant in TABLE_VARIANTS:
        build_tables(variant, SMALL, folder, out=io.StringIO())
    return folder


def small_table(folder: Path, variant: str) -> Table | None:
    path = folder / f"{variant}-{SMALL}.bin"
    return Table(variant, SMALL, path.read_bytes()) if path.exists() else None


@pytest.fixture(scope="module")
def small_oware_tables(small_tables_folder) -> Table | None:
    return small_table(small_tables_folder, "oware")


@pytest.mark.parametrize("ident", sorted(set(REFUTED) - {"oware-0207"}))
def test_the_generators_check_rejects_the_puzzles_a_second_engine_refuted(ident, small_oware_tables):
    """oware-0795 and oware-0883: another move catches up at the confirming search. oware-0089
    and oware-0900: the "saving" move loses too (a loss, or an estimate far behind, is no
    change of result against a proven loss)."""
    puzzle = parse_line(REFUTED[ident])
    assert verified_first_move(puzzle.game(), small_oware_tables) is None


#: Why the re-verification fails each (``python -m bot.ai.puzzles verify``), and at which budget.
REFUTED_BECAUSE = {
    "oware-0795": ("margin", VERIFY_NODES),
    "oware-0883": ("margin", CONFIRM_NODES),
    "oware-0089": ("change", VERIFY_NODES),
    "oware-0900": ("change", VERIFY_NODES),
}


@pytest.mark.parametrize("ident", sorted(REFUTED_BECAUSE))
def test_the_re_verification_fails_the_refuted_puzzles_for_the_reason_aalina_gave(ident, small_oware_tables):
    verdict = recheck(parse_line(REFUTED[ident]), small_oware_tables)
    assert not verdict.kept and (verdict.reason, verdict.nodes) == REFUTED_BECAUSE[ident]


def test_verify_drop_removes_the_failed_lines_from_a_data_file_and_nothing_else(
    tmp_path, monkeypatch, capsys, small_tables_folder
):
    kept = puzzle_by_id("oware-0001")
    assert kept is not None
    data = tmp_path / "oware.txt"
    lines = ["# a comment stays", format_line(kept), REFUTED["oware-0795"], REFUTED["oware-0089"]]
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("WARI_TABLES", str(small_tables_folder))
    report = tmp_path / "report.csv"

    assert main(["verify", "--variant", "oware", "--dir", str(tmp_path), "--report", str(report), "--drop"]) == 0
    printed = capsys.readouterr().out
    assert "oware: 3 puzzles, tables: 8 seeds" in printed
    assert (
        "3 of 3 checked, 1 kept, 2 failed (0 another move as good or better, 1 margin smaller than claimed, " in printed
    )
    assert "1 change-of-result claim unproven)" in printed and "2 lines removed" in printed
    assert data.read_text(encoding="utf-8").splitlines() == lines[:2]  # in place, ids unchanged
    rows = list(csv.DictReader(report.open(encoding="utf-8")))
    assert [(row["id"], row["kept"], row["reason"]) for row in rows] == [
        ("oware-0001", "True", ""),
        ("oware-0795", "False", "margin"),
        ("oware-0089", "False", "change"),
    ]


#: The sampled puzzles the fixed check rejected before the re-verification (the last session's
#: sample): all 14 failed it with the 12-seed tables and were withdrawn.
FAILED_THE_RE_VERIFICATION = {
    "wari-0437", "wari-1166", "wari-0011", "oware-0211", "oware-0429", "awari-0007", "awari-0051", "awari-0153",
    "awari-0002", "ouril-0111", "ouril-0014", "ouril-0116", "ouril-0214", "ouril-0134",
}  # fmt: skip


#: The oware puzzles the second engine vetoed firmly in a check of every shipped one (docs/puzzles.md,
#: "A second opinion on oware"), withdrawn; and the four it vetoed where the project's exact tables
#: prove it wrong, kept.
VETOED_BY_A_SECOND_ENGINE = {
    "oware-0151", "oware-0255", "oware-0313", "oware-0403", "oware-0612", "oware-0624", "oware-0858", "oware-0889",
}  # fmt: skip
VETO_REFUTED_BY_THE_TABLES = {"oware-0228", "oware-0813", "oware-0902", "oware-0984"}


def test_the_refuted_puzzles_are_gone_from_the_shipped_file_and_the_others_keep_their_ids():
    assert all(puzzle_by_id(ident) is None for ident in REFUTED)
    assert all(puzzle_by_id(ident) is None for ident in FAILED_THE_RE_VERIFICATION)
    assert all(puzzle_by_id(ident) is None for ident in VETOED_BY_A_SECOND_ENGINE)
    assert all(puzzle_by_id(ident) is not None for ident in VETO_REFUTED_BY_THE_TABLES)
    numbers = [int(puzzle.id.rpartition("-")[2]) for puzzle in puzzles_for("oware")]
    assert numbers == sorted(numbers) and len(numbers) == len(set(numbers))
    assert puzzle_by_id("oware-0794") is not None and puzzle_by_id("oware-0796") is not None


def verification_sample(variant: str) -> list[Puzzle]:
    """Ten of a variant's searched puzzles, the same ones as long as they are shipped: those whose
    ids hash lowest (withdrawing a puzzle leaves the others in; the table-verified ones are
    checked against tables in test_puzzles.py)."""
    searched = [puzzle for puzzle in puzzles_for(variant) if puzzle.verified != "tables"]
    return sorted(searched, key=lambda puzzle: hashlib.sha256(puzzle.id.encode()).digest())[:10]


#: Sampled puzzles that the check rejects at the verifying budget with the 8-seed tables built
#: here, though ``python -m bot.ai.puzzles verify`` kept them with 12-seed tables (docs/puzzles.md).
#: The test fails on any other sampled puzzle, and on one of these that passes (then remove it here).
SMALL_TABLES_ONLY: dict[str, set[str]] = {variant: set() for variant in VARIANTS} | {"awari": {"awari-0035"}}


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sample_of_shipped_puzzles_is_the_unique_best_at_the_verification_depth(variant, small_tables_folder):
    """Every legal move searched with the generator's verifying budget, judged as the
    re-verification judges (:func:`bot.ai.puzzles.verify.recheck`): the first move of each sampled
    puzzle is still unique by the margin, and what it claims holds."""
    table = small_table(small_tables_folder, variant)
    checked = [recheck(puzzle, table, (VERIFY_NODES,)) for puzzle in verification_sample(variant)]
    assert {verdict.id for verdict in checked if not verdict.kept} == SMALL_TABLES_ONLY[variant]
