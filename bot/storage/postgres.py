"""The PostgreSQL back end (asyncpg): one database that several bot processes share.

The queries are the ones SQLite runs (:mod:`.backend`): their ``?`` parameters become asyncpg's
``$1, $2...`` once per statement text, and the schema's migrations are read in PostgreSQL's types
(:func:`postgres_schema`). Transactions are READ COMMITTED; what SQLite gets from one writer at a
time, they get from the guards the queries already carry, which hold between processes:

- a conditional ``UPDATE ... WHERE version = ?`` (a move, a time-out, a ping): a second writer
  waits for the first's row lock, then finds the version moved on and changes nothing;
- unique indexes (one open challenge, one live game per channel; one rating change per game);
- :meth:`PostgresSession.lock`, transaction-level advisory locks, where a write depends on rows
  another transaction might insert (a challenge beside a game in one channel, a player's results
  and rating), and around the migrations, so processes starting at once migrate exactly once.

When the server goes away (a crash, a restart, a failover), every statement meanwhile fails at
once and becomes a :class:`StorageError`, which the cogs answer privately ("I can't reach my game
database right now, so nothing was changed"): a transaction that fails is rolled back whole, so
nothing is changed half-way. The pool drops the broken connections and connects anew on the next
use, so the same process carries on by itself once the server is back; no restart is needed.

A server that hangs, or a network that drops packets without refusing them, would leave a
statement waiting for ever and, one by one, every connection of the pool with it: every channel
would stall. So nothing waits long:

- a statement gets no answer within :data:`COMMAND_TIMEOUT` (5 s): it fails (asyncpg's
  ``command_timeout``, which also bounds the cancellation asyncpg then sends, and the rollback);
- no connection of the pool is free, or a new one cannot be made, within :data:`ACQUIRE_TIMEOUT`
  (5 s): it fails too; the first connection, at start-up, is given :data:`CONNECT_TIMEOUT` (10 s);
- on the server's side, a statement is cancelled after twice :data:`COMMAND_TIMEOUT`
  (``statement_timeout``), and a transaction whose client went silent for
  :data:`IDLE_IN_TRANSACTION` (60 s) is ended, releasing its locks for the other processes
  (``idle_in_transaction_session_timeout``): a partitioned process holds no game for long.

Each becomes a :class:`NoAnswer`, and then a :class:`StorageError` that says how long it waited:
a press gets its answer within about 15 s at worst (a connection, a statement, the cancellation
that follows), and is deferred after 1.5 s (``cogs.wari.games.DEFER_AFTER``), so Discord waits for
it. A write that got no answer is not carried out later, when a hung server wakes up. A write
of one statement that returns its rows (a move) goes in one trip, and says by when the server
may carry it out, by the server's own clock (:meth:`PostgresBackend.write_one`,
:class:`ServerClock`): woken later, the server finds it late and changes nothing. Any other
write runs in a transaction, which the server rolls back when it finds its connection closed.
Only a write carried out just before the server hangs, or a COMMIT sent then, leaves it unknown
whether it took. The migrations have no time limit
(:data:`MIGRATION_TIMEOUT`): on a large database one may take minutes, and the processes starting
meanwhile wait for it.

A URL's password never shows: :func:`without_password` masks it in every message and log line, and
:func:`url_problem` refuses, without quoting it, a URL that a password written wrong broke apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Self
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

import asyncpg

from .backend import MIGRATION_LOCK, Step, StorageError, Written

#: Connections each process keeps open at most: presses in different channels run at once.
POOL_SIZE = 10
#: Seconds a statement may wait for the server's answer (a move is a few milliseconds): longer
#: is a hung server or a lost network. Read when the pool is made (a test makes it small).
COMMAND_TIMEOUT = 5.0
#: Seconds to wait for a connection of the pool: a free one, or a new one connected.
ACQUIRE_TIMEOUT = 5.0
#: Seconds the first connection may take, at start-up (a server far away, a TLS handshake).
CONNECT_TIMEOUT = 10.0
#: Seconds a transaction may sit idle on the server before the server ends it (and its locks).
IDLE_IN_TRANSACTION = 60.0
#: Seconds a statement of a migration may take: no limit worth the name.
MIGRATION_TIMEOUT = 24 * 3600.0
#: Seconds by which the server's clock, read again, must be found ahead of its last reading for
#: a write found late to go once more (:meth:`ServerClock.stepped_forward`): far more than a
#: reading's own error (half the trip it was read in).
CLOCK_STEP = 0.5
#: What shows instead of a password.
MASK = "***"
#: A statement that returns rows (``RETURNING``): written in one trip (:meth:`PostgresBackend.write_one`).
RETURNS_ROWS = re.compile(r"\bRETURNING\b", re.IGNORECASE)
#: The schema's version lives in a table (SQLite has ``PRAGMA user_version``).
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` parameters numbered the PostgreSQL way (``$1``, ``$2``...), leaving
    quoted text alone.

    >>> numbered("SELECT * FROM games WHERE id = ? AND status = '?' AND version = ?")
    "SELECT * FROM games WHERE id = $1 AND status = '?' AND version = $2"
    """
    parts = re.split(r"('(?:[^']|'')*')", sql)
    count = 0
    for index in range(0, len(parts), 2):  # even parts are outside quotes

        def number(_match: re.Match) -> str:
            nonlocal count
            count += 1
            return f"${count}"

        parts[index] = re.sub(r"\?", number, parts[index])
    return "".join(parts)


