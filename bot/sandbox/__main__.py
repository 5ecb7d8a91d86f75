"""``python -m bot.sandbox`` (``make sandbox``): the sandbox's command line.

It starts the sandbox (:func:`bot.sandbox.open_sandbox`) on its database, prints where to open
the page, and serves it until Ctrl-C (or SIGTERM), or until the page's session is ended.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from ..storage import StorageError
from . import (
    BOT_NAME,
    CHANNEL_NAME,
    DEFAULT_DATABASE,
    GUILD_NAME,
    MEMBERS,
    SandboxUnavailable,
    open_sandbox,
    require_sandbox,
)

PROG = "wari-sandbox"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot.sandbox",
        description="Play the real Wari bot in a local browser page: SimCord's simulated Discord, no token needed.",
    )
    parser.add_argument(
        "--database",
        type=Path,
        default=DEFAULT_DATABASE,
        metavar="PATH",
        help="the sandbox's SQLite file (default: data/sandbox.sqlite3; never the bot's own)",
    )
    parser.add_argument(
        "--port", type=_port, default=None, help="serve the page on this loopback port (default: any free one)"
    )
    return parser


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}")
    return value


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


async def serve(database_path: Path, port: int | None) -> str:
    """Run the sandbox until Ctrl-C (or SIGTERM) or "End preview session"; returns the last words."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    for number in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(number, stop.set)
    try:
        async with open_sandbox(database_path, port=port, check_errors=False) as sandbox:
            ama, kofi = (display for _, display in MEMBERS)
            print(
                f"Wari sandbox: the real bot in SimCord's simulated Discord; nothing leaves this machine.\n"
                f"  Server {GUILD_NAME!r}, channel #{CHANNEL_NAME}: {ama} (the owner) and {kofi}, "
                f"and the bot, {BOT_NAME}.\n"
                f"  Pick who you are at the top of the page; type / in the message box for the commands.\n"
                f"  Database: {_shown(database_path)} (games survive a restart of the sandbox).\n"
                f"\n"
                f"  Open {sandbox.url}\n"
                f"\n"
                f"Press Ctrl-C to stop.",
                flush=True,
            )
            closed = asyncio.ensure_future(sandbox.preview.wait_closed())
            stopping = asyncio.ensure_future(stop.wait())
            try:
                await asyncio.wait({closed, stopping}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                closed.cancel()
                stopping.cancel()
            # A second Ctrl-C while shutting down interrupts at once.
            for number in signals:
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.remove_signal_handler(number)
            return "Wari sandbox stopped." if stop.is_set() else "The page's session was ended: Wari sandbox stopped."
    finally:
        for number in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(number)


def main(argv: Sequence[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    import discord
    from simcord import SetupError

    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO), root=True)
    logging.getLogger("discord").setLevel(
        max(logging.WARNING, logging.getLogger().level)
    )  # "logging in using static token"…
    # "Slash commands synced globally (they may take a while to appear)" is about the real Discord.
    logging.getLogger("bot.client").setLevel(max(logging.WARNING, logging.getLogger().level))
    try:
        last_words = asyncio.run(serve(options.database, options.port))
    except StorageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except SetupError as exc:  # e.g. "preview could not bind port 8000"
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        last_words = "Wari sandbox interrupted."
    print(last_words, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
