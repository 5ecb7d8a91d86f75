"""User stories: tournaments that run themselves. A moderator makes an event, players join with a
button, and the bot pairs round after round, starts every game in the event's one thread,
posts the pairings there, keeps the standings and crowns a winner, through restarts."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bot.service.tournaments import Event, TournamentService
from bot.tournament import Entrant, Pairing, pair_swiss
from tests.helpers import buttons, enabled_houses, pinged, press, shown, surrender

# Hours pass in some of these stories: SimCord settles the bot at each 30-second sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=120)


def members(world, count: int, prefix: str = "p") -> list:
    return [world.guild.add_member(world.env.create_user(f"{prefix}{n}")) for n in range(1, count + 1)]


async def create(world, **options):
    """The moderator makes an event in #games: its sign-up message."""
    made = await world.mod.slash(world.channel, "wari-mod tournament create", **options)
    assert not made.ephemeral, made.response.content
    return made.response


async def gathered(world, count: int, prefix: str = "p", **options):
    """``count`` new members, by id, and the sign-up message of an event they all joined."""
    players = members(world, count, prefix)
    signup = await create(world, **options)
    for member in players:
        await member.click(signup, label="Join")
    return players, {member.id: member for member in players}, signup


async def event(world, number: int = 1) -> Event:
    return await TournamentService(world.env.bot.store).event(number)


def standings_in(world):
    """The event's standings message, as the channel shows it now."""
    return next(m for m in world.channel.history() if m.embeds and "· standings" in (m.embeds[0].title or ""))


def thread_of(world, channel_id: int):
    return next(thread for thread in world.channel.threads if thread.id == channel_id)


def posted(world) -> list:
    """What the event posted: the messages of its channel and of the thread its games are played in."""
    return [*world.channel.history(), *(m for thread in world.channel.threads for m in thread.history())]


async def board_of(world, game_id: int):
    """Game ``game_id``'s board message as its thread shows it now (the thread holds every game of the event)."""
    game = await world.env.bot.store.games.get_game(game_id)
    assert game is not None
    return next(m for m in thread_of(world, game.channel_id).history() if m.id == game.message_id)


async def game_channel(world, game_id: int) -> int:
    game = await world.env.bot.store.games.get_game(game_id)
    assert game is not None
    return game.channel_id


async def finish(world, by_id: dict, pairing, outcome: str) -> None:
    """End a pairing's game through its thread: ``first`` or ``second`` wins (the other gives up
    after a move of each), or ``draw`` (an offer, accepted)."""
    thread = thread_of(world, await game_channel(world, pairing.game_id))
    first, second = by_id[pairing.first_id], by_id[pairing.second_id]
    for player in (first, second):
        board = await board_of(world, pairing.game_id)  # read again: history() gives snapshots
        await press(player, board, enabled_houses(board)[0])
    if outcome == "draw":
        offer = (await first.slash(thread, "wari draw")).response
        await second.click(offer, label="Accept")
    else:
        await surrender(second if outcome == "first" else first, thread)


async def play_round(world, by_id: dict, number: int, outcome=lambda pairing: "first", tournament: int = 1) -> None:
    current = await event(world, tournament)
    for pairing in current.round_pairings(number):
        if not pairing.bye and pairing.result is None:
            await finish(world, by_id, pairing, outcome(pairing))


def as_model(current: Event, before_round: int) -> tuple[list[Entrant], list[Pairing]]:
    pairings = [p for p in current.model_pairings if p.round < before_round]
    return current.model_entrants, pairings


def stored_pairs(current: Event, number: int) -> list[tuple[int, int | None]]:
    return [(p.first_id, p.second_id) for p in current.round_pairings(number)]


