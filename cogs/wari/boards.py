"""A game's board message: drawn as the server wants it, redrawn in place, posted anew when it
cannot be, and brought up to date when a press finds it stale.

A game has one board message (its id is stored with the game). When Discord refuses to redraw
it, the board is posted anew in the channel and becomes the game's board; when Discord refuses
that too, the stored game stays the truth and ``/wari board`` or any press on the old board
shows it.

Where the bot only answers interactions (:mod:`.reach`), a board is drawn through the interaction
at hand only (:meth:`Boards.draw_through`): never by id, never posted by the bot itself; a board
left behind is brought up to date by its next press.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.i18n import N_, Text
from bot.pictures.board import board_png
from bot.service import PlayerService, Refusal, StaleBoard, Table, WariService
from bot.storage import SERVER, StorageError

from .languages import Languages
from .permissions import number_scope
from .presenter import Message, Presenter
from .reach import through_interactions
from .views import board_message, replaced_board, side_names

log = logging.getLogger("cogs.wari")

#: A game was stored, but not where its first board is: the board was taken back.
BOARD_NOT_SAVED = N_(
    "Game #{number} has started, but I can't reach my game database to save its board, so I took the "
    "board back. `/wari board` shows it again once I can (in a moment)."
)


#: How a press answered so far leaves its pressed message editable through it: not answered yet,
#: or answered by redrawing that message (at once, or deferred).
REDRAWS_PRESSED = (
    None,
    discord.InteractionResponseType.message_update,
    discord.InteractionResponseType.deferred_message_update,
)


def pressed_id(interaction: discord.Interaction) -> str:
    """The custom id of the pressed button (every press carries one)."""
    custom_id = interaction.data.get("custom_id") if interaction.data is not None else None
    if not isinstance(custom_id, str):
        raise TypeError(f"interaction {interaction.id} is not a button press")
    return custom_id


def game_of(interaction: discord.Interaction) -> int:
    """The game number a pressed board button carries (``wari:<kind>:<game>:...``)."""
    return int(pressed_id(interaction).split(":")[2])


def where_shown(shown: Table | None) -> Text:
    """Where to find a board that had to be posted anew (``None``: it could not be)."""
    if shown is None:
        return Text(N_("Discord did not let me show the board: use `/wari board` to see it."))
    return Text(
        N_("Discord did not let me update the board, so I posted it anew → [board]({url})"), url=shown.row.board_url
    )


def stale_reason(table: Table, interaction: discord.Interaction, behind: bool) -> Text:
    """Why a press on the game's own board did nothing: the game ended, the presser's own move
    was played already, the board was behind the game (``behind``: it had not been redrawn since),
    or another press came first."""
    if not table.row.live:
        return Text(N_("This game is over: the board now shows how it ended."))
    pressed_ply = int(pressed_id(interaction).split(":")[3])
    last = table.game.last_move
    if pressed_ply < table.game.ply and last is not None and table.player(interaction.user.id) is last.player:
        return Text(N_("Your move `{move}` had already been played: the board now shows it."), move=last)
    if pressed_ply < table.game.ply and behind:
        return Text(
            N_("This board was out of date: it now shows the current position, after move {number} (`{move}`)."),
            number=table.game.ply,
            move=last,
        )
    if pressed_ply < table.game.ply:
        return Text(
            N_(
                "Another press came first: move {number} (`{move}`) was played. "
                "The board now shows the current position."
            ),
            number=table.game.ply,
            move=table.game.last_move,
        )
    return Text(N_("The board now shows the current position. Have another look!"))


class Boards:
    """Draws, redraws and posts games' board messages."""

    def __init__(
        self,
        client: discord.Client,
        service: WariService,
        players: PlayerService,
        presenter: Presenter,
        languages: Languages,
    ) -> None:
        self.client = client
        self.service = service
        self.players = players
        self.presenter = presenter
        self.languages = languages

    async def message(self, table: Table) -> Message:
        """The board message, as the server wants its boards: text, or a picture drawn in a worker
        thread (Pillow releases the GIL; the event loop goes on meanwhile). Outside a server that
        added the bot, text: there is no server's choice. It is written in the game's language
        (:meth:`.Languages.of_game`), whoever's press or command drew it: a board does not change
        language from one press to the next."""
        style = "text"
        if table.row.venue == SERVER:
            _language, style = await self.players.server_settings(table.row.guild_id)
        picture = None
        if style == "image":
            picture = await asyncio.to_thread(
                board_png, table.game, last_move=table.game.last_move, names=side_names(table.row)
            )
        async with self.languages.of_board(table.row):
            return board_message(table, picture)

    async def redraw(self, table: Table, via: discord.Interaction | None = None) -> Table | None:
        """Draw ``table`` on its board message; if Discord refuses the edit, post the board anew
        in the channel, which becomes the game's board. The game as shown (its board may have
        moved), or ``None`` if Discord refused both: then the stored game stays the truth, and
        any press on its old board or ``/wari board`` shows it. Where the bot only answers
        interactions, the board is drawn through ``via`` (:meth:`draw_through`), if given."""
        if through_interactions(table.row):
            return await self.draw_through(via, table) if via is not None else None
        async with self.languages.of_board(table.row):  # also when the computer or the sweep changed it
            if await self.presenter.edit(table.row.channel_id, table.row.message_id, await self.message(table)):
                await self.service.games.shown(table)
                return table
            return await self.post(None, table, self.client.get_partial_messageable(table.row.channel_id))

    async def post(
        self, interaction: discord.Interaction | None, table: Table, where: discord.abc.Messageable | None = None
    ) -> Table | None:
        """Post the board as a new message (the answer, or in ``where``): the game's board from
        now on. If Discord refuses the answer, the board is posted in the channel instead;
        ``None`` if Discord refused that too (the game's board did not change). If the database
        cannot record the new board, the new message is deleted: a game that had a board keeps
        it (the :class:`StorageError` is raised), a new game is refused with :data:`BOARD_NOT_SAVED`."""
        try:
            message = await self.presenter.respond(interaction, where, await self.message(table))
        except discord.HTTPException as exc:
            log.warning("could not post the board of game %s: %s", table.row.id, exc)
            if where is not None or through_interactions(table.row):
                return None
            assert interaction is not None  # without ``where``, the board was its answer
            posted = await self.post(None, table, self.client.get_partial_messageable(table.row.channel_id))
            if posted is not None:  # the command still needs its answer
                await self.presenter.tell(
                    interaction,
                    N_("Game #{number} → [board]({url})"),
                    number=posted.row.id,
                    url=posted.row.board_url,
                )
            return posted
        try:
            current = await self.service.games.moved_board(table, message.id, discord.utils.utcnow())
        except StorageError as error:
            # A board whose place is not saved would refuse every press: it is taken back. A game
            # that had a board keeps it, live, so "nothing was changed" is true; a new game has
            # none yet, and its players are told so, not that nothing changed.
            if not through_interactions(table.row):  # elsewhere its presses will say what stands
                await self.presenter.delete(message.channel.id, message.id)
            if table.row.message_id is not None:
                raise
            log.error("game %s started, but its board could not be saved: %s", table.row.id, error)
            raise Refusal(BOARD_NOT_SAVED, number=table.row.id) from error
        moved = current.game.ply != table.game.ply  # the computer moved while we were posting
        if through_interactions(table.row):  # no edit by id: a press on a board left behind redraws it
            if not moved:
                await self.service.games.shown(current)
            return current
        if not moved or await self.presenter.edit(message.channel.id, message.id, await self.message(current)):
            await self.service.games.shown(current)
        if table.row.message_id is not None:  # the old board must not look live
            await self.presenter.edit(table.row.channel_id, table.row.message_id, replaced_board(current))
        return current

    async def draw_through(self, via: discord.Interaction, table: Table) -> Table | None:
        """Show the board of a game where the bot only answers interactions, through ``via``: the
        pressed board redrawn as the press's answer (or later through the press, as the computer's
        reply is), or the board a command answered with redrawn through it; else posted anew as
        ``via``'s answer or follow-up, which becomes the game's board. The game as shown, or
        ``None`` if Discord refused (the next press shows it)."""
        pressed = via.message
        redrawn = pressed is not None and pressed.id == table.row.message_id and via.response.type in REDRAWS_PRESSED
        if redrawn or await self.answered_with_board(via, table):
            if await self.presenter.update_pressed(via, await self.message(table)):
                await self.service.games.shown(table)
                return table
            return None
        try:
            return await self.post(via, table)
        except StorageError:
            log.error("the board of game %s was shown, but could not be saved as its board", table.row.id)
            return None

    @staticmethod
    async def answered_with_board(via: discord.Interaction, table: Table) -> bool:
        """Whether ``via`` is a command whose answer is ``table``'s board (``/wari play`` the
        computer moves first in, ``/wari board``): the computer's reply is drawn on it, not on a
        second board beside it (discord.py keeps the answer it fetches)."""
        if via.message is not None or via.response.type is not discord.InteractionResponseType.channel_message:
            return False
        try:
            answer = await via.original_response()
        except (discord.HTTPException, discord.ClientException) as exc:
            log.warning("could not read the answer of interaction %s: %s", via.id, exc)
            return False
        return answer.id == table.row.message_id

    async def show_move(self, interaction: discord.Interaction, table: Table) -> None:
        """Redraw the pressed board as the press's answer. If Discord refuses, the board is redrawn
        by id or posted anew (:meth:`redraw`), and the presser is told that the move counts all the same."""
        if await self.presenter.update_pressed(interaction, await self.message(table)):
            await self.service.games.shown(table)
            return
        log.warning("game %s moved, but the pressed board could not be redrawn", table.row.id)
        shown = None if through_interactions(table.row) else await self.redraw(table)
        if shown is None or shown.row.message_id != table.row.message_id:
            await self.presenter.tell(
                interaction,
                N_("The move `{move}` was played. {where}"),
                move=table.game.last_move,
                where=where_shown(shown),
            )

    async def refuse_stale(self, interaction: discord.Interaction, stale: StaleBoard) -> None:
        """A press on a board that is not the game's current view: make the pressed message tell
        the truth (the current position, or a pointer to the board that replaced it), then say why."""
        pressed_game = game_of(interaction)
        table = stale.table if stale.table is not None and stale.table.row.id == pressed_game else None
        if table is None:  # the game ended: the pressed board shows its end, if it is its board
            # (a forged id of another server's game is refused: nothing of it is shown here)
            table = await self.service.tables.game_shown(pressed_game, number_scope(interaction))
        assert interaction.message is not None  # a press comes from a message
        if table.row.message_id == interaction.message.id:
            message, text = await self.message(table), stale_reason(table, interaction, table.row.board_behind)
        else:
            message, text = (
                replaced_board(table),
                Text(N_("This board was replaced: use the current one, linked here.")),
            )
        if not await self.presenter.update_pressed(interaction, message):
            log.warning("could not bring a stale board of game %s up to date", table.row.id)
        elif table.row.message_id == interaction.message.id:
            await self.service.games.shown(table)
        await self.presenter.tell(interaction, text)
