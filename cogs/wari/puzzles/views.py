"""How a puzzle shows itself: the board of a try with its cup buttons (the solver's side to move,
the goal in words, the moves so far told), its end (the refutation of a wrong move and the
solution, the rating change and the streak, **Next puzzle**), and a server's daily puzzle post
with **Try it**. Every message is drawn from the stored try, so any of them can be drawn again.

The buttons carry what they need in their custom ids (``wari:puzzle:<try>:<step>:<house>``) and
are handed to the feature with the kind ``puzzle`` and an action: they work after a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date

import discord

from bot.ai.puzzles import Puzzle
from bot.engine import Game, MoveRecord, Player
from bot.i18n import N_, _, labelled, n_
from bot.render import describe_move, houses_of
from bot.service.puzzles import Ended, Try, rating_of
from bot.storage import shown_name

from ..buttons import PersistentButton, read_day, read_house, read_number, read_variant
from ..presenter import Message
from ..views import BUTTONS_PER_ROW, LIVE_COLOUR, buttons_hint, cup_button, position_lines

PUZZLE_COLOUR = discord.Colour.purple()
SOLVED_COLOUR = discord.Colour.green()
FAILED_COLOUR = discord.Colour.red()
#: How many solvers a daily post names (a message holds 2,000 characters).
SOLVERS_SHOWN = 40

GOAL_WORDS = {
    "win": N_("Win the game by at least {seeds} seeds."),
    "draw": N_("Save the game: every other move loses."),
    "capture": N_("Capture at least {seeds} seeds."),
    "best": N_("Find the best move: every other one is at least {seeds} seeds worse."),
}
THEME_NAMES = {
    "extra_turn": N_("Extra turn"),
    "feeding": N_("Feeding"),
    "grand_slam": N_("Grand slam"),
    "starving": N_("Starving"),
    "multiple_capture": N_("Multiple capture"),
    "endgame": N_("Endgame"),
    "capture": N_("Capture"),
    "defense": N_("Defence"),
}


class PuzzleCupButton(PersistentButton, template=r"wari:puzzle:(?P<attempt>[0-9]+):(?P<step>[0-9]+):(?P<house>[0-9]+)"):
    """One cup of the solver, on the board of try ``attempt`` drawn after their move ``step``."""

    KIND, ACTION, BELONGS = "puzzle", ("move",), ("puzzle try", "attempt")
    FIELDS = {"attempt": read_number, "step": read_number, "house": read_house}

    def __init__(self, attempt: int, step: int, house: int, *, seeds: int = 0, legal: bool = True, row: int = 0):
        custom_id = f"wari:puzzle:{attempt}:{step}:{house}"
        super().__init__(cup_button(custom_id, house, seeds, legal, row), attempt, step, house)


class SolutionButton(PersistentButton, template=r"wari:puzzle:(?P<attempt>[0-9]+):(?P<step>[0-9]+):solution"):
    """Give up a try and see its solution: the try fails, and the label says so before the press
    (it costs puzzle rating points and the streak)."""

    KIND, ACTION, BELONGS = "puzzle", ("solution",), ("puzzle try", "attempt")
    FIELDS = {"attempt": read_number, "step": read_number}

    def __init__(self, attempt: int, step: int, *, row: int = 0) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Show the solution (counts as a miss)"),
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"wari:puzzle:{attempt}:{step}:solution",
                row=row,
            ),
            attempt,
            step,
        )


class NextPuzzleButton(PersistentButton, template=r"wari:puzzle:next:(?P<variant>[a-z]+)"):
    """A new puzzle of ``variant`` for whoever presses."""

    KIND, ACTION, BELONGS = "puzzle", ("next",), ("next puzzle", "variant")
    FIELDS = {"variant": read_variant}

    def __init__(self, variant: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Next puzzle"),
                emoji="🧩",
                style=discord.ButtonStyle.success,
                custom_id=f"wari:puzzle:next:{variant}",
            ),
            variant,
        )


class DailyTryButton(PersistentButton, template=r"wari:puzzle:daily:(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})"):
    """On a server's daily puzzle post: a private try at it for whoever presses."""

    KIND, ACTION, BELONGS = "puzzle", ("daily",), ("daily puzzle", "day")
    FIELDS = {"day": read_day}

    def __init__(self, day: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Try it"), emoji="🧩", style=discord.ButtonStyle.success, custom_id=f"wari:puzzle:daily:{day}"
            ),
            day,
        )


#: Every puzzle button that outlives the process.
BUTTONS = (PuzzleCupButton, SolutionButton, NextPuzzleButton, DailyTryButton)


# -- words ---------------------------------------------------------------------------------------


