"""Text for people: the board drawing, moves in words, results and the rules of each variant.

Plain strings only (Discord markdown at most), so the terminal game can use them too.

>>> from bot.engine import Game
>>> print(board_text(Game("wari")))
       12   11   10    9    8    7
┌────┬────┬────┬────┬────┬────┬────┬────┐
│    │  4 │  4 │  4 │  4 │  4 │  4 │    │
│  0 ├────┼────┼────┼────┼────┼────┤  0 │
│    │  4 │  4 │  4 │  4 │  4 │  4 │    │
└────┴────┴────┴────┴────┴────┴────┴────┘
        1    2    3    4    5    6
"""

from __future__ import annotations

from .engine import Game, MoveRecord, Outcome, Player, Rules, Termination


def board_text(game: Game) -> str:
    """The board as seen from A's side: B's row on top (right to left), A's row below.

    B's prisoners (Kalah: store) are the cup on the left, A's on the right, as on a real board.
    """
    n = game.rules.houses
    board, (store_a, store_b) = game.board, game.scores
    width = max(len(str(x)) for x in (*board, store_a, store_b, 2 * n)) + 2
    top = list(reversed(board[n:]))
    bottom = list(board[:n])

    def cell(value: object) -> str:
        return str(value).rjust(width - 1) + " "

    def cells(values: list) -> str:
        return "│".join(map(cell, values))

    def rule(left: str, middle: str, right: str) -> str:
        return left + middle.join(["─" * width] * (n + 2)) + right

    def labels(houses: range) -> str:
        return (" " * (width + 2) + " ".join(map(cell, houses))).rstrip()

    blank = " " * width
    middle = f"{cell(store_b)}├{'┼'.join(['─' * width] * n)}┤{cell(store_a)}"
    return "\n".join(
        [
            labels(range(2 * n, n, -1)),
            rule("┌", "┬", "┐"),
            f"│{blank}│{cells(top)}│{blank}│",
            f"│{middle}│",
            f"│{blank}│{cells(bottom)}│{blank}│",
            rule("└", "┴", "┘"),
            labels(range(1, n + 1)),
        ]
    )


def houses_of(rules: Rules, player: Player) -> str:
    first = 1 + rules.houses * player
    return f"{first}–{first + rules.houses - 1}"


_ENDING_WORDS = {
    Termination.SURRENDER: "{name} surrendered.",
    Termination.TIME: "{name} ran out of time.",
    Termination.AGREEMENT: "Both players agreed to a draw.",
}


def describe_move(move: MoveRecord, name: str, rules: Rules) -> str:
    """``A(5,4)`` plus what it did, in words; a ply that ends the game without sowing, in words only.

    ``name`` is the name of ``move.player``.

    >>> from bot.engine import Game
    >>> game = Game("wari")
    >>> describe_move(game.play(5), "Ama", game.rules)
    '`A(5,4)` Ama sowed 4 seeds from house 5.'
    >>> describe_move(game.time_out(), "Kofi", game.rules)
    'Kofi ran out of time.'
    """
    if move.ending is not None:
        return _ENDING_WORDS[move.ending].format(name=name)
    parts = [f"`{move}` {name} sowed {move.seeds} seed{'s' if move.seeds != 1 else ''} from house {move.house}"]
    if move.captures:
        houses = ", ".join(str(house) for house, _ in move.captures)
        parts.append(f"and captured {move.captured} from house{'s' if len(move.captures) > 1 else ''} {houses}")
    elif move.grand_slam:
        parts.append("(a grand slam: it captures nothing)")
    text = " ".join(parts) + "."
    if move.extra_turn:
        text += " Extra turn!" if rules.stores_on_path else " Grand slam! An extra move follows."
    return text


REASONS = {
    Termination.MAJORITY: "more than half of the seeds captured",
    Termination.NO_LEGAL_MOVE: "no legal move left; the remaining seeds were shared out",
    Termination.CYCLE: "the position repeated; each player took the seeds on their side",
    Termination.SURRENDER: "surrender",
    Termination.TIME: "on time",
    Termination.AGREEMENT: "agreed by both players",
}


