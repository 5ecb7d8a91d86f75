"""A malformed ``DATABASE_URL`` (a password with an ``@``, ``:``, ``/``, ``?`` or ``#`` left as
it is, a forgotten scheme or host, a port that is no number): the bot stops with a message that
says which part is wrong and quotes nothing of the password, not even a fragment of it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import StorageError, Store

ROOT = Path(__file__).resolve().parents[2]

#: Malformed URLs, each with its password (which must not show) and what the message must name.
MALFORMED = [
    ("postgresql://u:pQ@zX:w0Kj@host/db", "pQ@zX:w0Kj", ["'@'", "%40"]),
    ("u:QzXw7Kj@host/db", "QzXw7Kj", ["must start with postgresql:// or sqlite:///"]),
    ("postgres://user:Qz:Xw7Kj@", "Qz:Xw7Kj", ["cannot connect to the database"]),  # well formed: no host, local
    ("postgresql://u:QzXw7Kj@host:54x2/db", "QzXw7Kj", ["port", "65535"]),
    ("postgresql://u:QzXw7Kj@host:99999/db", "QzXw7Kj", ["port", "65535"]),
    ("postgresql://u:QzXw7Kj@host:5432:5433/db", "QzXw7Kj", ["port", "65535"]),
    ("postgresql://u:QzXw7Kj@host/db?port=5x", "QzXw7Kj", ["port", "65535"]),
    ("postgresql://u:QzXw7Kj/db", "QzXw7Kj", ["port", "'@'"]),  # the host forgotten: the password reads as a port
    ("postgresql://u:QzXw7Kj@[::1/db", "QzXw7Kj", ["IPv6", "']'"]),
    ("postgresql://u:Qz/Xw7Kj@host/db", "Qz/Xw7Kj", ["'@'", "%2F"]),
    ("postgresql://u:Qz?Xw7Kj@host/db", "Qz?Xw7Kj", ["'@'", "%3F"]),
    ("postgresql://u:Qz#Xw7Kj@host/db", "Qz#Xw7Kj", ["'#'", "%23"]),
    ("postgresql://u:QzXw7Kj@host/db?passwordQzXw7Kj", "QzXw7Kj", ["name=value"]),
    ("mysql://u:QzXw7Kj@host/db", "QzXw7Kj", ["mysql://"]),
    ("postgresql:/u:QzXw7Kj@host/db", "QzXw7Kj", ["must start with postgresql:// or sqlite:///"]),
    ("sqlite://u:QzXw7Kj@host", "QzXw7Kj", ["sqlite:///"]),
]


def fragments(secret: str) -> list[str]:
    """Every piece of ``secret`` three characters long: none of them may show."""
    return [secret[start : start + 3] for start in range(len(secret) - 2)]


def shows_nothing_of(secret: str, text: str) -> bool:
    return not [fragment for fragment in fragments(secret) if fragment in text]


@pytest.mark.parametrize("url, secret, names", MALFORMED)
def test_the_bot_stops_on_a_malformed_database_url_saying_what_is_wrong_without_the_password(url, secret, names):
    environ = {**os.environ, "DISCORD_TOKEN": "MTIz.not-a-real-token", "DATABASE_URL": url}
    environ.pop("DATABASE_PATH", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60, check=False
    )
    said = done.stdout + done.stderr
    assert done.returncode in (1, 2) and "Traceback" not in said, said
    assert shows_nothing_of(secret, said), said
    assert all(name in said for name in names), said
    assert len(done.stderr.strip().splitlines()) == 1, said  # one clear line


@pytest.mark.parametrize("url, secret, names", [case for case in MALFORMED if "://" in case[0]])
async def test_opening_a_malformed_url_says_what_is_wrong_without_the_password(url, secret, names, caplog):
    """As ``python -m bot.storage`` and every other way in but the settings open a database."""
    caplog.set_level(logging.DEBUG)
    with pytest.raises(StorageError) as refused:
        await Store.open(url)
    message = str(refused.value)
    assert shows_nothing_of(secret, message + caplog.text), message
    assert all(name in message for name in names if not name.startswith(("cannot", "must"))), message