async def test_a_nine_player_swiss_of_four_rounds_runs_itself_to_its_podium(world):
    players = members(world, 9)
    by_id = {member.id: member for member in [*players, world.alice]}
    signup = await create(world, name="Club Swiss", format="swiss", starts="in 10 minutes", rounds=4, clock="1h/move")
    assert "Club Swiss · tournament #1" in signup.embeds[0].title
    assert "<t:" in signup.embeds[0].description and "4 rounds" in signup.embeds[0].description
    for member in players:
        joined = await member.click(signup, label="Join")
        assert joined.acknowledged and not joined.ephemeral
    assert "**Players** (9):" in signup.embeds[0].description
    again = await players[0].click(signup, label="Join")
    assert again.ephemeral and again.response.content == "You are in this tournament already."

    await world.env.advance_time(10 * 60 + 30)  # the start comes: round 1 is paired and played in its thread
    current = await event(world)
    assert current.row.status == "running" and current.row.round == 1
    entrants, history = as_model(current, 1)
    assert [(p.first, p.second) for p in pair_swiss(entrants, history, 1, 4)] == stored_pairs(current, 1)
    (bye,) = [p for p in current.round_pairings(1) if p.bye]
    (thread,) = world.channel.threads  # one thread for the event, not one per game
    announcement = next(m for m in thread.history() if "round 1" in m.content)
    assert all(f"<@{member.id}>" in announcement.content for member in players)
    # Alice comes late: she plays from round 2.
    assert not (await world.alice.slash(world.channel, "wari tournament join")).response.content.startswith("There")

    games = [p for p in current.round_pairings(1) if not p.bye]
    for pairing in games[:2]:
        await finish(world, by_id, pairing, "first")
    await world.restart()  # mid-round: nothing is lost or doubled
    for pairing in games[2:]:
        await finish(world, by_id, pairing, "draw" if pairing is games[-1] else "second")
    await world.env.advance_time(30)

    current = await event(world)
    assert current.row.round == 2 and [p.result for p in current.round_pairings(1)].count(None) == 0
    entrants, history = as_model(current, 2)
    assert [(p.first, p.second) for p in pair_swiss(entrants, history, 2, 4)] == stored_pairs(current, 2)
    assert world.alice.id in {u for pair in stored_pairs(current, 2) for u in pair}
    assert bye.first_id not in {p.first_id for p in current.round_pairings(2) if p.bye}  # never twice

    # During round 2 one player withdraws: their round-2 game stands, they are paired no more.
    leaver = next(p.first_id for p in current.round_pairings(2) if not p.bye)
    left = await by_id[leaver].slash(world.channel, "wari tournament leave")
    assert left.response.content.startswith("You left **Club Swiss**")
    await play_round(world, by_id, 2)
    await world.env.advance_time(30)

    current = await event(world)
    assert current.row.round == 3
    assert leaver not in {u for pair in stored_pairs(current, 3) for u in pair}
    entrants, history = as_model(current, 3)
    assert [(p.first, p.second) for p in pair_swiss(entrants, history, 3, 4)] == stored_pairs(current, 3)
    # Round 3: one game is lost on time, the others are played out.
    slow, *others = [p for p in current.round_pairings(3) if not p.bye]
    for pairing in others:
        await finish(world, by_id, pairing, "second")
    await world.env.advance_time(61 * 60)
    current = await event(world)
    ended = next(p for p in current.round_pairings(3) if p.board == slow.board)
    assert ended.result == 0.0  # the first mover never moved: lost on time
    assert current.row.round == 4

    await play_round(world, by_id, 4)
    await world.env.advance_time(30)
    current = await event(world)
    assert current.row.status == "finished"
    podium = next(m for m in world.channel.history() if "is over" in m.content)
    assert "🥇" in podium.content and "🥈" in podium.content
    # The standings against a hand computation from the stored results.
    points: dict[int, float] = defaultdict(float)
    for p in current.pairings:
        points[p.first_id] += p.result
        if p.second_id is not None:
            points[p.second_id] += 1 - p.result
    standings = current.standings()
    assert {s.user_id: s.points for s in standings} == {e.user_id: points[e.user_id] for e in current.entrants}
    assert [s.points for s in standings] == sorted((s.points for s in standings), reverse=True)
    assert sum(points.values()) == len(current.pairings)  # a point a game, and one a bye
    opponents = [frozenset((p.first_id, p.second_id)) for p in current.pairings if not p.bye]
    assert len(opponents) == len(set(opponents))  # no rematch
    results = await world.alice.slash(world.channel, "wari tournament results")
    assert results.ephemeral and results.response.attachments[0].filename == "wari-tournament-1.trf"


