"""User stories: a player's season recap. ``/wari recap`` answers with a picture of the player's
season in this server (games, results, rating points and place, best win, accuracy over the
analysed games, puzzles, badges) and the same facts in words: a short line in the message and
the picture's alt text. The season under way, or the last one once it ended; outside a server it
says seasons belong to one; a player with no rated game in the season is told so, privately."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.ai.puzzles import puzzle_by_id
from tests.cogs.test_puzzles import solve
from tests.cogs.test_seasons import podium_posts, season_ends_soon, weekly_seasons
from tests.cogs.test_standings import field, play_out
from tests.cogs.test_tournaments import event as tournament_event
from tests.cogs.test_tournaments import finish, gathered
from tests.helpers import press, start_game, surrender

#: What every refusal of a command that needs a server says outside one.
SERVER_ONLY = "works only in a server"


async def rating_of(world, member) -> int:
    (row,) = await world.env.bot.store.database.read("SELECT rating FROM ratings WHERE user_id = ?", (member.id,))
    return round(row["rating"])


async def rating_before(world, game: int, member) -> int:
    rows = await world.env.bot.store.database.read(
        "SELECT rating_before FROM rating_changes WHERE game_id = ? AND user_id = ?", (game, member.id)
    )
    return round(rows[0]["rating_before"])


async def analysed_game(world) -> tuple[int, str]:
    """Alice and Bob play a few moves, then Bob gives up; Carol asks for the game's analysis:
    the game's number and the accuracy the analysis gives Alice."""
    board = await start_game(world)
    for mover, house in ((world.alice, 3), (world.bob, 9), (world.alice, 5)):
        await press(mover, board, house)
    number = (await world.env.bot.store.games.live_game(world.channel.id)).id
    await surrender(world.bob, world.channel)
    analysis = (await world.carol.slash(world.channel, "wari analyse", game=number, quick=True)).response
    alice = next(f.value for f in analysis.embeds[0].fields if "Accuracy" in f.value and f.name == "alice")
    (accuracy,) = re.findall(r"Accuracy \*\*(\d+)\*\*", alice)
    return number, accuracy


async def solved_puzzle(world, member) -> None:
    board = (await member.slash(world.channel, "wari puzzle next")).response
    attempt = await world.env.bot.store.puzzles.open_attempt(member.id)
    puzzle = puzzle_by_id(attempt.puzzle_id)
    assert puzzle is not None
    await solve(member, board, puzzle)
    assert "solved the puzzle" in board.content


async def expert_beaten(world, member) -> None:
    """A win of ``member`` against the Expert, archived as the bot archives a game (the Expert rarely loses)."""
    store, now = world.env.bot.store, world.env.now()
    game = await store.games.create_game(
        now=now, guild_id=world.guild.id, channel_id=world.channel.id, player_a=member.id, player_b=0,
        variant="wari", record="", level_b="expert",
    )  # fmt: skip
    await store.games.update_game(game, now=now, status="finished", result="A", reason="surrender")


async def recap(world, member, **options):
    result = await member.slash(world.channel, "wari recap", **options)
    message = result.response
    (picture,) = message.attachments
    assert picture.filename == "recap.png"
    drawn = Image.open(io.BytesIO(await picture.read()))
    assert drawn.format == "PNG" and drawn.width < drawn.height  # a portrait card, for a phone
    return result, message.content, picture.description


