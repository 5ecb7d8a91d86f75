"""A throwaway PostgreSQL server for the tests, started from nothing and removed afterwards.

The server is Debian's ``postgresql`` package: its binaries are found in the folder ``WARI_PG_BIN``
names, else the newest ``/usr/lib/postgresql/N/bin``, else ``pg_config --bindir``, else ``PATH``.
``initdb`` makes a cluster (trust authentication, superuser ``postgres``) in a new folder
``/tmp/wari-pg-*``, and ``postgres`` runs from it as a child of the test process, listening only on
a unix socket in that folder (no TCP port, so nothing to collide with), with ``fsync`` off (a test
database need not survive a power cut), small ``shared_buffers`` and ``max_connections`` 200. Its
log is the folder's ``server.log``; a server that does not start raises with the log's last lines.
It starts in about half a second (``initdb`` is most of it) and stops in a few hundredths.

``initdb`` refuses to run as root, so as root (CI) the cluster and the server belong to the
``postgres`` user the package creates (``WARI_PG_USER`` names another; ``nobody`` if there is none).

Fixtures (this module is a pytest plugin: ``pytest_plugins = ["tests.postgres"]``):

* ``postgres_server`` (session): the server's URL, ``postgresql://postgres@/postgres?host=…&port=5432``
  (the superuser, on the ``postgres`` database).
* ``postgres_url`` (each test): a new, empty database ``test_N`` on it, as the superuser; dropped
  afterwards, even with connections still open.
* ``postgres_cluster`` (session): the :class:`PostgresServer` itself, for a test that makes
  databases of its own (:meth:`PostgresServer.new_database`) or runs SQL (:meth:`PostgresServer.sql`).

Faults, for the tests of what the bot does when its database fails (on a server of their own,
not the session's): :meth:`PostgresServer.crash` (an immediate shutdown that keeps the data) and
:meth:`PostgresServer.restart`; :meth:`PostgresServer.freeze` and :meth:`PostgresServer.thaw`
(SIGSTOP and SIGCONT to all its processes: a hung server, which neither answers nor fails). With
``passwords=True`` every role but the superuser logs in with its password; :meth:`PostgresServer.url`
names a user and a password.

:func:`execute` runs SQL on any of these URLs through asyncpg. Without the server binaries, the
tests that use these fixtures are skipped, each saying what to install, except in CI (``CI`` set),
where they fail: ``.ci/run`` installs the package.

A test run that is killed (even by SIGKILL) does not leave its server running: the kernel sends the
server SIGQUIT, PostgreSQL's immediate shutdown, when the process that started it ends
(``PR_SET_PDEATHSIG``; so a server must be started from a thread that lives as long as it is
needed: pytest's main thread is). Its folder (some 40 MB) stays behind until the next
:meth:`PostgresServer.start` deletes the folders whose run is gone (each holds the pid of its run).
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import itertools
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Self
from urllib.parse import quote

import pytest

#: What every server here runs with: a unix socket only, enough connections for the race tests.
SETTINGS = {"listen_addresses": "", "max_connections": "200", "shared_buffers": "32MB"}
#: The tests' settings on top: fast over durable (a test database need not survive a power cut).
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
PORT = 5432  # names the socket file only (``.s.PGSQL.5432``): the server listens on no TCP port
FOLDER_PREFIX = "wari-pg-"
SUPERUSER = "postgres"
INSTALL = "PostgreSQL's server binaries are needed for the PostgreSQL tests: apt-get install postgresql"
#: A unix socket's path is at most 107 bytes on Linux (103 on macOS): keep well below.
SOCKET_PATH_LIMIT = 100
#: Seconds to wait for the server to be ready, and for it to stop.
START_TIMEOUT = 60
STOP_TIMEOUT = 30

#: One server started or stopped at a time, one database made at a time (the fixtures run in one
#: thread, but a benchmark or a test may call from others).
_LOCK = threading.Lock()


class ServerMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine (or no user to run them as root)."""


def _version(folder: str) -> tuple[int, ...]:
    """The version in ``/usr/lib/postgresql/<version>/bin``: ``(15,)``, ``(9, 6)``; ``()`` if none."""
    name = Path(folder).parent.name
    return tuple(int(part) for part in name.split(".")) if re.fullmatch(r"\d+(\.\d+)*", name) else ()


def _has_server(folder: Path) -> bool:
    return all((folder / name).is_file() for name in ("initdb", "postgres", "psql"))


