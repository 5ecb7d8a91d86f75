"""The messages of the Wari cog: board and challenge embeds, and their persistent buttons.

Buttons are :class:`discord.ui.DynamicItem` s whose custom ids carry everything needed to find
and check their game (game id, move number, house) and nothing secret, so they keep working
after a restart without any view being re-registered.
"""

from __future__ import annotations

import io
import re
from datetime import timedelta

import discord

from bot.clock import Clock, clock_time, duration
from bot.emojis import cup_emoji
from bot.engine import Game, MoveRecord, Player
from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _, labelled
from bot.ratings import OVER_THE_DAILY_LIMIT, RATED_GAMES_PER_PAIR_PER_DAY
from bot.render import board_text, describe_move, houses_of, result_text
from bot.service import EARLY_ABORT, Table
from bot.storage import ChallengeRow, GameRow

from .analyses.views import AnalyseButton
from .buttons import PersistentButton, read_house, read_number
from .options import level_name
from .presenter import Message, mention_only
from .reach import clock_note, through_interactions

LIVE_COLOUR = discord.Colour.green()
OVER_COLOUR = discord.Colour.dark_grey()
CHALLENGE_COLOUR = discord.Colour.gold()
OFFER_COLOUR = discord.Colour.blurple()
#: Discord allows 5 buttons a row; a row of 6 is split 3 + 3, of 10 5 + 5.
BUTTONS_PER_ROW = 5
#: The answers to a challenge, a draw offer or a takeback request: their words and colours.
ANSWER_LABELS = {"accept": N_("Accept"), "decline": N_("Decline"), "withdraw": N_("Withdraw")}
ANSWER_STYLES = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "withdraw": discord.ButtonStyle.secondary,
}


def cup_button(custom_id: str, house: int, seeds: int, legal: bool, row: int | None) -> discord.ui.Button:
    """A cup, of a game's board or a puzzle's: its house and seeds (a picture of them, where the
    bot has its cup emojis: the words would make a row of three too wide for a phone), greyed
    out where no move is."""
    picture = cup_emoji(seeds)
    return discord.ui.Button(
        label=str(house) if picture is not None else f"{house} · {seeds}",
        emoji=picture,
        custom_id=custom_id,
        style=discord.ButtonStyle.primary if legal else discord.ButtonStyle.secondary,
        disabled=not legal,
        row=row,
    )


def answer_button(action: str, custom_id: str) -> discord.ui.Button:
    """Accept, Decline or Withdraw: the same words and colour on a challenge, an offer, a request."""
    return discord.ui.Button(label=_(ANSWER_LABELS[action]), style=ANSWER_STYLES[action], custom_id=custom_id)


class CupButton(PersistentButton, template=r"wari:cup:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<house>[0-9]+)"):
    """One cup (house) of the player to move, on the board drawn after move ``ply``."""

    KIND, BELONGS = "cup", ("board", "game")
    FIELDS = {"game": read_number, "ply": read_number, "house": read_house}

    def __init__(
        self, game_id: int, ply: int, house: int, *, seeds: int = 0, legal: bool = True, row: int | None = None
    ) -> None:
        super().__init__(cup_button(f"wari:cup:{game_id}:{ply}:{house}", house, seeds, legal, row), game_id, ply, house)


class NextMoveButton(PersistentButton, template=r"wari:next:(?P<game>[0-9]+):(?P<ply>[0-9]+)"):
    """An exhibition's "Next move": anyone watching may ask the computer for the next move."""

    KIND, BELONGS = "next", ("board", "game")
    FIELDS = {"game": read_number, "ply": read_number}

    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Next move"),
                emoji="▶️",
                style=discord.ButtonStyle.primary,
                custom_id=f"wari:next:{game_id}:{ply}",
            ),
            game_id,
            ply,
        )


