"""Faults of the PostgreSQL database under a running bot, on a real server of its own.

- The server crashes (immediate shutdown) and comes back: meanwhile every press and command is
  answered privately and changes nothing; the same bot process carries on by itself afterwards,
  and its sweeps catch up (a ping, a time-out due meanwhile).
- The server hangs (its processes stopped, as a hung host or a network partition looks): every
  call still fails within the time limits of :mod:`bot.storage.postgres`, none of the writes it
  got is carried out when it wakes up, and play goes on. One game is locked by another client:
  a press on it is answered within the limits, and presses in other channels play at once.
- The bot is killed (SIGKILL) in the middle of presses: no acknowledged move is lost.
- A database URL's password shows nowhere: not in the errors of a wrong password, an unknown
  role or database, at start-up or from ``python -m bot.storage``, nor in a log line.

The server here is not the session's (:mod:`tests.postgres`): these tests crash and freeze it.
Its commits wait for the WAL to be written (``synchronous_commit``), as a real server's do, so that
a crash keeps what was acknowledged; and every role but the superuser logs in with a password.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import asyncpg
import pytest

from bot.service import Table, WariService
from bot.storage import GameRow, StorageError, Store
from bot.storage import postgres as pg
from tests import postgres
from tests.conftest import fresh_world
from tests.helpers import board_code, board_footer, board_words, pings, press, start_game, stored, told
from tests.postgres import PostgresServer, ServerMissing
from tests.processes import the_one_error_line

ROOT = Path(__file__).resolve().parents[2]
#: A write of one statement, as a move is saved.
SAVE = "UPDATE meta SET value = ? WHERE key = 'board' RETURNING key"
#: What a press or a command is told while the database cannot be reached.
TROUBLE = "I can't reach my game database right now, so nothing was changed. Please try again in a moment."


@pytest.fixture(scope="module")
def server():
    """A server these tests may crash and freeze."""
    try:
        made = PostgresServer(settings={"synchronous_commit": "on"}, passwords=True)
    except ServerMissing as missing:
        postgres.unavailable(str(missing))
    made.start()
    yield made
    made.stop()


@pytest.fixture
def url(server):
    """A new database on it, as the superuser; the server is left running (and thawed) after each test."""
    name = server.new_database()
    yield server.url(name)
    server.thaw()
    if not server.running:
        server.restart()
    server.drop_database(name)


def only_told(result) -> str:
    """The one private answer of an interaction, which must be the only thing it said."""
    (answer,) = told(result)
    assert answer.ephemeral
    return answer.content


def moves(record: str) -> int:
    """The moves of a stored game record."""
    return len(record.split("\n\n")[1].split())


def public(channel) -> list[str]:
    """What everyone sees in the channel, oldest first."""
    return [message.content for message in channel.history() if not message.flags.ephemeral]


async def test_the_server_crashes_and_comes_back_and_the_same_bot_carries_on(server, owned, caplog):
    """The bot logs in with a password, as a deployment's does: no log line of all this shows it."""
    caplog.set_level(logging.DEBUG)
    async with fresh_world(server.url(owned, user="wari", password=SECRET)) as world:
        blitz = world.guild.create_text_channel("blitz")
        result = await world.carol.slash(blitz, "wari challenge", opponent=world.mod, first="me", clock="5+3")
        await world.mod.click(result.response, label="Accept")
        blitz_board = result.response
        await press(world.carol, blitz_board, 3)  # the moderator's five minutes run
        await world.env.advance_time(4 * 60)
        board = await start_game(world, clock="1h/move")
        await world.env.advance_time(30)  # Alice's call to the game is posted
        await press(world.alice, board, 3)  # Bob's turn ping is due in a minute
        before_board, before_blitz = board_code(board), board_code(blitz_board)
        seen, seen_blitz = public(world.channel), public(blitz)
        bot = world.env.bot

        server.crash()
        # Every press and command meanwhile: a private answer that says so, and nothing changed.
        assert only_told(await press(world.bob, board, 8)) == TROUBLE
        assert only_told(await world.carol.slash(world.channel, "wari board")) == TROUBLE
        assert only_told(await world.alice.slash(blitz, "wari challenge", opponent=world.bob)) == TROUBLE
        assert only_told(await press(world.mod, blitz_board, 9)) == TROUBLE
        club = world.env.create_guild("New Club")  # a server the bot has not seen: nothing of it is known
        newcomer, friend = (club.add_member(world.env.create_user(name)) for name in ("newcomer", "friend"))
        assert only_told(await newcomer.slash(club.create_text_channel("play"), "wari challenge", opponent=friend)) == (
            TROUBLE
        )
        # Due meanwhile: the moderator's time-out (in half a minute) and Bob's ping (in a minute).
        await world.env.advance_time(90)
        assert "could not" in caplog.text  # the sweeps tried, and said so
        assert (board_code(board), board_code(blitz_board)) == (before_board, before_blitz)
        assert (public(world.channel), public(blitz)) == (seen, seen_blitz)

        server.restart()
        await world.env.advance_time(30)  # the next sweep: the same process, no restart
        assert world.env.bot is bot
        (ping,) = pings(world)
        assert ping.content.startswith(f"{world.bob.mention}, your move in game #2")
        assert [m for m in public(blitz) if "ran out of time" in m] == [
            f"⏰ {world.mod.mention} ran out of time. {world.carol.mention} wins game #1!"
        ]
        assert await stored(world, "reason", 1) == "time"
        await press(world.bob, board, 8)  # play goes on
        assert board_footer(board) == "Move 2"
        assert moves(await stored(world, "record", 2)) == 2
    assert "cannot read the database postgresql://wari:***@/" in caplog.text and shows_no_password(caplog.text)


