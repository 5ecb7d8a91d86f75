"""User stories: quick pairing. ``/wari seek`` waits in the server's queue; the first player who
fits is paired at once, in a thread of the channel where they asked, and both are called."""

import asyncio
import contextlib

from tests.helpers import board_title, buttons, pinged, shown, surrender, texts, told


async def seek(member, channel, **options):
    result = await member.slash(channel, "wari seek", **options)
    assert result.acknowledged, result.response
    return result


async def test_two_players_who_seek_the_same_game_are_paired_in_a_thread(world):
    waiting = (await seek(world.alice, world.channel, clock="5+3")).response
    assert not waiting.ephemeral and [b["label"] for b in buttons(waiting)] == ["Play", "Cancel"]
    description = waiting.embeds[0].description
    assert description.startswith(f"🔎 **{shown(world.alice)}** is looking for a game of **wari**, clock **5+3**")
    paired = await seek(world.bob, world.channel, clock="5+3")
    assert "paired by `/wari seek`" in paired.response.content
    (thread,) = world.channel.threads
    messages = thread.history()
    board = next(m for m in messages if texts(m) and "game #1" in board_title(m))
    call = next(m for m in messages if "your game is ready" in m.content)
    assert pinged(world, call) == {world.alice.id, world.bob.id}  # both are called to it
    assert [b["custom_id"] for b in buttons(board) if b["custom_id"].startswith("wari:cup:")]
    # Alice's wait is closed, with the way to her game.
    assert waiting.components == [] and waiting.content.startswith(
        f"🔎 Paired with **{shown(world.bob)}**: game #1 → [board](https://discord.com/channels/{world.guild.id}/"
    )
    (row,) = await world.env.bot.store.database.read("SELECT player_a, player_b, clock, thread FROM games")
    assert {row["player_a"], row["player_b"]} == {world.alice.id, world.bob.id}
    assert (row["clock"], row["thread"]) == ("5+3", 1)
    assert not await world.env.bot.store.database.read("SELECT * FROM seeks")


async def test_anyone_else_presses_play_on_a_wait_and_their_game_starts_at_once(world):
    waiting = (await seek(world.alice, world.channel, variant="oware", clock="5+3")).response
    assert "Press **Play** to take it." in waiting.embeds[0].description
    own = await world.alice.click(waiting, label="Play")
    assert told(own)[0].content == "This is your own search: its **Cancel** button ends it."
    played = await world.bob.click(waiting, label="Play")
    assert played.acknowledged and "paired by `/wari seek`" in played.response.content
    (thread,) = world.channel.threads
    call = next(m for m in thread.history() if "your game is ready" in m.content)
    assert pinged(world, call) == {world.alice.id, world.bob.id}
    assert waiting.components == [] and waiting.content.startswith(f"🔎 Paired with **{shown(world.bob)}**: game #1 →")
    (row,) = await world.env.bot.store.database.read("SELECT player_a, player_b, variant, clock FROM games")
    assert {row["player_a"], row["player_b"]} == {world.alice.id, world.bob.id}
    assert (row["variant"], row["clock"]) == ("oware", "5+3")
    assert not await world.env.bot.store.database.read("SELECT * FROM seeks")


async def test_play_ends_the_pressers_own_wait_and_keeps_a_rating_range(world):
    for _ in range(3):  # Bob beats Carol three times: his rating climbs far above 1500
        board = (await world.bob.slash(world.channel, "wari challenge", opponent=world.carol, first="me")).response
        await world.carol.click(board, label="Accept")
        await surrender(world.carol, world.channel)
    waiting = (await seek(world.alice, world.channel, rating_within=100)).response  # Alice: 1500
    refused = await world.bob.click(waiting, label="Play")
    assert told(refused)[0].content.startswith(f"{shown(world.alice)} is looking for opponents rated 1400–1600; ")
    assert len(await world.env.bot.store.database.read("SELECT * FROM seeks")) == 1  # nothing taken
    mine = (await seek(world.mod, world.channel, clock="10+5")).response  # the moderator waits for another game
    await world.mod.click(waiting, label="Play")  # ...and takes Alice's instead
    assert mine.components == [] and mine.content.startswith(f"🔎 Paired with **{shown(world.alice)}**: game #")
    assert not await world.env.bot.store.database.read("SELECT * FROM seeks")


async def test_a_different_game_or_rating_does_not_pair_and_one_wait_per_player(world):
    await seek(world.alice, world.channel, clock="5+3")
    again = await world.alice.slash(world.channel, "wari seek", variant="oware")
    assert again.ephemeral and again.response.content.startswith("You are already looking for a game in this server")
    await seek(world.bob, world.channel, clock="10+5")  # another clock: both wait
    assert len(await world.env.bot.store.database.read("SELECT * FROM seeks")) == 2 and not world.channel.threads


