"""Tournaments without Discord: Swiss and round-robin pairings, arena pairing and scoring,
standings with tie-breaks, a crosstable for a phone, and the TRF16 report.

Everything here is computed from an event's :class:`Entrant` list and :class:`Pairing` list; the
storage, the service and the commands (``bot.storage``, ``bot.service``, ``cogs``) build on it.
Pairing is ``caissify-pairings``'s (FIDE Dutch Swiss, Berger tables, TRF16).
"""

from .model import BYE_POINTS, Entrant, Pairing, PairingError, starting_numbers, starting_order
from .swiss import pair_swiss

__all__ = [
    "BYE_POINTS",
    "Entrant",
    "Pairing",
    "PairingError",
    "pair_swiss",
    "starting_numbers",
    "starting_order",
]
