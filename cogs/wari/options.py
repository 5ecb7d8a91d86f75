"""The options of the commands that start games: their choices and descriptions, in one place."""

from __future__ import annotations

from discord import app_commands

from bot.ai import LEVELS
from bot.clock import CLOCKS, DEFAULT_CLOCK, Clock
from bot.engine import VARIANTS, Rules, rules_for
from bot.service import FIRST_CHOICES, Refusal

VARIANT_CHOICES = [
    app_commands.Choice(name="Wari (default)", value="wari"),
    app_commands.Choice(name="Oware Abapa", value="oware"),
    app_commands.Choice(name="Awari (Computer Olympiad rules)", value="awari"),
    app_commands.Choice(name="Ouril (Cabo Verde)", value="ouril"),
    app_commands.Choice(name="Kalah (Mancala)", value="kalah"),
]
assert [choice.value for choice in VARIANT_CHOICES] == list(VARIANTS)
FIRST_NAMES = {"random": "Random", "me": "Me", "opponent": "My opponent"}
FIRST_CHOICE_LIST = [app_commands.Choice(name=FIRST_NAMES[value], value=value) for value in FIRST_CHOICES]
#: How a player picks a level: a plain word for its strength and one line on how it plays, easy
#: to hard (the order of :data:`bot.ai.LEVELS`); the level's own name is what the board shows.
LEVEL_WORDS = {
    "random": "Beginner: plays any move at random",
    "low": "Novice: always plays its lowest house",
    "again": "Novice: hunts extra turns in Kalah, else its lowest house",
    "greedy": "Casual: grabs the biggest capture in sight",
    "mcts": "Strong: plays out thousands of quick games before each move",
    "expert": "Expert: reads many moves ahead, and endgames to the end",
}
assert list(LEVEL_WORDS) == list(LEVELS)
LEVEL_CHOICES = [app_commands.Choice(name=f"{LEVEL_WORDS[name]} ({name})"[:100], value=name) for name in LEVELS]
CLOCK_CHOICES = [app_commands.Choice(name=f"{code}: {Clock.parse(code).describe()}", value=code) for code in CLOCKS]
#: The options every way of starting a game against a person or the bot shares.
GAME_OPTIONS = {
    "variant": "Rule set (default: wari)",
    "first": "Who moves first (default: random)",
    "houses": "Kalah only: houses per player, 1-10 (default 6)",
    "seeds": "Kalah only: seeds per house, 1-10 (default 4)",
    "clock": f"Time limit: per move, or minutes per player + seconds per move (default: {DEFAULT_CLOCK})",
    "thread": "Play in a new thread of its own, so this channel stays free (default: no)",
}
GAME_CHOICES = {"variant": VARIANT_CHOICES, "first": FIRST_CHOICE_LIST, "clock": CLOCK_CHOICES}


def rules_of(variant: str, houses: int | None, seeds: int | None) -> Rules:
    """The rules a command's ``variant``, ``houses`` and ``seeds`` name (sizes are for Kalah only)."""
    if variant != "kalah" and (houses is not None or seeds is not None):
        raise Refusal(f"`houses` and `seeds` only apply to kalah: {variant} is always played with 6 houses of 4 seeds.")
    try:
        return rules_for(variant, houses, seeds)
    except ValueError as exc:  # Discord checks the ranges and choices, but a forged request may not
        raise Refusal(f"Sorry, {exc}.") from None
