"""User stories: a game's record downloaded as a file, read back by the engine, and replays
stepped through with ⏮ ◀ ▶ ⏭ (also after a restart)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

from bot.engine import Game, Player
from bot.engine.notation import from_record, position
from bot.render import board_text, result_text
from tests.helpers import board_code, board_footer, buttons, press, shown, start_game, status_line, stored, surrender

ROOT = Path(__file__).resolve().parents[2]
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


async def play_to_the_end(world, board, variant: str = "wari", seed: int = 5) -> Game:
    """Alice (A, first) and Bob (B) play random legal moves on ``board`` until the game ends."""
    shadow, rng = Game(variant), random.Random(seed)
    players = {Player.A: world.alice, Player.B: world.bob}
    while not shadow.is_over:
        house, mover = rng.choice(shadow.legal_moves), shadow.to_move
        assert mover is not None  # someone is to move until the game is over
        await press(players[mover], board, house)
        shadow.play(house)
    return shadow


async def download(member, channel, game: int, **options) -> tuple[object, str]:
    """``/wari record`` as ``member``: the result and the attached file's text."""
    result = await member.slash(channel, "wari record", game=game, **options)
    (attachment,) = result.response.attachments
    assert attachment.filename == f"wari-game-{game}.txt"
    return result, (await attachment.read()).decode("utf-8")


def engine_replay(*args: str, stdin: str = "") -> dict:
    """``python -m bot.engine replay`` as a real process; its one line of JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.engine", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    return json.loads(line)


def drawn(game: Game) -> str:
    """The board of ``game`` as a board embed's code block holds it."""
    return board_text(game).strip()


def tag_lines(text: str) -> dict[str, str]:
    head = text.split("\n\n", 1)[0]
    return {m[1]: json.loads(m[2]) for m in re.finditer(r'^\[(\w+) (".*")\]$', head, re.MULTILINE)}


def replay_button(message, way: str) -> dict:
    (button,) = [
        b for b in buttons(message) if b["custom_id"].startswith("wari:replay:") and b["custom_id"].endswith(f":{way}")
    ]
    return button


async def step(member, message, way: str):
    return await member.click(message, custom_id=replay_button(message, way)["custom_id"])


def shown_move(message) -> int:
    """The move a replay shows, from its footer ``Move k of n``."""
    footer = message.embeds[0].footer.text
    match = re.match(r"Move (\d+) of \d+", footer)
    if match is None:
        raise AssertionError(f"a replay's footer reads 'Move k of n', not {footer!r}")
    return int(match[1])


def disabled(message) -> set[str]:
    return {b["custom_id"].rsplit(":", 1)[1] for b in buttons(message) if b.get("disabled")}


# -- /wari record -------------------------------------------------------------------------------


async def test_a_finished_games_record_replays_through_the_engine_to_the_archived_position(world, tmp_path):
    board = await start_game(world, variant="oware")
    shadow = await play_to_the_end(world, board, "oware")
    result, text = await download(world.carol, world.channel, 1)  # anyone in the server may
    assert result.ephemeral  # only for the asker by default
    assert text.startswith('[Format "wari-record/1"]\n')
    archived_record = await stored(world, "record")
    archived_final = position(from_record(archived_record)[0])
    assert archived_final == position(shadow)
    # From standard input, and from a file.
    answer = engine_replay(stdin=text)
    assert answer["position"] == archived_final
    assert (answer["result"], answer["reason"]) == (shadow.outcome.result, shadow.outcome.termination.value)
    assert answer["plies"] == shadow.ply and answer["players"] == ["alice", "bob"]
    path = tmp_path / "wari-game-1.txt"
    path.write_text(text, encoding="utf-8")
    assert engine_replay(str(path))["position"] == archived_final
    # The library reads it too, move for move.
    game, tags = from_record(text)
    assert game.moves == shadow.moves and tags["Result"] == await stored(world, "result")
    # The answer says what it is, naming the players without pinging them.
    names = (shown(world.alice), shown(world.bob))
    assert result.response.content.startswith(
        f"📄 The record of game #1 (oware): {names[0]} against {names[1]}, {shadow.ply} moves, "
        f"{result_text(shadow.outcome, names)}\n"
    )
    # It says what a player can do with it in Discord, not which program a developer would run.
    assert "`/wari replay game: 1`" in result.response.content and "python" not in result.response.content


