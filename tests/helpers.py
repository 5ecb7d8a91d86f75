"""Small helpers for reading boards and pressing cups in SimCord tests."""

from __future__ import annotations


def components(message) -> list:
    """Every component of a message, the nested ones too (a V2 board's container holds its rows),
    in order: dicts as SimCord's results give them, or discord.py's components of a message from
    history()."""
    return list(_walk(message.components))


def _walk(items):
    for component in items:
        yield component
        if isinstance(component, dict):
            nested, accessory = component.get("components", []), component.get("accessory")
        else:
            nested, accessory = getattr(component, "children", []), getattr(component, "accessory", None)
        yield from _walk([*nested, *([accessory] if accessory else [])])


def _kind(component) -> int:
    return component["type"] if isinstance(component, dict) else component.type.value


def buttons(message) -> list[dict]:
    """The buttons of a message (in its action rows, or anywhere in a V2 layout), as SimCord's
    results give them or read from channel history."""
    return _buttons(components(message))


def _buttons(found) -> list[dict]:
    return [
        component
        if isinstance(component, dict)
        else {"label": component.label, "custom_id": component.custom_id, "disabled": component.disabled}
        for component in found
        if _kind(component) == 2
    ]


def texts(message) -> list[str]:
    """The text displays of a V2 message (a board), in order."""
    return [
        component["content"] if isinstance(component, dict) else component.content
        for component in components(message)
        if _kind(component) == 10
    ]


def board_words(message) -> str:
    """The text a V2 board shows under its status line (:func:`status_line`): its title, both
    sides, the drawing, the moves, clock, ratings and footer, one text display a line (or more)."""
    return "\n".join(texts(message)[1:])


def status_line(message) -> str:
    """The line at the top of a V2 board: whose move, or how the game ended."""
    return texts(message)[0]


def board_title(message) -> str:
    """The small heading of a V2 board (``Wari · game #1``)."""
    (title,) = [line.removeprefix("### ") for line in board_words(message).splitlines() if line.startswith("### ")]
    return title


def board_footer(message) -> str:
    """The small text at the bottom of a V2 board (``Move 3 · unrated``)."""
    return texts(message)[-1].removeprefix("-# ")


def gallery(message) -> list[str]:
    """The addresses of the pictures a V2 board's media gallery shows (its attachments, as Discord serves them)."""
    return [
        item["media"]["url"] if isinstance(item, dict) else item.media.url
        for component in components(message)
        if _kind(component) == 12
        for item in (component["items"] if isinstance(component, dict) else component.items)
    ]


def accent(message) -> int | None:
    """The accent colour of a V2 board's container, as a number."""
    (container,) = [component for component in components(message) if _kind(component) == 17]
    if isinstance(container, dict):
        return container.get("accent_color")
    return container.accent_colour.value if container.accent_colour is not None else None


def cup_rows(message) -> list[list[str]]:
    """The labels of the cups, row by row as the board shows them."""
    rows = [component for component in components(message) if _kind(component) == 1]
    return [labels for row in rows if (labels := [b["label"] for b in _buttons(_walk([row])) if _is_cup(b)])]


def _is_cup(button: dict) -> bool:
    return button["custom_id"].startswith("wari:cup:")


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
    """The code block of a board (a game's V2 board, or an embed's: a replay, a puzzle)."""
    words = board_words(message) if texts(message) else message.embeds[0].description
    return words.split("```")[1].strip()


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