#: The time limits in these tests, in seconds (5 s each in production: see bot/storage/postgres.py).
QUICK = 0.5
#: The longest a press may wait for its answer with them: a connection (``ACQUIRE_TIMEOUT``),
#: then a statement and the cancellation (or rollback) after it (``COMMAND_TIMEOUT`` each), and slack.
ANSWER_WITHIN = 3 * QUICK + 1.5


@pytest.fixture
def quick_limits(monkeypatch):
    """Time limits that a test can wait out (read when the bot opens its pool)."""
    for limit in ("COMMAND_TIMEOUT", "ACQUIRE_TIMEOUT", "CONNECT_TIMEOUT"):
        monkeypatch.setattr(pg, limit, QUICK)


async def timed(action):
    """``action``'s result, and the seconds it took."""
    began = time.monotonic()
    result = await action
    return result, time.monotonic() - began


async def two_games(world):
    """Alice and Bob play in #games, Carol and the moderator in #other: both boards."""
    other = world.guild.create_text_channel("other")
    board = await start_game(world)
    result = await world.carol.slash(other, "wari challenge", opponent=world.mod, first="me")
    await world.mod.click(result.response, label="Accept")
    return board, result.response


async def test_a_hung_server_fails_every_call_in_time_and_carries_out_nothing_late(server, url, quick_limits):
    """Nothing answers and nothing fails (the server's processes are stopped): every read and
    write waiting on it, three times as many as the pool has connections, fails in time with a
    message that says so; once it answers again, it carries out none of the writes it got.

    (A SimCord story cannot show this one: its clock is virtual, and while the bot waits on a
    socket that never answers, it does not move. The story below shows a press answered in time
    when one game is locked, on a server that answers otherwise.)"""
    store = await Store.open(url)
    try:
        await store.set_meta("board", "before")
        for _ in range(2):  # a move's statement, ready on a connection: it is sent in one piece
            await store.database.write_one(SAVE, ("before",))
        with server.frozen():

            async def call(number: int) -> tuple[float, str]:
                began = time.monotonic()
                with pytest.raises(StorageError) as failed:
                    if number % 2:
                        await store.get_meta("board")
                    else:  # saved as a move is (bot/storage/games.py)
                        await store.database.write_one(SAVE, (f"late {number}",))
                return time.monotonic() - began, str(failed.value)

            calls = [asyncio.ensure_future(call(number)) for number in range(3 * pg.POOL_SIZE)]
            _, waiting = await asyncio.wait(calls, timeout=ANSWER_WITHIN)
        await asyncio.wait(calls)  # awake: those still waiting (without time limits) end now
        assert not waiting, f"{len(waiting)} calls were still waiting on the hung server after {ANSWER_WITHIN} s"
        outcomes = [done.result() for done in calls]
        reasons = {message.rpartition(": ")[2] for _, message in outcomes}
        assert reasons == {
            f"no answer from the database within {QUICK:g} s",
            f"no connection to the database within {QUICK:g} s",
        }
        await asyncio.sleep(0.5)  # the server, awake, reads what was sent to it before
        assert await store.get_meta("board") == "before"  # none of it was carried out late
        await store.database.write_one(SAVE, ("after",))
        assert await store.get_meta("board") == "after"
    finally:
        await store.close()
    with server.frozen():  # and a bot that starts meanwhile says so, and stops
        began = time.monotonic()
        with pytest.raises(StorageError, match=rf"^cannot connect to the database .*: no answer within {QUICK:g} s$"):
            await Store.open(url)
        assert time.monotonic() - began < ANSWER_WITHIN