def postgres_schema(migration: str) -> str:
    """A migration of :mod:`.schema` in PostgreSQL's types: Discord ids need 64-bit integers,
    ``REAL`` is SQLite's double, and ids come from an identity (generated unless given, so that
    :func:`bot.storage.copy` can keep them)."""
    sql = migration.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    return sql.replace(") WITHOUT ROWID", ")")


#: What a port must be, as a message says it.
PORT_RANGE = "a number from 1 to 65535"
#: Where a password goes, for the messages of a URL whose password broke it.
PASSWORD_PLACE = "a password goes after the user name and ':', and ends with the '@' before the host"


def url_problem(url: str) -> str | None:
    """What is wrong with ``url``, a ``postgresql://`` (or ``postgres://``) URL, or ``None`` if
    asyncpg reads it as it is written.

    Worded without quoting any of it: a password with an ``@``, ``/``, ``?`` or ``#`` left
    unencoded breaks the URL apart, and its pieces land in the host, the port, the database or
    the options, where any quote would show them. So the URL must read one way only: at most
    one ``@`` (the user part's end), none after it, no ``#``, ports that are numbers, options
    that are ``name=value`` pairs.

    >>> url_problem("postgresql://wari:s3cret@db.example:5432/wari?sslmode=require") is None
    True
    >>> url_problem("postgresql://wari:s3c@ret@db.example/wari")
    "has more than one '@' before its host: write an '@' in the user name or password as %40"
    """
    rest = url.partition("://")[2]
    if "#" in rest:
        return "has a '#', which ends a URL: write a '#' in the password as %23"
    address = re.split(r"[/?]", rest, maxsplit=1)[0]  # the user part and the hosts
    after = rest[len(address) :]
    if address.count("@") > 1:
        return "has more than one '@' before its host: write an '@' in the user name or password as %40"
    if "@" in after:
        return "has an '@' after its host: write a '/', '?' or '@' in the user name or password as %2F, %3F or %40"
    hosts = address.rpartition("@")[2]
    for host in hosts.split(",") if hosts else ():
        if problem := _host_problem(host):
            return problem
    return _options_problem(after.partition("?")[2])