def result_text(outcome: Outcome, names: tuple[str, str]) -> str:
    """Who won (or a draw), the score and why.

    >>> result_text(Outcome(Player.B, (3, 1), Termination.TIME), ("Ama", "Bob"))
    'Bob wins, 3–1 (on time).'
    >>> result_text(Outcome(None, (3, 1), Termination.AGREEMENT), ("Ama", "Bob"))
    'Draw, 3–1 (agreed by both players).'
    """
    a, b = outcome.scores
    score = f"{a}–{b}"
    if outcome.winner is None:
        return f"Draw, {score} ({REASONS[outcome.termination]})."
    return f"{names[outcome.winner]} wins, {score} ({REASONS[outcome.termination]})."


_COMMON = (
    "**Board.** Two rows of {n} houses with {s} seeds each; A owns houses 1–{n} (bottom row), B owns "
    "{n1}–{n2} (top row). Sowing runs anticlockwise: 1, 2, …, {n2}, then 1 again.\n"
    "**Move.** Press one of your non-empty houses: its seeds are sown one by one into the following "
    "houses."
)
_CAPTURE = (
    " A house of 12 or more seeds goes all the way round, skipping the house it was emptied from.\n"
    "**Capture.** If your last seed lands in an opponent's house and makes it exactly 2 or 3, you take "
    "those seeds, then the house before it while it is the opponent's and holds 2 or 3, and so on.\n"
)
RULES_TEXT = {
    "wari": _CAPTURE
    + "**Feeding.** Your move must leave your opponent at least one seed: you may not capture all of "
    "them, and if their row is empty you must sow into it. If you cannot, you take the seeds in your "
    "row and the game ends.\n",
    "oware": _CAPTURE
    + "**Grand slam.** A move that would capture every seed of your opponent is allowed but captures "
    "nothing.\n**Feeding.** If your opponent's row is empty you must sow into it; if no move does, you "
    "take the seeds in your row and the game ends.\n",
    "awari": _CAPTURE
    + "**Feeding.** A move that leaves your opponent without seeds is allowed only when every move "
    "does; then a grand slam captures normally. A player with no seed at their turn loses the "
    "remaining seeds to the opponent and the game ends.\n",
    "ouril": _CAPTURE
    + "**Single seeds.** A house holding one seed may be played only when none of your houses holds "
    "more.\n**Grand slam.** Capturing every seed of your opponent is allowed, and you move again at "
    "once: that extra move must leave them a seed (if none can, the game ends).\n**Feeding.** If your "
    "opponent's row is empty you must sow into it.\n",
    "kalah": "\n**Stores.** Each player's store lies right of their row, on the sowing path (the "
    "opponent's store is skipped). A last seed in your own store gives you another turn.\n"
    "**Capture.** A last seed in an empty house of your own row takes itself and the seeds of the "
    "house opposite into your store.\n**End.** When the player to move has no seed, the opponent "
    "moves the seeds of their own row into their own store.\n",
}
_ENDING = {
    "kalah": "**Winning.** More than half of all seeds in your store wins at once; otherwise the larger store wins.",
    None: "**Winning.** More than half of the seeds ({half}+) wins at once. A repeated position ends the "
    "game and each player takes the seeds on their side. Otherwise the most prisoners wins; equal is a draw.",
}


def rules_text(rules: Rules) -> str:
    """The rules of ``rules``'s variant in a few readable paragraphs (Discord markdown)."""
    n, s = rules.houses, rules.seeds
    ending = _ENDING.get(rules.name, _ENDING[None])
    body = _COMMON + RULES_TEXT[rules.name] + ending
    return body.format(n=n, s=s, n1=n + 1, n2=2 * n, half=rules.total_seeds // 2 + 1)
