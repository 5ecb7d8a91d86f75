"""User stories: against the computer, a player takes back a move and thinks again."""

from tests.helpers import enabled_houses, press, shown, start_game

BOT = "TestBot"


async def test_a_takeback_against_the_computer_undoes_your_move_and_its_answer(world):
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    before = list(board.components)
    await press(world.alice, board, 3)
    assert board.embeds[0].footer.text == "Move 2"  # Alice's move and the bot's answer
    (row,) = await world.env.bot.store._read("SELECT record FROM games")
    answer = row["record"].split()[-1]
    taken = await world.alice.slash(world.channel, "wari takeback")
    assert not taken.ephemeral
    assert (
        taken.response.content == f"↩️ {shown(world.alice)} took back `A(3,4)` `{answer}` in game #1: your move again."
    )
    assert board.embeds[0].footer.text == "No move yet" and board.content.startswith(
        f"**{shown(world.alice)}**, your move"
    )
    assert board.components == before and enabled_houses(board) == [1, 2, 3, 4, 5, 6]
    (row,) = await world.env.bot.store._read("SELECT record, position FROM games")
    assert "A(3,4)" not in row["record"]
    await press(world.alice, board, 5)  # she plays another move, and the bot answers it
    assert board.embeds[0].footer.text == "Move 2" and "`A(5,4)`" in board.embeds[0].description


async def test_takebacks_are_refused_before_any_move_and_between_people(world):
    await world.alice.slash(world.channel, "wari play", level="greedy", first="opponent")  # the bot moved first
    early = await world.alice.slash(world.channel, "wari takeback")
    assert early.ephemeral and early.response.content == "You have no move to take back yet."
    await world.alice.slash(world.channel, "wari abort")
    board = await start_game(world)
    await press(world.alice, board, 3)
    people = await world.alice.slash(world.channel, "wari takeback")
    assert people.ephemeral
    assert people.response.content == "Takebacks are for games against me: between people, a move played stands."
    assert board.embeds[0].footer.text == "Move 1"
