"""User stories: what a server shows of games, names and tournaments is that server's own.

Alice plays in the Wari Club and in another server, Elsewhere, where she goes by another name and
plays Kwabena. Her rating is one for both by design (a server's leaderboard lists the players rated
in its games); but no command, button or suggestion in one server shows a game of the other, the
names its members had there, or a link into it. A button whose custom id names another server's
game, event or wait (forged: no message of this server carries it) is refused privately, changes
nothing there or here, and shows nothing of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord
from simcord import ChannelHandle, GuildHandle, MemberActor

from tests.helpers import buttons, enabled_houses, late_click, press, shown, start_game, stored, surrender, told

#: Alice's name in Elsewhere (her nickname there), which the Wari Club never shows.
ALIAS = "Ama of Elsewhere"
NO_SUCH_GAME = "There is no game #{number} in this server."


@dataclass
class Elsewhere:
    """The other server: its channel, Alice as a member of it, and Kwabena."""

    guild: GuildHandle
    channel: ChannelHandle
    alice: MemberActor
    kwabena: MemberActor

    @property
    def links(self) -> str:
        """How every link into this server starts."""
        return f"https://discord.com/channels/{self.guild.id}/"

    def unnamed_in(self, text: str) -> None:
        """``text`` names none of this server's members as they are named here, nor links into it."""
        assert "kwabena" not in text and ALIAS not in text, text
        assert self.links not in text, text

    def unseen_in(self, text: str, number: int) -> None:
        """``text`` shows nothing of this server's game ``number``: its number, names or link."""
        assert f"#{number}" not in text, text
        self.unnamed_in(text)


def elsewhere(world) -> Elsewhere:
    guild = world.env.create_guild("Elsewhere")
    channel = guild.create_text_channel("play")
    alice = guild.add_member(world.alice.user, nick=ALIAS)
    kwabena = guild.add_member(world.env.create_user("kwabena"))
    return Elsewhere(guild, channel, alice, kwabena)


async def play_out(winner, loser, channel, *, moves: bool = False):
    """``winner`` challenges ``loser``, who accepts (after a move each, if ``moves``) and gives up:
    the finished board."""
    board = (await winner.slash(channel, "wari challenge", opponent=loser, first="me")).response
    await loser.click(board, label="Accept")
    if moves:
        for member in (winner, loser):
            await press(member, board, enabled_houses(board)[0])
    await surrender(loser, channel)
    return board


async def two_servers(world, *, club_games: int = 1, their_games: int = 1):
    """Games #1.. in the Wari Club (Alice beats Bob), then the next ones in Elsewhere (Alice beats
    Kwabena, after a move each): Elsewhere, and the Wari Club's last board."""
    for _ in range(club_games):
        club_board = await play_out(world.alice, world.bob, world.channel)
    there = elsewhere(world)
    for _ in range(their_games):
        await play_out(there.alice, there.kwabena, there.channel, moves=True)
    assert await stored(world, "guild_id", club_games + 1) == there.guild.id
    assert await stored(world, "name_a", club_games + 1) == ALIAS
    return there, club_board


