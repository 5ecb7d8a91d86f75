"""Rule sets as data, and the one registry of variants.

Every variant of ``docs/RULES.md`` is one entry of :data:`REGISTRY`: its name, how players read
it, the board sizes it may be played on and its :class:`Mechanics`, the handful of fields in which
variants differ (how a grand slam is treated, whether the single-seed rule applies, who takes the
seeds left when nobody can move, whether the stores are on the sowing path). The sowing code in
:mod:`bot.engine.core` and the compiled core read those fields instead of testing variant names,
and everything else that lists variants (the commands' choices, the endgame tables, the command
lines) takes them from here: a new variant is one more entry, plus C only for a new mechanic.

A :class:`Rules` object is one variant on one board size.

>>> rules_for("kalah", houses=4, seeds=3)
Rules(name='kalah', houses=4, seeds=3)
>>> rules_for("oware").total_seeds
48
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

# The marker only (no Discord, no translation here): pybabel collects the choice names below.

__all__ = [
    "DEFAULT_VARIANT",
    "REGISTRY",
    "VARIANTS",
    "GrandSlam",
    "Mechanics",
    "Rules",
    "Variant",
    "rules_for",
]

#: The traditional board, and the only one but Kalah's: 2 rows of 6 houses of 4 seeds.
DEFAULT_HOUSES = 6
DEFAULT_SEEDS = 4


class GrandSlam(enum.Enum):
    """What happens to a move that would capture every seed in the opponent's row."""

    #: ``wari``: such a move is illegal (and so is one that fails to feed an empty row).
    FORBIDDEN = "forbidden"
    #: ``oware``: the move is legal but captures nothing.
    NO_CAPTURE = "no capture"
    #: ``awari``: illegal unless every move leaves the opponent without seeds; then it captures.
    FORCED_ONLY = "only when forced"
    #: ``ouril``: it captures, and the mover plays again at once (an extra, feeding move).
    CAPTURE_AND_REPLAY = "captures, then an extra move"
    #: ``kalah``: there is no such rule (captures come from the opposite house).
    NOT_APPLICABLE = "not applicable"


@dataclass(frozen=True)
class Mechanics:
    """What differs in play from one variant to another: the parameters the sowing code reads.

    :class:`bot.engine.core.Machine` reads them, and the compiled core gets them packed in one
    number (:func:`bot.engine.core.compiled_code`), so no code below the registry names a variant.
    ``tests/engine/test_registry.py`` fails when the compiled core does not read them the same way.
    """

    #: How a move that would capture every seed of the opponent's row is treated.
    grand_slam: GrandSlam = GrandSlam.NOT_APPLICABLE
    #: Ouril: a house with one seed may be played only when no own house holds more.
    single_seed_rule: bool = False
    #: Awari: a player without seeds at their turn loses the rest of the board to the opponent.
    #: Everywhere else, when the player to move cannot move, each player takes their own row.
    stranded_seeds_to_opponent: bool = False
    #: Kalah: the stores lie on the sowing path and the last seed in one's store plays again.
    stores_on_path: bool = False


@dataclass(frozen=True)
class Variant:
    """One entry of :data:`REGISTRY`: a variant's name, how players read it, how it plays and
    the board sizes it may be played on."""

    #: The name in commands, records and positions: ``oware``.
    name: str
    #: Its name in a list of choices, in English; translated where shown (pybabel finds it as the
    #: second argument of a ``Variant``: see the Makefile's ``translations``).
    choice_name: str
    mechanics: Mechanics
    #: Houses per player it may be played with; the default board is 6 houses of 4 seeds.
    houses: range = range(DEFAULT_HOUSES, DEFAULT_HOUSES + 1)
    #: Seeds per house it may start with.
    seeds: range = range(DEFAULT_SEEDS, DEFAULT_SEEDS + 1)


#: Every variant of ``docs/RULES.md``, the default first: the one list the engine, the compiled
#: core, the commands' choices and the endgame tables all take their variants from.
REGISTRY: tuple[Variant, ...] = (
    Variant("wari", "Wari (default)", Mechanics(GrandSlam.FORBIDDEN)),
    Variant("oware", "Oware Abapa", Mechanics(GrandSlam.NO_CAPTURE)),
    Variant(
        "awari",
        "Awari (Computer Olympiad rules)",
        Mechanics(GrandSlam.FORCED_ONLY, stranded_seeds_to_opponent=True),
    ),
    Variant("ouril", "Ouril (Cabo Verde)", Mechanics(GrandSlam.CAPTURE_AND_REPLAY, single_seed_rule=True)),
    Variant("kalah", "Kalah (Mancala)", Mechanics(stores_on_path=True), houses=range(1, 11), seeds=range(1, 11)),
)
_BY_NAME = {variant.name: variant for variant in REGISTRY}