def server_binaries() -> Path:
    """The folder of ``initdb``, ``postgres`` and ``psql``: ``WARI_PG_BIN``, else the newest Debian
    install, else ``pg_config --bindir``, else the folder of ``initdb`` on ``PATH``."""
    named = os.environ.get("WARI_PG_BIN")
    if named:
        if _has_server(Path(named)):
            return Path(named)
        raise ServerMissing(f"WARI_PG_BIN={named} has no initdb, postgres and psql; unset it or {INSTALL}")
    candidates = [Path(folder) for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)]
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        bindir = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10, check=True)
        candidates.append(Path(bindir.stdout.strip()))
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(initdb).parent)
    for folder in candidates:
        if _has_server(folder):
            return folder
    raise ServerMissing(INSTALL)


def server_user() -> pwd.struct_passwd | None:
    """Whom the server runs as: ``None`` (as we are) unless we are root, whom ``initdb`` refuses."""
    if os.geteuid() != 0:
        return None
    for name in filter(None, (os.environ.get("WARI_PG_USER"), "postgres", "nobody")):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ServerMissing(
        "as root, the test PostgreSQL server needs a user to run as: apt-get install postgresql "
        "(it creates the user postgres), or name one in WARI_PG_USER"
    )


_PR_SET_PDEATHSIG = 1
_libc = None


def _die_with_parent() -> None:
    """In the server's process, before ``postgres`` starts: SIGQUIT (immediate shutdown) when the
    process that started it ends. After the change of user, which would clear it."""
    if _libc is not None:
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT, 0, 0, 0)


def _load_libc() -> None:
    global _libc
    if _libc is None and os.uname().sysname == "Linux":
        with contextlib.suppress(OSError):
            _libc = ctypes.CDLL(None, use_errno=True)


def _usable_parent(owner: pwd.struct_passwd | None) -> Path:
    """Where the server's folder goes: the temporary folder, unless the socket's path would be too
    long there or would need quoting, or (as root) the server's user could not reach it; ``/tmp`` then."""
    parent = Path(tempfile.gettempdir()).resolve()
    socket = parent / f"{FOLDER_PREFIX}xxxxxxxx" / f".s.PGSQL.{PORT}"
    usable = len(os.fsencode(socket)) <= SOCKET_PATH_LIMIT and re.fullmatch(r"[\w/.-]+", str(parent)) is not None
    if usable and owner is not None:  # every folder above must let others through
        usable = all(folder.stat().st_mode & stat.S_IXOTH for folder in (parent, *parent.parents))
    return parent if usable else Path("/tmp")


def _tail(path: Path, lines: int = 20) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").strip().splitlines()[-lines:])
    return f"(no log at {path})"