async def test_a_six_player_round_robin_meets_every_pair_once(world):
    players, by_id, signup = await gathered(
        world, 6, name="Round", format="round-robin", starts="in 2 hours", clock="10+5"
    )
    started = await world.mod.slash(world.channel, "wari-mod tournament start")
    assert started.ephemeral and "has started" in started.response.content
    for number in range(1, 6):
        current = await event(world)
        assert current.row.round == number and current.row.rounds == 5
        await play_round(world, by_id, number, outcome=lambda p: "draw" if p.board == 1 else "first")
    current = await event(world)
    assert current.row.status == "finished"
    pairs = [frozenset((p.first_id, p.second_id)) for p in current.pairings]
    assert len(pairs) == 15 and len(set(pairs)) == 15  # every pair exactly once
    standings = await world.carol.slash(world.channel, "wari tournament standings")
    assert standings.ephemeral and "Final standings" in standings.response.embeds[0].footer.text
    assert "```" in standings.response.embeds[0].description  # the crosstable


async def test_an_arena_pairs_players_as_soon_as_they_are_free_until_its_time_is_up(world):
    players, by_id, signup = await gathered(
        world, 8, name="Blitz", format="arena", starts="in 1 minute", duration=30, clock="5+3"
    )
    await world.env.advance_time(90)
    current = await event(world)
    assert current.row.status == "running" and len(current.open_pairings) == 4
    last: dict[int, int] = {}
    for _wave in range(3):  # each finished game frees two players, who are paired again at once
        current = await event(world)
        for pairing in list(current.open_pairings):
            await finish(world, by_id, pairing, "first")
            last[pairing.first_id], last[pairing.second_id] = pairing.second_id, pairing.first_id
        current = await event(world)
        for pairing in current.open_pairings:
            assert last.get(pairing.first_id) != pairing.second_id  # never the same opponent twice in a row
    await world.env.advance_time(30 * 60)  # time is up: games under way end, nobody is paired again
    current = await event(world)
    for pairing in list(current.open_pairings):
        await finish(world, by_id, pairing, "second")
    await world.env.advance_time(30)
    current = await event(world)
    assert current.row.status == "finished" and not current.open_pairings
    best = current.standings()[0]
    assert best.points > 0 and any("is over" in m.content for m in world.channel.history())


async def test_moderators_pause_kick_set_results_and_cancel(world):
    players, by_id, signup = await gathered(
        world, 4, name="Cup", format="swiss", starts="in 1 hour", rounds=3, clock="1d/move"
    )
    refused = await world.alice.slash(world.channel, "wari tournament leave")
    assert refused.ephemeral and refused.response.content == "You are not playing in this tournament."
    await world.mod.slash(world.channel, "wari-mod tournament start")
    current = await event(world)
    first, second = current.round_pairings(1)
    # A result set by hand, with its reason kept; the game is ended.
    ruled = await world.mod.slash(
        world.channel, "wari-mod tournament result", member=by_id[first.first_id], result="win", reason="opponent left"
    )
    assert ruled.ephemeral and "opponent left" in ruled.response.content
    current = await event(world)
    (kept,) = [p for p in current.round_pairings(1) if p.board == first.board]
    assert kept.result == 1.0 and kept.reason == "opponent left"
    # Paused: the round's last game ends, but round 2 waits for resume.
    paused = await world.mod.slash(world.channel, "wari-mod tournament pause")
    assert "is paused" in paused.response.content
    await finish(world, by_id, second, "first")
    await world.env.advance_time(60)
    assert (await event(world)).row.round == 1
    await world.mod.slash(world.channel, "wari-mod tournament resume")
    current = await event(world)
    assert current.row.round == 2
    # A player removed: their game is lost by forfeit.
    victim = current.round_pairings(2)[0]
    kicked = await world.mod.slash(world.channel, "wari-mod tournament kick", member=by_id[victim.second_id])
    assert "was removed" in kicked.response.content
    current = await event(world)
    assert next(p for p in current.round_pairings(2) if p.board == victim.board).result == 1.0
    # Cancelled: the games still under way are aborted.
    cancelled = await world.mod.slash(world.channel, "wari-mod tournament cancel")
    assert "was cancelled" in cancelled.response.content
    current = await event(world)
    assert current.row.status == "cancelled"
    for pairing in current.pairings:
        if pairing.game_id is not None:
            assert (await world.env.bot.store.games.get_game(pairing.game_id)).status != "live"
    assert buttons(signup) == []  # the sign-up message closed
    listed = await world.alice.slash(world.channel, "wari tournament list")
    assert "Cup" in listed.response.content and "cancelled" in listed.response.content
    assert shown(world.alice)  # the world is whole


