"""The live games this process has seen, kept in memory so that a press needs no read.

The process that runs a server's shard gets every press of its channels, so it saw the latest
change of their games, and a press can play on the game as it saw it: the one trip before the
board's answer is the move's save. The database stays the truth: the save is a compare-and-set
on the game's version (:meth:`bot.storage.games.GameQueries.save_game`), so a save from a game
that changed meanwhile (another process, a sweep of another shard's process, a moderator, a
restart) changes nothing, and the press is played again on the game read afresh; a refusal that
the game as kept here gives (not your turn, an out-of-date board) is checked against the
database the same way before it is said (:meth:`bot.service.base.Tables.acting_on`). Nothing
but a press and the computer's move read a game from here.

Every change this process writes passes through here (:meth:`LiveGames.keep`): a game that ends
is dropped, so only live games are kept (see ``benchmarks/memory.py`` for their cost). With its
row, a game keeps its engine game, taken up once a version (:meth:`LiveGames.table`, or given
by the press that saved it: :meth:`LiveGames.played`): each press plays on a copy of its own,
so a press whose save fails leaves it as it was, and the board of one press may still be drawn
while the next press of its channel plays.

Also kept here, until they are written: bookkeeping, not the game, written with the game's next
change (:meth:`LiveGames.written_with`). The marks that a game's board message shows its latest
version (:meth:`LiveGames.shown`), also written all together by the sweep and before boards left
behind are looked for: a mark a crash loses only makes the start-up redraw that board once more
(it is drawn idempotently). And a ping taken back when its turn passed
(:meth:`LiveGames.taken_back`): until it is written, the game still names it as its last ping,
so that a crash before its message was deleted loses nothing (the next ping deletes it; deleting
a message already gone is nothing).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.engine import Game
from bot.engine.notation import taken_up
from bot.storage import GameRow

from .table import Table


@dataclass(frozen=True)
class Live:
    """A live game as this process last saved or read it."""

    row: GameRow
    #: Those of its players who turned pings off, as the last save read them (``None``: not known).
    muted: frozenset[int] | None = None
    #: The row's game, taken up from its record (:func:`bot.engine.notation.taken_up`) and never
    #: played on: a press gets a copy (``None``: not taken up yet).
    game: Game | None = None


def pings(row: GameRow) -> tuple:
    """What a ping's record or its taking back changes of a game (not its version)."""
    return row.ping_at, row.ping_kind, row.ping_message_id


