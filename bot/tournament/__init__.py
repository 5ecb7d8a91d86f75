"""Tournaments without Discord: Swiss and round-robin pairings, arena pairing and scoring,
team battles' scores, standings with tie-breaks, a crosstable for a phone, and the TRF16 report.

Everything here is computed from an event's :class:`Entrant` list and :class:`Pairing` list; the
storage, the service and the commands (``bot.storage``, ``bot.service``, ``cogs``) build on it.
Pairing is ``caissify-pairings``'s (FIDE Dutch Swiss, Berger tables, TRF16).
"""

from .arena import arena_pairs, arena_points, arena_scores
from .crosstable import crosstable_text
from .model import BYE_POINTS, Entrant, Pairing, PairingError, starting_numbers, starting_order
from .round_robin import round_robin_rounds
from .standings import (
    ARENA_TIEBREAKS,
    SWISS_TIEBREAKS,
    Lead,
    Standing,
    arena_standings,
    swiss_standings,
    tiebreak_leads,
)
from .swiss import fewest_players, most_rounds, pair_swiss
from .teams import DEFAULT_LEADERS, MAX_TEAMS, MIN_TEAMS, Team, TeamStanding, team_standings
from .trf import tournament_trf

__all__ = [
    "ARENA_TIEBREAKS",
    "BYE_POINTS",
    "DEFAULT_LEADERS",
    "MAX_TEAMS",
    "MIN_TEAMS",
    "arena_pairs",
    "arena_points",
    "arena_scores",
    "arena_standings",
    "crosstable_text",
    "Entrant",
    "Pairing",
    "PairingError",
    "SWISS_TIEBREAKS",
    "Standing",
    "Lead",
    "fewest_players",
    "most_rounds",
    "pair_swiss",
    "round_robin_rounds",
    "starting_numbers",
    "starting_order",
    "swiss_standings",
    "Team",
    "TeamStanding",
    "team_standings",
    "tiebreak_leads",
    "tournament_trf",
]
