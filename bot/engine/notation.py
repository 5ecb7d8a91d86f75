"""Text forms that are stored and exchanged: the position string and the game record.

Both start with a format version so that stored games stay readable when the format grows.

Position string (like chess's FEN): variant, houses 1..2n, scores, player to move; a ``!``
after the player marks an Ouril extra move owed after a grand slam::

    w1 wari 5,1,6,6,0,6,0,6,6,5,5,0 0:2 A
    w1 kalah/4x3 3,3,3,3,3,3,3,3 0:0 B

Game record (like chess's PGN): tag lines whose values are JSON strings, a blank line, then
the moves in notation. A game that did not start from the opening has a ``Position`` tag::

    [Format "wari-record/1"]
    [Variant "wari"]
    [First "A"]
    [PlayerA "Ama"]
    [PlayerB "Kofi"]
    [Result "*"]
    [Reason ""]

    A(5,4) B(7,5) A(2,4) B(12,5)+2

A move is written ``A(house,seeds)``, with ``+captured`` when it captures. A last ply may end the
game without sowing: ``A(surrender)`` (that player gave up, at any turn), ``B(time)`` (B, to move,
ran out of time) or ``A(agreement)`` (a draw both agreed to; A was to move). The Result and Reason
tags then say ``"B"``/``"surrender"``, ``"A"``/``"time"`` or ``"draw"``/``"agreement"``.

Reading a record replays every move and checks its notation (seeds lifted and captured), so a
record that does not describe a legal game is refused with the first move that disagrees.
More tags may follow the engine's own (``record(..., tags=...)``: the bot's downloaded records add
the event, dates, clock and player ids); ``docs/record-format.md`` is the full specification.
"""

from __future__ import annotations

import json
import re

from .core import machine_for
from .game import Game, IllegalMoveError, MoveRecord, Outcome, Player, Termination
from .rules import GrandSlam, Rules, rules_for

__all__ = [
    "POSITION_VERSION",
    "RECORD_FORMAT",
    "NotationError",
    "from_position",
    "from_record",
    "parse_rules_code",
    "position",
    "record",
    "resume",
    "rules_code",
    "snapshot",
    "taken_up",
]

POSITION_VERSION = "w1"
RECORD_FORMAT = "wari-record/1"
#: The format of :func:`snapshot`, the stored state that spares a replay.
SNAPSHOT_FORMAT = "wari-snapshot/1"

#: A record's tag value as JSON writes it (a JSON string, the name's own letters unescaped); one
#: encoder for every record, rather than one a tag (what ``json.dumps`` with an option makes).
_tag_value = json.JSONEncoder(ensure_ascii=False).encode
#: A snapshot as JSON writes it, without spaces.
_compact = json.JSONEncoder(separators=(",", ":")).encode

_MOVE = re.compile(r"^([AB])\((\d+),(\d+)\)(?:\+(\d+))?$|^([AB])\((surrender|time|agreement)\)$")
_TAG = re.compile(r'^\[(\w+) ("(?:[^"\\]|\\.)*")\]$')


class NotationError(ValueError):
    """A position string or a record that cannot be read; the message says where."""


def rules_code(rules: Rules) -> str:
    """The variant as written in positions and records: ``oware``, ``kalah/4x3``."""
    return rules.name if (rules.houses, rules.seeds) == (6, 4) else f"{rules.name}/{rules.houses}x{rules.seeds}"


def parse_rules_code(text: str) -> Rules:
    """The :class:`Rules` a :func:`rules_code` names; :class:`NotationError` if none."""
    name, _, size = text.partition("/")
    try:
        if not size:
            return rules_for(name)
        houses, seeds = (int(part) for part in size.split("x"))
        return rules_for(name, houses, seeds)
    except ValueError as exc:
        raise NotationError(f"bad variant {text!r}: {exc}") from None


def position(game: Game) -> str:
    """The compact position string of ``game`` (its history is not included)."""
    state, rules = game.state, game.rules
    a, b = game.scores
    mover = Player(state[rules.pits + 2]).name
    owed = "!" if game.owes_extra_move else ""
    houses = ",".join(map(str, game.board))
    return f"{POSITION_VERSION} {rules_code(rules)} {houses} {a}:{b} {mover}{owed}"