class RematchButton(PersistentButton, template=r"wari:rematch:(?P<game>[0-9]+)"):
    """On a finished game's board: its players may ask to play again, sides swapped."""

    KIND, BELONGS = "rematch", ("board", "game")
    FIELDS = {"game": read_number}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Rematch"), emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"wari:rematch:{game_id}"
            ),
            game_id,
        )


class ChallengeButton(PersistentButton, template=r"wari:challenge:(?P<id>[0-9]+):(?P<action>accept|decline|withdraw)"):
    """Accept, Decline (the challenged member) or Withdraw (the challenger) one challenge."""

    KIND, BELONGS = "challenge", ("challenge", "id")
    FIELDS = {"id": read_number, "action": str}  # the template allows only its actions
    ACTIONS = ("accept", "decline", "withdraw")

    def __init__(self, challenge_id: int, action: str) -> None:
        super().__init__(answer_button(action, f"wari:challenge:{challenge_id}:{action}"), challenge_id, action)


# -- the board ---------------------------------------------------------------------------------


def mention(table: Table, side: Player) -> str:
    """A side in an announcement: a mention for a person (to notify them), the name and level for
    the computer (both sides of an exhibition are the bot: its levels tell them apart)."""
    return side_names(table.row)[side] if table.level(side) is not None else f"<@{table.user(side)}>"


def notify(table: Table, *sides: Player) -> discord.AllowedMentions:
    """Allowed mentions that notify the people among ``sides``, and nobody else. A fast
    tournament's game notifies nobody (its end, a surrender): its round's pairings called its
    players once (:attr:`~bot.service.table.Table.called_once`)."""
    if table.called_once:
        sides = ()
    people = [discord.Object(table.user(side)) for side in sides if table.level(side) is None]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=people)


def board_link(row: GameRow) -> str:
    """A masked link to the game's board message."""
    return _("[board]({url})", url=row.board_url)


def replaced_board(table: Table) -> Message:
    """An old board message closed: greyed, no buttons, and a pointer to the current board over
    the game as it stands. Always text: a picture it had is removed (an edit replaces attachments)."""
    if table.row.live:
        text = _(
            "↪️ This board was replaced: game #{number} goes on → [board]({url})",
            number=table.row.id,
            url=table.row.board_url,
        )
    else:
        text = _("↪️ Game #{number} is over → [final board]({url})", number=table.row.id, url=table.row.board_url)
    return Message(view=board_layout(table, text, closed=True), files=[])


def side_names(row: GameRow) -> tuple[str, str]:
    """How each side is called: its player's name, with the level when the computer plays it."""
    a, b = (
        name + (f" ({level_name(level)})" if level else "")
        for name, level in zip(row.names, (row.level_a, row.level_b), strict=True)
    )
    return a, b


def position_lines(game: Game, names: tuple[str, str], marks: tuple[str, str] = ("", "")) -> list[str]:
    """Both sides with their prisoners (or stores) and houses, each after its mark if ``marks``
    gives one (the board's colour squares), then the drawing of the board."""
    line = (
        N_("**{side}** {name} · store: **{score}** (houses {houses})")
        if game.rules.stores_on_path
        else N_("**{side}** {name} · prisoners: **{score}** (houses {houses})")
    )
    sides = []
    for side, mark, name, score in zip(Player, marks, names, game.scores, strict=True):
        text = _(line, side=side.name, name=name, score=score, houses=houses_of(game.rules, side))
        sides.append(f"{mark} {text}" if mark else text)
    return [*sides, f"```\n{board_text(game)}\n```"]


#: Under a live board: what the cup buttons' labels mean.
BUTTONS_HINT = N_("*Buttons: house · seeds*")
#: The same, where the buttons show their seeds in a picture of the cup (:func:`cup_button`).
PICTURED_BUTTONS_HINT = N_("*Buttons: the seeds pictured, then the house*")


def buttons_hint() -> str:
    """What the cup buttons' labels mean, as they are drawn now, in the language of the moment."""
    return _(BUTTONS_HINT if cup_emoji(0) is None else PICTURED_BUTTONS_HINT)


