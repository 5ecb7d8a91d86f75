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
through the bot's own storage layer): the least a press that saves can cost here.

The V2 echo (``Echo(v2=True)``; ``echo+v2``, and ``echo+v2+write`` with ``writes``) answers with
the bot's own board instead of the embed: a Components V2 layout of the same shape, size and
text as a board of the bot's (:func:`bot_board`: the bot's drawing of a fixed game 20 moves in,
one container of 19 components, some 1.8 kB), so that SimCord's handling of the answer (checking
the payload, copying it, keeping it) costs the echo what it costs the bot. The bot draws its board
once, when the echo starts; each press only builds the layout's items from that drawing
(:func:`v2_message`), so the drawing's own work stays the bot's. Its buttons are the echo's
(:class:`EchoButton`: the bot's custom ids with ``echo:`` for ``wari:``, the same length). The
echo+v2+write is then the floor of the bot's press: the same answer, after the same one write.

A V2 layout is sent as ``view=`` alone: discord.py then sets the message's IS_COMPONENTS_V2 flag
(``1 << 15``) itself, and SimCord, as Discord does, refuses (400, "components_v2 messages cannot
contain content, embeds, polls, or stickers") a V2 message that has content or embeds too; a
``/board`` that passed the embed echo's ``content`` and ``embed`` beside the layout failed so,
and went unanswered.

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
import functools
import random
import re
import tempfile
import threading
from pathlib import Path
from typing import Any

import discord
import simcord
from discord.ext import commands
from simcord.components import walk_components

from benchmarks.live_memory import mid_game
from benchmarks.press_timing import Press, timed
from bot.service import Table
from bot.storage.database import Database
from cogs.wari.views import board_layout, board_status

#: The code block of the echo's embed: as many lines and columns as a Wari board's drawing.
BOARD_TEXT = "```\n" + "\n".join("│ 4│ 4│ 4│ 4│ 4│ 4│ 4│" for _ in range(12)) + "\n```"
#: Discord's component types, as a message's payload gives them.
ACTION_ROW, BUTTON, TEXT_DISPLAY, SEPARATOR, CONTAINER = 1, 2, 10, 14, 17
#: The bot's custom ids start so; the V2 echo's buttons carry the same ids under ``echo:``.
BOT_PREFIX, ECHO_PREFIX = "wari:", "echo:"
#: The fixed game the V2 echo shows: this many moves into a game of wari. Past its ninth move a
#: board lists as many moves as at any later one, so this is as large as a mid-game board.
FIXED_GAME_MOVES = 20


class EchoCup(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:cup:(?P<house>[1-6])"):
    """One of the embed echo's six buttons: a press redraws the message, nothing else."""

    def __init__(self, house: int) -> None:
        super().__init__(discord.ui.Button(label=f"{house} · 4", custom_id=f"echo:cup:{house}", row=(house - 1) // 3))
        self.house = house

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EchoCup:
        return cls(int(match["house"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, f"pressed {self.house}")


class EchoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:(?:cup|act):[0-9]+:[0-9a-z:]+"):
    """A button of the V2 echo's board (a cup or a control, as the bot's board has them): a press
    redraws the board, nothing else."""

    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EchoButton:
        if not isinstance(item, discord.ui.Button):
            raise TypeError(f"the V2 echo's board has only buttons to press, not {item!r}")
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, f"pressed {self.custom_id.rsplit(':', 1)[-1]}")


async def answer_press(interaction: discord.Interaction, pressed: str) -> None:
    """An echo's press: the save (a writing echo), the board redrawn (saying ``pressed``) as the
    answer, the ping (a pinging echo)."""
    bot = interaction.client
    if not isinstance(bot, EchoBot):
        raise TypeError(f"the echo's buttons belong to an EchoBot, not to {bot!r}")
    if bot.database is not None:  # a move's save: one statement, before the answer
        await bot.database.write_one(SAVE, (pressed,))
    await interaction.response.edit_message(**bot.board(pressed))
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
    """The embed echo's board: ``content``, a board-sized embed, six buttons."""
    view = discord.ui.View(timeout=None)
    for house in range(1, 7):
        view.add_item(EchoCup(house))
    return {"content": content, "embed": discord.Embed(title="Echo", description=BOARD_TEXT), "view": view}


@functools.cache
def fixed_table() -> Table:
    """The game the V2 echo shows: a live wari game between two people, on the benchmark's clock
    (a day a move), :data:`FIXED_GAME_MOVES` random moves in (always the same)."""
    return Table.of(mid_game(1, FIXED_GAME_MOVES, random.Random(1)))


@functools.cache
def bot_board() -> tuple[dict[str, Any], ...]:
    """The bot's board of :func:`fixed_table`, drawn by the bot's own code, as Discord receives it."""
    table = fixed_table()
    return tuple(board_layout(table, board_status(table)).to_components())


def v2_message(pressed: str) -> dict[str, Any]:
    """The V2 echo's board: :func:`bot_board`'s layout, built anew from it as discord.py items,
    its status line saying ``pressed``. Sent as ``view=`` alone (see the module's note)."""
    layout = discord.ui.LayoutView(timeout=None)
    for component in bot_board():
        layout.add_item(layout_item(component))
    status = next(item for item in layout.walk_children() if isinstance(item, discord.ui.TextDisplay))
    status.content = f"{status.content} ({pressed})"
    return {"view": layout}


def layout_item(component: dict[str, Any]) -> discord.ui.Item[Any]:
    """The discord.py item of one of a board's components (those a board has), its buttons the echo's."""
    kind = component["type"]
    if kind == CONTAINER:
        children = [layout_item(child) for child in component["components"]]
        return discord.ui.Container(*children, accent_colour=component.get("accent_color"))
    if kind == ACTION_ROW:
        return discord.ui.ActionRow(*(layout_item(child) for child in component["components"]))
    if kind == TEXT_DISPLAY:
        return discord.ui.TextDisplay(component["content"])
    if kind == SEPARATOR:
        spacing = discord.SeparatorSpacing(component["spacing"])
        return discord.ui.Separator(visible=component["divider"], spacing=spacing)
    if kind == BUTTON:
        return EchoButton(echo_button(component))
    raise ValueError(f"a board has no component of type {kind}: {component!r}")


def echo_button(component: dict[str, Any]) -> discord.ui.Button:
    """A button of the bot's board, as the echo's: the same look, the custom id under ``echo:``."""
    emoji = component.get("emoji")
    return discord.ui.Button(
        style=discord.ButtonStyle(component["style"]),
        label=component.get("label"),
        disabled=component.get("disabled", False),
        custom_id=ECHO_PREFIX + component["custom_id"].removeprefix(BOT_PREFIX),
        emoji=discord.PartialEmoji.from_dict(emoji) if emoji else None,
    )


#: The writing echo's save: one statement that changes a row and returns it, as a move's does.
SAVE = "UPDATE meta SET value = ? WHERE key = 'echo' RETURNING key"


class EchoBot(commands.Bot):
    """A bare bot for the echo's buttons; ``pings``: each press also posts a ping and deletes the
    previous one (``last_ping``); with a ``database``, each press first saves a row to it; ``v2``:
    its board is the bot's V2 layout, not the embed."""

    def __init__(self, pings: bool, database: Database | None = None, v2: bool = False) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True), help_command=None
        )
        self.pings = pings
        self.database = database
        self.v2 = v2
        self.last_ping: discord.Message | None = None

    def board(self, pressed: str) -> dict[str, Any]:
        """The board message, as ``send_message`` and ``edit_message`` take it."""
        return v2_message(pressed) if self.v2 else echo_message(pressed)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(EchoButton if self.v2 else EchoCup)
        await self.tree.sync()


def echo_bot(pings: bool, database: Database | None = None, v2: bool = False) -> EchoBot:
    bot = EchoBot(pings, database, v2)

    @bot.tree.command(name="board", description="Post the echo's board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(**bot.board("board"))

    return bot


class Echo:
    """The echo bot in its simulated Discord, on a loop of its own in a thread."""

    def __init__(self, *, pings: bool = False, writes: bool = False, v2: bool = False) -> None:
        """``pings``: each press also posts a ping and deletes the previous one, as the bot's does;
        ``writes``: each press first saves a row to a SQLite database, as the bot's does; ``v2``:
        the board is the bot's own V2 layout (:func:`v2_message`), not a board-sized embed."""
        self.pings, self.writes, self.v2 = pings, writes, v2
        self.name = "+".join(["echo"] + [part for part, on in (("v2", v2), ("write", writes), ("ping", pings)) if on])
        answer = "the bot's V2 board (19 components)" if v2 else "its embed board"
        if pings:
            self.does = f"edits {answer}, posts a ping and deletes the last (3 REST calls, as a bot press)"
        elif writes:
            floor = ": the floor of the bot's press" if v2 else ""
            self.does = f"saves one row to SQLite (one statement), then edits {answer}{floor}"
        else:
            self.does = f"only edits {answer} (1 REST call)"
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
        self._bot = echo_bot(self.pings, database, self.v2)
        self._env = simcord.Env(self._bot)
        await self._env.start()
        guild = self._env.create_guild("Echo")
        self.channel = guild.create_text_channel("echo")
        self.player = guild.add_member(self._env.create_user("echo-player"))
        board = (await self.player.slash(self.channel, "board")).response
        if board is None:
            raise RuntimeError("the echo's /board went unanswered")
        self.board = board
        #: The cups pressed in turn: those the board lets one press.
        self.cups = [
            button["custom_id"]
            for button in walk_components(board.components)
            if button["type"] == BUTTON and button["custom_id"].startswith("echo:cup:") and not button.get("disabled")
        ]

    async def _press(self) -> Press:
        self._presses += 1
        result, press = await timed(self.player.click(self.board, custom_id=self.cups[self._presses % len(self.cups)]))
        if not result.acknowledged:
            raise RuntimeError("the echo's press went unanswered")
        return press

    def press(self) -> Press:
        """One press of an echo button, timed."""
        return self._call(self._press())

    def saved(self) -> str | None:
        """What the writing echo's last press saved (``None`` for an echo that does not write)."""
        database = self._bot.database
        return None if database is None else self._call(database.get_meta("echo"))

    def close(self) -> None:
        self._call(self._env.shutdown())
        if self._bot.database is not None:
            self._call(self._bot.database.close())
        self._folder.cleanup()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