async def test_a_write_that_waits_for_a_connection_of_a_busy_pool_is_carried_out_all_the_same(url, monkeypatch):
    """Every connection of the pool is busy (slow reads) for longer than a write may take to
    reach the server: the write waits for one, then goes, and is carried out. Its time limit
    counts from when it is sent, not from when it was asked for: a busy pool is no hung server."""
    monkeypatch.setattr(pg, "COMMAND_TIMEOUT", 1.0)  # a write may reach the server within 0.5 s
    store = await Store.open(url)
    try:
        await store.set_meta("board", "before")
        busy = [asyncio.ensure_future(store.database.read("SELECT pg_sleep(0.9)")) for _ in range(pg.POOL_SIZE)]
        await asyncio.sleep(0.2)  # each has its connection now
        (written,), waited = await timed(store.database.write_one(SAVE, ("after",)))
        await asyncio.gather(*busy)
        assert waited > pg.COMMAND_TIMEOUT / 2 and written["key"] == "board"
        assert await store.get_meta("board") == "after"
    finally:
        await store.close()


def server_clock_steps_forward(store: Store, seconds: float) -> None:
    """The server's clock steps ``seconds`` forward (NTP setting it right, a virtual machine
    resumed) after this process read it. No test may set the server's clock: the process's reading
    of it falls behind by as much instead, which is what the process sees either way."""
    store.database._backend._clock._ahead -= seconds


async def test_after_the_servers_clock_steps_forward_writes_are_carried_out_on_the_same_connection(url):
    """A write carries the time by which the server may carry it out, by the server's clock as the
    process read it when it connected: once that clock steps forward by more than the write's
    time limit, the write finds itself late. It reads the clock again and goes once more, at
    once; the pool keeps its connection."""
    store = await Store.open(url)
    try:
        await store.set_meta("board", "before")
        await store.database.write_one(SAVE, ("before",))  # its connection is made: the server's clock read
        server_clock_steps_forward(store, 10 * pg.COMMAND_TIMEOUT)
        await store.database.write_one(SAVE, ("after",))
        assert await store.get_meta("board") == "after"
        await store.database.write_one(SAVE, ("again",))  # the clock as read again serves the next writes
        assert await store.get_meta("board") == "again"
    finally:
        await store.close()


async def test_a_game_locked_elsewhere_stalls_no_other_channel(url, quick_limits):
    """Another client holds game 1's row (a stuck process of a sharded bot): a press on it is
    answered once the time limit passes; a press in another channel plays at once."""
    async with fresh_world(url, settle_timeout=10) as world:
        board, other_board = await two_games(world)

        holder = await asyncpg.connect(url)
        try:
            async with holder.transaction():
                await holder.execute("SELECT * FROM games WHERE id = 1 FOR UPDATE")
                result, seconds = await timed(press(world.alice, board, 3))
                assert only_told(result) == TROUBLE and QUICK <= seconds < ANSWER_WITHIN
                result, seconds = await timed(press(world.carol, other_board, 3))
                assert told(result) == [] and seconds < QUICK
                assert board_footer(other_board) == "Move 1"
        finally:
            await holder.close()
        assert board_footer(board) == "No move yet"
        await press(world.alice, board, 3)
        assert board_footer(board) == "Move 1"


