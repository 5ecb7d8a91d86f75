"""A throwaway PostgreSQL server for the tests, started from nothing and removed afterwards.

The server is Debian's ``postgresql`` package (its binaries in ``/usr/lib/postgresql/N/bin``, or
the folder ``WARI_PG_BIN`` names): ``initdb`` makes a cluster in a temporary folder, ``pg_ctl``
starts it listening only on a unix socket in that folder (no TCP port to collide with), with
``fsync`` off (a test database need not survive a power cut). ``initdb`` refuses to run as root,
so as root (CI) the cluster belongs to the ``postgres`` user the package creates.

Fixtures: ``postgres_server`` (the session's server), ``postgres_url`` (a new, empty database on it
for one test, dropped afterwards). Without the binaries the PostgreSQL tests fail in CI (``CI``
set) and are skipped elsewhere, each saying what to install.

A test run that is killed leaves its server behind; the next run stops every server whose run
is gone (the folders are ``/tmp/wari-pg-*``, each with the pid of the run that made it).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

#: The settings of every server here: no TCP port, enough connections for the race tests.
SERVER_OPTIONS = "-c listen_addresses='' -c max_connections=200 -c shared_buffers=64MB"
#: The test server's: fast over durable (a test database need not survive a power cut).
FAST_OPTIONS = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
PORT = 5432  # names the socket file only: the server listens on no TCP port
FOLDER_PREFIX = "wari-pg-"
INSTALL = "PostgreSQL's server binaries are needed for the PostgreSQL tests: apt-get install postgresql"


class ServerMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def server_binaries() -> Path:
    """The folder of ``initdb``, ``pg_ctl`` and ``psql``: ``WARI_PG_BIN``, else the newest Debian install."""
    named = os.environ.get("WARI_PG_BIN")
    candidates = [Path(named)] if named else sorted(
        (Path(path) for path in glob.glob("/usr/lib/postgresql/*/bin")), key=lambda path: int(path.parent.name), reverse=True
    )
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    raise ServerMissing(INSTALL)


def _as_owner(owner: pwd.struct_passwd | None):
    """What runs a server command as ``owner`` (``None``: as we are)."""
    if owner is None:
        return None

    def drop_privileges() -> None:
        os.setgid(owner.pw_gid)
        os.setuid(owner.pw_uid)

    return drop_privileges


class PostgresServer:
    """One server in a temporary folder. :meth:`start` it, ask for :meth:`new_database`, :meth:`stop` it."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        """``durable``: PostgreSQL's own settings (every commit waits for the disk), as a real
        deployment runs, for benchmarks; else the tests' fast ones."""
        self.binaries = binaries
        self.options = SERVER_OPTIONS if durable else f"{SERVER_OPTIONS} {FAST_OPTIONS}"
        self.owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self.folder: Path | None = None
        self._numbers = itertools.count(1)

    def _run(self, *command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binaries / command[0]), *command[1:]], capture_output=True, text=True, timeout=timeout,
            preexec_fn=_as_owner(self.owner), cwd=self.folder, check=False,
        )

    def start(self) -> float:
        """Make the cluster and start the server; the seconds it took."""
        began = time.perf_counter()
        stop_abandoned_servers(self.binaries)
        self.folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
        (self.folder / "owner.pid").write_text(str(os.getpid()))
        if self.owner is not None:
            os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)
        data = self.folder / "data"
        made = self._run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
        if made.returncode:
            raise RuntimeError(f"initdb failed: {made.stderr.strip() or made.stdout.strip()}")
        log = self.folder / "server.log"
        options = f"-k {self.folder} -p {PORT} {self.options}"
        started = self._run("pg_ctl", "start", "-w", "-D", str(data), "-l", str(log), "-o", options)
        if started.returncode:
            tail = log.read_text()[-2000:] if log.exists() else started.stderr
            raise RuntimeError(f"the test PostgreSQL server did not start: {tail.strip()}")
        return time.perf_counter() - began

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={PORT}"

    def sql(self, statement: str) -> str:
        """Run ``statement`` as the superuser (``psql``); its output."""
        done = self._run("psql", "-h", str(self.folder), "-p", str(PORT), "-U", "postgres", "-d", "postgres",
                         "-v", "ON_ERROR_STOP=1", "-qAt", "-c", statement)
        if done.returncode:
            raise RuntimeError(f"psql failed on {statement!r}: {done.stderr.strip()}")
        return done.stdout

    def new_database(self) -> str:
        """A new empty database; its name."""
        name = f"test_{next(self._numbers)}"
        self.sql(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        if self.folder is None:
            return
        self._run("pg_ctl", "stop", "-D", str(self.folder / "data"), "-m", "immediate", "-w")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


def stop_abandoned_servers(binaries: Path) -> None:
    """Stop and delete the servers of test runs that were killed before they could."""
    for folder in Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*"):
        try:
            os.kill(int((folder / "owner.pid").read_text()), 0)
            continue  # its run is alive
        except (OSError, ValueError):
            pass
        if (folder / "data" / "postmaster.pid").exists():
            subprocess.run([str(binaries / "pg_ctl"), "stop", "-D", str(folder / "data"), "-m", "immediate"],
                           capture_output=True, preexec_fn=_as_owner(pwd.getpwnam("postgres") if os.geteuid() == 0 else None),
                           check=False, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server():
    """The session's PostgreSQL server (started at the first test that needs it)."""
    try:
        server = PostgresServer(server_binaries())
    except ServerMissing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"{missing} (CI runs the PostgreSQL tests: .ci/run installs it)", pytrace=False)
        pytest.skip(str(missing))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A new, empty database for one test; its URL (asyncpg's form, a unix socket)."""
    name = postgres_server.new_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)