def text_of(message) -> str:
    """Everything a message says: its content and its embeds' texts."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name} {field.value}" for field in embed.fields]
    return "\n".join(parts)


def refused_privately(result) -> str:
    """The text of the one private answer to a refused press (a forged id: whichever check
    refuses it first says why)."""
    (answer,) = told(result)
    assert answer.ephemeral and answer.content, answer.content
    return answer.content


def numbers_listed(history) -> list[str]:
    return [line.split(" ")[0] for line in history.embeds[0].description.splitlines()[1:]]


# -- /wari history and its pages ------------------------------------------------------------


async def test_a_players_history_in_one_server_lists_only_that_servers_games_page_by_page(world):
    there, _ = await two_servers(world, club_games=11, their_games=11)  # #1..#11 here, #12..#22 there
    page = (await world.bob.slash(world.channel, "wari history", member=world.alice)).response
    assert numbers_listed(page) == [f"**#{n}**" for n in range(11, 1, -1)]
    for number in range(12, 23):
        there.unseen_in(text_of(page), number)
    theirs = (await there.kwabena.slash(there.channel, "wari history", member=there.alice)).response
    assert theirs.embeds[0].description.splitlines()[0] == ALIAS  # the name she has there
    assert numbers_listed(theirs) == [f"**#{n}**" for n in range(22, 12, -1)] and "bob" not in text_of(theirs)
    # Both ▶ carry the same custom id (the player's): the server whose page turns is the press's.
    assert buttons(page)[1]["custom_id"] == buttons(theirs)[1]["custom_id"]
    await world.bob.click(page, custom_id=buttons(page)[1]["custom_id"])
    assert numbers_listed(page) == ["**#1**"]
    there.unseen_in(text_of(page), 12)
    await there.kwabena.click(theirs, custom_id=buttons(theirs)[1]["custom_id"])
    assert numbers_listed(theirs) == ["**#12**"] and "bob" not in text_of(theirs)


# -- the game numbers suggested as they are typed ---------------------------------------------


async def test_the_game_numbers_suggested_are_the_askers_games_of_this_server(world):
    there, _ = await two_servers(world)
    for command in ("wari record", "wari replay", "wari analyse"):
        offered = await world.alice.autocomplete(world.channel, command, "game", "")
        assert [choice["value"] for choice in offered] == [1]
        assert all("kwabena" not in choice["name"] for choice in offered)
        theirs = await there.alice.autocomplete(there.channel, command, "game", "")
        assert [choice["value"] for choice in theirs] == [2]
    assert await world.alice.autocomplete(world.channel, "wari replay", "game", "2") == []


# -- the leaderboard and the stats ------------------------------------------------------------


async def test_a_servers_leaderboard_names_its_players_as_they_played_there(world):
    there, _ = await two_servers(world)  # Alice's latest game is Elsewhere's, as "Ama of Elsewhere"
    club = (await world.bob.slash(world.channel, "wari leaderboard")).response
    assert f"** {shown(world.alice)} " in text_of(club)
    there.unseen_in(text_of(club), 2)
    theirs = text_of((await there.kwabena.slash(there.channel, "wari leaderboard")).response)
    assert f"** {ALIAS} " in theirs and "bob" not in theirs
    # The everyone list is one list for all: each player under their latest name anywhere.
    everyone = text_of((await world.bob.slash(world.channel, "wari leaderboard", scope="everyone")).response)
    assert f"** {ALIAS} " in everyone and "** kwabena " in everyone
    # A page key names the scope, never the server: Kwabena's key pressed here shows nothing of Elsewhere.
    pressed = await late_click(world.bob, club, f"wari:page:ranks:wari-server-{there.kwabena.id}:0:next")
    for message in (*told(pressed), club):
        there.unseen_in(text_of(message), 2)


async def test_stats_in_one_server_name_nobody_and_no_game_of_another(world):
    there, _ = await two_servers(world)
    stats = (await world.bob.slash(world.channel, "wari stats", member=world.alice, public=True)).response
    there.unseen_in(text_of(stats), 2)
    assert "#1" not in text_of(stats)  # the numbers of games are the history's: stats count them


# -- /wari record, /wari replay and /wari analyse -----------------------------------------------


async def test_the_replay_buttons_of_another_servers_game_are_refused(world):
    there, club_board = await two_servers(world)
    for way in ("first", "last"):
        pressed = await late_click(world.alice, club_board, f"wari:replay:2:0:{way}")
        refused_privately(pressed)
    for message in world.channel.history():
        there.unseen_in(text_of(message), 2)


async def test_a_player_cannot_analyse_their_game_of_another_server_here(world):
    there, club_board = await two_servers(world)  # Alice played game #2, in Elsewhere
    asked = await world.alice.slash(world.channel, "wari analyse", game=2)
    assert asked.ephemeral and asked.response.content.startswith(NO_SUCH_GAME.format(number=2))
    refused_privately(await late_click(world.alice, club_board, "wari:analyse:2"))  # the Analyse button
    for message in world.channel.history():
        there.unseen_in(text_of(message), 2)
    assert await world.env.bot.store.analyses.analysis(2, "default") is None


async def test_an_analysis_under_way_in_another_server_is_not_named_here(world):
    there, _ = await two_servers(world)
    # Alice's analysis of game #2 is under way in Elsewhere (as a busy bot would leave it).
    await world.env.bot.store.analyses.request_analysis(
        game_id=2, depth="default", requested_by=world.alice.id, guild_id=there.guild.id, total_plies=4,
        now=world.env.now(), most=8,
    )  # fmt: skip
    await play_out(world.alice, world.bob, world.channel, moves=True)  # game #3, here
    asked = await world.alice.slash(world.channel, "wari analyse", game=3)
    assert asked.ephemeral
    assert asked.response.content == (
        "Your analysis of a game of another server is still under way: one at a time, please."
    )
    there.unseen_in(asked.response.content, 2)


# -- buttons of games: a forged id of another server's game -------------------------------------


async def test_rematch_of_another_servers_game_is_refused_and_starts_nothing_there(world):
    there, club_board = await two_servers(world)
    before = len(there.channel.history())
    refused_privately(await late_click(world.alice, club_board, "wari:rematch:2"))
    assert len(there.channel.history()) == before
    assert await world.env.bot.store.games.challenge_in(there.channel.id) is None
    assert await world.env.bot.store.games.challenge_in(world.channel.id) is None


async def test_game_buttons_of_another_servers_live_game_are_refused(world):
    there = elsewhere(world)
    board = (await there.kwabena.slash(there.channel, "wari challenge", opponent=there.alice, first="me")).response
    await there.alice.click(board, label="Accept")  # game #1, in Elsewhere, still being played
    await press(there.kwabena, board, enabled_houses(board)[0])
    offer = (await there.alice.slash(there.channel, "wari draw")).response
    assert offer.components  # Alice's offer waits for Kwabena
    club_board = await start_game(world)  # game #2, in the Wari Club
    for custom_id in ("wari:surrender:1", "wari:draw:1:1:accept", "wari:takeback:1:1:A:accept", "wari:next:1:1"):
        pressed = await late_click(world.bob, club_board, custom_id)
        there.unnamed_in(refused_privately(pressed))  # a number in it is the presser's own, echoed
        for message in world.channel.history():
            there.unseen_in(text_of(message), 1)
    assert await stored(world, "status", 1) == "live" and await stored(world, "draw_open", 1)
    assert await stored(world, "status", 2) == "live"
    assert [b["custom_id"] for b in buttons(club_board) if b["custom_id"].startswith("wari:cup:2:")]  # untouched


# -- tournaments ------------------------------------------------------------------------------


async def elsewhere_tournament(world):
    """Elsewhere's tournament #1, "Secret Cup", that Kwabena joined: Elsewhere and its sign-up message."""
    there = elsewhere(world)
    moderators = there.guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
    boss = there.guild.add_member(world.env.create_user("boss"), roles=[moderators])
    made = await boss.slash(
        there.channel, "wari-mod tournament create", name="Secret Cup", format="swiss", starts="in 10 minutes"
    )
    assert not made.ephemeral, made.response.content
    await there.kwabena.click(made.response, label="Join")
    return there, made.response


