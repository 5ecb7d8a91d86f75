"""Starting the bot: settings, the entry point's clear failures, and slash command syncing."""

import contextlib
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot.__main__ as entry
from bot.client import COMMANDS_DIGEST_KEY, WariBot
from bot.config import DEFAULT_DATABASE, SettingsError, load_settings
from bot.storage import MIGRATIONS, Store
from tests.conftest import make_bot
from tests.processes import run_bot, the_one_error_line

ROOT = Path(__file__).resolve().parents[2]


def test_settings_come_from_the_environment_with_defaults():
    settings = load_settings({"DISCORD_TOKEN": "abc.def"})
    assert settings.database_path == DEFAULT_DATABASE and settings.dev_guild_id is None
    assert settings.log_level == "INFO" and settings.challenge_timeout == 600
    assert (settings.backup_interval_hours, settings.backup_keep) == (24, 7)
    assert "abc.def" not in repr(settings)
    custom = load_settings(
        {
            "DISCORD_TOKEN": "t",
            "DATABASE_PATH": "/x/y.db",
            "DEV_GUILD_ID": "42",
            "LOG_LEVEL": "debug",
            "CHALLENGE_TIMEOUT": "30",
            "BACKUP_INTERVAL_HOURS": "0",
            "BACKUP_KEEP": "3",
        }
    )
    assert (str(custom.database_path), custom.dev_guild_id, custom.log_level, custom.challenge_timeout) == (
        "/x/y.db",
        42,
        "DEBUG",
        30,
    )
    assert (custom.backup_interval_hours, custom.backup_keep) == (0, 3)
    assert settings.shard_count is None and settings.shard_ids is None


def test_database_url_names_sqlite_or_postgresql_and_never_shows_its_password():
    url = "postgresql://wari:s3cret@db.example:5432/wari"
    settings = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url, "DATABASE_PATH": "ignored.db"})
    assert settings.database == url and settings.database_path is None
    assert "s3cret" not in repr(settings)
    sqlite = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:///data/other.sqlite3"})
    assert sqlite.database_path == Path("data/other.sqlite3")
    assert load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:////srv/wari.db"}).database_path == Path(
        "/srv/wari.db"
    )


def test_shards_are_the_whole_bot_s_count_and_this_process_s_ids():
    both = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert (both.shard_count, both.shard_ids) == (4, (1, 3))
    every = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"})
    assert (every.shard_count, every.shard_ids) == (2, (0, 1))


@pytest.mark.parametrize(
    "environ, message",
    [
        ({}, "DISCORD_TOKEN is not set: copy .env.example to .env"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a whole number"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "CHALLENGE_TIMEOUT": "0"}, "CHALLENGE_TIMEOUT must be at least 1"),
        ({"DISCORD_TOKEN": "t", "CHALLENGE_TIMEOUT": "99999999999"}, "CHALLENGE_TIMEOUT must be at most 604800"),
        ({"DISCORD_TOKEN": "t", "BACKUP_INTERVAL_HOURS": "-1"}, "BACKUP_INTERVAL_HOURS must be at least 0"),
        ({"DISCORD_TOKEN": "t", "BACKUP_INTERVAL_HOURS": "daily"}, "BACKUP_INTERVAL_HOURS must be a whole number"),
        ({"DISCORD_TOKEN": "t", "BACKUP_KEEP": "0"}, "BACKUP_KEEP must be at least 1"),
        (
            {"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://x"},
            "DATABASE_URL must start with postgresql:// or sqlite:///",
        ),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        (
            {"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "1,2"},
            r"SHARD_IDS must be numbers from 0 to 1 \(SHARD_COUNT is 2\)",
        ),
        (
            {"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "one"},
            "SHARD_IDS must be shard numbers separated by commas",
        ),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1"),
    ],
)
def test_bad_settings_are_named(environ, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(environ)


def test_env_example_documents_every_setting():
    text = (ROOT / ".env.example").read_text()
    names = (
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DATABASE_PATH",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "CHALLENGE_TIMEOUT",
        "BACKUP_INTERVAL_HOURS",
        "BACKUP_KEEP",
        "SHARD_COUNT",
        "SHARD_IDS",
    )
    for name in names:
        assert f"\n{name}=" in text


def test_python_m_bot_without_a_token_exits_with_one_clear_line(tmp_path):
    environ = {**os.environ, "DISCORD_TOKEN": ""}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "wari-bot: DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
        "(Discord Developer Portal > your application > Bot > Reset Token)"
    ]


def test_a_rejected_token_exits_non_zero_and_is_never_logged(monkeypatch, caplog, tmp_path):
    secret = "MTIz.secret-token-that-must-not-leak"
    monkeypatch.setenv("DISCORD_TOKEN", secret)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "w.sqlite3"))

    async def rejected(settings):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(entry, "_run", rejected)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)
    with caplog.at_level(logging.INFO):
        assert entry.main() == 1
    assert "Discord rejected DISCORD_TOKEN" in caplog.text
    assert secret not in caplog.text


