"""The options of the commands that start games: their choices and descriptions, in one place."""

from __future__ import annotations

from dataclasses import dataclass

from discord import app_commands

from bot.ai import LEVELS
from bot.clock import CLOCKS, DEFAULT_CLOCK, Clock
from bot.engine import REGISTRY, Rules, rules_for
from bot.i18n import N_, _, labelled
from bot.service import FIRST_CHOICES, Refusal

#: One choice a variant of the engine's registry, in its order (the default first).
VARIANT_CHOICES = [app_commands.Choice(name=variant.choice_name, value=variant.name) for variant in REGISTRY]
FIRST_NAMES = {"random": N_("Random"), "me": N_("Me"), "opponent": N_("My opponent")}
FIRST_CHOICE_LIST = [app_commands.Choice(name=FIRST_NAMES[value], value=value) for value in FIRST_CHOICES]
#: Each level's one name, everywhere a player meets it (the choices, boards, stats), easy to hard
#: (the order of :data:`bot.ai.LEVELS`); the code (``mcts``) is for records and developers.
LEVEL_NAMES = {
    "random": N_("Beginner"),
    "low": N_("Novice"),
    "again": N_("Apprentice"),
    "greedy": N_("Casual"),
    "mcts": N_("Strong"),
    "expert": N_("Expert"),
}
#: One line on how each level plays, for its choice.
LEVEL_WAYS = {
    "random": N_("plays any move at random"),
    "low": N_("always plays its lowest house"),
    "again": N_("hunts extra turns in Kalah, else plays its lowest house"),
    "greedy": N_("grabs the biggest capture in sight"),
    "mcts": N_("plays out thousands of quick games before each move"),
    "expert": N_("reads many moves ahead, and endgames to the end"),
}
assert list(LEVEL_NAMES) == list(LEVEL_WAYS) == list(LEVELS)
#: Each level's rating in the arena, in Elo points above ``random`` (README, "Playing the bot":
#: ``python -m bot.ai.arena --ladder``), rounded: shown so that players can pick by strength.
LEVEL_RATINGS = {"random": 0, "low": 0, "again": 0, "greedy": 300, "mcts": 950, "expert": 1600}
#: The level the others are measured from.
WEAKEST = next(iter(LEVELS))


def level_name(level: str) -> str:
    """A level's name in the language of the moment: ``Strong``."""
    return _(LEVEL_NAMES[level])


def level_choice_name(level: str) -> str:
    """A level as the choice reads, in the language of the moment, its strength measured from the
    weakest's: ``Strong: plays out … · Beginner +950 Elo``; ``Novice: … · ≈ Beginner``."""
    name, way = level_name(level), _(LEVEL_WAYS[level])
    if level == WEAKEST:
        return _("{name}: {way}", name=name, way=way)
    if LEVEL_RATINGS[level] == 0:  # no measurable gap: say so, not "+0"
        return _("{name}: {way} · ≈ {weakest}", name=name, way=way, weakest=level_name(WEAKEST))
    return _(
        "{name}: {way} · {weakest} +{points} Elo",
        name=name,
        way=way,
        weakest=level_name(WEAKEST),
        points=LEVEL_RATINGS[level],
    )


LEVEL_CHOICES = [app_commands.Choice(name=level_choice_name(name), value=name) for name in LEVELS]
CLOCK_CHOICES = [app_commands.Choice(name=labelled(code, Clock.parse(code).describe()), value=code) for code in CLOCKS]
#: The options every way of starting a game against a person or the bot shares.
GAME_OPTIONS = {
    "variant": N_("Rule set (default: wari)"),
    "first": N_("Who moves first (default: random)"),
    "houses": N_("Kalah only: houses per player, 1-10 (default 6)"),
    "seeds": N_("Kalah only: seeds per house, 1-10 (default 4)"),
    "clock": N_("Time limit: per move, or minutes per player + seconds per move (default: 1d/move)"),
    "thread": N_("Play in a new thread of its own, so this channel stays free (default: no)"),
}
assert DEFAULT_CLOCK == "1d/move"  # named in the text above
GAME_CHOICES = {"variant": VARIANT_CHOICES, "first": FIRST_CHOICE_LIST, "clock": CLOCK_CHOICES}


def choice_name(choice: app_commands.Choice) -> str:
    """How a choice reads in the language of the moment (a clock's meaning is worked out)."""
    if choice.value in CLOCKS:
        return labelled(choice.value, Clock.parse(choice.value).describe())
    if choice.value in LEVELS:
        return level_choice_name(choice.value)
    return _(choice.name)


@dataclass(frozen=True)
class GameOptions:
    """How a game-starting command (``/wari challenge``, ``/wari play``) says to play, as given."""

    variant: str = "wari"
    first: str = "random"
    houses: int | None = None
    seeds: int | None = None
    clock: str = DEFAULT_CLOCK
    thread: bool = False
    #: Between people: the game changes their ratings (unrated: takebacks allowed).
    rated: bool = True

    def rules(self) -> Rules:
        """The rules these options name; a :class:`bot.service.Refusal` if they name none."""
        return rules_of(self.variant, self.houses, self.seeds)


def rules_of(variant: str, houses: int | None, seeds: int | None) -> Rules:
    """The rules a command's ``variant``, ``houses`` and ``seeds`` name (sizes are for Kalah only)."""
    if variant != "kalah" and (houses is not None or seeds is not None):
        raise Refusal(
            N_("`houses` and `seeds` only apply to kalah: {variant} is always played with 6 houses of 4 seeds."),
            variant=variant,
        )
    try:
        return rules_for(variant, houses, seeds)
    except ValueError as exc:  # Discord checks the ranges and choices, but a forged request may not
        raise Refusal(N_("Sorry, {reason}."), reason=exc) from None
