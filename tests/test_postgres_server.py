"""The tests' throwaway PostgreSQL server (:mod:`tests.postgres`): it starts, its databases are
independent, asyncpg reaches them, advisory locks hold across connections, it leaves nothing behind
(not even when its test run is killed), and without the binaries it says what to install."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from tests import postgres
from tests.postgres import PostgresServer, ServerMissing, execute

ROOT = Path(__file__).resolve().parent.parent
#: Well above the few hundredths of a second a stop takes.
STOP_SECONDS = 10


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_the_server_answers_on_its_url(postgres_server):
    assert postgres_server.startswith("postgresql://postgres@/postgres?host=")
    connection = await asyncpg.connect(postgres_server)
    try:
        assert "PostgreSQL" in await connection.fetchval("SELECT version()")
        assert await connection.fetchval("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        assert await connection.fetchval("SHOW fsync") == "off"
        assert await connection.fetchval("SHOW listen_addresses") == ""  # a unix socket only
        assert int(await connection.fetchval("SHOW max_connections")) >= 50
        assert await connection.fetchval("SHOW server_encoding") == "UTF8"
    finally:
        await connection.close()


async def test_each_test_gets_a_fresh_empty_database(postgres_url, postgres_cluster):
    name = await execute(postgres_url, "SELECT current_database()")
    assert name[0][0].startswith("test_")
    assert await execute(postgres_url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == []
    await execute(postgres_url, "CREATE TABLE games (id bigint PRIMARY KEY)")
    # psql, synchronously, sees it too
    assert postgres_cluster.sql("SELECT count(*) FROM pg_tables WHERE tablename = 'games'", name[0][0]).strip() == "1"


async def test_two_databases_are_independent(postgres_cluster):
    first, second = postgres_cluster.new_database(), postgres_cluster.new_database()
    try:
        assert first != second
        await execute(postgres_cluster.url(first), "CREATE TABLE players (name text)")
        await execute(postgres_cluster.url(first), "INSERT INTO players VALUES ($1)", "ama")
        assert await execute(postgres_cluster.url(first), "SELECT name FROM players") == [("ama",)]
        with pytest.raises(asyncpg.UndefinedTableError):
            await execute(postgres_cluster.url(second), "SELECT name FROM players")
    finally:
        postgres_cluster.drop_database(first)
        postgres_cluster.drop_database(second)
    databases = postgres_cluster.sql("SELECT datname FROM pg_database").split()
    assert first not in databases and second not in databases


async def test_a_database_is_dropped_with_its_connections_still_open(postgres_cluster):
    name = postgres_cluster.new_database()
    connection = await asyncpg.connect(postgres_cluster.url(name))
    postgres_cluster.drop_database(name)
    assert connection.is_closed() or not await _answers(connection)
    assert name not in postgres_cluster.sql("SELECT datname FROM pg_database").split()


async def _answers(connection) -> bool:
    try:
        await connection.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ConnectionError):
        return False
    return True


async def test_an_advisory_lock_holds_across_connections(postgres_url):
    first, second = await asyncpg.connect(postgres_url), await asyncpg.connect(postgres_url)
    try:
        assert await first.fetchval("SELECT pg_try_advisory_lock(42)")
        assert await second.fetchval("SELECT pg_try_advisory_lock(42)") is False
        assert await second.fetchval("SELECT pg_try_advisory_lock(43)")  # another key is free
        assert await first.fetchval("SELECT pg_advisory_unlock(42)")
        assert await second.fetchval("SELECT pg_try_advisory_lock(42)")
    finally:
        await first.close()
        await second.close()


async def test_fifty_connections_at_once(postgres_url):
    connections = await asyncio.gather(*(asyncpg.connect(postgres_url) for _ in range(50)))
    try:
        pids = await asyncio.gather(*(c.fetchval("SELECT pg_backend_pid()") for c in connections))
        assert len(set(pids)) == 50
    finally:
        await asyncio.gather(*(c.close() for c in connections))


def test_a_server_starts_and_leaves_nothing_behind():
    server = PostgresServer()
    seconds = server.start()
    folder, pid = server.folder, server.process.pid
    assert seconds < 30 and running(pid)
    assert (folder / "data" / "PG_VERSION").exists()
    expected_owner = os.geteuid() if server.owner is None else server.owner.pw_uid
    assert (folder / "data").stat().st_uid == expected_owner  # as root: the postgres user's
    assert len(os.fsencode(folder / f".s.PGSQL.{postgres.PORT}")) <= postgres.SOCKET_PATH_LIMIT
    assert server.sql("SELECT 1 + 1").strip() == "2"
    assert server.stop() < STOP_SECONDS
    assert not folder.exists() and not running(pid)
    assert server.stop() == pytest.approx(0, abs=1)  # again: nothing to do


def test_a_server_that_does_not_start_says_why_and_leaves_nothing_behind():
    before = set(Path("/tmp").glob(f"{postgres.FOLDER_PREFIX}*"))
    server = PostgresServer(settings={"shared_buffers": "a lot"})
    with pytest.raises(RuntimeError, match='(?s)did not start.*invalid value for parameter "shared_buffers"'):
        server.start()
    assert server.folder is None and server.process is None
    assert set(Path("/tmp").glob(f"{postgres.FOLDER_PREFIX}*")) <= before


STARTS_AND_DIES = """
import os, signal, sys
sys.path.insert(0, {root!r})
from tests.postgres import PostgresServer
server = PostgresServer()
server.start()
print(server.process.pid, server.folder, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_test_run_leaves_no_server_running():
    """SIGKILL gives no teardown: the server dies with its run all the same, and the next start
    deletes the folder left behind."""
    run = subprocess.run(
        [sys.executable, "-c", STARTS_AND_DIES.format(root=str(ROOT))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == -9, run.stderr
    pid, folder = run.stdout.split()
    deadline = time.monotonic() + 10
    while running(int(pid)):
        assert time.monotonic() < deadline, "the server outlived its test run"
        time.sleep(0.05)
    assert Path(folder).exists()  # left behind, until the next start
    postgres.stop_abandoned_servers()
    assert not Path(folder).exists()


def test_a_live_runs_folder_is_left_alone(postgres_cluster):
    postgres.stop_abandoned_servers()
    assert postgres_cluster.folder.exists()
    assert postgres_cluster.sql("SELECT 1").strip() == "1"


def test_the_newest_binaries_are_found(monkeypatch):
    monkeypatch.delenv("WARI_PG_BIN", raising=False)
    try:
        found = postgres.server_binaries()
    except ServerMissing:
        if os.environ.get("CI"):  # .ci/run installs them
            pytest.fail("no PostgreSQL server binaries here", pytrace=False)
        pytest.skip("no PostgreSQL server binaries here")
    assert all((found / name).exists() for name in ("initdb", "postgres", "psql"))
    assert postgres._version("/usr/lib/postgresql/9.6/bin") < postgres._version("/usr/lib/postgresql/15/bin")


def test_without_the_binaries_it_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("WARI_PG_BIN", str(tmp_path))
    with pytest.raises(ServerMissing, match="apt-get install postgresql"):
        postgres.server_binaries()
    monkeypatch.delenv("WARI_PG_BIN")
    monkeypatch.setattr(postgres.glob, "glob", lambda pattern: [])
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_config, no initdb
    with pytest.raises(ServerMissing, match=r"^PostgreSQL's server binaries .*: apt-get install postgresql$"):
        postgres.server_binaries()


def test_without_the_binaries_ci_fails_and_a_developer_skips(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="apt-get install postgresql .*CI runs the PostgreSQL tests"):
        postgres.unavailable(postgres.INSTALL)
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="apt-get install postgresql$"):
        postgres.unavailable(postgres.INSTALL)


async def test_a_server_crashes_restarts_with_what_was_committed_and_freezes():
    """The faults a test can make: an immediate shutdown that keeps the data, a restart on it,
    and a hang (its processes stopped) that a thaw ends."""
    with PostgresServer(settings={"synchronous_commit": "on"}, passwords=True) as server:
        await execute(server.url(), "CREATE TABLE moves (house int)")
        await execute(server.url(), "INSERT INTO moves VALUES (3)")
        connection = await asyncpg.connect(server.url())
        pid = server.process.pid
        server.crash()
        assert not server.running and not running(pid) and server.folder.exists()
        assert not await _answers(connection)  # cut at once
        server.restart()
        assert server.running
        assert await execute(server.url(), "SELECT house FROM moves") == [(3,)]  # committed, so kept
        assert len(server.processes()) > 1  # the postmaster and its helpers
        connection = await asyncpg.connect(server.url())
        with server.frozen():
            assert all(
                Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "T" for pid in server.processes()
            )
            with pytest.raises(TimeoutError):
                await connection.fetchval("SELECT 1", timeout=0.3)
        assert await asyncpg.connect(server.url()) and await execute(server.url(), "SELECT 1") == [(1,)]
        connection.terminate()
        server.sql("CREATE ROLE wari LOGIN PASSWORD 'right'")  # passwords: all but the superuser give theirs
        with pytest.raises(asyncpg.InvalidPasswordError):
            await asyncpg.connect(server.url(user="wari", password="wrong"))
        assert await execute(server.url(user="wari", password="right"), "SELECT current_user") == [("wari",)]


STARTS_FREEZES_AND_DIES = STARTS_AND_DIES.replace("server.start()\n", "server.start()\nserver.freeze()\n")


def test_a_killed_test_run_leaves_no_frozen_server_behind():
    """A run killed while its server is frozen: the server cannot take the signal of its run's
    end until it is let go; the next start lets it go and stops it."""
    run = subprocess.run(
        [sys.executable, "-c", STARTS_FREEZES_AND_DIES.format(root=str(ROOT))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == -9, run.stderr
    pid, folder = run.stdout.split()
    assert running(int(pid))  # stopped, waiting
    postgres.stop_abandoned_servers()
    assert not running(int(pid)) and not Path(folder).exists()