class PostgresServer:
    """One server in a temporary folder: :meth:`start` it, ask for :meth:`new_database`s and their
    :meth:`url`, :meth:`stop` it (which deletes the folder). Also a context manager that does both."""

    def __init__(
        self,
        binaries: Path | None = None,
        *,
        durable: bool = False,
        settings: dict | None = None,
        passwords: bool = False,
    ) -> None:
        """``durable``: PostgreSQL's own settings (every commit waits for the disk), as a real
        deployment runs, for benchmarks; else the tests' fast ones. ``settings`` add to or replace
        them. ``passwords``: every role but the superuser logs in with its password
        (``scram-sha-256``), as on a real server; else everyone is trusted."""
        self.binaries = Path(binaries) if binaries is not None else server_binaries()
        self.settings = {**SETTINGS, **({} if durable else FAST_SETTINGS), **(settings or {})}
        self.passwords = passwords
        self.owner = server_user()
        self.folder: Path | None = None
        self.process: subprocess.Popen | None = None
        self._numbers = itertools.count(1)

    # -- running the binaries -------------------------------------------------------------------

    def _as_owner(self) -> dict:
        """The arguments of :mod:`subprocess` that run a command as the server's user."""
        if self.owner is None:
            return {}
        return {"user": self.owner.pw_uid, "group": self.owner.pw_gid, "extra_groups": []}

    def _run(self, *command: str, timeout: float = 60, as_owner: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binaries / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.folder,
            check=False,
            stdin=subprocess.DEVNULL,
            **(self._as_owner() if as_owner else {}),
        )

    @property
    def data(self) -> Path:
        assert self.folder is not None, "the server is not started"
        return self.folder / "data"

    @property
    def log(self) -> Path:
        assert self.folder is not None, "the server is not started"
        return self.folder / "server.log"

    # -- starting and stopping ------------------------------------------------------------------

    def start(self) -> float:
        """Make the cluster and start the server; the seconds it took. Raises ``RuntimeError``
        with the end of the server's log if it does not start (and leaves nothing behind)."""
        with _LOCK:
            if self.folder is not None:
                raise RuntimeError(f"the server in {self.folder} is already started")
            began = time.perf_counter()
            stop_abandoned_servers()
            _load_libc()
            self.folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=_usable_parent(self.owner)))
            try:
                (self.folder / "owner.pid").write_text(f"{os.getpid()}\n")
                if self.owner is not None:
                    os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)
                made = self._run(
                    "initdb",
                    "-D",
                    str(self.data),
                    "-A",
                    "trust",
                    "-U",
                    SUPERUSER,
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                    "--no-instructions",
                )
                if made.returncode:
                    raise RuntimeError(f"initdb failed: {(made.stderr.strip() or made.stdout.strip())[-2000:]}")
                if self.passwords:  # the file initdb wrote keeps its owner
                    (self.data / "pg_hba.conf").write_text(
                        f"local all {SUPERUSER} trust\nlocal all all scram-sha-256\n"
                    )
                self._start_server()
            except BaseException:
                self._kill_and_delete()
                raise
            return time.perf_counter() - began

    def _start_server(self) -> None:
        settings = [arg for name, value in self.settings.items() for arg in ("-c", f"{name}={value}")]
        command = [
            str(self.binaries / "postgres"),
            "-D",
            str(self.data),
            "-k",
            str(self.folder),
            "-p",
            str(PORT),
            *settings,
        ]
        with open(self.log, "ab") as log:
            # Its own session: a Ctrl-C at the terminal reaches pytest only, whose teardown stops the
            # server. preexec_fn only calls prctl through libc, loaded beforehand: nothing in the
            # child waits for a lock another thread of ours might hold.
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                start_new_session=True,
                preexec_fn=_die_with_parent,
                **self._as_owner(),  # noqa: PLW1509
            )
        deadline = time.monotonic() + START_TIMEOUT
        pid_file = self.data / "postmaster.pid"
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the test PostgreSQL server did not start (exit status {self.process.returncode});"
                    f" its log ends:\n{_tail(self.log)}"
                )
            with contextlib.suppress(OSError):
                lines = pid_file.read_text().splitlines()
                # Line 8 is the postmaster's status: "ready" once it accepts connections (what pg_ctl -w waits for).
                if len(lines) >= 8 and lines[0].strip() == str(self.process.pid) and lines[7].strip() == "ready":
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the test PostgreSQL server was not ready within {START_TIMEOUT} s;"
                    f" its log ends:\n{_tail(self.log)}"
                )
            time.sleep(0.005)

    # -- faults: a crash, a restart, a hang ------------------------------------------------------

    def crash(self) -> None:
        """Stop the server as a crash does (SIGQUIT to the postmaster, PostgreSQL's immediate
        shutdown, ``pg_ctl stop -m immediate``): open connections are cut at once, nothing is
        flushed; its data stays, for :meth:`restart`."""
        with _LOCK:
            if self.process is None:
                raise RuntimeError("the server is not running")
            self.thaw()  # a stopped process would not take the signal
            self.process.send_signal(signal.SIGQUIT)
            self.process.wait(STOP_TIMEOUT)
            self.process = None

    def restart(self) -> float:
        """Start the server again on its data after :meth:`crash` (it recovers from its WAL: what
        was committed, with ``synchronous_commit`` on, is there); the seconds it took."""
        with _LOCK:
            if self.folder is None or self.process is not None:
                raise RuntimeError("only a crashed server restarts")
            began = time.perf_counter()
            self._start_server()
            return time.perf_counter() - began

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def processes(self) -> list[int]:
        """The pids of the server's processes: the postmaster and its children (backends, writers)."""
        return [] if self.process is None else [self.process.pid, *_children(self.process.pid)]

    def freeze(self) -> None:
        """Hang the server (SIGSTOP to all its processes), as a hung host or a network partition
        looks from a client: connections neither answer nor fail, new ones are not served.
        Returns once every process is stopped: a signal takes effect when its process next runs
        (on a busy machine, a moment later), and a child forked meanwhile is stopped too."""
        deadline = time.monotonic() + 10
        while True:
            pids = self.processes()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            if all(_stopped(pid) for pid in self.processes()) or time.monotonic() > deadline:
                return
            time.sleep(0.01)

    def thaw(self) -> None:
        """Let a frozen server go on (SIGCONT): it answers what was waiting."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """:meth:`freeze` the server for the block, :meth:`thaw` it after, whatever happens."""
        self.freeze()
        try:
            yield
        finally:
            self.thaw()

    def stop(self) -> float:
        """Stop the server at once (immediate shutdown: open connections are cut) and delete its
        folder; the seconds it took. Does nothing if it is not started."""
        with _LOCK:
            began = time.perf_counter()
            self._kill_and_delete()
            return time.perf_counter() - began

    def _kill_and_delete(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.thaw()  # a frozen server would not take the signal
                with contextlib.suppress(ProcessLookupError):
                    self.process.send_signal(signal.SIGQUIT)
                try:
                    self.process.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> Self:
        if self.folder is None:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- databases ------------------------------------------------------------------------------

    def url(self, database: str = "postgres", *, user: str = SUPERUSER, password: str | None = None) -> str:
        """asyncpg's URL of ``database`` on this server, as the superuser or ``user`` with
        ``password`` (through the unix socket)."""
        assert self.folder is not None, "the server is not started"
        login = quote(user, safe="") + (f":{quote(password, safe='')}" if password is not None else "")
        return f"postgresql://{login}@/{quote(database)}?host={quote(str(self.folder))}&port={PORT}"

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run ``statement`` as the superuser (``psql``, synchronously); its output, one row a line,
        columns separated by ``|``. Raises ``RuntimeError`` with PostgreSQL's message if it fails."""
        assert self.folder is not None, "the server is not started"
        done = self._run(
            "psql",
            "-X",
            "-h",
            str(self.folder),
            "-p",
            str(PORT),
            "-U",
            SUPERUSER,
            "-d",
            database,
            "-v",
            "ON_ERROR_STOP=1",
            "-qAt",
            "-c",
            statement,
            as_owner=False,
        )
        if done.returncode:
            raise RuntimeError(f"psql failed on {statement!r}: {done.stderr.strip()}")
        return done.stdout

    def new_database(self) -> str:
        """A new empty database, ``test_N``; its name (:meth:`url` gives its URL)."""
        with _LOCK:
            name = f"test_{next(self._numbers)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        """Drop ``name``, cutting its open connections."""
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's
    with contextlib.suppress(OSError):  # a zombie has ended
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    return True


def _stopped(pid: int) -> bool:
    """Whether process ``pid`` is stopped (or gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("T", "t")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat_file.read_text().rpartition(")")[2].split()[1]) == pid:
                found.append(int(stat_file.parent.name))
    return found


