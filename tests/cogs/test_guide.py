"""User stories: a newcomer finds their way: ``/wari help``, and their games' numbers offered
as they type one."""

from tests.helpers import press, shown, start_game, surrender


def commands_of(world, group: str) -> list[tuple[str, ...]]:
    """Every command of ``group`` as the bot registered it: ("tournament", "join"), ("play",)..."""
    from discord import app_commands

    def leaves(command, path):
        if isinstance(command, app_commands.Group):
            return [leaf for child in command.commands for leaf in leaves(child, (*path, child.name))]
        return [path]

    (root,) = [c for c in world.env.bot.tree.get_commands() if c.name == group]
    return [leaf for child in root.commands for leaf in leaves(child, (child.name,))]


def mentioned(text: str, group: str, path: tuple[str, ...]) -> bool:
    """Whether the tour names a command: in full (`/wari puzzle next`), or as a word after its
    sub-group's full name on the same line (`/wari tournament list` ... `join`)."""
    if f"`/{group} {' '.join(path)}" in text:
        return True
    *sub, leaf = path
    return bool(sub) and any(f"`/{group} {' '.join(sub)}" in line and f"`{leaf}`" in line for line in text.splitlines())


async def test_help_is_a_short_private_tour_of_every_command_in_the_readers_language(world):
    result = await world.carol.slash(world.channel, "wari help")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "🌱 Wari: the commands"
    assert [field.name for field in embed.fields] == ["Start a game", "Play", "Afterwards", "Get better", "Tournaments"]
    text = "\n".join(field.value for field in embed.fields)
    members = commands_of(world, "wari")
    assert ("tournament", "standings") in members and ("exhibition",) in members  # the walk finds them
    missing = [path for path in members if path != ("help",) and not mentioned(text, "wari", path)]
    assert missing == []
    assert "/wari-mod" not in text  # a member does not see the moderators' commands
    # Short enough for a phone: a screenful of lines, none very long.
    lines = text.splitlines()
    assert len(lines) <= 16 and max(map(len, lines)) <= 90
    for language, title, part in (
        ("fr", "🌱 Wari : les commandes", "Tournois"),
        ("pt", "🌱 Wari: os comandos", "Torneios"),
    ):
        await world.carol.slash(world.channel, "wari settings", language=language)
        translated = (await world.carol.slash(world.channel, "wari help")).response.embeds[0]
        assert translated.title == title and translated.fields[4].name == part
        assert "`/wari tournament list`" in translated.fields[4].value  # commands are not translated


async def test_a_moderator_s_help_has_the_moderators_commands_too(world):
    embed = (await world.mod.slash(world.channel, "wari help")).response.embeds[0]
    assert embed.fields[-1].name == "For moderators"
    moderation = embed.fields[-1].value
    everything = commands_of(world, "wari-mod")
    assert ("tournament", "kick") in everything and ("puzzle", "daily") in everything
    assert [path for path in everything if not mentioned(moderation, "wari-mod", path)] == []
    await world.mod.slash(world.channel, "wari settings", language="fr")
    french = (await world.mod.slash(world.channel, "wari help")).response.embeds[0]
    assert french.fields[-1].name == "Pour les modérateurs"


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
