"""The players' tests do not depend on tables someone built under data/: none unless a test says so."""

import pytest


@pytest.fixture(autouse=True)
def no_endgame_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("WARI_TABLES", str(tmp_path / "no-tables"))
