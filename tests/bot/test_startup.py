"""Starting the bot: settings, the entry point's clear failures, and slash command syncing."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot.__main__ as entry
from bot.config import DEFAULT_DATABASE, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_settings_come_from_the_environment_with_defaults():
    settings = load_settings({"DISCORD_TOKEN": "abc.def"})
    assert settings.database_path == DEFAULT_DATABASE and settings.dev_guild_id is None
    assert settings.log_level == "INFO" and settings.challenge_timeout == 600
    assert "abc.def" not in repr(settings)
    custom = load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": "/x/y.db", "DEV_GUILD_ID": "42",
                            "LOG_LEVEL": "debug", "CHALLENGE_TIMEOUT": "30"})
    assert (str(custom.database_path), custom.dev_guild_id, custom.log_level, custom.challenge_timeout) == ("/x/y.db", 42, "DEBUG", 30)


@pytest.mark.parametrize(
    "environ, message",
    [
        ({}, "DISCORD_TOKEN is not set: copy .env.example to .env"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a whole number"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "CHALLENGE_TIMEOUT": "0"}, "CHALLENGE_TIMEOUT must be at least 1"),
        ({"DISCORD_TOKEN": "t", "CHALLENGE_TIMEOUT": "99999999999"}, "CHALLENGE_TIMEOUT must be at most 604800"),
    ],
)
def test_bad_settings_are_named(environ, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(environ)


def test_env_example_documents_every_setting():
    text = (ROOT / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "CHALLENGE_TIMEOUT"):
        assert f"\n{name}=" in text


def test_python_m_bot_without_a_token_exits_with_one_clear_line(tmp_path):
    environ = {**os.environ, "DISCORD_TOKEN": ""}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60)
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
    syncs = lambda: [r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs()) == 1
    await world.restart()
    assert len(syncs()) == 1  # same commands, same database: no needless global sync
    assert "wari challenge" in world.alice.available_commands(world.channel)


def test_a_broken_database_file_stops_the_bot_with_one_clear_line(tmp_path):
    broken = tmp_path / "wari.sqlite3"
    broken.write_bytes(b"not a database at all" * 200)
    environ = {**os.environ, "DISCORD_TOKEN": "MTIz.not-a-real-token", "DATABASE_PATH": str(broken)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "not-a-real-token" not in done.stderr + done.stdout
    assert f"cannot use the database {broken}: file is not a database" in done.stderr
