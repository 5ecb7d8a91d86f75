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
    """A cup, of a game's board or a puzzle's: its house and seeds, greyed out where no move is."""
    return discord.ui.Button(
        label=f"{house} · {seeds}",
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


def board_url(row: GameRow) -> str:
    """The address of the game's board message."""
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"


def board_link(row: GameRow) -> str:
    """A masked link to the game's board message."""
    return _("[board]({url})", url=board_url(row))


def replaced_board(table: Table) -> Message:
    """Fields that close an old board message: no buttons, and a pointer to the current board."""
    if table.row.live:
        text = _(
            "↪️ This board was replaced: game #{number} goes on → [board]({url})",
            number=table.row.id,
            url=board_url(table.row),
        )
    else:
        text = _("↪️ Game #{number} is over → [final board]({url})", number=table.row.id, url=board_url(table.row))
    return Message(content=text, view=None)


def side_names(row: GameRow) -> tuple[str, str]:
    """How each side is called: its player's name, with the level when the computer plays it."""
    a, b = (
        name + (f" ({level_name(level)})" if level else "")
        for name, level in zip(row.names, (row.level_a, row.level_b), strict=True)
    )
    return a, b


def position_lines(game: Game, names: tuple[str, str]) -> list[str]:
    """Both sides with their prisoners (or stores) and houses, then the drawing of the board."""
    a, b = game.scores
    line = (
        N_("**{side}** {name} · store: **{score}** (houses {houses})")
        if game.rules.stores_on_path
        else N_("**{side}** {name} · prisoners: **{score}** (houses {houses})")
    )
    return [
        _(line, side="A", name=names[0], score=a, houses=houses_of(game.rules, Player.A)),
        _(line, side="B", name=names[1], score=b, houses=houses_of(game.rules, Player.B)),
        f"```\n{board_text(game)}\n```",
    ]


#: Under a live board: what the cup buttons' labels mean.
BUTTONS_HINT = N_("*Buttons: house · seeds*")


def board_view(table: Table) -> discord.ui.View | None:
    """One button per house of the player to move (illegal ones disabled); Rematch and Analyse once finished."""
    game = table.game
    mover = game.to_move
    if table.row.status == "finished":
        view = discord.ui.View(timeout=None)
        if not table.exhibition:
            view.add_item(RematchButton(table.row.id))
        if any(move.sows for move in game.moves):
            view.add_item(AnalyseButton(table.row.id))
        return view
    if not table.row.live or mover is None:
        return None
    view = discord.ui.View(timeout=None)
    if table.exhibition:
        if table.paced_by_button:
            view.add_item(NextMoveButton(table.row.id, game.ply))
        return view  # an exhibition on its own has no buttons
    n = game.rules.houses
    houses = list(range(1 + n * mover, n * (mover + 1) + 1))
    if mover is Player.B:
        houses.reverse()  # B's row is drawn right to left: keep the buttons in board order
    per_row = n if n <= BUTTONS_PER_ROW else -(-n // 2)
    legal = set() if table.computer_to_move else set(game.legal_moves)
    for index, house in enumerate(houses):
        view.add_item(
            CupButton(
                table.row.id, game.ply, house, seeds=game.board[house - 1], legal=house in legal, row=index // per_row
            )
        )
    return view


LIVE_TITLE, FINISHED_TITLE = N_("{variant} · game #{number}"), N_("{variant} · game #{number} · finished")
#: The name of a picture board's attachment, which its embed shows.
BOARD_PICTURE = "board.png"


def board_embed(table: Table, picture: bool = False) -> discord.Embed:
    """The board's embed: who plays, the drawing (or, with ``picture``, the attached picture; the
    text keeps the facts for screen readers and notifications), the last move, clock and ratings."""
    game, row = table.game, table.row
    names = side_names(row)
    lines = position_lines(game, names)
    if picture:
        lines.pop()  # the drawing: the picture shows the board
    if row.live and not table.exhibition:
        lines.append(_(BUTTONS_HINT))
    # A ply that ends the game without sowing (a surrender, a time-out, an agreed draw) is no move:
    # the line above the board says how the game ended.
    sowings = [move for move in game.moves if move.sows]
    lines += move_lines(table, sowings, names)
    if table.clock is not None:
        lines.append(clock_line(table, table.clock, names))
    if table.ratings:
        lines.append(rating_line(table, names))
    over = not row.live
    embed = discord.Embed(
        title=_(FINISHED_TITLE if over else LIVE_TITLE, variant=game.rules.label.capitalize(), number=row.id),
        description="\n".join(lines),
        colour=OVER_COLOUR if over else LIVE_COLOUR,
    )
    moves = len(sowings)
    footer = _("Move {number}", number=moves) if moves else _("No move yet")
    if row.rated == OVER_THE_DAILY_LIMIT:
        footer = _(
            "{moves} · not rated: {limit} rated games a day count between the same players",
            moves=footer,
            limit=RATED_GAMES_PER_PAIR_PER_DAY,
        )
    elif not row.rated:
        footer = _("{moves} · unrated", moves=footer)
    embed.set_footer(text=footer)
    if picture:
        embed.set_image(url=f"attachment://{BOARD_PICTURE}")
    return embed


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


def move_lines(table: Table, sowings: list[MoveRecord], names: tuple[str, str]) -> list[str]:
    """The latest moves in words (see :func:`answered_moves`), then the few before them in notation."""
    described = answered_moves(table, sowings)
    if not described:
        return []
    words = [describe_move(move, names[move.player], table.game.rules) for move in described]
    lines = [_("**Last move:** {move}", move=words[0])] if len(words) == 1 else [_("**Last moves:**"), *words]
    earlier = sowings[: len(sowings) - len(described)]
    if earlier:
        listed = " ".join(str(move) for move in earlier[-LISTED_MOVES:])
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
        content=board_status(table),
        embeds=[board_embed(table, picture is not None)],
        files=files,  # an edit replaces the old picture (or removes it for a text board)
        view=board_view(table),
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
