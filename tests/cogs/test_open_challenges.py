"""User stories: an open challenge, which anyone in the channel may accept (within a rating
range, if its challenger sets one)."""

import re

from tests.helpers import board_words, buttons, pinged, shown, status_line, surrender, told


async def open_challenge(world, **options):
    result = await world.alice.slash(world.channel, "wari challenge", first="me", **options)
    assert not result.ephemeral, result.response.content
    return result.response


async def test_anyone_but_the_challenger_may_accept_an_open_challenge(world):
    challenge = await open_challenge(world)
    assert challenge.content == "⚔️ An open challenge: the first to press **Accept** plays."
    assert challenge.embeds[0].description.startswith(f"**{shown(world.alice)}** challenges anyone here to a game")
    assert [b["label"] for b in buttons(challenge)] == ["Accept", "Withdraw"]  # nobody to decline it
    (posted,) = [m for m in world.channel.history() if m.id == challenge.id]
    assert pinged(world, posted) == set()  # nobody in particular is called
    own = await world.alice.click(challenge, label="Accept")
    assert told(own)[0].content == "This is your own open challenge: wait for someone to accept it, or withdraw it."
    await world.carol.click(challenge, label="Accept")
    assert status_line(challenge).startswith(f"**{shown(world.alice)}**, your move")
    assert f"**B** {shown(world.carol)}" in board_words(challenge)
    (row,) = await world.env.bot.store.database.read("SELECT player_a, player_b, name_b FROM games")
    assert (row["player_a"], row["player_b"], row["name_b"]) == (world.alice.id, world.carol.id, shown(world.carol))
    assert not await world.env.bot.store.database.read("SELECT * FROM challenges")


async def test_an_open_challenge_survives_a_restart_and_expires_unanswered(world):
    challenge = await open_challenge(world)
    await world.restart()
    await world.bob.click(challenge, label="Accept")
    assert status_line(challenge).startswith(f"**{shown(world.alice)}**, your move")
    await surrender(world.bob, world.channel)
    challenge = await open_challenge(world)
    await world.env.advance_time(11 * 60)
    assert challenge.content == "⌛ This challenge expired without an answer." and challenge.components == []


async def test_an_open_challenge_may_be_kept_to_players_near_the_challengers_rating(world):
    for _ in range(3):  # Bob beats Carol three times: his rating climbs far above 1500
        board = (await world.bob.slash(world.channel, "wari challenge", opponent=world.carol, first="me")).response
        await world.carol.click(board, label="Accept")
        await surrender(world.carol, world.channel)
    (bob,) = await world.env.bot.store.database.read("SELECT rating FROM ratings WHERE user_id = ?", (world.bob.id,))
    assert bob["rating"] > 1700
    challenge = await open_challenge(world, rating_within=150)  # Alice is unrated: 1500
    assert "Open to players rated **1350–1650** in wari." in challenge.embeds[0].description
    refused = await world.bob.click(challenge, label="Accept")
    assert re.fullmatch(
        r"This challenge is for players rated 1350–1650 in wari; your rating is \d{4}\.", told(refused)[0].content
    )
    assert challenge.components  # still open
    await world.mod.click(challenge, label="Accept")  # unrated, 1500: within the range
    assert status_line(challenge).startswith(f"**{shown(world.alice)}**, your move")


async def test_a_rating_range_is_only_for_open_challenges(world):
    refused = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, rating_within=100)
    assert refused.ephemeral
    assert refused.response.content == (
        "`rating_within` is for open challenges: leave out `opponent` to let anyone accept."
    )