#: Whose turn it is shows in the board's accent colour (grey once over), and each side's line
#: starts with a square of its colour, so that the colour means something to its reader. Blue
#: and orange: told apart by colour-blind readers too.
SIDE_COLOURS = (discord.Colour(0x55ACEE), discord.Colour(0xF4900C))
SIDE_MARKS = ("🟦", "🟧")


def board_colour(table: Table) -> discord.Colour:
    """The accent of the board: the colour of the side to move, grey once the game is over."""
    mover = table.game.to_move
    return SIDE_COLOURS[mover] if table.row.live and mover is not None else OVER_COLOUR


def cup_rows(table: Table) -> list[discord.ui.ActionRow]:
    """One button per house of the player to move (illegal ones disabled, all of them while the
    computer thinks), in rows of at most :data:`BUTTONS_PER_ROW`; none once over, nor in an exhibition.
    Where the bot only answers interactions the computer's legal cups stay pressable: a restart
    mid-think leaves its move undrawn there, and a press is what brings the board up to date."""
    game = table.game
    mover = game.to_move
    if not table.row.live or mover is None or table.exhibition:
        return []
    n = game.rules.houses
    houses = list(range(1 + n * mover, n * (mover + 1) + 1))
    if mover is Player.B:
        houses.reverse()  # B's row is drawn right to left: keep the buttons in board order
    per_row = n if n <= BUTTONS_PER_ROW else -(-n // 2)
    thinking = table.computer_to_move and not through_interactions(table.row)
    legal = set() if thinking else set(game.legal_moves)
    cups = [
        CupButton(table.row.id, game.ply, house, seeds=game.board[house - 1], legal=house in legal) for house in houses
    ]
    return [discord.ui.ActionRow(*cups[start : start + per_row]) for start in range(0, n, per_row)]


#: A live game's controls on its board (the slash commands' work, a press away), in the order
#: shown: their words, emoji and colour.
CONTROLS = {
    "takeback": (N_("Take back"), "↩️", discord.ButtonStyle.secondary),
    "draw": (N_("Offer draw"), "🤝", discord.ButtonStyle.secondary),
    "abort": (N_("Abort"), "🛑", discord.ButtonStyle.secondary),
    "surrender": (N_("Surrender"), "🏳️", discord.ButtonStyle.danger),
}


class ControlButton(PersistentButton, template=r"wari:act:(?P<game>[0-9]+):(?P<action>takeback|draw|abort|surrender)"):
    """One of game ``game``'s controls on its board: ``action`` is done as its slash command does
    it, for one of the game's players (:class:`cogs.wari.controls.Controls`)."""

    KIND, BELONGS = "act", ("board", "game")
    FIELDS = {"game": read_number, "action": str}  # the template allows only its actions

    def __init__(self, game_id: int, action: str) -> None:
        label, emoji, style = CONTROLS[action]
        super().__init__(
            discord.ui.Button(label=_(label), emoji=emoji, style=style, custom_id=f"wari:act:{game_id}:{action}"),
            game_id,
            action,
        )


def controls(table: Table) -> list[str]:
    """The controls a live game's board offers, each only where its feature allows it: a takeback
    against the computer or in an unrated game (as :meth:`bot.service.games.GameService.take_back`
    rules) once a side has moved, an abort before both sides have moved outside a tournament
    (as ``abort_early`` rules); a draw and a surrender always. None in an exhibition: nobody plays it."""
    row = table.row
    if not row.live or table.exhibition:
        return []
    against_computer = any(table.level(side) is not None for side in Player)
    shown = {
        "takeback": bool(table.sides_moved) and (against_computer or not row.rated),
        "draw": True,
        "abort": table.abortable and row.tournament_id is None,
        "surrender": True,
    }
    return [action for action in CONTROLS if shown[action]]


def board_actions(table: Table) -> list[discord.ui.Item]:
    """The buttons under the board: a live game's controls; an exhibition's Next move; Rematch
    and Analyse once finished (Analyse not where the bot only answers interactions: an analysis
    shows itself in a message edited for minutes, which it cannot do there)."""
    if table.row.status == "finished":
        finished: list[discord.ui.Item] = [] if table.exhibition else [RematchButton(table.row.id)]
        if table.sides_moved and not through_interactions(table.row):  # a move sowed: there is something to analyse
            finished.append(AnalyseButton(table.row.id))
        return finished
    if table.paced_by_button and table.row.live:
        return [NextMoveButton(table.row.id, table.game.ply)]
    return [ControlButton(table.row.id, action) for action in controls(table)]


LIVE_TITLE, FINISHED_TITLE = N_("{variant} · game #{number}"), N_("{variant} · game #{number} · finished")
#: The name of a picture board's attachment, which its media gallery shows.
BOARD_PICTURE = "board.png"


def board_footer(table: Table, moves: int) -> str:
    """The board's last line: how many moves, and whether the game is rated."""
    row = table.row
    footer = _("Move {number}", number=moves) if moves else _("No move yet")
    if row.rated == OVER_THE_DAILY_LIMIT:
        return _(
            "{moves} · not rated: {limit} rated games a day count between the same players",
            moves=footer,
            limit=RATED_GAMES_PER_PAIR_PER_DAY,
        )
    return footer if row.rated else _("{moves} · unrated", moves=footer)


def board_layout(table: Table, status: str, *, picture: bool = False, closed: bool = False) -> discord.ui.LayoutView:
    """The board, one container: ``status`` on top, the title, both sides and the drawing (or,
    with ``picture``, the attached picture: the text keeps the facts for screen readers and
    notifications), the cups, the last moves, clock and ratings, the game's own buttons, and the
    footer. ``closed``: an old board's copy, greyed and without buttons."""
    game, row = table.game, table.row
    names = side_names(row)
    title = _(FINISHED_TITLE if not row.live else LIVE_TITLE, variant=game.rules.label.capitalize(), number=row.id)
    lines = position_lines(game, names, SIDE_MARKS)
    if picture:
        lines.pop()  # the drawing: the picture shows the board
    board: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay(status),
        discord.ui.TextDisplay(f"### {title}"),  # a heading of its own: no name can run into it
        discord.ui.TextDisplay("\n".join(lines)),
        accent_colour=OVER_COLOUR if closed else board_colour(table),
    )
    if picture:
        board.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{BOARD_PICTURE}")))
    cups = [] if closed else cup_rows(table)
    if cups:
        board.add_item(discord.ui.TextDisplay(buttons_hint()))
        for cup_row in cups:
            board.add_item(cup_row)
    # A ply that ends the game without sowing (a surrender, a time-out, an agreed draw) is no move:
    # the status says how the game ended.
    described, earlier = board_moves(table)
    details = move_lines(table, described, earlier, names)
    if table.clock is not None:
        details.append(clock_line(table, table.clock, names))
        if (note := clock_note(table)) is not None and row.live:
            details.append(note)
    if table.ratings:
        details.append(rating_line(table, names))
    if details:
        board.add_item(discord.ui.Separator())
        board.add_item(discord.ui.TextDisplay("\n".join(details)))
    actions = [] if closed else board_actions(table)
    if actions:
        board.add_item(discord.ui.ActionRow(*actions))
    board.add_item(discord.ui.TextDisplay(f"-# {board_footer(table, len(described) + len(earlier))}"))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(board)
    return layout


