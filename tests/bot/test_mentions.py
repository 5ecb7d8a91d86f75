"""Whom the bot's messages notify: only the people they name, whatever a member's name says."""

import discord

from tests.helpers import pinged


def _roles_pinged(world, message) -> list[int]:
    return list(world.env.backend.messages[message.channel.id][message.id].ping_role_ids)


async def test_the_bot_pings_nobody_unless_a_message_names_whom(world):
    allowed = world.env.bot.allowed_mentions
    assert allowed is not None
    assert allowed.to_dict() == discord.AllowedMentions.none().to_dict()


async def test_a_challenger_named_like_a_mention_pings_only_the_challenged_member(world):
    team = world.guild.create_role("Team")
    names = ("@everyone", f"<@&{team.id}>", f"<@{world.carol.id}>", "@here")
    for number, name in enumerate(names):
        sneaky = world.guild.add_member(world.env.create_user(f"sneaky{number}", global_name=name), nick=name)
        world.guild.add_member(world.env.create_user(f"member{number}"), roles=[team])
        channel = world.guild.create_text_channel(f"games-{number}")
        asked = await sneaky.slash(channel, "wari challenge", opponent=world.bob, first="me")
        (challenge,) = channel.history()
        assert pinged(world, challenge) == {world.bob.id}  # the challenge pings the challenged member
        await world.bob.click(asked.response, label="Accept")
        sent = [m for m in channel.history() if m.author.id == world.env.bot.user.id]
        assert sent
        for message in sent:  # a name shown pings no one: only the players are, when they must act
            assert pinged(world, message) <= {world.bob.id, sneaky.id}, message.content
            assert not _roles_pinged(world, message), message.content


async def test_a_message_that_names_nobody_to_ping_pings_nobody(world):
    team = world.guild.create_role("Team")
    world.guild.add_member(world.env.create_user("member"), roles=[team])
    text = f"@everyone @here <@&{team.id}> <@{world.bob.id}>"
    sent = await world.env.bot.get_partial_messageable(world.channel.id).send(text)
    (message,) = [m for m in world.channel.history() if m.id == sent.id]
    assert not pinged(world, message) and not _roles_pinged(world, message)