def _host_problem(host: str) -> str | None:
    """What is wrong with one host of a URL's list (``name``, ``name:port``, ``[IPv6]:port``)."""
    if host.startswith("["):
        bracketed = re.fullmatch(r"\[[^\]]+\](?::(.*))?", host)
        if bracketed is None:
            return "has an IPv6 host that is not written [address] or [address]:port, with its ']'"
        port = bracketed.group(1) or ""
    elif not host:
        return "has an empty host in its list of hosts"
    else:
        port = host.partition(":")[2]
    if port and not _is_port(port):
        return f"has a port that is not {PORT_RANGE} ({PASSWORD_PLACE})"
    return None


def _options_problem(query: str) -> str | None:
    """What is wrong with a URL's options (after ``?``): asyncpg reads them strictly."""
    if not query:
        return None
    fields = [field.partition("=") for field in query.split("&")]
    if any(not equals for _name, equals, _value in fields):
        return "has options after '?' that are not name=value pairs joined by '&'"
    ports = [value for name, _equals, value in fields if unquote(name) == "port"]
    if any(not _is_port(port) for value in ports for port in unquote(value).split(",")):
        return f"has a port option that is not {PORT_RANGE}"
    return None


def _is_port(text: str) -> bool:
    return re.fullmatch(r"[0-9]{1,5}", text) is not None and 1 <= int(text) <= 65535


def _secrets(url: str) -> list[str]:
    """What of ``url`` must never show: its password, in the address or as a parameter, as
    written and decoded; and, in an address without ``@`` (its host forgotten), the text after
    ``user:`` that is no port number, which is its password all the same."""
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    found = []
    if at and ":" in userinfo:
        found.append(userinfo.partition(":")[2])
    if not at and ":" in hostport and not hostport.endswith("]"):
        port = hostport.rpartition(":")[2]
        if not port.isdigit():
            found.append(port)
    found += [value for name, value in parse_qsl(parts.query, keep_blank_values=True) if name == "password"]
    found += [re.sub(r"^password=", "", item) for item in parts.query.split("&") if item.startswith("password=")]
    found += [unquote(secret) for secret in found]
    return sorted({secret for secret in found if secret}, key=len, reverse=True)


def without_password(url: str) -> str:
    """``url`` fit for a log line: its password masked, in the address or as a parameter.

    >>> without_password("postgresql://wari:s3cret@db.example/wari")
    'postgresql://wari:***@db.example/wari'
    >>> without_password("postgresql://wari@/wari?host=/run/postgresql&password=s3cret")
    'postgresql://wari@/wari?host=/run/postgresql&password=***'
    >>> without_password("postgresql://wari:s3cret/wari")  # no host: the password reads as a port
    'postgresql://wari:***/wari'
    """
    try:
        secrets = _secrets(url)
    except ValueError:  # not even a URL (an unclosed IPv6 bracket): nothing of it is fit to show
        return "(a database URL that cannot be read)"
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if at and ":" in userinfo:
        parts = parts._replace(netloc=f"{userinfo.partition(':')[0]}:{MASK}@{hostport}")
    elif not at and ":" in hostport and hostport.rpartition(":")[2] in secrets:
        parts = parts._replace(netloc=f"{hostport.rpartition(':')[0]}:{MASK}")
    query = [f"password={MASK}" if item.startswith("password=") else item for item in parts.query.split("&")]
    return urlunsplit(parts._replace(query="&".join(query)))


def masked(text: str, url: str) -> str:
    """``text`` (an error's message) with every secret of ``url`` masked."""
    try:
        secrets = _secrets(url)
    except ValueError:
        return text
    for secret in secrets:
        text = text.replace(secret, MASK)
    return text


class NoAnswer(TimeoutError):
    """The database did not answer in time: a hung server or a lost network (see the module's
    documentation). An :class:`OSError`, as the back end's other failures to reach it are."""


class FoundLate(NoAnswer):
    """A write of one statement reached the server after the time it carried (:func:`in_time`),
    so the server carried out none of it."""


@contextlib.contextmanager
def _in_time() -> Iterator[None]:
    """asyncpg's time-outs (a bare ``TimeoutError``, which says nothing) as a :class:`NoAnswer`."""
    try:
        yield
    except NoAnswer:
        raise
    except TimeoutError as exc:
        raise NoAnswer(f"no answer from the database within {COMMAND_TIMEOUT:g} s") from exc