#: Variant names, the default first.
VARIANTS: tuple[str, ...] = tuple(_BY_NAME)
DEFAULT_VARIANT = VARIANTS[0]


@dataclass(frozen=True)
class Rules:
    """One rule set: its name, board size (houses per player) and seeds per house.

    ``Rules("oware")`` checks its parameters (:func:`rules_for` does the same and also
    accepts any letter case); everything else about the variant comes from :data:`REGISTRY`.
    """

    name: str = DEFAULT_VARIANT
    houses: int = DEFAULT_HOUSES
    seeds: int = DEFAULT_SEEDS

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or self.name not in _BY_NAME:
            raise ValueError(f"unknown variant {self.name!r}: choose one of {', '.join(VARIANTS)}")
        for what in ("houses", "seeds"):
            _check_size(self.variant, what, getattr(self, what))

    @property
    def variant(self) -> Variant:
        """This rule set's entry in the registry."""
        return _BY_NAME[self.name]

    @property
    def mechanics(self) -> Mechanics:
        """What the sowing code reads of this variant."""
        return self.variant.mechanics

    @property
    def grand_slam(self) -> GrandSlam:
        """How a move that would capture every seed of the opponent's row is treated."""
        return self.mechanics.grand_slam

    @property
    def single_seed_rule(self) -> bool:
        """Ouril: a house with one seed may be played only when no own house holds more."""
        return self.mechanics.single_seed_rule

    @property
    def stores_on_path(self) -> bool:
        """Kalah: the stores lie on the sowing path and the last seed in one's store plays again."""
        return self.mechanics.stores_on_path

    @property
    def stranded_seeds_to_opponent(self) -> bool:
        """Awari: a player without seeds at their turn loses the rest of the board to the opponent.

        Everywhere else, when the player to move cannot move, each player takes the seeds left
        in their own row.
        """
        return self.mechanics.stranded_seeds_to_opponent

    @property
    def pits(self) -> int:
        """Number of houses on the board, both rows together (2n)."""
        return 2 * self.houses

    @property
    def total_seeds(self) -> int:
        """Seeds in play at the start; more than half of them wins at once."""
        return self.pits * self.seeds

    @property
    def detects_cycles(self) -> bool:
        """Whether a repeated position ends the game (every variant but Kalah, which cannot cycle)."""
        return not self.stores_on_path

    @property
    def label(self) -> str:
        """Name plus parameters when they differ from the defaults, e.g. ``kalah 4x3``."""
        if (self.houses, self.seeds) == (DEFAULT_HOUSES, DEFAULT_SEEDS):
            return self.name
        return f"{self.name} {self.houses}x{self.seeds}"

    def owner(self, house: int) -> int:
        """0 (player A) or 1 (player B) for a house number 1..2n."""
        return 0 if house <= self.houses else 1


def _check_size(variant: Variant, what: str, value: object) -> None:
    """Refuse a number of ``what`` (houses or seeds) that ``variant`` is not played with."""
    allowed: range = getattr(variant, what)
    if isinstance(value, int) and not isinstance(value, bool) and value in allowed:
        return
    if len(allowed) > 1:
        raise ValueError(
            f"{variant.name} {what} must be a whole number from {allowed[0]} to {allowed[-1]}, not {value!r}"
        )
    choosers = " or ".join(other.name for other in REGISTRY if len(getattr(other, what)) > 1)
    raise ValueError(
        f"{variant.name} is played with {variant.houses[0]} houses of {variant.seeds[0]} seeds; "
        f"only {choosers} lets you choose {what}"
    )


def rules_for(name: str = DEFAULT_VARIANT, houses: int | None = None, seeds: int | None = None) -> Rules:
    """Return the rules of variant ``name`` (any letter case).

    ``houses`` and ``seeds`` may only be changed where the variant's entry in :data:`REGISTRY`
    allows (Kalah: 1..10 each); by default, and for the other variants, the board is the
    traditional 2x6 with 4 seeds per house.

    :raises ValueError: for an unknown name or a parameter out of range; the message names the
        allowed values.
    """
    if not isinstance(name, str):
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}")
    key = name.strip().lower()
    return Rules(key, DEFAULT_HOUSES if houses is None else houses, DEFAULT_SEEDS if seeds is None else seeds)
