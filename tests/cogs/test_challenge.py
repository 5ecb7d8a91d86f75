"""User stories: challenging a member, and the ways a challenge ends."""

import pytest

from tests.helpers import board_title, buttons, cup_labels, cup_rows, enabled_houses, pinged, shown, status_line


async def challenge(world, **options):
    return await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, **options)


async def test_challenge_posts_accept_decline_withdraw_and_pings_the_opponent(world):
    result = await challenge(world, variant="oware", first="me")
    assert result.acknowledged and not result.ephemeral
    message = result.response
    assert message.content == f"{world.bob.mention}, you have been challenged!"
    assert pinged(world, message.message) == {world.bob.id}
    assert "to a game of **oware**; the challenger moves first" in message.embeds[0].description
    assert "expires" in message.embeds[0].description
    assert [b["label"] for b in buttons(message)] == ["Accept", "Decline", "Withdraw"]


async def test_accepting_turns_the_challenge_into_the_board(world):
    message = (await challenge(world, first="me")).response
    accepted = await world.bob.click(message, label="Accept")
    assert accepted.acknowledged
    assert status_line(message).startswith(f"**{shown(world.alice)}**, your move (wari, houses 1–6)")
    assert board_title(message) == "Wari · game #1"
    assert cup_labels(message) == [f"{h} · 4" for h in range(1, 7)]
    assert enabled_houses(message) == [1, 2, 3, 4, 5, 6]


async def test_first_opponent_makes_the_challenged_member_player_a(world):
    message = (await challenge(world, first="opponent")).response
    await world.bob.click(message, label="Accept")
    assert status_line(message).startswith(f"**{shown(world.bob)}**, your move")


async def test_only_the_challenged_member_may_accept_or_decline(world):
    message = (await challenge(world)).response
    for member in (world.carol, world.alice):
        answer = await member.click(message, label="Accept")
        assert answer.ephemeral
    assert "between" in answer_text(await world.carol.click(message, label="Decline"))
    assert "Only bob can accept or decline" in answer_text(await world.alice.click(message, label="Accept"))
    assert [b["label"] for b in buttons(message)] == ["Accept", "Decline", "Withdraw"]  # still open


def answer_text(result) -> str:
    assert result.ephemeral
    return result.response.content


async def test_decline_closes_the_challenge_and_frees_the_channel(world):
    message = (await challenge(world)).response
    await world.bob.click(message, label="Decline")
    assert message.content == f"{shown(world.bob)} declined the challenge."
    assert message.components == []
    # The challenger hears of it: a new message that notifies her alone (an edit notifies nobody).
    told = world.channel.last_message
    assert (
        told.id != message.id and told.content == f"{world.alice.mention}, {shown(world.bob)} declined your challenge."
    )
    assert pinged(world, told) == {world.alice.id}
    again = await challenge(world)
    assert not again.ephemeral


async def test_the_challenger_may_withdraw_but_not_the_opponent(world):
    message = (await challenge(world)).response
    assert "Only the challenger can withdraw" in answer_text(await world.bob.click(message, label="Withdraw"))
    await world.alice.click(message, label="Withdraw")
    assert message.content == f"{shown(world.alice)} withdrew the challenge."
    assert message.components == []
    assert world.channel.last_message.id == message.id  # nobody to notify: the challenger withdrew it herself


@pytest.mark.parametrize(
    ("variant", "title"), [("wari", "⚔️ Wari challenge"), ("kalah", "⚔️ Kalah challenge"), ("ouril", "⚔️ Ouril challenge")]
)
async def test_a_challenge_is_titled_with_its_game(world, variant, title):
    message = (await challenge(world, variant=variant)).response
    assert message.embeds[0].title == title


async def test_a_challenge_expires_after_ten_minutes(world):
    message = (await challenge(world)).response
    await world.env.advance_time(9 * 60)
    assert buttons(message)
    await world.env.advance_time(75)
    assert message.content == "⌛ This challenge expired without an answer."
    assert message.components == []
    assert not (await challenge(world)).ephemeral  # the channel is free again


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"variant": "wari", "houses": 8}, "`houses` and `seeds` only apply to kalah"),
        ({"variant": "oware", "seeds": 3}, "`houses` and `seeds` only apply to kalah"),
    ],
)
async def test_options_that_do_not_fit_the_variant_are_refused(world, options, reason):
    result = await challenge(world, **options)
    assert result.ephemeral and reason in result.response.content


async def test_kalah_with_ten_houses_fits_in_two_rows_of_buttons(world):
    message = (await challenge(world, variant="kalah", houses=10, seeds=10, first="me")).response
    await world.bob.click(message, label="Accept")
    assert [len(row) for row in cup_rows(message)] == [5, 5]
    assert cup_labels(message)[0] == "1 · 10"
    assert board_title(message) == "Kalah 10x10 · game #1"


async def test_refusals_are_ephemeral_and_clear(world):
    yourself = await world.alice.slash(world.channel, "wari challenge", opponent=world.alice)
    assert answer_text(yourself) == "You can't challenge yourself. Pick another member of this server."
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    assert answer_text(await world.alice.slash(world.channel, "wari challenge", opponent=robot)) == (
        "Bots can't play Wari. Challenge a person, or play me with `/wari play`."
    )
    await challenge(world)
    busy = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert "already has an open challenge" in answer_text(busy)


async def test_a_channel_with_a_live_game_refuses_new_challenges(world):
    message = (await challenge(world)).response
    await world.bob.click(message, label="Accept")
    busy = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert "already has a game in progress" in answer_text(busy)


async def test_a_thread_is_its_own_channel(world):
    message = (await challenge(world)).response
    await world.bob.click(message, label="Accept")
    other = world.guild.create_text_channel("more-games")
    result = await world.carol.slash(other, "wari challenge", opponent=world.mod)
    assert not result.ephemeral


async def test_an_expired_challenge_does_not_block_the_channel_before_the_sweep(world):
    message = (await challenge(world)).response
    world.env.bot.get_cog("Wari").sweep.cancel()  # as if the sweep had not come yet
    await world.env.advance_time(11 * 60)
    assert buttons(message)  # not swept
    again = await world.carol.slash(world.channel, "wari challenge", opponent=world.mod)
    assert not again.ephemeral
    assert message.content == "⌛ This challenge expired without an answer." and message.components == []


async def test_a_press_on_a_challenge_that_closed_unseen_greys_it_and_drops_its_countdown(world):
    message = (await challenge(world)).response
    world.env.bot.get_cog("Wari").sweep.cancel()  # it expires, but no sweep comes to say so
    await world.env.advance_time(11 * 60)
    assert "This challenge expires" in message.embeds[0].description and buttons(message)
    late = await world.bob.click(message, label="Accept")
    assert late.acknowledged and message.content == "This challenge is no longer open." and message.components == []
    embed = message.embeds[0]
    assert "expires" not in embed.description and "<t:" not in embed.description
    assert "challenges **bob** to a game of **wari**" in embed.description  # what it was stays readable
    assert embed.colour.value == 0x607D8B  # greyed (dark grey), as every closed message