async def test_a_players_recap_shows_their_season_then_the_last_one_after_it_ended(world):
    await weekly_seasons(world)
    await play_out(world, world.alice, world.bob)  # game 1: Bob at 1500 beaten
    number, accuracy = await analysed_game(world)  # game 2: Bob, lower rated now, beaten again
    assert number == 2
    await solved_puzzle(world, world.alice)
    puzzle_rating = round((await world.env.bot.store.puzzles.puzzle_standing(world.alice.id)).rating)
    rating = await rating_of(world, world.alice)
    assert await rating_before(world, 1, world.bob) == 1500 and await rating_before(world, 2, world.bob) < 1500

    result, line, words = await recap(world, world.alice)
    assert result.ephemeral  # like /wari stats: only for the asker unless public
    gained = f"+{rating - 1500}"
    assert line.startswith("📅 **alice** · Wari · Dec 29, 2025 – Jan 4, 2026: 2 rated games")
    assert f"{gained} points, place 1 of 2" in line
    assert words.startswith("alice's season recap. Dec 29, 2025 – Jan 4, 2026 · Wari. Wari Club · Season under way")
    assert "Rated games: 2, 2 W · 0 D · 0 L" in words
    assert f"Rating points: {gained}, 1500 → {rating}, place 1 of 2" in words
    assert "Best win: 1500, bob, game #1" in words  # the higher rated of the two opponents beaten
    assert f"Accuracy: {accuracy}, over 1 analysed game" in words
    assert f"Puzzle rating: {puzzle_rating}, 1 solved, best streak 1" in words
    assert "Badges: —" in words
    shown = await world.bob.slash(world.channel, "wari recap", member=world.alice, public=True)
    assert not shown.ephemeral and shown.response.attachments[0].description == words

    await expert_beaten(world, world.alice)

    # The week ends (brought to a minute from now: on 1 January); the season closes with its
    # podium; a game opens the next one, which runs to the week's end.
    await season_ends_soon(world, minutes=1)
    await world.env.advance_time(2 * 60)
    assert len(podium_posts(world)) == 1
    await play_out(world, world.bob, world.alice)  # game 4 (3 was against the Expert), the new season's
    _result, line, words = await recap(world, world.alice)
    assert "Jan 1, 2026 – Jan 4, 2026" in line and ": 1 rated game ·" in line and "place 2 of 2" in line
    assert "Rated games: 1, 0 W · 0 D · 1 L" in words and "Best win: —" in words
    assert "Accuracy: —, No game analysed" in words and "Puzzle rating: " in words and "Badges: —" in words
    _result, line, words = await recap(world, world.alice, season="last")
    assert "Dec 29, 2025 – Jan 1, 2026: 2 rated games" in line and f"{gained} points, place 1 of 2" in line
    assert "Season over" in words and "Best win: 1500, bob, game #1" in words
    assert "Badges: 2, Podium: place 1, Beat the Expert" in words  # the podium kept when the season closed
    assert f"Rating points: {gained}, 1500 → {rating}" in words  # the season's own, not the rating now


async def test_a_recap_with_no_rated_game_in_the_season_is_a_private_answer_without_a_picture(world):
    nothing = await world.carol.slash(world.channel, "wari recap")
    assert nothing.ephemeral and not nothing.response.attachments
    assert nothing.response.content == "carol has played no rated game (any rule set) in this server this season."
    await play_out(world, world.alice, world.bob)
    other = await world.alice.slash(world.channel, "wari recap", variant="kalah")
    assert other.ephemeral and not other.response.attachments
    assert "no rated game (Kalah)" in other.response.content
    none_ended = await world.alice.slash(world.channel, "wari recap", season="last")
    assert none_ended.ephemeral and "No season has ended in this server yet" in none_ended.response.content
    stats = (await world.alice.slash(world.channel, "wari stats")).response.embeds[0]
    assert "Badges" not in [f.name for f in stats.fields]  # nothing was earned by asking
    assert field(stats, "Ratings").startswith("**wari**")


async def test_outside_a_server_the_recap_says_seasons_belong_to_one(world):
    await play_out(world, world.alice, world.bob)
    alice = world.alice.user
    refused = await alice.slash("wari recap")
    assert refused.ephemeral and SERVER_ONLY in refused.response.content
    assert not refused.response.attachments
    world.env.raise_errors()


async def test_the_recap_speaks_the_readers_language_on_the_picture_too(world):
    await play_out(world, world.alice, world.bob)
    await world.alice.slash(world.channel, "wari settings", language="fr")
    _result, line, words = await recap(world, world.alice)
    assert "1 janv. 2026 – 31 janv. 2026" in line
    await world.alice.slash(world.channel, "wari settings", language="pt")
    _result, line, words = await recap(world, world.alice)
    assert "1 de jan. de 2026 – 31 de jan. de 2026" in line


#: The callback of an interaction's first answer that is "thinking…" (Discord's deferred channel message).
DEFERRED = 5
#: The flag of a message only its reader sees.
EPHEMERAL = 64


def counting_reads(world, monkeypatch) -> list[int]:
    """Note every read of the database from now on: for each, how many calls to Discord had been
    made when it ran (so a read can be placed before or after the interaction's first answer)."""
    database = world.env.bot.store.database
    read, calls = database.read, world.env.backend.http_requests
    noted: list[int] = []

    async def noting(*args, **kwargs):
        noted.append(len(calls))
        return await read(*args, **kwargs)

    monkeypatch.setattr(database, "read", noting)
    return noted