async def test_the_tags_carry_names_ids_dates_clock_and_the_result(world):
    board = await start_game(world, clock="5+3")
    await press(world.alice, board, 5)
    await press(world.bob, board, 7)
    await surrender(world.alice, world.channel)
    _, text = await download(world.bob, world.channel, 1)
    tags = tag_lines(text)
    assert tags["Event"] == "Wari for Discord" and tags["Game"] == "1"
    assert (tags["PlayerA"], tags["PlayerB"]) == ("alice", "bob")
    assert (tags["PlayerAId"], tags["PlayerBId"]) == (str(world.alice.id), str(world.bob.id))
    assert tags["Clock"] == "5+3" and tags["Status"] == "finished"
    assert (tags["Result"], tags["Reason"]) == ("B", "surrender")
    assert ISO_UTC.match(tags["Date"]) and ISO_UTC.match(tags["Finished"])
    assert tags["Date"] == (await stored(world, "created_at"))[:19] + "Z"
    assert tags["Finished"] == (await stored(world, "finished_at"))[:19] + "Z"
    assert "LevelA" not in tags and "LevelB" not in tags
    assert list(tags)[:7] == ["Format", "Variant", "First", "PlayerA", "PlayerB", "Result", "Reason"]
    assert text.endswith("\n\nA(5,4) B(7,5) A(surrender)\n")


async def test_the_computers_side_is_named_with_its_level_and_a_live_game_can_be_downloaded(world):
    dave = world.guild.add_member(world.env.create_user("dave", global_name="Dave the Sower 🌱"))
    await dave.slash(world.channel, "wari play", level="greedy", first="me")
    result, text = await download(dave, world.channel, 1, public=True)
    assert not result.ephemeral
    tags = tag_lines(text)
    assert tags["PlayerA"] == "Dave the Sower 🌱"  # the display name, not the username
    assert (tags["PlayerB"], tags["LevelB"]) == ("Wari bot (greedy)", "greedy")
    assert tags["PlayerBId"] == str(world.env.backend.bot_user.id)
    assert (tags["Status"], tags["Result"], tags["Finished"]) == ("live", "*", "-")
    assert "still being played" in result.response.content
    assert engine_replay(stdin=text)["result"] is None


async def test_an_aborted_game_says_so_and_still_reads_back(world):
    board = await start_game(world)
    await press(world.alice, board, 3)
    await world.mod.slash(world.channel, "wari-mod abort")
    result, text = await download(world.alice, world.channel, 1)
    tags = tag_lines(text)
    assert (tags["Status"], tags["Result"], tags["Reason"]) == ("aborted", "*", "")
    assert "1 move, aborted." in result.response.content
    assert engine_replay(stdin=text)["plies"] == 1


async def test_names_fall_back_to_ids_when_discord_cannot_say(world):
    board = await start_game(world)
    await press(world.alice, board, 5)
    await world.restart()  # nobody is cached any more
    world.env.inject_error("GET", "/users/*", status=500, times=None)
    _, text = await download(world.carol, world.channel, 1)
    tags = tag_lines(text)
    assert (tags["PlayerA"], tags["PlayerB"]) == (str(world.alice.id), str(world.bob.id))


