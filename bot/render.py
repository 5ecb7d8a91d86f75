"""Text for people: the board drawing, moves in words, results and the rules of each variant.

Plain strings only (Discord markdown at most), so the terminal game can use them too.

>>> from bot.engine import Game
>>> print(board_text(Game("wari")))
 12 11 10  9  8  7
───────────────────
  4  4  4  4  4  4
0 ─────────────── 0
  4  4  4  4  4  4
───────────────────
  1  2  3  4  5  6

The house the last move was sown from is marked ›, as the picture board rings it:

>>> game = Game("wari")
>>> _ = game.play(3)
>>> print(board_text(game))
 12 11 10  9  8  7
───────────────────
  4  4  4  4  4  5
0 ─────────────── 0
  4  4 ›0  5  5  5
───────────────────
  1  2  3  4  5  6
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import N_, _, n_

from .engine import Game, MoveRecord, Outcome, Player, Rules, Termination

#: The widest code block that fits a Discord embed on a 360-pixel phone screen without sideways
#: scrolling, in monospace columns, as measured in a real browser by the sandbox test (26 fit at
#: 360 px, 29 at 390): what tables in embeds (a tournament's crosstable) keep within.
PHONE_COLUMNS = 26
#: The widest drawing that fits a board's container (a Components V2 message, whose text is
#: message-sized: larger than an embed's) on a 360-pixel phone screen, measured the same way
#: (22 fit at 360 px); a board with more houses is drawn upright.
BOARD_COLUMNS = 22


def board_text(game: Game, columns: int = BOARD_COLUMNS) -> str:
    """The board as seen from A's side, as narrow as it can be read: across (B's row on top, read
    right to left; A's row below) when a board of these rules always fits in ``columns`` that
    way, else upright (:func:`upright_text`). The choice depends on the rules alone, so a board
    keeps its shape for the whole game.

    B's prisoners (Kalah: store) are on the left, A's on the right, as on a real board; the house
    the last move was sown from is marked :data:`PLAYED_MARK`.
    """
    return across_text(game) if across_width(game.rules) <= columns else upright_text(game)


def width_of(drawing: str) -> int:
    """The width of a drawing in monospace columns (every character it uses is one column wide)."""
    return max(map(len, drawing.splitlines()))


def _cell(rules: Rules) -> int:
    """Columns for a number in a house or a store: room for every seed of the game in one cup."""
    return max(2, len(str(rules.total_seeds)), len(str(2 * rules.houses)))


def _across_width(rules: Rules, gap: int) -> int:
    """The row of houses (``gap`` spaces before each house's number, one after the last), which
    the stores' line spans too; a row too short for both stores and a bit of line between them
    (Kalah with one house) is as wide as that line."""
    w = _cell(rules)
    return max(rules.houses * (gap + w) + 1, 2 * w + 3)


def _gap(rules: Rules) -> int:
    """Spaces before each house's number when the board lies across: two where the board still
    fits a phone so (Kalah with up to 5 houses), else one. The rows have no bars between houses:
    with them, six houses would not fit a phone unless numbers touched the bars."""
    return 2 if _across_width(rules, 2) <= BOARD_COLUMNS else 1


def across_width(rules: Rules) -> int:
    """The width of :func:`across_text` for ``rules``: its row of houses."""
    return _across_width(rules, _gap(rules))


def _played(game: Game) -> int | None:
    """The house (0-based) the last move was sown from, if the last ply sowed."""
    last = game.last_move
    return last.house - 1 if last is not None and last.sows else None


#: What marks the number of the house the last move was sown from (the picture rings it): one
#: narrow column, the space before the number; a bracket after it would touch a two-digit neighbour.
PLAYED_MARK = "›"


def _mark(cell: str) -> str:
    """``cell`` (a number right-aligned after at least one space) with the played mark before its number."""
    number = cell.lstrip()
    return cell[: len(cell) - len(number) - 1] + PLAYED_MARK + number


def across_text(game: Game) -> str:
    """The board lying across: B's row on top from house 2n down to n+1, A's row below from 1 to n,
    the stores at the ends of the line between them (B's on the left, A's on the right), within
    the rows' width: a store out beside the rows would widen the board by a quarter.

    >>> from bot.engine import rules_for
    >>> print(across_text(Game(rules_for("kalah", 3, 4))))
       6   5   4
    ─────────────
       4   4   4
    0 ───────── 0
       4   4   4
    ─────────────
       1   2   3
    """
    n = game.rules.houses
    board, (store_a, store_b) = game.board, game.scores
    w = _cell(game.rules)
    gap = " " * _gap(game.rules)
    played = _played(game)

    def cell(house: int) -> str:
        text = f"{gap}{str(board[house]).rjust(w)}"
        return _mark(text) if house == played else text

    def row(houses: range) -> str:
        return "".join(map(cell, houses))

    def labels(houses: Iterable[int]) -> str:
        return "".join(f"{gap}{str(house).rjust(w)}" for house in houses)

    width = across_width(game.rules)
    rule = "─" * width
    stores = f"{store_b} {'─' * (width - len(str(store_a)) - len(str(store_b)) - 2)} {store_a}"
    return "\n".join(
        [
            labels(range(2 * n, n, -1)),
            rule,
            row(range(2 * n - 1, n - 1, -1)),
            stores,
            row(range(n)),
            rule,
            labels(range(1, n + 1)),
        ]
    )


def upright_text(game: Game) -> str:
    """The board turned a quarter to the right, for boards too wide to lie across a phone: A's
    houses down the left column (1 to n), B's up the right one (n+1 to 2n), B's store on top and
    A's below, so that sowing still runs anticlockwise. Every number has a space on each side
    inside its house (at most 19 columns, with 10 houses); the house the last move was sown from
    is marked :data:`PLAYED_MARK`.

    >>> from bot.engine import rules_for
    >>> print(upright_text(Game(rules_for("kalah", 2, 3))))
       B 0
      ┌────┬────┐
    1 │  3 │  3 │ 4
    2 │  3 │  3 │ 3
      └────┴────┘
       A 0
    """
    n = game.rules.houses
    board, (store_a, store_b) = game.board, game.scores
    w = _cell(game.rules)
    lw = len(str(2 * n))
    pad = " " * (lw + 1)
    played = _played(game)

    def cell(house: int) -> str:
        text = f" {str(board[house]).rjust(w)} "
        return _mark(text[:-1]) + " " if house == played else text

    line = "─" * (w + 2)
    lines = [f"{pad} B {store_b}", f"{pad}┌{line}┬{line}┐"]
    for k in range(1, n + 1):
        lines.append(f"{str(k).rjust(lw)} │{cell(k - 1)}│{cell(2 * n - k)}│ {2 * n + 1 - k}")
    lines += [f"{pad}└{line}┴{line}┘", f"{pad} A {store_a}"]
    return "\n".join(lines)


def houses_of(rules: Rules, player: Player) -> str:
    first = 1 + rules.houses * player
    return f"{first}–{first + rules.houses - 1}"


_ENDING_WORDS = {
    Termination.SURRENDER: N_("{name} surrendered."),
    Termination.TIME: N_("{name} ran out of time."),
    Termination.AGREEMENT: N_("Both players agreed to a draw."),
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
        return _(_ENDING_WORDS[move.ending], name=name)
    sowed = n_(
        "{name} sowed {count} seed from house {house}",
        "{name} sowed {count} seeds from house {house}",
        move.seeds,
        name=name,
        count=move.seeds,
        house=move.house,
    )
    parts = [f"`{move}`", sowed]
    if move.captures:
        houses = ", ".join(str(house) for house, _seeds in move.captures)
        parts.append(
            n_(
                "and captured {count} from house {houses}",
                "and captured {count} from houses {houses}",
                len(move.captures),
                count=move.captured,
                houses=houses,
            )
        )
    elif move.grand_slam:
        parts.append(_("(a grand slam: it captures nothing)"))
    text = " ".join(parts) + "."
    if move.extra_turn:
        text += " " + (_("Extra turn!") if rules.stores_on_path else _("Grand slam! An extra move follows."))
    return text


REASONS = {
    Termination.MAJORITY: N_("more than half of the seeds captured"),
    Termination.NO_LEGAL_MOVE: N_("no legal move left; the remaining seeds were shared out"),
    Termination.CYCLE: N_("the position repeated; each player took the seeds on their side"),
    Termination.SURRENDER: N_("surrender"),
    Termination.TIME: N_("on time"),
    Termination.AGREEMENT: N_("agreed by both players"),
}


#: How a game won away from the board reads (the loser gave up, or their clock ran out).
_AWAY_FROM_THE_BOARD = {
    Termination.SURRENDER: N_("{name} wins: {loser} surrendered (score {mine}–{theirs})."),
    Termination.TIME: N_("{name} wins on time: {loser} ran out (score {mine}–{theirs})."),
}


def result_text(outcome: Outcome, names: tuple[str, str]) -> str:
    """Who won (or a draw), the score (the winner's first) and why. A game that ended away from
    the board (a surrender, a clock, an agreement) says so first: its score decided nothing.

    >>> result_text(Outcome(Player.A, (25, 11), Termination.MAJORITY), ("Ama", "Kofi"))
    'Ama wins 25–11 (more than half of the seeds captured).'
    >>> result_text(Outcome(Player.B, (1, 3), Termination.TIME), ("Ama", "Kofi"))
    'Kofi wins on time: Ama ran out (score 3–1).'
    >>> result_text(Outcome(Player.A, (0, 0), Termination.SURRENDER), ("Ama", "Kofi"))
    'Ama wins: Kofi surrendered (score 0–0).'
    >>> result_text(Outcome(None, (3, 1), Termination.AGREEMENT), ("Ama", "Kofi"))
    'Draw by agreement (score 3–1).'
    """
    a, b = outcome.scores
    why = _(REASONS[outcome.termination])
    winner = outcome.winner
    if outcome.termination is Termination.AGREEMENT:
        return _("Draw by agreement (score {a}–{b}).", a=a, b=b)
    if winner is not None and outcome.termination in _AWAY_FROM_THE_BOARD:
        mine, theirs = (a, b) if winner is Player.A else (b, a)
        return _(
            _AWAY_FROM_THE_BOARD[outcome.termination],
            name=names[winner],
            loser=names[winner.other],
            mine=mine,
            theirs=theirs,
        )
    if outcome.winner is None:
        return _("Draw, {a}–{b} ({why}).", a=a, b=b, why=why)
    mine, theirs = (a, b) if outcome.winner is Player.A else (b, a)
    return _("{name} wins {mine}–{theirs} ({why}).", name=names[outcome.winner], mine=mine, theirs=theirs, why=why)


_COMMON = N_(
    "**Board.** Two rows of {n} houses with {seeds_each}. A owns houses 1–{n}, B owns {n1}–{n2}: "
    "the numbers follow the way seeds travel, anticlockwise ({path}).\n"
    "**Move.** Press the button of one of your houses (the ones you may not play are greyed out): its "
    "seeds are taken out and sown one by one into the houses that follow."
)
_CAPTURE = N_(
    " A house of 12 or more seeds goes all the way round, skipping the house it was emptied from.\n"
    "**Capture.** If your last seed lands in an opponent's house and makes it exactly 2 or 3, you take "
    "those seeds as your **prisoners**; so too the house before it while it is the opponent's and holds "
    "2 or 3, and so on. Prisoners leave the board: they are your score.\n"
)
#: Who takes the seeds still on the board when a capture game stops without a majority.
_OWN_ROWS = N_("each player takes the seeds in their own row as prisoners")
#: Each variant's own rules after the common part: the capture games share :data:`_CAPTURE`.
RULES_TEXT = {
    "wari": (
        _CAPTURE,
        N_(
            "**Feeding.** Your move must leave your opponent at least one seed: you may not capture all of "
            "them, and if their row is empty you must sow into it. When no move can, the game ends and {own_rows}.\n"
        ),
    ),
    "oware": (
        _CAPTURE,
        N_(
            "**Grand slam.** A move that would capture every seed of your opponent is allowed but captures "
            "nothing.\n**Feeding.** If your opponent's row is empty you must sow into it; when no move can, the "
            "game ends and {own_rows}.\n"
        ),
    ),
    "awari": (
        _CAPTURE,
        N_(
            "**Feeding.** A move that leaves your opponent without seeds is allowed only when every move "
            "does; then a grand slam captures normally. A player with no seed at their turn cannot move: the "
            "opponent takes the seeds left and the game ends.\n"
        ),
    ),
    "ouril": (
        _CAPTURE,
        N_(
            "**Single seeds.** A house holding one seed may be played only when none of your houses holds "
            "more; this comes before everything else.\n**Feeding.** If your opponent's row is empty you must "
            "sow into it.\n**Grand slam.** Capturing every seed of your opponent is allowed, and you move again "
            "at once: that extra move must leave them a seed.\n"
            "When the player to move has no legal move, the game ends and {own_rows}.\n"
        ),
    ),
    "kalah": (
        N_(
            "\n**Stores.** Each player has a store at the end of their row, on the sowing path: A's is "
            "drawn on the right (below, when the board stands upright), B's on the left (on top). You sow into "
            "your own store, never into your opponent's, and the emptied house is not skipped. A last seed in "
            "your own store gives you another turn.\n"
            "**Capture.** A last seed in an empty house of your own row takes itself and the seeds of the "
            "house opposite into your store.\n**End.** When the player to move has no seed, the opponent "
            "moves the seeds of their own row into their own store.\n"
        ),
    ),
}
_ENDING = {
    "kalah": N_(
        "**Winning.** More than half of all seeds in your store ({half} or more) wins at once; "
        "otherwise, at the end, the larger store wins, and equal stores are a draw."
    ),
    None: N_(
        "**Winning.** More than half of the seeds as prisoners ({half} or more) wins at once. A "
        "repeated position ends the game, and each player takes the seeds on their side. Otherwise, at the "
        "end, the player with more prisoners wins; equal numbers are a draw."
    ),
}


def rules_text(rules: Rules) -> str:
    """The rules of ``rules``'s variant in a few readable paragraphs (Discord markdown)."""
    n, s = rules.houses, rules.seeds
    pieces = (_COMMON, *RULES_TEXT[rules.name], _ENDING.get(rules.name, _ENDING[None]))
    body = "".join(map(_, pieces))  # each piece translated whole, then the numbers filled in
    if rules.stores_on_path:
        path = _("1 … {n}, A's store, {n1} … {n2}, B's store", n=n, n1=n + 1, n2=2 * n)
    else:
        path = _("1 … {n2}, then 1 again", n2=2 * n)
    seeds_each = n_("{count} seed each", "{count} seeds each", s, count=s)
    return body.format(
        n=n,
        seeds_each=seeds_each,
        n1=n + 1,
        n2=2 * n,
        half=rules.total_seeds // 2 + 1,
        path=path,
        own_rows=_(_OWN_ROWS),
    )
