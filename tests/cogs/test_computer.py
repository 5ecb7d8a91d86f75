"""User stories: playing the bot itself, which thinks in worker processes."""

import discord

from bot.engine import Game
from bot.engine.notation import from_record
from bot.storage import StorageError
from tests.helpers import board_footer, board_words, buttons, enabled_houses, press, shown, status_line, surrender

#: The bot's name in SimCord, as its messages show it.
BOT = "TestBot"


async def play_bot(world, **options):
    return (await world.alice.slash(world.channel, "wari play", **options)).response


async def stored_game(world):
    (row,) = await world.env.bot.store.database.read("SELECT record FROM games ORDER BY id DESC LIMIT 1")
    return from_record(row["record"])[0]


async def test_play_starts_at_once_and_the_bot_answers_each_move(world):
    board = await play_bot(world, level="greedy", first="me")
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")
    await press(world.alice, board, 3)
    # The bot (B) has moved by the time the press settles: it is Alice's turn again.
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")
    game = await stored_game(world)
    assert game.ply == 2 and str(game.moves[0]) == "A(3,4)" and game.moves[1].player.name == "B"
    # Both half-moves are told: Alice's own, which she never saw drawn, and the bot's answer.
    lines = board_words(board).splitlines()
    at = lines.index("**Last moves:**")
    assert lines[at + 1] == f"`A(3,4)` {shown(world.alice)} sowed 4 seeds from house 3."
    assert lines[at + 2].startswith(f"`{game.moves[1]}` {BOT} (Casual) sowed ")
    assert "**Before:**" not in board_words(board)  # nothing earlier yet
    await press(world.alice, board, 1)
    game = await stored_game(world)
    lines = board_words(board).splitlines()
    assert lines[lines.index("**Last moves:**") + 1].startswith("`A(1,4)` ")
    assert f"**Before:** `A(3,4) {game.moves[1]}`" in lines  # the earlier moves, in notation


async def test_challenging_the_bot_plays_it_at_the_default_level(world):
    result = await world.alice.slash(world.channel, "wari challenge", opponent=world.me, first="opponent")
    assert not result.ephemeral
    game = await stored_game(world)
    assert game.ply == 1  # the bot moved first, at once
    assert status_line(result.response).startswith(f"**{shown(world.alice)}**, your move")


async def test_while_the_bot_thinks_the_board_says_so_and_cups_are_locked(world):
    from bot.service import Table
    from cogs.wari.views import CupButton, board_message

    board = await play_bot(world, level="random", first="opponent")
    table = await world.env.bot.service.tables.table(world.channel.id)
    # Rebuild the message as drawn when it was the bot's turn (before its move).
    thinking_game = Game(table.game.rules)
    thinking = Table(table.row, thinking_game)
    drawn = board_message(thinking)
    assert isinstance(drawn.view, discord.ui.LayoutView)
    status = next(item for item in drawn.view.walk_children() if isinstance(item, discord.ui.TextDisplay))
    assert status.content == f"🤖 **{BOT} (Beginner)** is thinking…"
    cups = [item for item in drawn.view.walk_children() if isinstance(item, CupButton)]
    assert len(cups) == 6 and all(cup.item.disabled for cup in cups)
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")


async def test_a_whole_game_against_the_bot_ends_with_a_result(world):
    board = await play_bot(world, level="low", variant="kalah", houses=3, seeds=2, first="me")
    for _ in range(100):
        if status_line(board).startswith("🏁 "):
            break
        await press(world.alice, board, min(enabled_houses(board)))
    assert [b["label"] for b in buttons(board)] == ["Rematch", "Analyse"] and status_line(board).startswith("🏁 ")
    assert (await stored_game(world)).is_over


async def test_surrender_against_the_bot(world):
    board = await play_bot(world, level="greedy", first="me")
    said = await surrender(world.alice, world.channel)
    assert said.content == f"🏳️ {shown(world.alice)} surrendered. {BOT} (Casual) wins game #1!"  # as its board names it
    assert [b["label"] for b in buttons(board)] == ["Rematch"]


