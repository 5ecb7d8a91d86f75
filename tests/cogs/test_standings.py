"""User stories: ratings change after games between people, and players see their stats,
the leaderboard and their history."""

import re

from bot.ratings import Rating, rate_game
from tests.helpers import board_footer, board_words, buttons, press, shown, status_line, stored, surrender


async def play_out(world, winner, loser, *, draw=False, **options):
    """``winner`` challenges ``loser``, who accepts; ``loser`` surrenders (or they agree a draw)."""
    board = (await winner.slash(world.channel, "wari challenge", opponent=loser, first="me", **options)).response
    await loser.click(board, label="Accept")
    if draw:
        offer = (await winner.slash(world.channel, "wari draw")).response
        await loser.click(offer, label="Accept")
    else:
        await surrender(loser, world.channel)
    return board


def field(embed, name):
    return next(f.value for f in embed.fields if f.name == name)


async def test_a_rated_game_shows_what_each_player_gained_or_lost(world):
    board = await play_out(world, world.alice, world.bob)
    alice, bob = rate_game(Rating(), Rating(), 1.0)
    line = next(line for line in board_words(board).splitlines() if line.startswith("📈"))
    assert line == (
        f"📈 **Ratings** (wari): {shown(world.alice)} 1500? → {Rating(alice.rating, alice.rd)} (+162) · "
        f"{shown(world.bob)} 1500? → {Rating(bob.rating, bob.rd)} (-162) · "
        "? provisional: it settles over the first games"
    )
    assert "1500? → 1662? (+162)" in line and "±" not in line


async def test_a_rating_change_adds_up_as_shown(world):
    # Rated games between the same two players, one after another: after each, every shown
    # change is the difference of the shown ratings, before and after (no rounding drift).
    pairs = [(world.alice, world.bob), (world.bob, world.alice)] * 2 + [(world.alice, world.bob)]  # five a day count
    for winner, loser in pairs:
        board = await play_out(world, winner, loser)
        line = next(line for line in board_words(board).splitlines() if line.startswith("📈"))
        for before, after, delta in re.findall(r"(\d+)\?? → (\d+)\?? \(([+-]\d+)\)", line):
            assert int(before) + int(delta) == int(after), line
    (rating,) = await world.env.bot.store.database.read(
        "SELECT rating, games FROM ratings WHERE user_id = ?", (world.alice.id,)
    )
    stats = await world.alice.slash(world.channel, "wari stats")
    shown_rating = field(stats.response.embeds[0], "Ratings")
    assert shown_rating == f"**wari** {round(rating['rating'])}, provisional after 5 games"


async def test_stats_count_results_ratings_the_computer_and_streaks(world):
    await play_out(world, world.alice, world.bob)
    await play_out(world, world.alice, world.carol)
    await play_out(world, world.bob, world.alice)
    await play_out(world, world.alice, world.carol, draw=True)
    computer = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    await surrender(world.alice, world.channel)
    assert status_line(computer).startswith("🏁 ")
    result = await world.alice.slash(world.channel, "wari stats")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert field(embed, "Games against people") == "4 (2 W · 1 D · 1 L)"
    assert field(embed, "Against the computer") == "**Casual**: 1 (0 W · 0 D · 1 L)"
    assert field(embed, "Longest winning streak") == "2"
    assert re.fullmatch(r"\*\*wari\*\* \d+, provisional after 4 games", field(embed, "Ratings"))
    (chart,) = result.response.attachments
    assert chart.filename == "rating.png" and embed.image.url == "attachment://rating.png"
    public = await world.carol.slash(world.channel, "wari stats", member=world.alice, public=True)
    assert not public.ephemeral and field(public.response.embeds[0], "Games against people") == "4 (2 W · 1 D · 1 L)"