def _rowcount(status: str) -> int:
    """The rows a command changed, from its status: ``INSERT 0 1``, ``UPDATE 2``, ``DELETE 0``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PostgresSession:
    """The statements of one transaction on one pooled connection."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._db = connection
        #: How long each statement may take: the pool's :data:`COMMAND_TIMEOUT` (``None``), but
        #: in the migrations' transaction.
        self._timeout: float | None = None

    async def execute(self, sql: str, params: Sequence = ()) -> Written:
        return Written(_rowcount(await self._db.execute(numbered(sql), *params, timeout=self._timeout)))

    async def fetch(self, sql: str, params: Sequence = ()) -> list[asyncpg.Record]:
        return await self._db.fetch(numbered(sql), *params, timeout=self._timeout)

    async def executemany(self, sql: str, rows: Iterable[Sequence]) -> None:
        rows = list(rows)
        if rows:
            await self._db.executemany(numbered(sql), rows, timeout=self._timeout)

    async def read_together(self, queries: Sequence[Step]) -> list[list[asyncpg.Record]]:
        """``queries`` one after the other: a connection runs one statement at a time."""
        return [await self.fetch(query.sql, query.params) for query in queries]

    async def lock(self, *keys: int) -> None:
        """Hold ``keys`` until the transaction ends, taken in order so that two transactions
        locking the same keys cannot deadlock.

        The migrations' lock also lifts the time limits of its transaction: a migration may
        take long (and think long between its statements), and so may the wait of a process
        that starts meanwhile."""
        if MIGRATION_LOCK in keys:
            self._timeout = MIGRATION_TIMEOUT
            await self._db.execute(
                "SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0",
                timeout=self._timeout,
            )
        for key in sorted(set(keys)):
            await self._db.execute("SELECT pg_advisory_xact_lock($1)", key, timeout=self._timeout)

    async def schema_version(self) -> int:
        await self._db.execute(VERSION_TABLE, timeout=self._timeout)
        version = await self._db.fetchval("SELECT max(version) FROM schema_version", timeout=self._timeout)
        return version or 0

    async def set_schema_version(self, number: int) -> None:
        await self._db.execute("DELETE FROM schema_version", timeout=self._timeout)
        await self._db.execute("INSERT INTO schema_version (version) VALUES ($1)", number, timeout=self._timeout)

    async def columns(self, table: str) -> set[str]:
        rows = await self._db.fetch(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1",
            table,
            timeout=self._timeout,
        )
        return {row["column_name"] for row in rows}

    async def after_copy(self) -> None:
        """The identities go on after the largest ids copied."""
        for table in ("games", "challenges", "seeks", "tournaments"):
            await self._db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {table}",
                timeout=self._timeout,
            )


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """What a connection needs before it goes back to the pool: nothing. asyncpg's default
    resets the session (advisory locks, cursors, LISTEN, settings) with a query, one more round
    trip on every use of the pool; the queries here change none of these outside a transaction
    (their locks are transaction-level, released at its end)."""