#: A bot process that plays one game as fast as it can: it starts the game in #games, then
#: presses one cup after another for whoever is to move, and prints each move once Discord has
#: its answer (the board shows it).
PRESSING = """
import asyncio, sys
sys.path.insert(0, {root!r})
from tests.conftest import fresh_world
from tests.helpers import board_footer, enabled_houses, press, start_game


async def main(database):
    async with fresh_world(database) as world:
        board = await start_game(world)
        for ply in range(1000):
            member = (world.alice, world.bob)[ply % 2]  # Alice moves first; in Wari the turns alternate
            house = enabled_houses(board)[0]
            await press(member, board, house)
            assert board_footer(board) == f"Move {{ply + 1}}", board_footer(board)
            print("acknowledged", house, flush=True)


asyncio.run(main(sys.argv[1]))
"""
#: Seconds a pressing bot may take to start and acknowledge its first moves.
PRESSING_WITHIN = 60


def pressing_then_killed(database, moves: int, after: float, errors: Path) -> list[int]:
    """Run a pressing bot on ``database``; ``after`` seconds after it acknowledged ``moves``
    moves, SIGKILL it (in the middle of the next press); every house it acknowledged, in order.
    Its standard error goes to the file ``errors``."""
    with errors.open("w") as error_file:
        bot = subprocess.Popen(
            [sys.executable, "-c", PRESSING.format(root=str(ROOT)), str(database)],
            stdout=subprocess.PIPE,
            stderr=error_file,
            text=True,
            cwd=ROOT,
        )
    said = bot.stdout
    assert said is not None
    watchdog = threading.Timer(PRESSING_WITHIN, bot.kill)
    watchdog.start()
    try:
        lines = []
        for line in said:
            lines.append(line)
            if len(lines) == moves:
                time.sleep(after)
                bot.send_signal(signal.SIGKILL)
                break
        lines += said.readlines()  # what it said before it died (through the same buffer)
        bot.wait(PRESSING_WITHIN)
    finally:
        watchdog.cancel()
        said.close()
    assert bot.returncode == -signal.SIGKILL and len(lines) >= moves, errors.read_text()
    said_whole = [line for line in lines if line.endswith("\n")]
    # The kill may land in the middle of the last line (that move is stored, its word cut short):
    # every other line is a whole acknowledgement.
    assert len(lines) - len(said_whole) <= 1 and lines[: len(said_whole)] == said_whole, lines
    assert all(re.fullmatch(r"acknowledged \d+\n", line) for line in said_whole), lines
    return [int(line.split()[1]) for line in said_whole]


#: When the kill comes after an acknowledged move, in seconds: a press takes about 10 ms here, the
#: first kill lands before the next move is saved, the second mostly after (saved, not yet shown).
KILL_AFTER = (0.0, 0.006)


@pytest.mark.parametrize("after", KILL_AFTER)
@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
async def test_a_bot_killed_in_the_middle_of_presses_loses_no_acknowledged_move(database, after, tmp_path):
    """``kill -9`` of the bot process while it plays: every move it acknowledged is stored, in
    order, with at most the one press under way when it died after them; the stored game is whole
    (its record and position agree) and takes the next move."""
    acknowledged = pressing_then_killed(database, 8, after, tmp_path / "errors.txt")
    store = await Store.open(database)
    try:
        (row,) = [GameRow.from_row(row) for row in await store.database.read("SELECT * FROM games")]
        table = Table.of(row)  # refuses a position that does not go with the record
        houses = [move.house for move in table.game.moves]
        assert houses[: len(acknowledged)] == acknowledged
        assert len(acknowledged) <= len(houses) <= len(acknowledged) + 1
        assert row.status == "live" and table.game.ply == len(houses)
        moved, _ = await WariService(store).games.play(  # no lock, nothing half-done left behind: play goes on
            channel_id=row.channel_id,
            game_id=row.id,
            ply=table.game.ply,
            message_id=row.message_id,
            user_id=table.user_to_move,
            house=min(table.game.legal_moves),
            now=row.updated_at,
        )
        assert moved.game.ply == len(houses) + 1
    finally:
        await store.close()


#: The password of the role ``wari``, and a wrong one: neither may show anywhere.
SECRET, WRONG = "hunter2-secret", "wrong-Secret-42"


@pytest.fixture(scope="module")
def role(server) -> str:
    """A role that logs in with its password (:data:`SECRET`), as a deployment's bot does."""
    server.sql(f"CREATE ROLE wari LOGIN PASSWORD '{SECRET}'")
    return "wari"


@pytest.fixture
def owned(server, url, role) -> str:
    """The test's database, owned by the role: its name."""
    name = url.partition("?")[0].rpartition("/")[2]
    server.sql(f'ALTER DATABASE "{name}" OWNER TO {role}')
    return name