def from_position(text: str) -> Game:
    """A :class:`Game` at the position ``text`` describes (with no move history)."""
    fields = text.split()
    if len(fields) != 5 or fields[0] != POSITION_VERSION:
        raise NotationError(f"not a {POSITION_VERSION} position string: {text!r}")
    rules = parse_rules_code(fields[1])
    try:
        houses = [int(seeds) for seeds in fields[2].split(",")]
        scores = [int(seeds) for seeds in fields[3].split(":")]
        mover = Player.parse(fields[4].rstrip("!"))
    except ValueError as exc:
        raise NotationError(f"bad position string {text!r}: {exc}") from None
    if len(houses) != rules.pits or len(scores) != 2 or min(houses + scores) < 0:
        raise NotationError(f"bad position string {text!r}: {rules.label} needs {rules.pits} houses and 2 scores")
    if sum(houses) + sum(scores) != rules.total_seeds:
        raise NotationError(f"bad position string {text!r}: the seeds do not add up to {rules.total_seeds}")
    owed = fields[4].endswith("!")
    if fields[4] not in ("A", "B", "A!", "B!"):
        raise NotationError(
            f"bad position string {text!r}: the player to move is A or B, with ! for an owed extra move"
        )
    opponent_row = houses[rules.houses * (1 - mover) : rules.houses * (2 - mover)]
    if owed and (rules.grand_slam is not GrandSlam.CAPTURE_AND_REPLAY or any(opponent_row)):
        raise NotationError(
            f"bad position string {text!r}: only an Ouril player whose opponent has no seed can owe an extra move"
        )
    return Game.from_state(rules, (*houses, *scores, int(mover), int(owed)))


def record(game: Game, player_a: str = "A", player_b: str = "B", *, tags: dict[str, str] | None = None) -> str:
    """The game record of ``game``: tags, a blank line and the moves. Round-trips exactly.

    ``tags`` are more tag pairs (an event, a date, player ids...), written after the engine's own
    in their order; :func:`from_record` returns them and checks none of them. They may not
    replace a tag the engine writes.

    >>> print(record(Game("wari"), "Ama", "Kofi", tags={"Game": "7"}), end="")
    [Format "wari-record/1"]
    [Variant "wari"]
    [First "A"]
    [PlayerA "Ama"]
    [PlayerB "Kofi"]
    [Result "*"]
    [Reason ""]
    [Game "7"]
    <BLANKLINE>
    <BLANKLINE>
    """
    outcome = game.outcome
    pairs = {
        "Format": RECORD_FORMAT,
        "Variant": rules_code(game.rules),
        "First": game.first.name,
        "PlayerA": player_a,
        "PlayerB": player_b,
        "Result": outcome.result if outcome else "*",
        "Reason": outcome.termination.value if outcome else "",
    }
    if game.start_state != machine_for(game.rules).start(game.first):
        pairs["Position"] = position(Game.from_state(game.rules, game.start_state))
    for key, value in (tags or {}).items():
        if key in pairs or key == "Position" or not re.fullmatch(r"\w+", key):
            raise ValueError(f"cannot add the tag {key!r}")
        pairs[key] = str(value)
    # Tag values are JSON strings: any name (quotes, newlines, emoji) round-trips exactly.
    head = "\n".join(f"[{key} {_tag_value(value)}]" for key, value in pairs.items())
    return f"{head}\n\n{' '.join(game.move_texts())}\n"


def from_record(text: str) -> tuple[Game, dict[str, str]]:
    """Replay a record; return the game and its tags (players, result...).

    :raises NotationError: when a line cannot be read, a move is illegal or its notation does
        not match what the move does, or the stated result is not the replayed one.
    """
    tags, body = _read_tags(text)
    rules, first = parse_rules_code(tags.get("Variant", "")), _first(tags)
    game = from_position(tags["Position"]) if "Position" in tags else Game(rules, first)
    if game.rules != rules:
        raise NotationError(f"the Position tag is a {game.rules.label} position, not {rules.label}")
    for number, token in enumerate(body.split(), start=1):
        _replay(game, number, token)
    result = game.outcome.result if game.outcome else "*"
    reason = game.outcome.termination.value if game.outcome else ""
    if (tags.get("Result", "*"), tags.get("Reason", "")) != (result, reason):
        raise NotationError(
            f"the record says {tags.get('Result')!r} ({tags.get('Reason')!r}) "
            f"but the moves give {result!r} ({reason!r})"
        )
    return game, tags


def _read_tags(text: str) -> tuple[dict[str, str], str]:
    """A record's tags, and its moves as text."""
    head, _, body = text.replace("\r\n", "\n").strip().partition("\n\n")
    tags: dict[str, str] = {}
    for line in head.split("\n"):  # not splitlines(): a name may hold U+2028 and the like
        match = _TAG.match(line.strip())
        if not match:
            raise NotationError(f"bad tag line {line!r}")
        tags[match[1]] = _read_value(match[2])
    if tags.get("Format") != RECORD_FORMAT:
        raise NotationError(f"not a {RECORD_FORMAT} record (Format is {tags.get('Format')!r})")
    return tags, body


def _read_value(quoted: str) -> str:
    """A tag's value, a JSON string (see :func:`record`): its letters as they are when it has no
    escape and nothing JSON refuses (a control character), else as JSON reads it (or refuses it)."""
    if "\\" not in quoted and quoted.isprintable():
        return quoted[1:-1]
    return json.loads(quoted)


def _first(tags: dict[str, str]) -> Player:
    try:
        return Player.parse(tags.get("First", ""))
    except ValueError as exc:
        raise NotationError(str(exc)) from None