class ServerClock:
    """The server's clock as this process reads it (on each new connection: :meth:`prepare`; and
    when a write finds itself late: :meth:`stepped_forward`), so that a write of one statement can
    say by when the server may still carry it out (:meth:`by`).

    Kept against this process's performance counter, which only goes on (a jump of this
    machine's clock changes nothing; nor does a simulated Discord, which stops ``time.monotonic``
    between its events); it is off by at most the time of the trip it was read in."""

    def __init__(self) -> None:
        #: The server's time (seconds of the epoch) minus ``time.perf_counter()`` here.
        self._ahead = time.time() - time.perf_counter()

    async def prepare(self, connection: asyncpg.Connection) -> None:
        """A new connection: the server's own limits (see the module's documentation) set, and
        its clock read, in one trip. Set, not sent as start-up parameters: a connection pooler
        (PgBouncer) refuses those by default."""
        statement, idle = round(2 * COMMAND_TIMEOUT * 1000), round(IDLE_IN_TRANSACTION * 1000)
        await self._read(
            connection,
            "SELECT extract(epoch FROM clock_timestamp())::float8 "
            "FROM (SELECT set_config('statement_timeout', $1, false), "
            "set_config('idle_in_transaction_session_timeout', $2, false)) AS limits",
            str(statement),
            str(idle),
        )

    async def stepped_forward(self, connection: asyncpg.Connection) -> bool:
        """Read the server's clock again on ``connection``, where a write just found itself late:
        whether it had stepped forward since it was last read (NTP setting it right, a virtual
        machine resumed) by more than :data:`CLOCK_STEP`, which put the write's time limit too
        early, rather than the server being slow. The new reading is kept either way."""
        before = self._ahead
        await self._read(connection, "SELECT extract(epoch FROM clock_timestamp())::float8")
        return self._ahead - before > CLOCK_STEP

    async def _read(self, connection: asyncpg.Connection, sql: str, *params: str) -> None:
        """Read the server's clock with ``sql`` (which returns it, in seconds of the epoch)."""
        sent = time.perf_counter()
        server_time = await connection.fetchval(sql, *params)
        self._ahead = server_time - (sent + time.perf_counter()) / 2

    def by(self, seconds: float) -> datetime:
        """The server's time ``seconds`` from now."""
        return datetime.fromtimestamp(time.perf_counter() + self._ahead + seconds, UTC)


def in_time(sql: str) -> str:
    """``sql``, a statement that writes and returns its rows, carried out only if the server gets
    to it by the time of its last parameter (a statement that finds itself late fails, dividing
    by zero, and its implicit transaction changes nothing)."""
    return (
        f"WITH written AS ({sql}) SELECT * FROM written "
        "WHERE 1 / (CASE WHEN clock_timestamp() <= ? THEN 1 ELSE 0 END) = 1"
    )


