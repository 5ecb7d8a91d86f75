"""Small helpers for reading boards and pressing cups in SimCord tests."""

from __future__ import annotations


def buttons(message) -> list[dict]:
    return [item for row in message.components for item in row["components"]]


def cup_labels(message) -> list[str]:
    return [b["label"] for b in buttons(message) if b["custom_id"].startswith("wari:cup:")]


def cup_id(message, house: int) -> str:
    for button in buttons(message):
        if button["custom_id"].startswith("wari:cup:") and button["custom_id"].endswith(f":{house}"):
            return button["custom_id"]
    raise AssertionError(f"no button for house {house} on the board: {cup_labels(message)}")


def enabled_houses(message) -> list[int]:
    return [int(b["custom_id"].rsplit(":", 1)[1]) for b in buttons(message) if b["custom_id"].startswith("wari:cup:") and not b.get("disabled")]


async def press(member, message, house: int):
    """``member`` presses the cup of ``house`` on ``message``."""
    return await member.click(message, custom_id=cup_id(message, house))


def board_code(message) -> str:
    """The code block of the board embed."""
    description = message.embeds[0].description
    return description.split("```")[1].strip()
