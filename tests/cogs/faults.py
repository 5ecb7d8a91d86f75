"""Fault injection: every REST call of a user flow, made to fail, must leave the channel telling
the truth, at once or after the one thing a player would do next.

A *flow* is a setup (the channel before the action) and an action (what a user does). A clean
run records the REST calls the action makes; then, for each of them, a fresh world runs the
setup, makes exactly that call fail, runs the action, and checks what the channel shows
against what the database holds (:func:`mismatches`). Where they differ, :func:`next_action`
does what a player would (press the button they see, or what the bot's answer told them) and
the check runs again.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from simcord import InteractionResult

from bot.service import Table
from bot.storage import ChallengeRow, GameRow
from tests.helpers import board_footer, buttons, press, start_game, surrender, texts, told

#: What an answer must never say when the database changed: it would be a lie.
UNTRUE_AFTER_A_CHANGE = "nothing was changed"
#: What an answer never says in these stories: a bug.
BUG = "Something went wrong on my side"


@dataclass(frozen=True)
class Flow:
    name: str
    setup: Callable[..., Awaitable[dict]]
    #: The user's action: its interaction's result, or ``None`` when no one acted (a sweep did).
    act: Callable[..., Awaitable[InteractionResult | None]]


async def nothing(world) -> dict:
    return {}


async def a_challenge(world) -> dict:
    result = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")
    return {"challenge": result.response}


async def an_open_challenge(world) -> dict:
    result = await world.alice.slash(world.channel, "wari challenge", first="me")
    return {"challenge": result.response}


async def someone_seeking(world) -> dict:
    result = await world.alice.slash(world.channel, "wari seek")
    return {"seek": result.response}


async def a_game(world) -> dict:
    return {"board": await start_game(world)}


async def a_game_under_way(world) -> dict:
    board = await start_game(world)
    await press(world.alice, board, 3)
    return {"board": board}


async def a_game_against_the_computer(world) -> dict:
    result = await world.alice.slash(world.channel, "wari play", level="greedy", first="me")
    return {"board": result.response}


async def a_surrender_asked(world) -> dict:
    context = await a_game_under_way(world)
    context["asked"] = (await world.bob.slash(world.channel, "wari surrender")).response
    return context


async def a_takeback_request(world) -> dict:
    result = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", rated=False)
    await world.bob.click(result.response, label="Accept")
    await press(world.alice, result.response, 3)
    request = (await world.alice.slash(world.channel, "wari takeback")).response
    return {"board": result.response, "request": request}


async def a_draw_offer(world) -> dict:
    context = await a_game_under_way(world)
    context["offer"] = (await world.bob.slash(world.channel, "wari draw")).response
    return context


async def a_finished_game(world) -> dict:
    context = await a_game_under_way(world)
    await surrender(world.bob, world.channel)
    return context


async def a_finished_game_against_the_computer(world) -> dict:
    context = await a_game_against_the_computer(world)
    await surrender(world.alice, world.channel)
    return context


async def a_game_on_a_five_minute_clock(world) -> dict:
    return {"board": await start_game(world, clock="5+3")}


async def six_minutes_pass(world, context):
    await world.env.advance_time(6 * 60)  # the sweep ends the game on time


def click(member: str, message: str, label: str):
    async def act(world, context):
        return await getattr(world, member).click(context[message], label=label)

    return act


def slash(member: str, command: str, **options):
    """``member`` runs ``command``; an option naming a member (``opponent="bob"``) picks them."""

    async def act(world, context):
        picked = {name: getattr(world, value) if name == "opponent" else value for name, value in options.items()}
        return await getattr(world, member).slash(world.channel, command, **picked)

    return act


async def press_a_cup(world, context):
    return await press(world.alice, context["board"], 4)


async def challenge_bob(world, context):
    return await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")


FLOWS = [
    Flow("challenge", nothing, challenge_bob),
    Flow("accept", a_challenge, click("bob", "challenge", "Accept")),
    Flow("decline", a_challenge, click("bob", "challenge", "Decline")),
    Flow("accept an open challenge", an_open_challenge, click("carol", "challenge", "Accept")),
    Flow("withdraw", a_challenge, click("alice", "challenge", "Withdraw")),
    Flow("press", a_game, press_a_cup),
    Flow("press and the computer's move", a_game_against_the_computer, press_a_cup),
    Flow("play the computer", nothing, slash("alice", "wari play", level="greedy", first="opponent")),
    Flow("surrender", a_surrender_asked, click("bob", "asked", "Surrender")),
    Flow("a player aborts", a_game, slash("bob", "wari abort")),
    Flow("abort", a_game_under_way, slash("mod", "wari-mod abort")),
    Flow("board", a_game_under_way, slash("carol", "wari board")),
    Flow("offer a draw", a_game_under_way, slash("bob", "wari draw")),
    Flow("accept a draw", a_draw_offer, click("alice", "offer", "Accept")),
    Flow("decline a draw", a_draw_offer, click("alice", "offer", "Decline")),
    Flow("accept a takeback", a_takeback_request, click("bob", "request", "Accept")),
    Flow("rematch", a_finished_game, click("alice", "board", "Rematch")),
    Flow("rematch the computer", a_finished_game_against_the_computer, click("alice", "board", "Rematch")),
    Flow("challenge in a thread", nothing, slash("alice", "wari challenge", opponent="bob", thread=True)),
    Flow("seek and be paired", someone_seeking, slash("bob", "wari seek")),
    Flow("time runs out", a_game_on_a_five_minute_clock, six_minutes_pass),
]


def state(world) -> tuple:
    """What the database holds, to tell whether an action changed anything (read from the file)."""
    with sqlite3.connect(world.database) as db:
        games = db.execute("SELECT id, version FROM games ORDER BY id").fetchall()
        challenges = db.execute("SELECT id FROM challenges ORDER BY id").fetchall()
    return games, challenges


def answers(result) -> list[str]:
    """What the acting user was told: the answer and its follow-ups."""
    return [message.content for message in told(result)]


CUP = re.compile(r"wari:cup:(\d+):(\d+):(\d+)")
CHALLENGE = re.compile(r"wari:challenge:(\d+):")
DRAW = re.compile(r"wari:draw:(\d+):(\d+):")


@dataclass
class Channel:
    """The channel as the database has it, and as its messages show it."""

    live: GameRow | None
    challenge: ChallengeRow | None
    messages: dict[int, object]

    @classmethod
    async def read(cls, world) -> Channel:
        store = world.env.bot.store
        live, challenge = (
            await store.games.live_game(world.channel.id),
            await store.games.challenge_in(world.channel.id),
        )
        return cls(live, challenge, {message.id: message for message in world.channel.history()})

    @property
    def table(self) -> Table | None:
        return Table.of(self.live) if self.live else None

    def out_of_step(self, message, custom_id: str) -> str | None:
        """Why an enabled button on ``message`` offers something the database does not hold."""
        live, challenge = self.live, self.challenge
        cup, invite, offer = CUP.fullmatch(custom_id), CHALLENGE.match(custom_id), DRAW.match(custom_id)
        if cup:
            if not (live and int(cup[1]) == live.id and message.id == live.message_id):
                return f"message {message.id} shows cups of a board that is not game {cup[1]}'s current one"
            mismatches = board_mismatches(Table.of(live), message)
            if mismatches:
                return mismatches[0]
        if invite and not (challenge and int(invite[1]) == challenge.id):
            return f"message {message.id} offers to answer closed challenge {invite[1]}"
        if offer and not (live and live.draw_open and live.draw_message_id == message.id):
            return f"message {message.id} offers to answer a closed draw offer"
        return None

    def stale_buttons(self) -> list[tuple[object, str, str]]:
        """``(message, custom_id, why)`` for every enabled button out of step, newest message first."""
        found = []
        for message in reversed(list(self.messages.values())):
            for button in buttons(message):
                why = None if button.get("disabled") else self.out_of_step(message, button["custom_id"])
                if why:
                    found.append((message, button["custom_id"], why))
        return found

    def mismatches(self) -> list[str]:
        """Where the channel's messages disagree with the database (empty: they agree)."""
        problems = []
        if self.live is not None:
            message_id = self.live.message_id
            board = self.messages.get(message_id) if message_id is not None else None
            problems += board_mismatches(Table.of(self.live), board)
        if self.challenge is not None and self.challenge.message_id not in self.messages:
            problems.append(f"challenge {self.challenge.id} has no message")
        return problems + [why for _, _, why in self.stale_buttons()]


