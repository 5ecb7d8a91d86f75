"""Rule sets as data.

Every variant of ``docs/RULES.md`` is one immutable :class:`Rules` object. The behaviour that
differs between variants is spelled out in a handful of fields (how a grand slam is treated,
whether the single-seed rule applies, who takes the seeds left when nobody can move), so the
sowing code in :mod:`bot.engine.core` reads them instead of testing variant names.

>>> rules_for("kalah", houses=4, seeds=3)
Rules(name='kalah', houses=4, seeds=3)
>>> rules_for("oware").total_seeds
48
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["GrandSlam", "Rules", "VARIANTS", "DEFAULT_VARIANT", "rules_for"]


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
class Rules:
    """One rule set: its name, board size (houses per player) and seeds per house.

    ``Rules("oware")`` checks its parameters (:func:`rules_for` does the same and also
    accepts any letter case); everything else about the variant is derived from the name.
    """

    name: str = "wari"
    houses: int = 6
    seeds: int = 4

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or self.name not in _VARIANT_FIELDS:
            raise ValueError(f"unknown variant {self.name!r}: choose one of {', '.join(VARIANTS)}")
        if self.name != "kalah":
            for what, value, default in (("houses", self.houses, 6), ("seeds", self.seeds, 4)):
                if value != default or type(value) is not int:
                    raise ValueError(
                        f"{self.name} is played with 6 houses of 4 seeds; only kalah lets you choose {what}"
                    )
            return
        for what, value, allowed in (("houses", self.houses, KALAH_HOUSES), ("seeds", self.seeds, KALAH_SEEDS)):
            if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
                raise ValueError(
                    f"kalah {what} must be a whole number from {allowed[0]} to {allowed[-1]}, not {value!r}"
                )

    @property
    def grand_slam(self) -> GrandSlam:
        """How a move that would capture every seed of the opponent's row is treated."""
        return _VARIANT_FIELDS[self.name].get("grand_slam", GrandSlam.NOT_APPLICABLE)

    @property
    def single_seed_rule(self) -> bool:
        """Ouril: a house with one seed may be played only when no own house holds more."""
        return _VARIANT_FIELDS[self.name].get("single_seed_rule", False)

    @property
    def stores_on_path(self) -> bool:
        """Kalah: the stores lie on the sowing path and the last seed in one's store plays again."""
        return _VARIANT_FIELDS[self.name].get("stores_on_path", False)

    @property
    def stranded_seeds_to_opponent(self) -> bool:
        """Awari: a player without seeds at their turn loses the rest of the board to the opponent.

        Everywhere else, when the player to move cannot move, each player takes the seeds left
        in their own row.
        """
        return _VARIANT_FIELDS[self.name].get("stranded_seeds_to_opponent", False)

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
        if (self.houses, self.seeds) == (6, 4):
            return self.name
        return f"{self.name} {self.houses}x{self.seeds}"

    def owner(self, house: int) -> int:
        """0 (player A) or 1 (player B) for a house number 1..2n."""
        return 0 if house <= self.houses else 1


_VARIANT_FIELDS: dict[str, dict] = {
    "wari": {"grand_slam": GrandSlam.FORBIDDEN},
    "oware": {"grand_slam": GrandSlam.NO_CAPTURE},
    "awari": {"grand_slam": GrandSlam.FORCED_ONLY, "stranded_seeds_to_opponent": True},
    "ouril": {"grand_slam": GrandSlam.CAPTURE_AND_REPLAY, "single_seed_rule": True},
    "kalah": {"stores_on_path": True},
}

#: Variant names, the default first.
VARIANTS: tuple[str, ...] = tuple(_VARIANT_FIELDS)
DEFAULT_VARIANT = "wari"

#: Kalah's board and seed counts may be chosen within these bounds (inclusive).
KALAH_HOUSES = range(1, 11)
KALAH_SEEDS = range(1, 11)


def rules_for(name: str = DEFAULT_VARIANT, houses: int | None = None, seeds: int | None = None) -> Rules:
    """Return the rules of variant ``name`` (any letter case).

    ``houses`` and ``seeds`` may only be changed for ``kalah`` (1..10 each); the other variants
    are played on the traditional 2x6 board with 4 seeds per house.

    :raises ValueError: for an unknown name or a parameter out of range; the message names the
        allowed values.
    """
    if not isinstance(name, str):
        raise ValueError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}")
    key = name.strip().lower()
    return Rules(key, 6 if houses is None else houses, 4 if seeds is None else seeds)