def stop_abandoned_servers() -> None:
    """Stop the servers of test runs that ended without stopping them (none should still run: they
    die with their run), and delete their folders. Only folders of ours (or, as root, of the server's user)."""
    owners = {os.geteuid()}
    with contextlib.suppress(ServerMissing):
        owner = server_user()
        if owner is not None:
            owners.add(owner.pw_uid)
    parents = {Path(tempfile.gettempdir()).resolve(), Path("/tmp")}
    for folder in (folder for parent in parents for folder in parent.glob(f"{FOLDER_PREFIX}*")):
        try:
            if folder.stat().st_uid not in owners or _alive(int((folder / "owner.pid").read_text())):
                continue
        except (OSError, ValueError):
            continue  # being made or deleted right now, or not ours
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
            if b"postgres" in Path(f"/proc/{pid}/cmdline").read_bytes() and _alive(pid):
                os.kill(pid, signal.SIGQUIT)
                for process in (pid, *_children(pid)):  # left frozen (PostgresServer.freeze): let it stop
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(process, signal.SIGCONT)
                for _ in range(STOP_TIMEOUT * 100):
                    if not _alive(pid):
                        break
                    time.sleep(0.01)
        shutil.rmtree(folder, ignore_errors=True)


async def execute(url: str, statement: str, *args):
    """Run ``statement`` (with ``$1``… ``args``) on the database at ``url`` through asyncpg, on a
    connection of its own; its rows (asyncpg Records). The fixtures' URLs are the superuser's."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return await connection.fetch(statement, *args)
    finally:
        await connection.close()


def unavailable(reason: str):
    """Skip the test for want of the server, saying what to install, or fail it in CI (``CI`` set),
    which must run the PostgreSQL tests (``.ci/run`` installs the package)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI runs the PostgreSQL tests: .ci/run installs it)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_cluster():
    """The session's :class:`PostgresServer`, started at the first test that needs it."""
    try:
        server = PostgresServer(server_binaries())
    except ServerMissing as missing:
        unavailable(str(missing))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_server(postgres_cluster) -> str:
    """The URL of the session's server: the superuser on the ``postgres`` database."""
    return postgres_cluster.url()


@pytest.fixture
def postgres_url(postgres_cluster):
    """A new, empty database for one test; its URL (asyncpg's form, through the unix socket, as
    the superuser). Dropped after the test, even with connections still open."""
    name = postgres_cluster.new_database()
    yield postgres_cluster.url(name)
    postgres_cluster.drop_database(name)