def goal_words(puzzle: Puzzle) -> str:
    """The goal, in the language of the moment, with the length of a line of several moves."""
    goal = _(GOAL_WORDS[puzzle.goal.kind], seeds=puzzle.goal.seeds)
    moves = len(puzzle.solver_moves())
    if moves > 1:
        goal += " " + n_("({count} move to find)", "({count} moves to find)", moves, count=moves)
    return goal


def theme_words(puzzle: Puzzle) -> str:
    return _(THEME_NAMES[puzzle.theme]) if puzzle.theme in THEME_NAMES else puzzle.theme


def side_names(puzzle: Puzzle, solver: str) -> tuple[str, str]:
    """The sides' names: the solver's and "Opponent"."""
    opponent = _("Opponent")
    return (solver, opponent) if puzzle.solver == 0 else (opponent, solver)


def in_words(
    game: Game, houses: Iterable[int], names: tuple[str, str], mark: Callable[[int, MoveRecord], str]
) -> list[str]:
    """The moves ``houses`` from ``game``, as far as they are legal, each as a board tells a move
    (its notation, then what it did in words) after its ``mark(number, move)``."""
    trial, lines = game.copy(), []
    for number, house in enumerate(houses):
        if not trial.is_legal(house):
            break
        record = trial.play(house)
        lines.append(f"{mark(number, record)} {describe_move(record, names[record.player], trial.rules)}")
    return lines


def told_moves(attempt: Try, names: tuple[str, str]) -> list[str]:
    """Every move of the try so far in words: ✅ the solver's right ones, ❌ a wrong one, ↪️ replies."""
    line, solver = attempt.line(), attempt.puzzle.solver
    last_wrong = len(line) - 1 if attempt.wrong is not None else -1

    def mark(number: int, move: MoveRecord) -> str:
        return "↪️" if move.player != solver else "❌" if number == last_wrong else "✅"

    return in_words(attempt.start(), line, names, mark)


def told_line(
    label: str, game: Game, houses: Iterable[int], names: tuple[str, str], solver: int, mark: str
) -> list[str]:
    """``label``, then the line ``houses`` from ``game`` in words: the moves of the ``solver``'s
    side marked ``mark``, the opponent's ↪️ (``label: —`` if there is no move to tell)."""
    words = in_words(game, houses, names, lambda _number, move: mark if move.player == solver else "↪️")
    return [labelled(label, "").rstrip(), *words] if words else [labelled(label, "—")]


def status_line(attempt: Try, solver: str) -> str:
    """The line above the board: whose move it is, or how the try ended."""
    game = attempt.game()
    side = Player(attempt.puzzle.solver)
    if attempt.row.status == "solved":
        return _("🎉 **{name}** solved the puzzle!", name=solver)
    if attempt.row.status == "failed":
        return _("❌ **{name}** did not solve the puzzle.", name=solver)
    houses = houses_of(game.rules, side)
    if attempt.step:
        return _(
            "✅ Right! **{name}**, your move again as **{side}** (houses {houses}).",
            name=solver,
            side=side.name,
            houses=houses,
        )
    return _(
        "🧩 **{name}**, you play **{side}** (houses {houses}). Your move!", name=solver, side=side.name, houses=houses
    )


def ending_lines(
    attempt: Try, names: tuple[str, str], ended: Ended | None, refutation: tuple[int, ...] | None
) -> list[str]:
    """After the end: the refutation of a wrong move and the solution, told move by move as a
    board tells its moves; the rating and the streak; the theme."""
    puzzle, lines = attempt.puzzle, []
    if attempt.wrong is not None and refutation is not None:
        lines += told_line(_("**Refutation**"), attempt.game(), refutation, names, puzzle.solver, "▫️")
    lines += told_line(_("**Solution**"), puzzle.game(), puzzle.solution, names, puzzle.solver, "💡")
    lines += standing_lines(attempt, ended)
    lines.append(
        _("🏷️ Theme: **{theme}** · puzzle rated **{rating}**", theme=theme_words(puzzle), rating=puzzle.difficulty)
    )
    return lines


def standing_lines(attempt: Try, ended: Ended | None) -> list[str]:
    """The rating change (or why there is none) and the streak, when the try has just ended."""
    lines = []
    if attempt.row.daily is not None:
        lines.append(_("📅 The daily puzzle does not change your rating; it counts for your streak."))
    if ended is None:
        return lines
    if ended.rated:
        before, after = rating_of(ended.before), rating_of(ended.after)
        delta = f"{after.points - before.points:+d}"
        lines.append(_("📈 **Puzzle rating:** {before} → {after} ({delta})", before=before, after=after, delta=delta))
    lines.append(_("🔥 **Streak:** {streak} (best {best})", streak=ended.after.streak, best=ended.after.best_streak))
    return lines


