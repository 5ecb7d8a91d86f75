"""User stories: a tournament's standings, crosstable and podium read on a phone. Points come
first; a tie-break is shown only where it put a player ahead of the next one level on points,
in words; the crosstable is no wider than a board (26 columns); the podium gives points, not a
row of zeros; and the results come as a table to read beside the TRF16 file."""

from __future__ import annotations

import re

import discord
import pytest

from bot.i18n import _, n_, speaking
from bot.render import PHONE_COLUMNS
from bot.tournament.crosstable import display_width
from tests.cogs.test_tournaments import event, gathered, play_round

pytestmark = pytest.mark.simcord(settle_timeout=120)

CODE_BLOCK = re.compile(r"```\n(.*?)\n```", re.DOTALL)


async def round_robin_won_by_the_first_mover(world, language: str | None = None):
    """p1 to p4 play a round-robin, every game won by its first mover: p1 and p2 end on 2 points,
    p1 ahead on Sonneborn-Berger (3 to 2); p3 and p4 on 1, p3 ahead on Sonneborn-Berger (2 to 1).
    Their Buchholz cut-1 are level (3 and 3, 4 and 4): it decides nothing, so it is not shown.
    ``language``: the server's, chosen once the players have joined."""
    _players, by_id, _signup = await gathered(
        world, 4, name="Club", format="round-robin", starts="in 1 hour", clock="1d/move"
    )
    if language is not None:
        admins = world.guild.create_role(
            "Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True)
        )
        admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
        await admin.slash(world.channel, "wari-mod settings", language=language)
    await world.mod.slash(world.channel, "wari-mod tournament start")
    for number in range(1, 4):
        await play_round(world, by_id, number)
    assert (await event(world)).row.status == "finished"


def standings_in(world):
    """The event's standings message, as the channel shows it now (in any language)."""
    return next(m for m in world.channel.history() if m.embeds and (m.embeds[0].title or "").startswith("📊"))


def podium_in(world):
    return next(m for m in world.channel.history() if "🥇" in m.content)


def code_lines(description: str) -> list[str]:
    (block,) = CODE_BLOCK.findall(description)
    return block.splitlines()


async def test_players_level_on_points_are_told_apart_in_words_and_the_crosstable_fits_a_phone(world):
    await round_robin_won_by_the_first_mover(world)
    description = standings_in(world).embeds[0].description
    lines = description.split("\n```")[0].splitlines()
    assert lines == [
        "1\\. p1 · **2** pts · ahead of p2 on Sonneborn-Berger (3 to 2)",
        "2\\. p2 · **2** pts",
        "3\\. p3 · **1** pt · ahead of p4 on Sonneborn-Berger (2 to 1)",
        "4\\. p4 · **1** pt",
    ]
    table = code_lines(description)
    assert max(display_width(line) for line in table) <= PHONE_COLUMNS
    assert table[:3] == ["# Name                 Pts", "1 p1                     2", "  4+ 2+ 3-"]
    assert "Buchholz" not in description and "BH1" not in description  # it decided nothing


async def test_the_podium_gives_medal_name_and_points_and_the_tiebreak_that_decided_a_medal(world):
    await round_robin_won_by_the_first_mover(world)
    podium = podium_in(world).content.splitlines()
    assert podium[1:4] == [
        "🥇 p1 · **2** pts · ahead of p2 on Sonneborn-Berger (3 to 2)",
        "🥈 p2 · **2** pts",
        "🥉 p3 · **1** pt · ahead of p4 on Sonneborn-Berger (2 to 1)",  # bronze, not fourth
    ]
    assert ", 0" not in podium_in(world).content and "(0" not in podium_in(world).content  # no row of zeros


async def test_the_results_are_a_table_to_read_beside_the_trf(world):
    await round_robin_won_by_the_first_mover(world)
    results = await world.alice.slash(world.channel, "wari tournament results")
    assert results.ephemeral
    assert [a.filename for a in results.response.attachments] == ["wari-tournament-1.trf", "wari-tournament-1.txt"]
    assert ".txt" in results.response.content and "TRF16" in results.response.content
    text = (await results.response.attachments[1].read()).decode("utf-8")
    lines = text.splitlines()
    assert lines[:2] == ["Club", "Final standings"]
    assert lines[3].split() == ["#", "Name", "Pts", "BH1", "SB", "W", "DE"]  # every tie-break, in columns
    assert lines[4].split() == ["1", "p1", "2", "3", "3", "2", "0"] and lines[5].split() == ["4+", "2+", "3-"]
    assert max(display_width(line) for line in lines) <= 40  # a phone's file viewer shows it whole
    assert "BH1 Buchholz cut-1" in text and "+ won, = drawn, - lost," in text