def board_mismatches(table: Table, board) -> list[str]:
    if board is None:
        return [f"game {table.row.id} has no board message"]
    ply = table.game.ply
    footer = board_footer(board) if texts(board) else None
    expected_footer = f"Move {ply}" if ply else "No move yet"
    if footer != (expected_footer if table.row.rated else f"{expected_footer} · unrated"):
        return [f"game {table.row.id}'s board shows {footer!r} at move {ply}"]
    expected = sorted(table.game.legal_moves) if not table.computer_to_move else []
    shown = sorted(
        int(b["custom_id"].rsplit(":", 1)[1])
        for b in buttons(board)
        if CUP.fullmatch(b["custom_id"]) and not b.get("disabled")
    )
    if shown != expected:
        return [f"game {table.row.id}'s board offers cups {shown}, not {expected}"]
    return []


async def next_action(world, told: list[str]) -> str:
    """What a player does next when the channel does not show the truth: press a button they
    see that is out of step, else what the bot told them; returns what was done."""
    channel = await Channel.read(world)
    for message, custom_id, _ in channel.stale_buttons():
        member = world.alice
        mover = channel.table.user_to_move if channel.table else None
        if custom_id.startswith("wari:cup:") and mover == world.bob.id:
            member = world.bob
        await member.click(message, custom_id=custom_id)
        return f"pressed {custom_id.rsplit(':', 1)[0]}"
    if (any("/wari board" in text for text in told) or channel.mismatches()) and channel.live is not None:
        await world.alice.slash(world.channel, "wari board")
        return "/wari board"
    if channel.challenge is not None and channel.challenge.message_id is None:
        await world.env.advance_time(61)
        await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
        return "a new challenge after a minute"
    return "nothing"