def snapshot(game: Game) -> str:
    """What :func:`resume` needs, beside the game's record, to take the game up where it stands
    without playing its moves again: the state, the number of moves, the last move in full, the
    positions that could still come back (:meth:`Game.repetition_set`) and the outcome. A short
    JSON text, whatever the game's length (the repetition set holds only the positions since
    the last capture).

    >>> game = Game("wari")
    >>> _ = [game.play(h) for h in (5, 7, 2, 12)]
    >>> again = resume(record(game), snapshot(game))
    >>> again.ply, str(again.last_move), again.board == game.board, record(again) == record(game)
    (4, 'B(12,5)+2', True, True)
    """
    last, outcome = game.last_move, game.outcome
    return _compact(
        {
            "format": SNAPSHOT_FORMAT,
            "ply": game.ply,
            "state": game.state,
            "last": last
            and [
                last.player.name,
                last.house,
                last.seeds,
                last.captures,
                last.extra_turn,
                last.grand_slam,
                last.ending and last.ending.value,
            ],
            "seen": sorted(game.repetition_set()),
            "outcome": outcome
            and [None if outcome.winner is None else outcome.winner.name, outcome.scores, outcome.termination.value],
        }
    )


def resume(text: str, stored: str) -> Game:
    """The game of the record ``text``, taken up from its :func:`snapshot` ``stored`` instead of
    playing every move again: the same game in all it shows and does (see :meth:`Game.resumed`).

    The snapshot is trusted as the record's companion, written with it; one that does not
    match the record (its number of moves, its last move) is refused.

    :raises NotationError: if the record's tags or the snapshot cannot be read, or disagree.
    """
    tags, body = _read_tags(text)
    rules, first = parse_rules_code(tags.get("Variant", "")), _first(tags)
    start = from_position(tags["Position"]).state if "Position" in tags else machine_for(rules).start(first)
    try:
        data = json.loads(stored)
        if data.get("format") != SNAPSHOT_FORMAT:
            raise ValueError(f"not a {SNAPSHOT_FORMAT} snapshot")
        outcome = data["outcome"] and Outcome(
            None if data["outcome"][0] is None else Player.parse(data["outcome"][0]),
            tuple(data["outcome"][1]),
            Termination(data["outcome"][2]),
        )
        last = data["last"] and MoveRecord(
            Player.parse(data["last"][0]),
            data["last"][1],
            data["last"][2],
            tuple(map(tuple, data["last"][3])),
            data["last"][4],
            data["last"][5],
            data["last"][6] and Termination(data["last"][6]),
            outcome,
        )
        texts = body.split()
        if data["ply"] != len(texts) or (str(last) if last else None) != (texts[-1] if texts else None):
            raise ValueError(f"it is of {data['ply']} moves ending {last}, the record of {len(texts)}")
        return Game.resumed(
            rules,
            first=first,
            start_state=start,
            state=tuple(data["state"]),
            earlier=texts,
            last_move=last,
            seen=(tuple(state) for state in data["seen"]),
            outcome=outcome,
            replay=lambda: from_record(text)[0],
        )
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise NotationError(f"the snapshot does not go with the record: {exc}") from None


def taken_up(game: Game, text: str) -> Game:
    """``game``, whose record is ``text``, as :func:`resume` takes it up from ``text`` and its
    :func:`snapshot`, without writing and reading them: the same game in all it shows and does,
    its moves kept as their notation, so that a copy of it (:meth:`Game.copy`) costs the same
    however long the game (what the live games keep between presses: :mod:`bot.service.live`).

    >>> game = Game("wari")
    >>> _ = [game.play(h) for h in (5, 7, 2, 12)]
    >>> again = taken_up(game, record(game))
    >>> again.ply, str(again.last_move), again.state == game.state, record(again) == record(game)
    (4, 'B(12,5)+2', True, True)
    """
    return Game.resumed(
        game.rules,
        first=game.first,
        start_state=game.start_state,
        state=game.state,
        earlier=game.move_texts(),
        last_move=game.last_move,
        seen=game.repetition_set(),
        outcome=game.outcome,
        replay=lambda: from_record(text)[0],
    )


def _replay(game: Game, number: int, token: str) -> None:
    match = _MOVE.match(token)
    if not match:
        raise NotationError(f"move {number}: cannot read {token!r}")
    player = match[1] or match[5]
    ending = Termination(match[6]) if match[6] else None
    try:
        if ending is Termination.SURRENDER:  # either player may give up, at any turn
            done = game.surrender(player)
        else:
            if game.to_move is not None and game.to_move.name != player:
                raise NotationError(f"move {number}: {token} but it is {game.to_move.name}'s turn")
            if ending is Termination.TIME:
                done = game.time_out()
            elif ending is Termination.AGREEMENT:
                done = game.agree_draw()
            else:
                done = game.play(int(match[2]))
    except IllegalMoveError as exc:
        raise NotationError(f"move {number}: {token} is illegal: {exc}") from None
    if str(done) != token:
        raise NotationError(f"move {number}: the record says {token} but the move is {done}")
