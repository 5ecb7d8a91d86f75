"""The baselines of ``python -m benchmarks.bench``: bare discord.py bots whose six buttons only edit their
own message, run through SimCord beside the bot, so that a press of the bot is measured against
the least any bot can do for a press.

The echo's message is board-sized: an embed holding a 12-line code block (as large as a Wari
board's) and six buttons in two rows. A press answers with ``edit_message`` (one REST call). The
pinging echo (``Echo(pings=True)``) also does what a Wari press must do on Discord besides: it
posts a new message mentioning the presser (a turn ping: Discord notifies only new messages) and
deletes its previous one; three REST calls, as the bot's press makes. The first echo measures
the bot against the least a press can cost; the second, the bot's own work against the same
Discord calls. The writing echo (``Echo(writes=True)``) saves one row to a SQLite database of the
bot's schema before it answers, as the bot's press does (one statement, committed by itself,
through the bot's own storage layer): the least a press that saves can cost here, the floor of
the bot's press in this simulator.

SimCord allows one live simulated Discord per event loop, so the echo runs in a thread on a loop
of its own; the benchmark hands it one press at a time (:meth:`Echo.press`) between the bot's
presses, while the bot's loop waits: the two never run at once.

One quirk of the simulator shapes the echo: after a handler that returns without having waited
for anything outside the event loop, SimCord waits 50 ms of idle time before it calls the press
done (measured: 52 ms a press). The echo therefore hands an empty call to a worker thread after
answering, as every press of the bot does with its database; that costs it about 0.1 ms.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import threading
from pathlib import Path
from typing import Any

import discord
import simcord
from discord.ext import commands

from benchmarks.press_timing import Press, timed
from bot.storage.database import Database

#: The code block of the echo's embed: as many lines and columns as a Wari board's drawing.
BOARD_TEXT = "```\n" + "\n".join("│ 4│ 4│ 4│ 4│ 4│ 4│ 4│" for _ in range(12)) + "\n```"


class EchoCup(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:cup:(?P<house>[1-6])"):
    """One of the echo's six buttons: a press redraws the message, nothing else."""

    def __init__(self, house: int) -> None:
        super().__init__(discord.ui.Button(label=f"{house} · 4", custom_id=f"echo:cup:{house}", row=(house - 1) // 3))
        self.house = house

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EchoCup:
        return cls(int(match["house"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        if not isinstance(bot, EchoBot):
            raise TypeError(f"the echo's buttons belong to an EchoBot, not to {bot!r}")
        if bot.database is not None:  # a move's save: one statement, before the answer
            await bot.database.write_one(SAVE, (str(self.house),))
        await interaction.response.edit_message(**echo_message(f"pressed {self.house}"))
        if bot.pings:
            channel = interaction.channel
            if not isinstance(channel, discord.abc.Messageable):
                raise TypeError(f"the echo's board is in a channel that takes messages, not in {channel!r}")
            ping = await channel.send(
                f"{interaction.user.mention}, your move",
                allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
            )
            if bot.last_ping is not None:
                await bot.last_ping.delete()
            bot.last_ping = ping
        await asyncio.to_thread(int)  # see the module's note: SimCord's idle wait


def echo_message(content: str) -> dict[str, Any]:
    view = discord.ui.View(timeout=None)
    for house in range(1, 7):
        view.add_item(EchoCup(house))
    return {"content": content, "embed": discord.Embed(title="Echo", description=BOARD_TEXT), "view": view}


#: The writing echo's save: one statement that changes a row and returns it, as a move's does.
SAVE = "UPDATE meta SET value = ? WHERE key = 'echo' RETURNING key"


class EchoBot(commands.Bot):
    """A bare bot for the echo's buttons; ``pings``: each press also posts a ping and deletes the
    previous one (``last_ping``); with a ``database``, each press first saves a row to it."""

    def __init__(self, pings: bool, database: Database | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True), help_command=None
        )
        self.pings = pings
        self.database = database
        self.last_ping: discord.Message | None = None

    async def setup_hook(self) -> None:
        self.add_dynamic_items(EchoCup)
        await self.tree.sync()


def echo_bot(pings: bool, database: Database | None = None) -> EchoBot:
    bot = EchoBot(pings, database)

    @bot.tree.command(name="board", description="Post the echo's board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(**echo_message("board"))

    return bot


class Echo:
    """The echo bot in its simulated Discord, on a loop of its own in a thread."""

    def __init__(self, *, pings: bool = False, writes: bool = False) -> None:
        """``pings``: each press also posts a ping and deletes the previous one, as the bot's does;
        ``writes``: each press first saves a row to a SQLite database, as the bot's does."""
        self.pings, self.writes = pings, writes
        self.name = "echo+ping" if pings else "echo+write" if writes else "echo"
        if pings:
            self.does = "edits its board, posts a ping and deletes the last (3 REST calls, as a bot press)"
        elif writes:
            self.does = "saves one row to SQLite (one statement), then edits its board: a press's floor"
        else:
            self.does = "only edits its board (1 REST call)"
        self._folder = tempfile.TemporaryDirectory(prefix="wari-echo-")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="echo-bot", daemon=True)
        self._thread.start()
        self._presses = 0
        self._call(self._start())

    def _call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _start(self) -> None:
        database = None
        if self.writes:
            database = await Database.open(Path(self._folder.name) / "echo.sqlite3")
            await database.set_meta("echo", "0")
        self._bot = echo_bot(self.pings, database)
        self._env = simcord.Env(self._bot)
        await self._env.start()
        guild = self._env.create_guild("Echo")
        self.channel = guild.create_text_channel("echo")
        self.player = guild.add_member(self._env.create_user("echo-player"))
        board = (await self.player.slash(self.channel, "board")).response
        if board is None:
            raise RuntimeError("the echo's /board went unanswered")
        self.board = board

    async def _press(self) -> Press:
        self._presses += 1
        result, press = await timed(self.player.click(self.board, custom_id=f"echo:cup:{self._presses % 6 + 1}"))
        if not result.acknowledged:
            raise RuntimeError("the echo's press went unanswered")
        return press

    def press(self) -> Press:
        """One press of an echo button, timed."""
        return self._call(self._press())

    def close(self) -> None:
        self._call(self._env.shutdown())
        if self._bot.database is not None:
            self._call(self._bot.database.close())
        self._folder.cleanup()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