async def test_restart_during_the_bots_turn_resumes_its_thinking(world):
    board = await play_bot(world, level="greedy", first="me")
    service = world.env.bot.service
    table = await service.tables.table(world.channel.id)
    # Alice's move is stored but the process dies before the bot could answer.
    await service.games.play(
        channel_id=world.channel.id,
        game_id=table.row.id,
        ply=0,
        message_id=table.row.message_id,
        user_id=world.alice.id,
        house=2,
        now=table.row.updated_at,
    )
    await world.restart()
    game = await stored_game(world)
    assert game.ply == 2 and game.moves[1].player.name == "B"
    assert status_line(board).startswith(f"**{shown(world.alice)}**, your move")


async def test_a_busy_bot_says_so(world):
    computer = world.env.bot.get_cog("Wari").computer
    computer.capacity = 0
    result = await world.alice.slash(world.channel, "wari play")
    assert result.ephemeral and "thinking in too many games right now" in result.response.content


async def test_an_exhibition_plays_one_move_per_press_of_next_move(world):
    board = (await world.carol.slash(world.channel, "wari exhibition", level_a="greedy", level_b="low")).response
    assert status_line(board).startswith("🤖 Exhibition: Casual (A) against Novice (B). A (Casual) to move")
    assert [b["label"] for b in buttons(board)] == ["Next move"]
    assert f"**A** {BOT} (Casual)" in board_words(board)
    await world.carol.click(board, label="Next move")
    assert board_footer(board) == "Move 1" and "B (Novice) to move" in status_line(board)
    await world.alice.click(board, label="Next move")  # anyone watching may press
    game = await stored_game(world)
    assert game.ply == 2 and str(game.moves[1]).startswith("B(7,")  # low plays its lowest house
    # People are not players of an exhibition: cups and surrender are not theirs.
    refused = await world.alice.slash(world.channel, "wari surrender")
    assert refused.ephemeral


async def test_an_exhibition_runs_to_the_end_and_survives_a_restart(world):
    board = (
        await world.carol.slash(world.channel, "wari exhibition", level_a="random", level_b="greedy", variant="kalah")
    ).response
    for presses in range(400):
        if "Next move" not in [b["label"] for b in buttons(board)]:
            break
        if presses == 5:
            await world.restart()
        await world.carol.click(board, label="Next move")
    assert [b["label"] for b in buttons(board)] == ["Analyse"] and status_line(board).startswith("🏁 ")
    assert (await stored_game(world)).is_over


async def test_a_moderator_can_stop_an_exhibition(world):
    board = (await world.carol.slash(world.channel, "wari exhibition", level_a="mcts", level_b="expert")).response
    await world.mod.slash(world.channel, "wari-mod abort")
    assert buttons(board) == [] and status_line(board) == "Game aborted by a moderator: no winner."


async def test_surrender_cancels_the_bots_search_and_its_answer_is_dropped(world, monkeypatch):
    import asyncio

    from bot.engine import rules_for
    from bot.service import computer as computer_module

    monkeypatch.setitem(computer_module.THINKING_TIME, "expert", 0.5)
    cog = world.env.bot.get_cog("Wari")
    service = world.env.bot.service
    table = await service.starts.play_computer(
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        human_id=world.alice.id,
        computer_id=world.env.bot.user.id,
        level="expert",
        rules=rules_for("wari"),
        first="opponent",
        now=discord_now(),
    )
    searching = asyncio.Event()
    search = cog.computer._search

    async def search_in_view(*args):
        searching.set()
        return await search(*args)

    monkeypatch.setattr(cog.computer, "_search", search_in_view)
    cog.computer.schedule(table, cog.followup.board_changed)
    task = cog.computer.tasks[world.channel.id]
    await asyncio.wait_for(searching.wait(), 5)  # the bot is thinking when she surrenders
    await service.games.surrender(world.channel.id, world.alice.id, discord_now())
    cog.computer.cancel(world.channel.id)
    await asyncio.sleep(1.0)  # longer than the search: its answer would have arrived by now
    assert task.cancelled() and world.channel.id not in cog.computer.tasks
    game = await stored_game(world)
    assert [str(move) for move in game.moves] == ["B(surrender)"]


