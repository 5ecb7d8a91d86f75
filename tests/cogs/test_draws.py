"""User stories: offering a draw, answering it, and an offer that lapses at the next move."""

from bot.ai.worker import evaluate
from tests.helpers import board_footer, cup_labels, pinged, press, shown, start_game, status_line, stored, surrender


def offer_of(result):
    assert not result.ephemeral
    return result.response


async def test_an_offer_pings_the_opponent_who_may_accept_it(world):
    board = await start_game(world)
    offer = offer_of(await world.alice.slash(world.channel, "wari draw"))
    assert offer.content == f"{world.bob.mention}, your opponent offers a draw."
    assert pinged(world, offer.message) == {world.bob.id}
    assert [b["label"] for row in offer.components for b in row["components"]] == ["Accept", "Decline"]
    mine = await world.alice.click(offer, label="Accept")
    assert mine.ephemeral and mine.response.content == "You made this offer: your opponent answers it."
    outsider = await world.carol.click(offer, label="Accept")
    assert outsider.response.content == "Only the player this offer was made to can answer it."
    await world.bob.click(offer, label="Accept")
    assert offer.components == [] and "accepted: game #1 is drawn" in offer.embeds[0].description
    # Alice hears of the answer: a new message that notifies her alone (an edit notifies nobody).
    (told,) = [m for m in world.channel.history() if "your draw offer" in m.content]
    assert told.content == f"{world.alice.mention}, {shown(world.bob)} accepted your draw offer: game #1 is drawn."
    assert pinged(world, told) == {world.alice.id}
    assert status_line(board) == "🏁 Draw by agreement (score 0–0)."
    assert (await stored(world, "status"), await stored(world, "result"), await stored(world, "reason")) == (
        "finished",
        "draw",
        "agreement",
    )
    assert (await stored(world, "record")).rstrip().endswith("A(agreement)")


async def test_a_declined_offer_cannot_be_repeated_before_the_next_move(world):
    board = await start_game(world)
    offer = offer_of(await world.alice.slash(world.channel, "wari draw"))
    await world.bob.click(offer, label="Decline")
    assert offer.components == [] and "declined the draw offer" in offer.embeds[0].description
    (told,) = [m for m in world.channel.history() if "your draw offer" in m.content]
    assert told.content == f"{world.alice.mention}, {shown(world.bob)} declined your draw offer. Play on!"
    assert pinged(world, told) == {world.alice.id}
    again = await world.alice.slash(world.channel, "wari draw")
    assert again.ephemeral and "You can offer again after the next move" in again.response.content
    await press(world.alice, board, 5)
    offer_of(await world.alice.slash(world.channel, "wari draw"))
    twice = await world.bob.slash(world.channel, "wari draw")
    assert twice.ephemeral and twice.response.content == "A draw offer is already waiting for an answer."


async def test_an_offer_lapses_at_the_next_move(world):
    board = await start_game(world)
    offer = offer_of(await world.bob.slash(world.channel, "wari draw"))  # Bob offers; Alice is to move
    await press(world.alice, board, 5)
    assert offer.components == [] and offer.embeds[0].description == "This draw offer lapsed: a move was played."
    assert board_footer(board) == "Move 1" and await stored(world, "draw_open") == 0


async def test_a_stale_accept_is_refused(world):
    board = await start_game(world)
    offer = offer_of(await world.bob.slash(world.channel, "wari draw"))
    accept_id = next(b["custom_id"] for row in offer.components for b in row["components"] if b["label"] == "Accept")
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=500)  # the lapse edit fails: the button stays
    await press(world.alice, board, 5)
    late = await world.alice.click(offer, custom_id=accept_id)
    # The press closes the offer's message: it says so and loses its buttons.
    assert (
        late.response.id == offer.id
        and offer.content == "This draw offer is no longer open."
        and offer.components == []
    )
    assert status_line(board).startswith(f"**{shown(world.bob)}**, your move")


async def test_an_offer_survives_a_restart(world):
    board = await start_game(world)
    offer = offer_of(await world.alice.slash(world.channel, "wari draw"))
    await world.restart()
    await world.bob.click(offer, label="Accept")
    assert status_line(board) == "🏁 Draw by agreement (score 0–0)."


async def test_a_finished_game_cannot_be_drawn(world):
    await start_game(world)
    await surrender(world.alice, world.channel)
    late = await world.bob.slash(world.channel, "wari draw")
    assert late.ephemeral and late.response.content.startswith("There is no game in this channel")


async def play_low(world, houses):
    """Alice (A) plays the bot at level low, which always empties its lowest house."""
    board = (await world.alice.slash(world.channel, "wari play", level="low", first="me")).response
    for house in houses:
        await press(world.alice, board, house)
    return board


async def test_the_computer_accepts_a_draw_when_it_is_behind(world):
    board = await play_low(world, [2, 6, 1])
    assert evaluate(await stored(world, "record"), 1) > 0  # Alice, to move, is ahead by the bot's own search
    answer = await world.alice.slash(world.channel, "wari draw")
    assert answer.response.content == f"🤝 {shown(world.alice)} offered a draw and I accept: game #1 is drawn."
    assert status_line(board).startswith("🏁 Draw") and await stored(world, "reason") == "agreement"


async def test_the_computer_declines_a_draw_when_it_is_ahead(world):
    board = await play_low(world, [4, 5, 3, 1, 6])  # Alice feeds the bot 8 seeds
    assert evaluate(await stored(world, "record"), 1) < 0
    answer = await world.alice.slash(world.channel, "wari draw")
    assert answer.response.content.startswith(f"🤖 {shown(world.alice)} offered a draw; I decline")
    assert cup_labels(board) and await stored(world, "status") == "live" and await stored(world, "draw_open") == 0