class PostgresBackend:
    """A pool of connections to one database. Open it with :meth:`open`."""

    dialect = "postgresql"
    integrity_errors: tuple[type[Exception], ...] = (asyncpg.IntegrityConstraintViolationError,)
    #: asyncpg's InternalClientError too: a connection the server ended (an outage, a restart, a
    #: failover) can fail with it, asyncpg's protocol caught in the middle (asyncpg issue #1069).
    errors: tuple[type[Exception], ...] = (
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        asyncpg.exceptions.InternalClientError,
        OSError,
    )
    #: No file: backups and integrity checks are PostgreSQL's own (pg_dump, its WAL).
    path = None

    def __init__(self, pool: asyncpg.Pool, url: str, clock: ServerClock) -> None:
        self._pool = pool
        self.label = without_password(url)
        self._clock = clock

    @staticmethod
    def statements(migration: str) -> list[str]:
        return [part.strip() for part in postgres_schema(migration).split(";") if part.strip()]

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> Self:
        """Connect a pool to the database at ``url``.

        :raises StorageError: if the server cannot be reached or refuses the connection.
        """
        if (problem := url_problem(url)) is not None:
            raise StorageError(f"cannot connect to the database: its URL {problem}")
        label = without_password(url)
        clock = ServerClock()
        # No connection kept open for its own sake (min_size 0): asyncpg would otherwise retry a
        # server that is away from a task of its own, a traceback in the log each time; the
        # presses reconnect by themselves. The first connection is made here all the same, so
        # that a server that refuses or is not there says so at start-up.
        pool = asyncpg.create_pool(
            url,
            min_size=0,
            max_size=pool_size,
            reset=_nothing_to_reset,
            init=clock.prepare,
            timeout=CONNECT_TIMEOUT,
            command_timeout=COMMAND_TIMEOUT,
        )
        try:
            await pool
            async with pool.acquire(timeout=CONNECT_TIMEOUT):
                pass
        # A URL asyncpg cannot read fails with ValueError (a port that is no number), OverflowError
        # (a port too large) or asyncpg's ClientConfigurationError (an InterfaceError): url_problem
        # finds those first; one it missed is not quoted, since what asyncpg quotes is a piece of the URL.
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, OverflowError) as exc:
            with contextlib.suppress(asyncpg.InterfaceError):  # a pool that never started
                pool.terminate()
            if isinstance(exc, TimeoutError):
                reason = f"no answer within {CONNECT_TIMEOUT:g} s"
            elif isinstance(exc, ValueError | OverflowError):
                reason = f"asyncpg cannot read its URL ({type(exc).__name__}: check its ports and options)"
            else:
                reason = masked(str(exc), url) or type(exc).__name__
            raise StorageError(f"cannot connect to the database {label}: {reason}") from exc
        return cls(pool, url, clock)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool for the block, waited for at most :data:`ACQUIRE_TIMEOUT`;
        asyncpg's time-outs in the block, a :class:`NoAnswer`."""
        try:
            connection = await self._pool.acquire(timeout=ACQUIRE_TIMEOUT)
        except TimeoutError as exc:
            raise NoAnswer(f"no connection to the database within {ACQUIRE_TIMEOUT:g} s") from exc
        try:
            with _in_time():
                yield connection
        finally:
            with _in_time():
                await self._pool.release(connection)

    async def fetch(self, sql: str, params: Sequence = ()) -> list[asyncpg.Record]:
        async with self._connection() as connection:
            return await connection.fetch(numbered(sql), *params)

    async def write_one(self, sql: str, params: Sequence = ()) -> list[asyncpg.Record]:
        """One statement that writes (a move), committed by itself; its rows (``RETURNING``).

        A statement that the server got but did not answer in time (it hung, the network dropped
        its answer) must not be carried out when the server wakes up, after the bot had said
        that nothing was changed. One that returns its rows goes in one trip, saying by when the
        server may carry it out (:func:`in_time`: half :data:`COMMAND_TIMEOUT` after it is sent,
        by the server's clock); any other in a transaction of its own (three trips), which the
        server rolls back when it finds its connection closed before any COMMIT.

        A write found late was not carried out (it failed as a whole). If the server's clock had
        stepped forward meanwhile (:meth:`ServerClock.stepped_forward`), it was not late: it goes
        once more, with its time limit by the clock read again."""
        if not RETURNS_ROWS.search(sql):
            async with self.transaction() as session:
                return await session.fetch(sql, params)
        async with self._connection() as connection:
            try:
                return await self._write_in_time(connection, sql, params)
            except FoundLate:
                if not await self._clock.stepped_forward(connection):
                    raise
            return await self._write_in_time(connection, sql, params)

    async def _write_in_time(self, connection: asyncpg.Connection, sql: str, params: Sequence) -> list[asyncpg.Record]:
        """:meth:`write_one`'s statement, carried out if the server gets it within half
        :data:`COMMAND_TIMEOUT` from now (the connection is in hand: waiting for one, a busy pool
        is no slow server); :class:`FoundLate` if it got it later."""
        deadline = self._clock.by(COMMAND_TIMEOUT / 2)
        try:
            return await connection.fetch(numbered(in_time(sql)), *params, deadline)
        except asyncpg.DivisionByZeroError as exc:
            raise FoundLate(f"the database got the write too late (after {COMMAND_TIMEOUT / 2:g} s)") from exc

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresSession]:
        """One transaction on a connection of the pool, rolled back on any failure."""
        async with self._connection() as connection, connection.transaction():
            yield PostgresSession(connection)

    async def checkpoint(self) -> tuple[int, int]:
        """Nothing to do: the server checkpoints by itself, apart from every connection's work."""
        return 0, 0

    async def close(self) -> None:
        """Close the pool; on a server that does not answer, after :data:`COMMAND_TIMEOUT`, cut it."""
        try:
            await asyncio.wait_for(self._pool.close(), COMMAND_TIMEOUT)
        except TimeoutError:
            self._pool.terminate()
