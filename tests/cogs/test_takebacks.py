"""User stories: against the computer, a player takes back a move and thinks again."""

from tests.helpers import board_footer, board_words, enabled_houses, press, shown, start_game, status_line

BOT = "TestBot"


async def test_a_takeback_against_the_computer_undoes_your_move_and_its_answer(world):
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    before = list(board.components)
    await press(world.alice, board, 3)
    assert board_footer(board) == "Move 2"  # Alice's move and the bot's answer
    (row,) = await world.env.bot.store.database.read("SELECT record FROM games")
    answer = row["record"].split()[-1]
    taken = await world.alice.slash(world.channel, "wari takeback")
    assert not taken.ephemeral
    assert (
        taken.response.content == f"↩️ {shown(world.alice)} took back `A(3,4)` `{answer}` in game #1: your move again."
    )
    assert board_footer(board) == "No move yet" and status_line(board).startswith(
        f"**{shown(world.alice)}**, your move"
    )
    assert board.components == before and enabled_houses(board) == [1, 2, 3, 4, 5, 6]
    (row,) = await world.env.bot.store.database.read("SELECT record, position FROM games")
    assert "A(3,4)" not in row["record"]
    await press(world.alice, board, 5)  # she plays another move, and the bot answers it
    assert board_footer(board) == "Move 2" and "`A(5,4)`" in board_words(board)


async def test_takebacks_are_refused_before_any_move_and_between_people(world):
    await world.alice.slash(world.channel, "wari play", level="greedy", first="opponent")  # the bot moved first
    early = await world.alice.slash(world.channel, "wari takeback")
    assert early.ephemeral and early.response.content == "You have no move to take back yet."
    await world.alice.slash(world.channel, "wari abort")
    board = await start_game(world)
    await press(world.alice, board, 3)
    people = await world.alice.slash(world.channel, "wari takeback")
    assert people.ephemeral
    assert people.response.content == (
        "In a rated game a move played stands. Takebacks are for games against me and "
        "unrated games (`/wari challenge rated: False`)."
    )
    assert board_footer(board) == "Move 1"


async def test_in_an_unrated_game_the_opponent_is_asked_and_may_agree(world):
    from tests.helpers import pinged, surrender, told

    challenge = (
        await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me", rated=False)
    ).response
    assert "Unrated: no rating changes, and takebacks are allowed." in challenge.embeds[0].description
    await world.bob.click(challenge, label="Accept")
    board = challenge
    assert board_footer(board) == "No move yet · unrated"
    await press(world.alice, board, 3)
    asked = await world.alice.slash(world.channel, "wari takeback")
    request = asked.response
    assert (
        request.content == f"↩️ {world.bob.mention}, {shown(world.alice)} asks to take back their last move in game #1."
    )
    (posted,) = [m for m in world.channel.history() if m.id == request.id]
    assert pinged(world, posted) == {world.bob.id}
    own = await world.alice.click(request, label="Accept")
    assert told(own)[0].content == "Only the opponent of who asked can answer a takeback request."
    await world.bob.click(request, label="Accept")
    assert request.content == f"✅ {shown(world.bob)} agreed: `A(3,4)` taken back." and request.components == []
    assert board_footer(board) == "No move yet · unrated" and enabled_houses(board) == [1, 2, 3, 4, 5, 6]
    (turn,) = [m for m in world.channel.history() if "your move in game #1" in m.content]
    assert pinged(world, turn) == {world.alice.id}  # her turn ping is her one notification
    # A request lapses once a move is played; a declined one leaves the move standing.
    await press(world.alice, board, 4)
    stale = (await world.alice.slash(world.channel, "wari takeback")).response
    await press(world.bob, board, 9)
    await world.bob.click(stale, label="Decline")
    assert stale.content == "This takeback request lapsed: the game moved on." and stale.components == []
    again = (await world.bob.slash(world.channel, "wari takeback")).response
    await world.alice.click(again, label="Decline")
    assert again.content == f"{shown(world.alice)} declined: the move stands."
    assert board_footer(board) == "Move 2 · unrated"
    # Unrated: the end changes no rating.
    await surrender(world.alice, world.channel)
    assert not await world.env.bot.store.database.read("SELECT * FROM rating_changes")