async def test_a_rating_range_is_kept_both_ways(world):
    for _ in range(3):  # Bob beats Carol three times: his rating climbs far above 1500
        board = (await world.bob.slash(world.channel, "wari challenge", opponent=world.carol, first="me")).response
        await world.carol.click(board, label="Accept")
        await surrender(world.carol, world.channel)
    waiting = (await seek(world.alice, world.channel, rating_within=100)).response  # Alice: 1500
    assert "Opponents rated 1400–1600." in waiting.embeds[0].description
    await seek(world.bob, world.channel)  # Bob accepts anyone, but Alice does not accept him
    assert len(await world.env.bot.store.database.read("SELECT * FROM seeks")) == 2
    await seek(world.mod, world.channel)  # unrated, 1500: fits Alice, and is paired with her (the oldest)
    (row,) = await world.env.bot.store.database.read("SELECT player_a, player_b FROM games WHERE thread = 1")
    assert {row["player_a"], row["player_b"]} == {world.alice.id, world.mod.id}


async def test_a_wait_is_cancelled_by_its_player_only_and_expires(world):
    waiting = (await seek(world.alice, world.channel)).response
    refused = await world.bob.click(waiting, label="Cancel")
    assert told(refused)[0].content == "Only the player who is looking can cancel this search."
    await world.alice.click(waiting, label="Cancel")
    assert waiting.content == f"🔎 {shown(world.alice)} stopped looking for a game." and waiting.components == []
    waiting = (await seek(world.alice, world.channel)).response
    await world.restart()  # the queue is in the database: it survives
    await world.env.advance_time(16 * 60)
    assert waiting.content == f"⌛ Nobody fitting came: {shown(world.alice)}'s search ended."
    assert not await world.env.bot.store.database.read("SELECT * FROM seeks")


@contextlib.asynccontextmanager
async def two_processes(world):
    """The bot's queue and a second process's, on one database: ``(first, other, queue)``, where
    ``queue(service, user)`` has ``user`` look for a game of wari, clock 5+3, in one server."""
    from bot.engine import rules_for
    from bot.service import SeekService
    from bot.storage import Store

    def queue(service, user: int):
        return service.seek(
            guild_id=1,
            channel_id=2,
            user_id=user,
            user_name=f"u{user}",
            rules=rules_for("wari"),
            clock="5+3",
            within=None,
            now=world_now(),
        )

    other_store = await Store.open(world.database)
    try:
        yield world.env.bot.seeks, SeekService(other_store), queue
    finally:
        await other_store.close()


async def test_two_processes_never_pair_one_wait_twice(world):
    """Three players who fit seek at the same moment, through two stores on one database (two
    processes): exactly one game, and one player left waiting."""
    async with two_processes(world) as (first, other, queue):
        await queue(first, 10)
        results = await asyncio.gather(queue(first, 11), queue(other, 12))
    claimed = [theirs for theirs, _mine in results if theirs is not None]
    assert len(claimed) == 1 and claimed[0].user_id == 10
    (left,) = await world.env.bot.store.database.read("SELECT user_id FROM seeks")
    assert left["user_id"] in (11, 12)


async def test_two_who_press_play_at_once_from_two_processes_one_takes_the_wait(world):
    """Bob and Carol press Play on Alice's wait at the same moment, through two stores on one
    database (two processes): one takes it; the other is told the search is over."""
    from bot.service import Closed

    async with two_processes(world) as (first, other, queue):
        _theirs, waiting = await queue(first, 10)
        results = await asyncio.gather(
            *(
                service.take(waiting.id, guild_id=1, channel_id=2, user_id=user, user_name="x", now=world_now())
                for service, user in ((first, 11), (other, 12))
            ),
            return_exceptions=True,
        )
    taken = [result for result in results if not isinstance(result, BaseException)]
    assert len(taken) == 1 and taken[0][0].user_id == 10 and taken[0][1].clock == "5+3"
    (closed,) = [result for result in results if isinstance(result, BaseException)]
    assert isinstance(closed, Closed)
    assert not await world.env.bot.store.database.read("SELECT * FROM seeks")


def world_now():
    import discord

    return discord.utils.utcnow()


async def test_a_pairing_whose_thread_discord_refuses_puts_the_wait_back(world):
    waiting = (await seek(world.alice, world.channel)).response
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=500)
    refused = await world.bob.slash(world.channel, "wari seek")
    assert any("open a thread" in message.content for message in told(refused))
    (left,) = await world.env.bot.store.database.read("SELECT user_id FROM seeks")
    assert left["user_id"] == world.alice.id and waiting.components  # Alice still waits, first in line
    assert not await world.env.bot.store.database.read("SELECT * FROM games")
    await seek(world.carol, world.channel)  # the next who fits is paired with her
    (row,) = await world.env.bot.store.database.read("SELECT player_a, player_b FROM games")
    assert {row["player_a"], row["player_b"]} == {world.alice.id, world.carol.id}
