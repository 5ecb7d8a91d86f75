"""``python -m benchmarks.tables_memory`` measures a process with every table loaded: the tables
are mapped, so they show as file-backed memory, not as the process's own."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ai.tables import build

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.compiled_core  # the tables are built by the compiled core
def test_the_tables_are_mapped_not_copied(tmp_path):
    for variant in ("wari", "oware"):
        build(variant, 10, tmp_path, out=io.StringIO())  # 6.3 MiB each
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.tables_memory", "--games", "1", "--time", "0.02"],
        cwd=ROOT,
        env={**os.environ, "WARI_TABLES": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "tables: wari 10 seeds, oware 10 seeds; 12.6 MiB on disk in all" in run.stdout
    memory = re.findall(
        r"^(.+?) +resident +([\d.]+) MiB = file-backed +([\d.]+) MiB \+ anonymous +([\d.]+) MiB$", run.stdout, re.M
    )
    assert [label for label, *_ in memory][:2] == ["at start", "every table opened"], run.stdout
    (_, _, file_start, anon_start), (_, _, _, anon_opened), (_, _, file_end, anon_end) = memory
    assert float(anon_opened) - float(anon_start) < 1.0  # opening maps, it reads nothing in
    assert float(anon_end) - float(anon_start) < 12.6 / 2  # the searches' own tables, not a copy
    assert float(file_end) > float(file_start)  # the probes read the tables' pages