#: How many of the latest moves the board lists in notation.
LISTED_MOVES = 8


def answered_moves(table: Table, sowings: list[MoveRecord]) -> list[MoveRecord]:
    """The moves the board describes in words: the last one, and when the computer made it against
    a person, everything back to that person's move (which the reply was drawn over, unseen)."""
    if not sowings:
        return []
    described = [sowings[-1]]
    if table.level(sowings[-1].player) is not None and not table.exhibition:
        for move in reversed(sowings[:-1]):
            described.insert(0, move)
            if table.level(move.player) is None:
                break
    return described


def board_moves(table: Table) -> tuple[list[MoveRecord], list[str]]:
    """The moves a board describes in words (:func:`answered_moves`), and the sowings before them
    in notation. Between people, after a move that sowed, that is the last move and the notation
    of the others: no move is played again for them (a game taken up from storage keeps its
    earlier moves as notation); else they are read from every move."""
    game, last = table.game, table.game.last_move
    if last is not None and last.sows and table.row.level_a is None and table.row.level_b is None:
        return [last], game.move_texts()[:-1]
    sowings = [move for move in game.moves if move.sows]
    described = answered_moves(table, sowings)
    return described, [str(move) for move in sowings[: len(sowings) - len(described)]]


def move_lines(table: Table, described: list[MoveRecord], earlier: list[str], names: tuple[str, str]) -> list[str]:
    """The latest moves in words (see :func:`answered_moves`), then the few before them in notation."""
    if not described:
        return []
    words = [describe_move(move, names[move.player], table.game.rules) for move in described]
    lines = [_("**Last move:** {move}", move=words[0])] if len(words) == 1 else [_("**Last moves:**"), *words]
    if earlier:
        listed = " ".join(earlier[-LISTED_MOVES:])
        more = "… " if len(earlier) > LISTED_MOVES else ""
        lines.append(_("**Before:** {moves}", moves=f"{more}`{listed}`"))
    return lines