async def entrants(world) -> set[int]:
    return {entrant.user_id for entrant in await world.env.bot.store.tournaments.entrants(1)}


async def test_another_servers_tournament_cannot_be_joined_with_a_forged_button(world):
    there, signup = await elsewhere_tournament(world)
    club_board = await start_game(world)
    for action in ("join", "leave"):
        refused_privately(await late_click(world.alice, club_board, f"wari:tour:1:{action}"))
    assert await entrants(world) == {there.kwabena.id}
    for message in world.channel.history():
        assert "Secret Cup" not in text_of(message) and "kwabena" not in text_of(message)
    await there.alice.click(signup, label="Join")  # in its own server, the button works
    assert await entrants(world) == {there.kwabena.id, world.alice.id}


async def test_another_servers_tournament_is_not_found_by_its_number(world):
    there, _ = await elsewhere_tournament(world)
    for command in ("join", "leave", "standings", "results"):
        refused = await world.alice.slash(world.channel, f"wari tournament {command}", tournament=1)
        assert refused.ephemeral and refused.response.content == "There is no tournament #1.", command
    listed = await world.alice.slash(world.channel, "wari tournament list")
    assert "Secret Cup" not in text_of(listed.response)
    for command in ("start", "pause", "resume", "cancel"):
        refused = await world.mod.slash(world.channel, f"wari-mod tournament {command}", tournament=1)
        assert refused.response.content == "There is no tournament #1.", command
    for command, options in (("kick", {}), ("result", {"result": "win", "reason": "forged"})):
        refused = await world.mod.slash(
            world.channel, f"wari-mod tournament {command}", tournament=1, member=world.alice, **options
        )
        assert refused.response.content == "There is no tournament #1.", command
    current = await world.env.bot.store.tournaments.tournament(1)
    assert current is not None and current.status == "open" and await entrants(world) == {there.kwabena.id}


# -- seeks --------------------------------------------------------------------------------------


async def test_a_wait_in_another_server_is_neither_ended_nor_shown_from_here(world):
    there = elsewhere(world)
    waiting = (await there.alice.slash(there.channel, "wari seek")).response
    play, cancel = buttons(waiting)
    club_board = await start_game(world)
    refused_privately(await late_click(world.alice, club_board, cancel["custom_id"]))  # her own wait's id
    refused_privately(await late_click(world.bob, club_board, play["custom_id"]))  # taken from here: no
    assert await world.env.bot.store.seeks.waiting(there.guild.id, world.alice.id) is not None
    for message in world.channel.history():
        there.unnamed_in(text_of(message))
    assert [b["custom_id"] for b in buttons(club_board) if b["custom_id"].startswith("wari:cup:1:")]  # untouched
    await there.alice.click(waiting, label="Cancel")  # in its own server, it works
    assert await world.env.bot.store.seeks.waiting(there.guild.id, world.alice.id) is None