async def test_a_game_against_the_computer_leaves_ratings_alone(world):
    board = (await world.alice.slash(world.channel, "wari play", level="greedy", first="me")).response
    await surrender(world.alice, world.channel)
    assert status_line(board).startswith("🏁 ") and "📈" not in board_words(board)
    stats = (await world.alice.slash(world.channel, "wari stats")).response.embeds[0]
    assert field(stats, "Ratings").startswith("Not rated yet")
    board = (await world.alice.slash(world.channel, "wari leaderboard")).response.embeds[0]
    assert board.description.startswith("Nobody is rated here yet")


async def test_the_leaderboard_is_in_rating_order_with_pages_and_the_callers_place(world):
    players = [world.guild.add_member(world.env.create_user(f"p{n:02}")) for n in range(12)]
    for winner, loser in zip(players[::2], players[1::2], strict=True):  # six games: six winners, six losers
        await play_out(world, winner, loser)
    await play_out(world, players[0], players[2])  # p00 wins twice
    result = await players[3].slash(world.channel, "wari leaderboard")
    first = result.response
    lines = first.embeds[0].description.splitlines()
    assert len(lines) == 10 and lines[0].startswith(f"**1.** {shown(players[0])} ")
    ratings = [float(line.split(" ")[2].rstrip("?")) for line in lines]
    assert ratings == sorted(ratings, reverse=True)
    assert first.embeds[0].footer.text.startswith("Your place: ") and " of 12 (" in first.embeds[0].footer.text
    prev, nxt = buttons(first)
    assert prev["disabled"] and not nxt["disabled"]
    await players[3].click(first, custom_id=nxt["custom_id"])
    assert [line.split(".**")[0] for line in first.embeds[0].description.splitlines()] == ["**11", "**12"]
    await world.restart()
    await players[3].click(first, custom_id=buttons(first)[0]["custom_id"])  # back, after a restart
    assert first.embeds[0].description.splitlines()[0].startswith(f"**1.** {shown(players[0])} ")


async def test_a_servers_leaderboard_holds_only_its_players(world):
    await play_out(world, world.alice, world.bob)
    other = world.env.create_guild("Elsewhere")
    channel = other.create_text_channel("games")
    dan, eve = (other.add_member(world.env.create_user(name)) for name in ("dan", "eve"))
    await dan.slash(channel, "wari challenge", opponent=eve, first="me")
    await eve.click(channel.last_message, label="Accept")
    await surrender(eve, channel)
    here_board = (await world.alice.slash(world.channel, "wari leaderboard")).response
    here = here_board.embeds[0].description
    assert "alice" in here and "dan" not in here  # names, not mentions: nobody is notified
    assert here_board.components == []  # one page: no ◀ ▶ to turn to nothing
    everyone = (
        (await world.alice.slash(world.channel, "wari leaderboard", scope="everyone")).response.embeds[0].description
    )
    assert "**2.** dan " in everyone and len(everyone.splitlines()) == 4


async def test_history_lists_the_latest_games_with_pages(world):
    for _ in range(11):
        await play_out(world, world.alice, world.bob)
    page = (await world.bob.slash(world.channel, "wari history", member=world.alice)).response
    lines = page.embeds[0].description.splitlines()[1:]
    assert (
        len(lines) == 10
        and lines[0].startswith("**#11** ")
        and f"vs {shown(world.bob)} · Wari · **won** (surrender)" in lines[0]
    )
    assert "[board](https://discord.com/channels/" in lines[0]
    await world.bob.click(page, custom_id=buttons(page)[1]["custom_id"])
    (last,) = page.embeds[0].description.splitlines()[1:]
    assert last.startswith("**#1** ")
    mine = (await world.bob.slash(world.channel, "wari history")).response.embeds[0].description
    assert "**lost** (surrender)" in mine and await stored(world, "reason", 1) == "surrender"