def clock_line(table: Table, clock: Clock, names: tuple[str, str]) -> str:
    """The clock: the deadline of the person to move as a Discord timestamp (it counts down on the
    reader's screen with no edit), and for per-player clocks the time each player has left."""
    row = table.row
    parts = [f"⏱ **{clock.code}** ({clock.describe()})"]
    deadline = row.deadline
    mover = table.game.to_move
    if clock.per_player:
        for side, banked in zip((Player.A, Player.B), (row.time_a, row.time_b), strict=True):
            if table.level(side) is not None:
                continue
            # A per-player clock's game banks both times from its start (bot.service.turns.opening).
            assert banked is not None
            if side is mover and deadline is not None:
                # Both in minutes and seconds: the time the mover had when the move began, and the
                # moment it runs out to the second (shown in each reader's own time zone).
                when = discord.utils.format_dt(deadline, "T")
                parts.append(
                    _("{name}: {time}, runs out at {when}", name=names[side], time=clock_time(banked), when=when)
                )
            else:
                parts.append(labelled(names[side], clock_time(banked)))
    elif deadline is not None:
        assert mover is not None  # a deadline runs only while a person is to move
        parts.append(
            _(
                "{name} moves by {date} ({when})",
                name=names[mover],
                date=discord.utils.format_dt(deadline, "f"),
                when=discord.utils.format_dt(deadline, "R"),
            )
        )
    if row.live and deadline is None and mover is not None:
        parts.append(_("the computer has no clock"))
    if row.clock_paused:
        parts.append(
            _("paused {duration} while the bot was offline", duration=duration(timedelta(seconds=row.clock_paused)))
        )
    return " · ".join(parts)


def rating_line(table: Table, names: tuple[str, str]) -> str:
    """What a rated game did to both ratings: ``alice 1500? → 1662? (+162)`` (``?``: provisional)."""
    by_user = {change.user_id: change for change in table.ratings}
    parts = []
    for side in (Player.A, Player.B):
        change = by_user[table.user(side)]
        parts.append(f"{names[side]} {change.before} → {change.after} ({change.delta:+d})")
    if any(change.after.provisional for change in table.ratings):
        parts.append(_("? provisional: it settles over the first games"))
    return _("📈 **Ratings** ({variant}): {changes}", variant=table.ratings[0].variant, changes=" · ".join(parts))