async def test_a_crosstable_too_long_for_the_message_is_left_to_the_results_file_saying_so(world):
    _players, _by_id, _signup = await gathered(
        world, 70, name="Open", format="swiss", starts="in 1 hour", rounds=1, clock="1d/move"
    )
    await world.mod.slash(world.channel, "wari-mod tournament start")
    standings = await world.carol.slash(world.channel, "wari tournament standings")
    description = standings.response.embeds[0].description
    assert "```" not in description
    assert "The crosstable is too long for this message: `/wari tournament results` has it." in description


def in_language(language: str, message: str, **params) -> str:
    with speaking(language):
        return _(message, **params)


@pytest.mark.parametrize("language", ["fr", "pt"])
async def test_the_tiebreak_that_separates_players_is_said_in_the_servers_language(world, language):
    await round_robin_won_by_the_first_mover(world, language)
    description = standings_in(world).embeds[0].description
    lines = description.splitlines()
    tiebreak = in_language(language, "Sonneborn-Berger")
    ahead = in_language(language, "ahead of {name} on {tiebreak} ({ahead} to {behind})", name="p2",
                        tiebreak=tiebreak, ahead="3", behind="2")  # fmt: skip
    assert ahead != f"ahead of p2 on {tiebreak} (3 to 2)"  # translated
    with speaking(language):
        points = n_("{points} pt", "{points} pts", 2, points="**2**")
    assert lines[0] == f"1\\. p1 · {points} · {ahead}"
    podium = podium_in(world).content.splitlines()
    assert podium[1] == f"🥇 p1 · {points} · {ahead}"
    # The crosstable's words too, and it still fits a phone.
    table = code_lines(description)
    assert max(display_width(line) for line in table) <= PHONE_COLUMNS
    assert table[0].split()[:2] == ["#", in_language(language, "Name")] != ["#", "Name"]
    assert in_language(language, "> ~ < by forfeit") in "\n".join(table)


async def test_a_podium_with_the_moderator_who_made_the_event_on_it_is_posted_all_the_same(world):
    """The moderator who made a Swiss that ends early is told why on its podium, and may stand on
    it too: they are pinged once (Discord refuses a message that lists a user twice among those
    it may ping, and the podium was never posted)."""
    players, by_id, signup = await gathered(
        world, 3, name="Long", format="swiss", starts="in 1 hour", rounds=5, clock="1d/move"
    )
    await world.mod.click(signup, label="Join")
    by_id[world.mod.id] = world.mod
    await world.mod.slash(world.channel, "wari-mod tournament start")
    for number in range(1, 4):
        await play_round(world, by_id, number)
    finished = await event(world)
    assert finished.row.status == "finished" and finished.row.podium_message_id is not None
    (podium,) = [m for m in world.channel.history() if "**Long** is over" in m.content]
    assert "Round 4 could not be paired" in podium.content and f"<@{world.mod.id}>" in podium.content
    assert [s.user_id for s in finished.standings()[:3]].count(world.mod.id) <= 1


def test_players_who_share_a_rank_keep_it_as_discord_shows_the_line():
    """A line that starts ``2. `` is a numbered list to Discord, which numbers the next one 3
    whatever it says: a shared rank is written ``2\\.`` so that both lines read 2."""
    from bot.tournament import Standing
    from cogs.wari.tournaments.standings import standing_line

    shared = [Standing(2, user, name, 2.0, 3, 2, (0.0,)) for user, name in ((1, "Ama"), (2, "Esi"))]
    lines = [standing_line(standing, None, ("Buchholz cut-1",), None) for standing in shared]
    assert lines == ["2\\. Ama · **2** pts", "2\\. Esi · **2** pts"]
    assert not any(re.match(r"\d+\. ", line) for line in lines)  # no line Discord would renumber