async def test_the_recap_thinks_first_then_comes_as_its_answer_where_it_was_asked(world, monkeypatch):
    """Discord waits 3 s for an interaction's first answer; a season's games, analyses and
    tournaments take a while to read: the recap shows "thinking…" first (to the asker alone, or
    to the channel if public), reading only the asker's language and which season and rule set
    it is before that (so that a player with no rated game in it is told so privately)."""
    await play_out(world, world.alice, world.bob)
    reads = counting_reads(world, monkeypatch)
    for public in (False, True):
        before = len(world.env.backend.http_requests)
        reads.clear()
        result, line, words = await recap(world, world.alice, public=public)
        calls = world.env.backend.http_requests[before:]
        first = calls[0]
        assert first.method == "POST" and first.path.endswith("/callback")
        assert first.json["type"] == DEFERRED
        assert bool(first.json.get("data", {}).get("flags", 0) & EPHEMERAL) == (not public)
        deferred_at = before + 1
        assert len([at for at in reads if at < deferred_at]) <= 3  # the reader's language, the season, its rule set
        assert len([at for at in reads if at >= deferred_at]) >= 3  # the rest, while Discord waits
        assert result.ephemeral == (not public)
        assert "place 1 of 2" in line and "Rated games: 1, 1 W · 0 D · 0 L" in words
        assert not result.followups  # the thinking message became the recap: nothing more was posted
    before = len(world.env.backend.http_requests)
    nothing = await world.carol.slash(world.channel, "wari recap", public=True)
    assert nothing.ephemeral and "carol has played no rated game" in nothing.response.content
    assert world.env.backend.http_requests[before].json["type"] != DEFERRED  # told at once, to her alone


async def copies_of_event(world, number: int, copies: int) -> None:
    """``copies`` more events as event ``number`` finished: same players, same results (kept as
    the bot keeps them, without their games), all finished in this season."""
    database = world.env.bot.store.database
    (row,) = await database.read("SELECT * FROM tournaments WHERE id = ?", (number,))
    columns = [name for name in dict(row) if name != "id"]
    for _copy in range(copies):
        async with database.writing():
            (made,) = await database.rows(
                f"INSERT INTO tournaments ({', '.join(columns)}) SELECT {', '.join(columns)} "
                "FROM tournaments WHERE id = ? RETURNING id",
                (number,),
            )
            await database.step(
                "INSERT INTO tournament_players (tournament_id, user_id, name, rating, joined_round, withdrawn_after, "
                "joined_at, team) SELECT ?, user_id, name, rating, joined_round, withdrawn_after, joined_at, team "
                "FROM tournament_players WHERE tournament_id = ?",
                (made["id"], number),
            )
            await database.step(
                "INSERT INTO tournament_pairings (tournament_id, round, board, first_id, second_id, result, forfeit, "
                "created_at, finished_at) SELECT ?, round, board, first_id, second_id, result, forfeit, created_at, "
                "finished_at FROM tournament_pairings WHERE tournament_id = ?",
                (made["id"], number),
            )


async def test_a_recap_reads_as_much_with_twelve_tournaments_won_as_with_one(world, monkeypatch):
    """Each tournament won is counted from its standings, read for all the season's events at
    once: a player who won many does not make the recap read the database once (or more) for
    each, which would leave Discord waiting."""
    _players, by_id, _signup = await gathered(world, 2, name="Duel", format="round-robin", starts="in 2 hours")
    started = await world.mod.slash(world.channel, "wari-mod tournament start")
    assert started.ephemeral, started.response.content
    (pairing,) = (await tournament_event(world)).round_pairings(1)
    await finish(world, by_id, pairing, "first")  # a rated game of this season, in the event's thread
    winner = by_id[pairing.first_id]
    reads = counting_reads(world, monkeypatch)
    _result, _line, words = await recap(world, winner)
    assert "Badges: 1, 1 tournament won" in words
    with_one = len(reads)

    await copies_of_event(world, 1, 11)
    reads.clear()
    _result, _line, words = await recap(world, winner)
    assert "Badges: 12, 12 tournaments won" in words
    # the reader's language, the season and its rule set, the games, the board, the puzzles (2),
    # the badges kept, the events finished with their players and pairings (3)
    assert len(reads) == with_one <= 11
    stats = (await winner.slash(world.channel, "wari stats")).response.embeds[0]
    assert field(stats, "Badges") == "🏆 12 tournaments won"  # the profile counts them the same way