def aborted_text(row: GameRow) -> str:
    """How an aborted game ended, in the language of the moment."""
    if row.reason == EARLY_ABORT:
        return _("Game aborted before both sides had moved: no winner, and no rating changes.")
    return _("Game aborted by a moderator: no winner.")


def board_status(table: Table) -> str:
    """The line above the board: whose turn it is, or how the game ended."""
    game, row = table.game, table.row
    if row.status == "aborted":
        return aborted_text(row)
    if game.outcome is not None:
        return "🏁 " + result_text(game.outcome, side_names(table.row))
    mover = game.to_move
    assert mover is not None  # a game has no player to move only once it has an outcome
    if table.exhibition:
        if table.paced_by_button:
            text = N_(
                "🤖 Exhibition: {level_a} (A) against {level_b} (B). {side} ({level}) to move: press **Next move**."
            )
        else:
            text = N_(
                "🤖 Exhibition: {level_a} (A) against {level_b} (B). {side} ({level}) to move: it plays on its own."
            )
        assert row.level_a is not None and row.level_b is not None  # the computer plays both sides
        level_a, level_b = level_name(row.level_a), level_name(row.level_b)
        return _(text, level_a=level_a, level_b=level_b, side=mover.name, level=(level_a, level_b)[mover])
    names = side_names(row)
    if table.computer_to_move and through_interactions(row):  # a restart may leave its move undrawn here
        return _("🤖 **{name}** is thinking… If its move does not show, press a cup.", name=names[mover])
    if table.computer_to_move:
        return _("🤖 **{name}** is thinking…", name=names[mover])
    again = game.last_move is not None and game.last_move.player == mover
    text = (
        N_("**{name}**, your move again ({variant}, houses {houses}).")
        if again
        else N_("**{name}**, your move ({variant}, houses {houses}).")
    )
    return _(text, name=names[mover], variant=game.rules.label, houses=houses_of(game.rules, mover))


def board_message(table: Table, picture: bytes | None = None) -> Message:
    """The board, as text or with ``picture`` (a PNG of it) attached. It pings nobody: the player
    to move is told by a ping of its own, a new message (an edit notifies nobody)."""
    files = [discord.File(io.BytesIO(picture), filename=BOARD_PICTURE)] if picture else []
    return Message(
        view=board_layout(table, board_status(table), picture=picture is not None),
        files=files,  # an edit replaces the old picture (or removes it for a text board)
    )


# -- draw offers -------------------------------------------------------------------------------


class DrawButton(PersistentButton, template=r"wari:draw:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<action>accept|decline)"):
    """Accept or Decline a draw offered in game ``game`` after move ``ply`` (only the opponent may)."""

    KIND, BELONGS = "draw", ("draw offer", "game", "ply")
    FIELDS = {"game": read_number, "ply": read_number, "action": str}
    ACTIONS = ("accept", "decline")

    def __init__(self, game_id: int, ply: int, action: str) -> None:
        super().__init__(answer_button(action, f"wari:draw:{game_id}:{ply}:{action}"), game_id, ply, action)


def offer_message(table: Table) -> Message:
    """The offer, pinging the opponent (a new message, so they are notified)."""
    assert table.row.draw_by is not None  # a draw offer's message: the offer was just stored
    offerer = Player[table.row.draw_by]
    opponent = table.user(offerer.other)
    embed = discord.Embed(
        title=_("🤝 Draw offer · game #{number}", number=table.row.id),
        description=_(
            "**{name}** offers a draw. It stands until it is answered or a move is played.",
            name=table.row.names[offerer],
        ),
        colour=OFFER_COLOUR,
    )
    view = discord.ui.View(timeout=None)
    for action in DrawButton.ACTIONS:
        view.add_item(DrawButton(table.row.id, table.game.ply, action))
    return Message(
        content=_("{player}, your opponent offers a draw.", player=f"<@{opponent}>"),
        embeds=[embed],
        view=view,
        allowed_mentions=mention_only(opponent),
    )


