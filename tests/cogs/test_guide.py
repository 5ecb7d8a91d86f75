"""User stories: a newcomer finds their way: ``/wari help``, and their games' numbers offered
as they type one."""

from tests.helpers import press, shown, start_game, surrender


async def test_help_is_a_short_private_tour_in_the_readers_language(world):
    result = await world.carol.slash(world.channel, "wari help")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "🌱 Wari: the commands"
    assert [field.name for field in embed.fields] == ["Start a game", "Play", "Afterwards", "Get better"]
    text = "\n".join(field.value for field in embed.fields)
    for command in (
        "challenge",
        "seek",
        "play",
        "board",
        "draw",
        "abort",
        "takeback",
        "surrender",
        "stats",
        "replay",
        "settings",
        "analyse",
        "puzzle next",
        "puzzle daily",
    ):
        assert f"`/wari {command}" in text, command
    # Short enough for a phone: a dozen lines, none very long.
    lines = text.splitlines()
    assert len(lines) <= 12 and max(map(len, lines)) <= 90
    await world.carol.slash(world.channel, "wari settings", language="fr")
    french = (await world.carol.slash(world.channel, "wari help")).response.embeds[0]
    assert french.title == "🌱 Wari : les commandes" and french.fields[0].name == "Commencer une partie"


async def test_record_and_replay_suggest_the_askers_latest_games(world):
    await start_game(world)
    await surrender(world.bob, world.channel)
    board = await start_game(world)
    await press(world.alice, board, 4)
    await surrender(world.alice, world.channel)
    await world.alice.slash(world.channel, "wari play", level="greedy", first="me")
    await world.alice.slash(world.channel, "wari abort")
    for command in ("wari record", "wari replay"):
        offered = await world.alice.autocomplete(world.channel, command, "game", "")
        assert [choice["value"] for choice in offered] == [3, 2, 1]  # newest first
        assert [choice["name"] for choice in offered] == [
            "#3 · wari · vs TestBot (Casual) · aborted",
            f"#2 · wari · vs {shown(world.bob)} · lost",
            f"#1 · wari · vs {shown(world.bob)} · won",
        ]
    assert [c["value"] for c in await world.alice.autocomplete(world.channel, "wari replay", "game", "2")] == [2]
    assert await world.carol.autocomplete(world.channel, "wari replay", "game", "") == []  # no games of hers