def refused_logins(server, name: str) -> list[tuple[str, str]]:
    """URLs the server refuses, each with what the error must say."""
    wrong = 'password authentication failed for user "wari"'
    return [
        (server.url(name, user="wari", password=WRONG), wrong),
        (server.url(name, user="wari") + f"&password={WRONG}", wrong),  # the password as a parameter
        (server.url(name, user="nobody", password=WRONG), 'password authentication failed for user "nobody"'),
        (server.url("nowhere", user="wari", password=SECRET), 'database "nowhere" does not exist'),
    ]  # and URLs that cannot be read (a port that is no number): tests/bot/test_database_url.py


def shows_no_password(text: str) -> bool:
    return SECRET not in text and WRONG not in text and "Secret-42" not in text


async def test_a_refused_login_says_why_and_never_shows_the_password(server, owned, caplog):
    caplog.set_level(logging.DEBUG)
    for url, reason in refused_logins(server, owned):
        with pytest.raises(StorageError) as refused:
            await Store.open(url)
        message = str(refused.value)
        assert message.startswith("cannot connect to the database postgresql://") and reason in message, message
        assert shows_no_password(message) and "***" in message, message  # masked, not left out
    store = await Store.open(server.url(owned, user="wari", password=SECRET))  # the right one: it works
    await store.close()
    assert "database postgresql://wari:***@/" in caplog.text  # named in the log (it was migrated)
    assert shows_no_password(caplog.text)


def test_at_start_up_a_refused_login_is_one_clear_line_without_the_password(server, owned):
    url = server.url(owned, user="wari", password=WRONG)
    environ = {
        **os.environ,
        "DISCORD_TOKEN": "MTIz.not-a-real-token",
        "DATABASE_URL": url,
        "BACKUP_INTERVAL_HOURS": "0",
    }
    environ.pop("DATABASE_PATH", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60, check=False
    )
    line = the_one_error_line(done)
    assert "cannot connect to the database postgresql://wari:***@/" in line
    assert 'password authentication failed for user "wari"' in line
    assert shows_no_password(done.stdout + done.stderr)


def test_the_storage_tools_say_why_a_login_is_refused_without_the_password(server, owned, tmp_path, capsys):
    from bot.storage.__main__ import main

    sqlite = str(tmp_path / "wari.sqlite3")
    url = server.url(owned, user="wari", password=WRONG)
    for source, target in ((sqlite, url), (url, sqlite)):
        assert main(["copy", source, target]) == 1
        out, err = capsys.readouterr()
        assert err.startswith("python -m bot.storage: cannot connect to the database postgresql://wari:***@/"), err
        assert 'password authentication failed for user "wari"' in err and shows_no_password(out + err)


async def test_a_long_database_outage_costs_nobody_the_game_on_time(server, url):
    """Nobody can move while the database is away (every press is refused), so its outage is
    credited to the clocks, as a stop of the bot's is, before any game ends on time."""
    async with fresh_world(url) as world:
        board = await start_game(world, clock="5+3")
        await press(world.alice, board, 3)  # Bob's five minutes run
        await world.env.advance_time(60)
        server.crash()
        await world.env.advance_time(10 * 60)  # ten minutes without a database: past Bob's time
        server.restart()
        await world.env.advance_time(30)
        assert await stored(world, "status", 1) == "live"
        assert "while the bot was offline" in board_words(board)
        await press(world.bob, board, 8)  # and he plays on
        assert board_footer(board) == "Move 2"


async def test_connections_the_server_ends_fail_as_database_errors_and_the_next_reads_work(server, url):
    """An administrator's command, a failover or a restart ends the pool's connections: a read
    that meets one fails as a StorageError (asyncpg says so in several ways, one of them its
    InternalClientError, which would otherwise reach the cogs as a bug), and new connections follow."""
    store = await Store.open(url)
    name = url.partition("?")[0].rpartition("/")[2]
    try:
        for _ in range(10):
            await asyncio.gather(*(store.get_meta("board") for _ in range(5)))  # several connections in the pool
            server.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            failures = []
            for _ in range(8):
                try:
                    await store.get_meta("board")
                except StorageError as failure:
                    failures.append(failure)
            assert len(failures) <= 5  # one at most for each connection the server ended
        assert await store.get_meta("board") is None
    finally:
        await store.close()