async def test_a_record_of_an_unknown_game_or_another_servers_game_is_refused(world):
    await start_game(world)  # game #1, in this server
    other = world.env.create_guild("Elsewhere")
    there = other.create_text_channel("play")
    ama, kofi = (other.add_member(world.env.create_user(name)) for name in ("ama", "kofi"))
    challenge = (await ama.slash(there, "wari challenge", opponent=kofi)).response
    await kofi.click(challenge, label="Accept")
    assert await stored(world, "guild_id", 2) == other.id
    for number in (2, 99):
        for command in ("wari record", "wari replay"):
            refused = await world.alice.slash(world.channel, command, game=number)
            assert refused.ephemeral and refused.response.attachments == []
            assert refused.response.content.startswith(f"There is no game #{number} in this server.")
    # In its own server game #2 is there for anyone.
    _, text = await download(ama, there, 2)
    assert tag_lines(text)["PlayerA"] in ("ama", "kofi")


# -- /wari replay -------------------------------------------------------------------------------


async def test_replay_buttons_step_forward_back_and_to_both_ends_also_after_a_restart(world):
    board = await start_game(world)
    moves = [(world.alice, 5), (world.bob, 7), (world.alice, 2), (world.bob, 12)]
    for member, house in moves:
        await press(member, board, house)
    await surrender(world.bob, world.channel)
    shadow = Game("wari")
    for _, house in moves:
        shadow.play(house)
    result = await world.carol.slash(world.channel, "wari replay", game=1)
    replay = result.response
    assert not result.ephemeral  # posted for the channel to watch
    # It opens at the end: the last move (a surrender is none), the result, ⏭ and ▶ disabled.
    assert shown_move(replay) == 4 and replay.embeds[0].footer.text.startswith("Move 4 of 4")
    assert "surrendered" in replay.embeds[0].description and "🏁" in replay.embeds[0].description
    assert board_code(replay) == drawn(shadow)
    assert disabled(replay) == {"next", "last"}
    # Anyone may press: to the start...
    await step(world.mod, replay, "first")
    assert shown_move(replay) == 0 and board_code(replay) == drawn(Game("wari"))
    assert disabled(replay) == {"first", "prev"}
    assert "**Start:**" in replay.embeds[0].description
    # ... one move on, and another.
    await step(world.alice, replay, "next")
    assert shown_move(replay) == 1 and "`A(5,4)`" in replay.embeds[0].description
    await step(world.alice, replay, "next")
    assert shown_move(replay) == 2 and disabled(replay) == set()
    partial = Game("wari")
    for _, house in moves[:2]:
        partial.play(house)
    assert board_code(replay) == drawn(partial)
    await world.restart()
    # After a restart the same buttons go on working: forward, back, to the end.
    await step(world.carol, replay, "next")
    assert shown_move(replay) == 3
    assert "**Move 3:** `A(2,4)`" in replay.embeds[0].description
    await step(world.bob, replay, "prev")
    await step(world.bob, replay, "prev")
    assert shown_move(replay) == 1
    await step(world.bob, replay, "last")
    assert shown_move(replay) == 4 and board_code(replay) == drawn(shadow)
    assert disabled(replay) == {"next", "last"}
    # The game's own board was never touched.
    assert board_footer(board) == "Move 4" and status_line(board).startswith("🏁 ")  # a surrender is no move


async def test_a_replay_can_be_private_and_buttons_of_a_vanished_game_are_refused(world):
    board = await start_game(world)
    await press(world.alice, board, 6)
    result = await world.alice.slash(world.channel, "wari replay", game=1, public=False)
    assert result.ephemeral and shown_move(result.response) == 1
    # The live game moved on: ⏭ goes to its latest move, not the one the button was drawn at.
    await press(world.bob, board, 9)
    await step(world.alice, result.response, "first")
    await step(world.alice, result.response, "last")
    assert shown_move(result.response) == 2 and "`B(9,5)`" in result.response.embeds[0].description
    assert "The game goes on" in result.response.embeds[0].description
    # A press on a button naming a game this server does not have is refused, not shown.
    await world.env.bot.store.database.write(("UPDATE games SET guild_id = guild_id + 1 WHERE id = 1", ()))
    pressed = await step(world.alice, result.response, "first")
    assert pressed.ephemeral and pressed.response.content.startswith("There is no game #1 in this server.")
    assert shown_move(result.response) == 2