async def test_the_streak_is_the_longest_run_of_wins_and_aborted_games_count_as_games(world):
    for winner, loser in (
        (world.alice, world.bob),
        (world.bob, world.alice),
        (world.alice, world.bob),
        (world.alice, world.carol),
        (world.alice, world.bob),
    ):
        await play_out(world, winner, loser)
    await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    await world.bob.click(world.channel.last_message, label="Accept")
    await world.mod.slash(world.channel, "wari-mod abort")
    stats = (await world.alice.slash(world.channel, "wari stats")).response.embeds[0]
    assert field(stats, "Games against people") == "6 (4 W · 0 D · 1 L · 1 aborted)"
    assert field(stats, "Longest winning streak") == "3"
    history = (await world.alice.slash(world.channel, "wari history")).response.embeds[0].description.splitlines()
    assert "· **aborted** [board]" in history[1]


async def test_kalah_of_any_size_counts_for_kalah(world):
    board = await play_out(world, world.alice, world.bob, variant="kalah", houses=4, seeds=3)
    assert "📈 **Ratings** (kalah): " in board_words(board)
    stats = (await world.alice.slash(world.channel, "wari stats", variant="kalah")).response.embeds[0]
    assert field(stats, "Games against people") == "1 (1 W · 0 D · 0 L)" and field(stats, "Ratings").startswith(
        "**kalah** "
    )
    wari = (await world.alice.slash(world.channel, "wari stats", variant="wari")).response.embeds[0]
    assert field(wari, "Games against people") == "0 (0 W · 0 D · 0 L)"


async def test_a_public_leaderboard_keeps_the_askers_place_whoever_turns_the_pages(world):
    players = [world.guild.add_member(world.env.create_user(f"p{n:02}")) for n in range(12)]
    for winner, loser in zip(players[::2], players[1::2], strict=True):
        await play_out(world, winner, loser)
    board = (await players[1].slash(world.channel, "wari leaderboard", public=True)).response
    mine = board.embeds[0].footer.text.split(" · ")[0]
    assert mine.startswith("Your place: ") and mine.split()[2] in {str(n) for n in range(7, 13)}  # a loser: 7th to 12th
    await world.carol.click(board, custom_id=buttons(board)[1]["custom_id"])
    assert board.embeds[0].footer.text.split(" · ")[0] == mine.replace("Your place", "The asker's place")


async def test_an_exhibition_appears_once_in_the_bots_history(world):
    board = (await world.alice.slash(world.channel, "wari exhibition", level_a="low", level_b="greedy")).response
    await world.mod.slash(world.channel, "wari-mod abort")
    assert status_line(board).startswith("Game aborted")
    lines = (
        (await world.alice.slash(world.channel, "wari history", member=world.me))
        .response.embeds[0]
        .description.splitlines()
    )
    assert len(lines) == 2 and lines[1].startswith("**#1** ")


async def test_the_bots_own_stats_count_its_games_against_people(world):
    for member, level in ((world.alice, "greedy"), (world.bob, "greedy"), (world.alice, "random")):
        board = (await member.slash(world.channel, "wari play", level=level, first="me")).response
        await press(member, board, 3)  # both have moved: a surrender, not an abort
        await surrender(member, world.channel)
    stats = (await world.carol.slash(world.channel, "wari stats", member=world.me)).response.embeds[0]
    assert field(stats, "Games against people") == "3 (3 W · 0 D · 0 L)"  # it won all three
    assert field(stats, "By level") == "**Beginner**: 1 (1 W · 0 D · 0 L)\n**Casual**: 2 (2 W · 0 D · 0 L)"
    assert "Ratings" not in [f.name for f in stats.fields]


async def test_rated_games_between_the_same_two_players_count_five_times_a_day(world):
    async def changes():
        return len(await world.env.bot.store.database.read("SELECT * FROM rating_changes"))

    for game in range(1, 6):
        await play_out(world, world.alice, world.bob)
        assert await changes() == 2 * game
    sixth = await play_out(world, world.alice, world.bob)
    assert await changes() == 10  # the sixth in a day changes nobody's rating
    assert board_footer(sixth) == "No move yet · not rated: 5 rated games a day count between the same players"
    assert not [line for line in board_words(sixth).splitlines() if line.startswith("📈")]
    await play_out(world, world.alice, world.carol)  # another pair is not limited
    assert await changes() == 12
