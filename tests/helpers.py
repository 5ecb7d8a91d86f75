"""Small helpers for reading boards and pressing cups in SimCord tests."""

from __future__ import annotations


def buttons(message) -> list[dict]:
    """The buttons of a message, as SimCord's results give them or read from channel history."""
    found = []
    for row in message.components:
        if isinstance(row, dict):
            found += row["components"]
        else:  # a discord.ActionRow of a message from history()
            found += [{"label": b.label, "custom_id": b.custom_id, "disabled": b.disabled} for b in row.children]
    return found


def cup_labels(message) -> list[str]:
    return [b["label"] for b in buttons(message) if b["custom_id"].startswith("wari:cup:")]


def cup_id(message, house: int) -> str:
    for button in buttons(message):
        if button["custom_id"].startswith("wari:cup:") and button["custom_id"].endswith(f":{house}"):
            return button["custom_id"]
    raise AssertionError(f"no button for house {house} on the board: {cup_labels(message)}")


def enabled_houses(message) -> list[int]:
    return [
        int(b["custom_id"].rsplit(":", 1)[1])
        for b in buttons(message)
        if b["custom_id"].startswith("wari:cup:") and not b.get("disabled")
    ]


async def start_game(world, **options):
    """Alice challenges Bob (Alice moves first unless told otherwise); Bob accepts: the board."""
    options.setdefault("first", "me")
    message = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, **options)).response
    await world.bob.click(message, label="Accept")
    return message


async def press(member, message, house: int):
    """``member`` presses the cup of ``house`` on ``message``."""
    return await member.click(message, custom_id=cup_id(message, house))


def board_code(message) -> str:
    """The code block of the board embed."""
    description = message.embeds[0].description
    return description.split("```")[1].strip()


def pings(world, channel=None) -> list:
    """The bot's ping messages in the channel (turn pings and reminders), oldest first."""
    channel = channel or world.channel
    return [
        m
        for m in channel.history()
        if "your move in game #" in m.content or "left for your move in game #" in m.content
    ]


def pinged(world, message) -> set[int]:
    """Who Discord notifies for ``message``: SimCord's model of its mentions under its allowed mentions."""
    return set(world.env.backend.messages[message.channel.id][message.id].ping_user_ids)


async def stored(world, column: str, game_id: int = 1):
    """One column of one game, read straight from the database (through the running bot's
    store, so on either back end)."""
    (row,) = await world.env.bot.store.database.read(f"SELECT {column} AS value FROM games WHERE id = ?", (game_id,))
    return row["value"]


def archived(world, thread) -> bool:
    """Whether Discord shows ``thread`` as archived (discord.py drops archived threads from its cache)."""
    return world.env.backend.channels[thread.id].thread_metadata.archived


async def late_click(member, message, custom_id: str):
    """``member``'s click on a button that a redraw removed while the click was on its way: Discord
    sends the message as it is now, without that button (a double click, two players racing).

    SimCord's public ``click`` only presses buttons the message still shows, and runs one
    operation at a time, so this goes one level down to dispatch the component interaction.
    """
    from simcord.actors import _component_interaction

    stored = member._env.backend.get_message(message.channel_id, message.id)
    return await _component_interaction(member, stored, {"custom_id": custom_id, "component_type": 2})


def shown(member) -> str:
    """How the bot names a member in its messages: their display name, as the server shows it."""
    return member.user.global_name or member.name


def told(result) -> list:
    """The ephemeral messages the acting user was shown: the interaction's answer, when it was a
    message of its own (a quick refusal), and its follow-ups (what is said after a deferral or
    beside a redrawn board). A press that only redraws its board tells nothing."""
    messages = [result.response] if result.response is not None and result.ephemeral else []
    return messages + result.followups


async def surrender(member, channel):
    """``member`` gives up the channel's game as a player does: ``/wari surrender``, then the
    Surrender button on its private answer. Returns the channel's announcement of it."""
    asked = await member.slash(channel, "wari surrender")
    assert asked.ephemeral and asked.response.components, asked.response.content
    before = {m.id for m in channel.history()}
    (button,) = buttons(asked.response)
    await member.click(asked.response, custom_id=button["custom_id"])  # its label is in the asker's language
    return [m for m in channel.history() if m.id not in before and not m.flags.ephemeral][0]


async def stored_finished(store, text: str, *, now, guild_id: int, channel_id: int, players: tuple[int, int]) -> int:
    """The game of the record ``text`` stored as the bot stores a finished one, Ama (A) against
    Kofi (B), between ``players`` in ``channel_id``: its number."""
    from bot.engine.notation import from_record

    game, _tags = from_record(text)
    assert game.outcome is not None, "the record must end the game"
    row = await store.games.create_game(
        now=now,
        guild_id=guild_id,
        channel_id=channel_id,
        player_a=players[0],
        player_b=players[1],
        variant=game.rules.name,
        record=text,
        name_a="Ama",
        name_b="Kofi",
    )
    done = await store.games.update_game(row, now=now, status="finished", result=game.outcome.result, reason="majority")
    return done.id