class LiveGames:
    """The live games this process has seen, by number, and the board marks not yet written."""

    def __init__(self) -> None:
        self._games: dict[int, Live] = {}
        #: Games whose board message shows a version not yet noted in the database: the game as shown.
        self._shown: dict[int, GameRow] = {}
        #: Games whose last ping was taken back (deleted), though the database still names it: its message.
        self._taken_back: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._games)

    def get(self, game_id: int) -> Live | None:
        return self._games.get(game_id)

    def keep(self, row: GameRow, muted: frozenset[int] | None = None, *, written: bool = False) -> None:
        """Note ``row`` as the game now is (``written``: this process just wrote it, a save or a
        ping's record; else it was read): a game that is over is dropped; an older version than
        the one kept is ignored (a slower writer's answer).

        A ping is recorded without a change of version, so a read of the version kept that names
        other pings may be older than a record made meanwhile (sent before it, answered after
        it), or newer (another process's record): which is not known, so the game is forgotten,
        and read afresh by its next press. (A copy behind in its pings would cost the press no
        error, only a second try: its save compares the ping too.)"""
        if not row.live:
            self.drop(row.id)
            return
        known = self._games.get(row.id)
        if known is not None and known.row.version > row.version:
            return
        if known is not None and known.row.version == row.version and not written and pings(known.row) != pings(row):
            self.forget(row.id)
            return
        if muted is None and known is not None:
            muted = known.muted
        game = known.game if known is not None and known.row.record == row.record else None
        self._games[row.id] = Live(self.as_shown(row), muted, game)
        if self._taken_back.get(row.id, row.ping_message_id) != row.ping_message_id:
            del self._taken_back[row.id]  # another ping is recorded now: nothing to write

    def table(self, game_id: int) -> Table | None:
        """Game ``game_id`` as kept, with an engine game of its own to play on (``None``: not kept).
        Its record is read once a version, not once a press: a copy of what the first read took up."""
        known = self._games.get(game_id)
        if known is None:
            return None
        if known.game is not None:
            return Table(known.row, known.game.copy())
        table = Table.of(known.row)
        self._games[game_id] = dataclasses.replace(known, game=taken_up(table.game, known.row.record))
        return table

    def played(self, table: Table) -> None:
        """Keep ``table``'s game with its row, if that is the version kept (this process just saved
        it): the next press plays on a copy of it, without reading its record. ``table`` is its
        saver's still (its board is drawn from it): what is kept is a game of its own."""
        known = self._games.get(table.row.id)
        if known is not None and known.game is None and known.row.record == table.row.record:
            self._games[table.row.id] = dataclasses.replace(known, game=taken_up(table.game, table.row.record))

    def forget(self, game_id: int) -> None:
        """Drop a game (a save found it changed, or it is gone): its next press reads it. What its
        board shows and the ping taken back stay true, and wait to be written all the same."""
        self._games.pop(game_id, None)

    def drop(self, game_id: int) -> None:
        """Drop all of a game that is over (its board and pings are its ending's to settle)."""
        self._games.pop(game_id, None)
        self._shown.pop(game_id, None)
        self._taken_back.pop(game_id, None)

    def written_with(self, row: GameRow, changes: dict) -> dict:
        """The bookkeeping to write with ``changes`` of ``row``: its board's mark (unless its board
        moves), and the ping taken back forgotten, if ``row`` still names it (the save checks
        that the game still does: :meth:`bot.storage.games.GameQueries.save_game`)."""
        bookkeeping = {} if "message_id" in changes else self.shown_with(row)
        taken_back = self._taken_back.get(row.id)
        if taken_back is None or taken_back != row.ping_message_id or "ping_message_id" in changes:
            return bookkeeping
        return {**bookkeeping, "ping_message_id": None}

    # -- pings taken back -------------------------------------------------------------------

    def taken_back(self, game_id: int, message_id: int) -> bool | None:
        """Whether ``message_id``, the last ping of game ``game_id`` (its turn passed), is still the
        one this process knows it by: then it is noted as taken back, to forget with its next
        change, and the caller deletes it. ``False``: a newer ping replaced it (whose record
        deleted it); ``None``: the game is not kept here (the database says)."""
        known = self._games.get(game_id)
        if known is None:
            return None
        if known.row.ping_message_id != message_id:
            return False
        self._taken_back[game_id] = message_id
        return True

    def still_to_take_back(self, game_id: int, message_id: int | None) -> bool:
        """Whether ``message_id`` (a game's last ping, about to be replaced) is still to delete:
        not if it was taken back already."""
        return message_id is not None and self._taken_back.get(game_id) != message_id

    # -- which version each board shows -----------------------------------------------------

    def shown(self, row: GameRow) -> None:
        """Note that ``row``'s board message now shows its version, to write later (only a live
        game's: boards left behind are looked for among live games only)."""
        if not row.live or row.message_id is None:
            return
        noted = self._shown.get(row.id)
        if noted is None or noted.message_id != row.message_id or noted.version < row.version:
            self._shown[row.id] = row
        known = self._games.get(row.id)
        if known is not None:
            self._games[row.id] = dataclasses.replace(known, row=self.as_shown(known.row))

    def as_shown(self, row: GameRow) -> GameRow:
        """``row`` with the version its board shows as noted here, if that is later than the stored one."""
        noted = self._shown.get(row.id)
        if noted is None or noted.message_id != row.message_id or (row.shown_version or -1) >= noted.version:
            return row
        return dataclasses.replace(row, shown_version=noted.version)

    def shown_with(self, row: GameRow) -> dict:
        """The mark to write with the next change of ``row`` (its board's message unchanged): none
        if there is nothing to note."""
        noted = self._shown.get(row.id)
        if noted is None or noted.message_id != row.message_id or noted.version > row.version:
            return {}
        return {"shown_version": noted.version}

    def written(self, row: GameRow) -> None:
        """The marks up to ``row``'s (written with it, or by :meth:`unwritten`'s caller) are in the database."""
        noted = self._shown.get(row.id)
        if noted is not None and noted.message_id == row.message_id and noted.version <= (row.shown_version or -1):
            del self._shown[row.id]

    def unwritten(self) -> list[GameRow]:
        """The marks not yet written, each as the game was shown, forgotten here (the caller writes
        them). The pings taken back of games no longer kept are forgotten too: such a game ended
        or changed elsewhere, and its next ping or its ending deletes its last ping anyway."""
        marks, self._shown = list(self._shown.values()), {}
        self._taken_back = {game: ping for game, ping in self._taken_back.items() if game in self._games}
        return marks