async def test_commands_are_synced_once_then_only_when_they_change(world):
    def syncs():
        return [r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]

    assert len(syncs()) == 1
    await world.restart()
    assert len(syncs()) == 1  # same commands, same database: no needless global sync
    assert "wari challenge" in world.alice.available_commands(world.channel)


def test_a_broken_database_file_stops_the_bot_with_one_clear_line(tmp_path):
    broken = tmp_path / "wari.sqlite3"
    broken.write_bytes(b"not a database at all" * 200)
    environ = {**os.environ, "DISCORD_TOKEN": "MTIz.not-a-real-token", "DATABASE_PATH": str(broken)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "not-a-real-token" not in done.stderr + done.stdout
    assert f"cannot use the database {broken}: file is not a database" in done.stderr


@pytest.fixture
def read_only_folder(tmp_path):
    """An empty folder nothing can be created in, and the command prefix that makes it so.

    As root permissions stop nothing, so a read-only tmpfs is mounted on it in a mount namespace
    of the bot's process alone (``unshare -m``); otherwise the folder's write permission is removed.
    """
    folder = tmp_path / "read-only"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder, ()
        folder.chmod(0o755)
        return
    prefix = ("unshare", "-m", "sh", "-c", 'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"', str(folder))
    if not shutil.which("unshare") or subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        reason = "cannot make a read-only folder here (unshare and mount are needed as root)"
        if os.environ.get("CI"):  # CI runs as root with unshare: the story must run there
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    yield folder, prefix


def test_a_read_only_folder_stops_the_bot_with_one_clear_line(read_only_folder):
    folder, prefix = read_only_folder
    database = folder / "wari.sqlite3"
    line = the_one_error_line(run_bot(database, *prefix))
    assert f"cannot open the database {database}: unable to open database file (is its folder writable?)" in line
    assert not database.exists()


async def test_a_failed_command_sync_is_one_warning_and_the_next_start_tries_again(world, tmp_path, caplog):
    fresh = tmp_path / "fresh.sqlite3"  # no digest of the commands yet: the start syncs them

    def syncs():
        return [r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]

    before = len(syncs())
    world.env.inject_error("PUT", "/applications/*/commands", status=503, message="Service Unavailable")
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await world.env.restart_bot(make_bot(fresh))  # raised out of setup_hook before
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "bot.client" and r.levelno >= logging.WARNING]
    assert warning.startswith("could not sync the slash commands (Discord answered 503 Service Unavailable)")
    assert stored_digest(fresh) is None
    answer = await world.alice.slash(world.channel, "wari rules")  # the commands Discord already had still work
    assert answer.response.ephemeral
    await world.env.restart_bot(make_bot(fresh))
    assert len(syncs()) == before + 2 and stored_digest(fresh) is not None


async def test_python_m_bot_checks_the_database_once_and_hands_it_to_the_bot(monkeypatch, tmp_path, caplog):
    database = tmp_path / "wari.sqlite3"
    await (await Store.open(database)).close()

    async def refused_login(bot, token):
        assert bot.store.path == database and await bot.store.schema_version() == len(MIGRATIONS)  # open, for the bot
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(WariBot, "start", refused_login)
    settings = load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(database), "BACKUP_INTERVAL_HOURS": "6"})
    with caplog.at_level(logging.INFO, logger="bot.storage"), pytest.raises(discord.LoginFailure):
        await entry._run(settings)
    assert len([r for r in caplog.records if "passed its integrity check" in r.getMessage()]) == 1
    assert not (tmp_path / "wari.sqlite3-wal").exists()  # closed on the way out (the last connection removes it)


def stored_digest(database):
    with contextlib.closing(sqlite3.connect(database)) as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (COMMANDS_DIGEST_KEY,)).fetchone()
    return row[0] if row else None


def test_a_bot_without_voice_logs_no_voice_warnings(tmp_path, caplog):
    import discord

    from bot import create_bot

    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True  # as in a fresh process
    create_bot(tmp_path / "wari.sqlite3")
    assert "voice will NOT be supported" not in caplog.text


def test_the_endgame_tables_the_bot_builds_are_a_setting():
    assert load_settings({"DISCORD_TOKEN": "t"}).table_seeds == 15
    assert load_settings({"DISCORD_TOKEN": "t", "TABLE_SEEDS": "0"}).table_seeds == 0
    with pytest.raises(SettingsError, match="TABLE_SEEDS must be at most 16, not 20"):
        load_settings({"DISCORD_TOKEN": "t", "TABLE_SEEDS": "20"})


def test_the_cup_pictures_are_a_setting_on_by_default():
    assert load_settings({"DISCORD_TOKEN": "t"}).cup_emojis is True
    assert load_settings({"DISCORD_TOKEN": "t", "CUP_EMOJIS": "OFF"}).cup_emojis is False
    with pytest.raises(SettingsError, match="CUP_EMOJIS must be on or off, not 'yes'"):
        load_settings({"DISCORD_TOKEN": "t", "CUP_EMOJIS": "yes"})
