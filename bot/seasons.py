"""Seasons: a server's rated play grouped in periods of the calendar (UTC), each with its own
leaderboard and podium.

A season is a week (from Monday), a month or a quarter (January, April, July, October), as the
server chose (:data:`SEASON_LENGTHS`, a month unless a moderator changed it). A season begins
with the first rated game of its period, never before the end of the one before it: a length
changed in the middle of a season lets that season end as planned, the next takes the new length.

A season ranks its players by the rating points they gained in it, in the server's rated games:
ratings are one per player across every server and all time, so the rating at the season's end
would mostly repeat the all-time leaderboard; the points gained start from nothing each season,
count only what was played here, and reward a good month of a newer player as much as of an
old hand.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

#: How long a server's seasons last; the first is the default.
SEASON_LENGTHS = ("monthly", "weekly", "quarterly")
DEFAULT_SEASON_LENGTH = SEASON_LENGTHS[0]
#: The medals of a podium, first to third.
MEDALS = ("🥇", "🥈", "🥉")


def _month_start(moment: datetime, months: int) -> datetime:
    """The first instant of the period of ``months`` months (counted from January) holding ``moment``."""
    month = (moment.month - 1) // months * months + 1
    return datetime(moment.year, month, 1, tzinfo=UTC)


def _add_months(start: datetime, months: int) -> datetime:
    total = start.month - 1 + months
    return start.replace(year=start.year + total // 12, month=total % 12 + 1)


def period_of(moment: datetime, length: str) -> tuple[datetime, datetime]:
    """The calendar period of ``length`` holding ``moment``: its first instant and the first after it.

    >>> [d.date().isoformat() for d in period_of(datetime(2026, 1, 1, 15, tzinfo=UTC), "weekly")]
    ['2025-12-29', '2026-01-05']
    >>> [d.date().isoformat() for d in period_of(datetime(2026, 5, 31, tzinfo=UTC), "quarterly")]
    ['2026-04-01', '2026-07-01']
    """
    moment = moment.astimezone(UTC)
    if length == "weekly":
        day = datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    if length not in SEASON_LENGTHS:
        raise ValueError(f"a season is one of {SEASON_LENGTHS}, not {length!r}")
    months = 3 if length == "quarterly" else 1
    start = _month_start(moment, months)
    return start, _add_months(start, months)


def season_bounds(moment: datetime, length: str, previous_end: datetime | None) -> tuple[datetime, datetime]:
    """The season a rated game at ``moment`` opens: its period of ``length``, begun no earlier
    than the end of the server's season before (``previous_end``), so that seasons never overlap."""
    start, end = period_of(moment, length)
    if previous_end is not None and previous_end > start:
        start = previous_end
    return start, end