#: A line of an embed that counts down to a moment (a Discord relative timestamp, "in 9 minutes").
COUNTDOWN = re.compile(r"^.*<t:\d+:R>.*$\n?", re.MULTILINE)


def closed_embeds(message: discord.Message) -> list[discord.Embed]:
    """The embeds of a message whose challenge or offer closed while it still showed its buttons:
    greyed, and without the lines that count down to an end that no longer comes."""
    closed = []
    for embed in message.embeds:
        embed = embed.copy()
        embed.colour = OVER_COLOUR
        if embed.description:
            embed.description = COUNTDOWN.sub("", embed.description).rstrip("\n")
        closed.append(embed)
    return closed


def offer_closed(text: str) -> Message:
    """An offer's message once it is answered or lapsed: its words, no buttons."""
    embed = discord.Embed(title=_("🤝 Draw offer"), description=text, colour=OVER_COLOUR)
    return Message(content=None, embeds=[embed], view=None)


# -- challenges --------------------------------------------------------------------------------

FIRST_WORDS = {
    "me": N_("the challenger moves first"),
    "opponent": N_("the challenged player moves first"),
    "random": N_("who moves first is drawn at random"),
}


def challenge_message(challenge: ChallengeRow, closing: str | None = None) -> Message:
    """The challenge with its buttons, or (``closing`` given) its final words without buttons."""
    rules = parse_rules_code(challenge.variant)
    challenger, opponent = challenge.names
    if challenge.open:
        invitation = N_("**{challenger}** challenges anyone here to a game of **{variant}**; {first}.")
    elif challenge.rematch_of:
        invitation = N_(
            "**{challenger}** challenges **{opponent}** to a game of **{variant}** "
            "(a rematch of game #{number}); {first}."
        )
    else:
        invitation = N_("**{challenger}** challenges **{opponent}** to a game of **{variant}**; {first}.")
    lines = [
        _(
            invitation,
            challenger=challenger,
            opponent=opponent,
            variant=rules.label,
            number=challenge.rematch_of,
            first=_(FIRST_WORDS[challenge.first]),
        ),
        _("Clock: **{clock}** ({meaning}).", clock=challenge.clock, meaning=Clock.parse(challenge.clock).describe()),
    ]
    if challenge.open and (challenge.min_rating is not None or challenge.max_rating is not None):
        lines.append(
            _(
                "Open to players rated **{low}–{high}** in {variant}.",
                low=challenge.min_rating,
                high=challenge.max_rating,
                variant=rules.name,
            )
        )
    if not challenge.rated:
        lines.append(_("Unrated: no rating changes, and takebacks are allowed."))
    if closing is None:
        lines.append(_("This challenge expires {when}.", when=discord.utils.format_dt(challenge.expires_at, "R")))
    text = "\n".join(lines)
    embed = discord.Embed(
        title=_("⚔️ {variant} challenge", variant=rules.label.capitalize()),
        description=text,
        colour=CHALLENGE_COLOUR if closing is None else OVER_COLOUR,
    )
    if closing is not None:
        return Message(content=closing, embeds=[embed], view=None)
    view = discord.ui.View(timeout=None)
    for action in ChallengeButton.ACTIONS:
        if not (challenge.open and action == "decline"):  # an open challenge is accepted or left alone
            view.add_item(ChallengeButton(challenge.id, action))
    if challenge.open:
        return Message(
            content=_("⚔️ An open challenge: the first to press **Accept** plays."), embeds=[embed], view=view
        )
    return Message(
        content=_("{player}, you have been challenged!", player=f"<@{challenge.opponent_id}>"),
        embeds=[embed],
        view=view,
        allowed_mentions=mention_only(challenge.opponent_id),
    )