# -- messages ------------------------------------------------------------------------------------


def puzzle_view(attempt: Try) -> discord.ui.View:
    """The solver's cups (illegal ones disabled) and **Show the solution** while the try is open;
    **Next puzzle** once it is over."""
    view = discord.ui.View(timeout=None)
    if not attempt.row.open:
        view.add_item(NextPuzzleButton(attempt.puzzle.variant))
        return view
    game = attempt.game()
    n = game.rules.houses
    side = attempt.puzzle.solver
    houses = list(range(1 + n * side, n * (side + 1) + 1))
    if side == Player.B:
        houses.reverse()  # B's row is drawn right to left: keep the buttons in board order
    per_row = n if n <= BUTTONS_PER_ROW else -(-n // 2)
    legal = set(game.legal_moves)
    for index, house in enumerate(houses):
        seeds = game.board[house - 1]
        cup = PuzzleCupButton(
            attempt.row.id, attempt.step, house, seeds=seeds, legal=house in legal, row=index // per_row
        )
        view.add_item(cup)
    view.add_item(SolutionButton(attempt.row.id, attempt.step, row=-(-n // per_row)))
    return view


def puzzle_embed(
    attempt: Try, solver: str, ended: Ended | None = None, refutation: tuple[int, ...] | None = None
) -> discord.Embed:
    puzzle, row = attempt.puzzle, attempt.row
    game = attempt.game()
    names = side_names(puzzle, solver)
    lines = [labelled(_("🎯 **Goal**"), goal_words(puzzle)), *position_lines(game, names)]
    if row.open:
        lines.append(buttons_hint())
    lines += told_moves(attempt, names)
    if not row.open:
        lines += ending_lines(attempt, names, ended, refutation)
    title = _("🧩 {variant} puzzle", variant=game.rules.label.capitalize())
    if row.daily is not None:
        title = _("🧩 Daily puzzle · {day}", day=row.daily)
    colour = PUZZLE_COLOUR if row.open else SOLVED_COLOUR if row.status == "solved" else FAILED_COLOUR
    embed = discord.Embed(title=title, description="\n".join(lines)[:4000], colour=colour)
    embed.set_footer(text=_("Puzzle {id}", id=puzzle.id))
    return embed


def puzzle_message(
    attempt: Try, solver: str, ended: Ended | None = None, refutation: tuple[int, ...] | None = None
) -> Message:
    """A try's board: open with its buttons, or over with its solution and what it changed."""
    return Message(
        content=status_line(attempt, solver),
        embeds=[puzzle_embed(attempt, solver, ended, refutation)],
        view=puzzle_view(attempt),
    )


def solvers_line(solvers: list[tuple[int, str | None]], tried: int) -> str:
    """Who solved the daily puzzle at their one try, by the names they had when they began (as
    text that can do nothing else), and how many tried."""
    if not tried:
        return _("Nobody has tried it yet.")
    named = ", ".join(shown_name(user, name) for user, name in solvers[:SOLVERS_SHOWN])
    if len(solvers) > SOLVERS_SHOWN:
        named += " " + _("and {count} more", count=len(solvers) - SOLVERS_SHOWN)
    counts = _("{solved} of {tried} solved it", solved=len(solvers), tried=tried)
    if not solvers:
        return _("Solved first try: nobody yet ({counts}).", counts=counts)
    return _("Solved first try: {names} ({counts}).", names=named, counts=counts)


def daily_message(puzzle: Puzzle, day: date, solvers: list[tuple[int, str | None]], tried: int) -> Message:
    """A server's daily puzzle post: the position and the goal, who solved it, and **Try it**."""
    game: Game = puzzle.game()
    side = Player(puzzle.solver)
    names = side_names(puzzle, _("You"))
    lines = [
        labelled(_("🎯 **Goal**"), goal_words(puzzle)),
        _("You play **{side}** (houses {houses}).", side=side.name, houses=houses_of(game.rules, side)),
        *position_lines(game, names),
        _("Press **Try it**: your try is private, and each member has one. It counts for your streak."),
    ]
    embed = discord.Embed(
        title=_("🧩 Daily puzzle · {day}", day=day.isoformat()), description="\n".join(lines), colour=LIVE_COLOUR
    )
    embed.set_footer(text=_("Puzzle {id}", id=puzzle.id))
    view = discord.ui.View(timeout=None)
    view.add_item(DailyTryButton(day.isoformat()))
    content = _("🧩 **The puzzle of the day** is here.") + "\n" + solvers_line(solvers, tried)
    return Message(content=content, embeds=[embed], view=view)