async def test_a_tournament_game_cannot_be_called_off_by_a_player(world):
    players, _by_id, _signup = await gathered(
        world, 2, name="Duel", format="swiss", starts="in 5 minutes", rounds=1, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    (pairing,) = (await event(world)).round_pairings(1)
    thread = thread_of(world, await game_channel(world, pairing.game_id))
    refused = await players[0].slash(thread, "wari abort")
    assert refused.ephemeral and "A tournament game cannot be called off" in refused.response.content


async def test_bad_times_are_refused_clearly(world):
    refused = await world.mod.slash(
        world.channel, "wari-mod tournament create", name="X", format="swiss", starts="whenever you like"
    )
    assert refused.ephemeral and "can't read `whenever you like` as a time" in refused.response.content


async def test_a_moderator_starts_the_next_round_early_and_the_games_left_are_adjudicated(world):
    players, by_id, signup = await gathered(
        world, 4, name="Quick", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    done, left = (await event(world)).round_pairings(1)
    await finish(world, by_id, done, "first")
    standings = standings_in(world)
    assert "Round 1 of 2" in standings.embeds[0].footer.text
    assert f"**{1:g}**" in standings.embeds[0].description  # the winner's point, kept current
    early = await world.mod.slash(world.channel, "wari-mod tournament start")
    assert early.ephemeral and "1 unfinished games were adjudicated" in early.response.content
    current = await event(world)
    assert current.row.round == 2
    (ruled,) = [p for p in current.round_pairings(1) if p.board == left.board]
    assert ruled.result in (0.0, 0.5, 1.0) and ruled.forfeit and ruled.reason == "adjudicated"
    game = await world.env.bot.store.games.get_game(left.game_id)
    assert game.status == "aborted"  # ended, and its result is the adjudication's, not a draw by abort
    assert "Round 2 of 2" in standings_in(world).embeds[0].footer.text


async def test_where_boards_are_pictures_the_crosstable_is_a_picture_too(world):
    import discord

    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
    await admin.slash(world.channel, "wari-mod settings", board="image")
    _players, by_id, _signup = await gathered(
        world, 4, name="Pictures", format="swiss", starts="in 1 hour", rounds=2, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    await finish(world, by_id, (await event(world)).round_pairings(1)[0], "first")
    standings = standings_in(world)
    (picture,) = standings.attachments
    assert picture.filename == "crosstable.png" and standings.embeds[0].image.url == "attachment://crosstable.png"
    assert "```" not in standings.embeds[0].description  # the picture instead of the text
    asked = await world.carol.slash(world.channel, "wari tournament standings")
    assert [a.filename for a in asked.response.attachments] == ["crosstable.png"]


async def test_a_big_round_is_announced_in_messages_that_ping_every_player(world):
    players, _by_id, signup = await gathered(
        world, 40, name="Open", format="swiss", starts="in 1 hour", rounds=1, clock="1d/move"
    )
    assert "…and" not in signup.embeds[0].description  # forty are listed
    await world.mod.slash(world.channel, "wari-mod tournament start")
    calls = [m for m in posted(world) if "vs" in m.content and m.content.count("<@") > 0]
    assert len(calls) == 2 and all(len(m.content) <= 2000 for m in calls)
    pinged_now = set().union(*(pinged(world, m) for m in calls))
    assert pinged_now == {member.id for member in players}
    standings = await world.carol.slash(world.channel, "wari tournament standings")
    assert standings.response.embeds[0].description.count("```") % 2 == 0  # a whole crosstable, or none


async def test_two_player_arena_goes_on_and_a_swiss_with_too_many_rounds_ends_when_pairing_runs_out(world):
    players, by_id, _signup = await gathered(
        world, 2, name="Pair", format="arena", starts="in 1 minute", duration=10, clock="5+3"
    )
    await world.env.advance_time(90)
    for _game in range(2):  # the only two players meet again: nobody else is free
        (pairing,) = (await event(world)).open_pairings
        await finish(world, by_id, pairing, "first")
    assert len((await event(world)).open_pairings) == 1

    swiss_players, swiss_by_id, _ = await gathered(
        world, 4, prefix="s", name="Long", format="swiss", starts="in 1 hour", rounds=5, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start", tournament=2)
    for number in range(1, 4):  # four players meet each other in three rounds
        await play_round(world, swiss_by_id, number, tournament=2)
    finished = await event(world, 2)
    assert finished.row.status == "finished" and finished.row.round == 3
    assert any("**Long** is over" in m.content for m in world.channel.history())
