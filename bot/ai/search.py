"""Search helpers shared by the searching players: game ends on raw states, from the mover's side."""

from __future__ import annotations

from bot.engine.core import Machine, State

#: Scores at or beyond this are proven results, not estimates.
WIN = 1000


def final_score(machine: Machine, final: State, mover: int) -> int:
    """A finished game's value for ``mover``: ±WIN plus the seed margin, 0 for a draw."""
    margin = final[machine.store[mover]] - final[machine.store[1 - mover]]
    if margin == 0:
        return 0
    return WIN + margin if margin > 0 else -WIN + margin


def ended(machine: Machine, state: State, path: set[State] | frozenset[State]) -> State | None:
    """The final state if the game is over at ``state`` (majority or repetition), else ``None``.

    The "no legal move" ending is left to the caller, who generates the moves anyway.
    """
    if machine.majority(state):
        return state
    if machine.rules.detects_cycles and state in path:
        return machine.share_rows(state)
    return None
