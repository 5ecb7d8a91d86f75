"""The rules the services own, without Discord: each test opens a real SQLite file with the
storage's own API and calls the services as a front end does, through their public
constructors and methods (no store is mocked, no interaction is made)."""

from __future__ import annotations

import random

import pytest

from bot.service import WariService
from bot.storage import Store


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "wari.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def service(store) -> WariService:
    """The game service (challenges, starts, games, pings); a seeded RNG settles 'random' first players."""
    return WariService(store, rng=random.Random(7))