def discord_now():
    import discord

    return discord.utils.utcnow()


async def test_a_failed_computer_move_is_tried_again(world, caplog, monkeypatch):
    import asyncio

    from bot.service import computer as computer_module

    monkeypatch.setattr(computer_module, "RETRY_PAUSE", 0.2)
    board = await play_bot(world, level="greedy", first="me")
    service, store = world.env.bot.service, world.env.bot.store
    table = await service.tables.table(world.channel.id)
    await service.games.play(
        channel_id=world.channel.id,
        game_id=table.row.id,
        ply=0,
        message_id=table.row.message_id,
        user_id=world.alice.id,
        house=4,
        now=table.row.updated_at,
    )
    saving = store.games.save_game
    broken = True

    async def save_game(*args, **changes):  # the bot's move cannot be saved for now
        if broken:
            raise StorageError("cannot write to the database: disk I/O error")
        return await saving(*args, **changes)

    monkeypatch.setattr(store.games, "save_game", save_game)
    cog = world.env.bot.get_cog("Wari")
    cog.computer.schedule(await service.tables.table(world.channel.id), cog.followup.board_changed)

    async def until(condition):
        for _ in range(200):
            met = condition()
            if await met if asyncio.iscoroutine(met) else met:
                return True
            await asyncio.sleep(0.05)
        return False

    assert await until(lambda: "the computer could not move" in caplog.text)
    assert (await stored_game(world)).ply == 1
    broken = False

    async def replied():
        return (await stored_game(world)).ply == 2

    assert await until(replied)
    assert await until(lambda: status_line(board).startswith(f"**{shown(world.alice)}**, your move"))


async def test_an_exhibition_on_its_own_plays_at_a_readable_pace_and_resumes_after_a_restart(world):
    board = (
        await world.carol.slash(world.channel, "wari exhibition", level_a="greedy", level_b="low", pace="auto")
    ).response
    assert buttons(board) == [] and "it plays on its own" in status_line(board)
    assert (await stored_game(world)).ply == 1  # the first move comes at once
    await world.env.advance_time(6)
    assert (await stored_game(world)).ply == 2  # then one every 6 seconds
    await world.restart()
    await world.env.advance_time(6)
    assert (await stored_game(world)).ply == 3
    for _ in range(300):
        if (await stored_game(world)).is_over:
            break
        await world.env.advance_time(6)
    assert (await stored_game(world)).is_over and status_line(board).startswith("🏁 ")


async def test_an_aborted_exhibition_names_its_two_levels(world):
    await world.carol.slash(world.channel, "wari exhibition", level_a="low", level_b="greedy")
    done = await world.mod.slash(world.channel, "wari-mod abort")
    assert (
        done.response.content
        == f"🛑 {shown(world.mod)} aborted game #1 between {BOT} (Novice) and {BOT} (Casual). No winner."
    )


async def test_each_level_has_one_name_in_the_choices_and_on_the_board(world):
    (wari,) = [command for command in await world.env.bot.tree.fetch_commands() if command.name == "wari"]
    play = next(option for option in wari.options if option.name == "play")
    level = next(option for option in play.options if option.name == "level")
    names = {choice.value: choice.name.split(":")[0] for choice in level.choices}
    assert len(set(names.values())) == len(names) == 6  # no two levels share a name
    assert names["again"] == "Apprentice" and names["mcts"] == "Strong"
    board = await play_bot(world, level="again", first="me")
    assert f"**B** {BOT} ({names['again']})" in board_words(board)
    await surrender(world.alice, world.channel)
    stats = await world.alice.slash(world.channel, "wari stats")
    (against,) = [field for field in stats.response.embeds[0].fields if field.name == "Against the computer"]
    assert against.value.startswith(f"**{names['again']}**: 1 ")
