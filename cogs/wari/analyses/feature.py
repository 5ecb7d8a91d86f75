"""``/wari analyse`` and the Analyse button: the computer's analysis of a finished game.

Asking posts one message in the channel that shows the analysis's progress, edited every couple
of seconds as the positions are judged, and becomes the result when it is done
(:mod:`.views`). The analysis itself runs in the computer's workers
(:class:`bot.service.analyses.AnalysisService`) and is stored once done, so asking again shows it
at once; one that a restart interrupted starts again by itself, on the same message.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.ai.analysis import GameAnalysis
from bot.i18n import N_
from bot.service import Refusal
from bot.service.analyses import AnalysisService
from bot.storage import INTERACTION, AnalysisRow, GameRow, Queued

from ..languages import Languages
from ..permissions import venue_of
from ..presenter import Message, Presenter, channel_of
from ..records import Records
from ..views import side_names
from .views import failed_message, progress_message, result_message

log = logging.getLogger("cogs.wari")

#: Why an analysis was not queued, as the asker reads it.
REFUSALS = {
    "active": N_("Game #{number} is being analysed already: {link}"),
    "yours": N_("Your analysis of game #{number} is still under way: one at a time, please. {link}"),
    #: One at a time counts in every server, but another server's game is not named, nor linked, here.
    "yours elsewhere": N_("Your analysis of a game of another server is still under way: one at a time, please."),
    "full": N_("I'm analysing too many games right now. Please try again in a few minutes."),
}

#: An analysis asked where the bot only answers interactions: it cannot edit its progress there.
ONLY_WHERE_I_POST = N_(
    "I cannot show an analysis here: it takes a while, and here I can only answer at once. "
    "Ask me in our DM, where `/wari analyse game: {number}` works on your own games."
)


class Analyses:
    """Asks for analyses, shows their progress and their results, and resumes them after a restart."""

    def __init__(self, service: AnalysisService, records: Records, presenter: Presenter, languages: Languages) -> None:
        self.service = service
        self.records = records
        self.presenter = presenter
        self.languages = languages
        self.tasks: dict[tuple[int, str], asyncio.Task] = {}
        #: Where each running analysis shows itself: (channel, message).
        self.messages: dict[tuple[int, str], tuple[int | None, int | None]] = {}

    async def analyse(self, interaction: discord.Interaction, number: int, quick: bool) -> None:
        game = await self.records.game_shown_here(interaction, number)
        await self.ask(interaction, game, "quick" if quick else "default")

    async def press(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Analyse button under a finished game."""
        game = await self.records.game_shown_here(interaction, game_id)
        await self.ask(interaction, game, "default")

    async def ask(self, interaction: discord.Interaction, game: GameRow, depth: str) -> None:
        if venue_of(interaction) == INTERACTION:
            raise Refusal(ONLY_WHERE_I_POST, number=game.id)
        queued = await self.service.request(game, interaction.user.id, depth)
        if queued.refusal == "done":
            assert queued.row is not None and queued.row.result is not None  # a done analysis has its result
            analysis = GameAnalysis.from_json(queued.row.result)
            await self.presenter.announce(interaction, result_message(game, analysis, side_names(game)))
            return
        if queued.refusal is not None:
            raise self.refusal(queued, interaction.guild_id)
        row = queued.row
        assert row is not None  # queued
        ahead = await self.service.ahead_of(row)
        channel_id = channel_of(interaction)
        shown: discord.Message | None = None
        try:
            shown = await self.presenter.respond(interaction, None, progress_message(row, 0, row.total_plies, ahead))
        except discord.HTTPException as exc:  # the analysis runs all the same: its result is posted
            log.warning("could not show the analysis of game %s: %s", row.game_id, exc)
            await self.presenter.tell(interaction, N_("🔬 Game #{number} is being analysed."), number=row.game_id)
        message_id = shown.id if shown is not None else None
        await self.service.set_message(row, channel_id, message_id)
        self.start(row, channel_id, message_id)

    def refusal(self, queued: Queued, guild_id: int | None) -> Refusal:
        """Why ``queued`` was not queued, as the asker in server ``guild_id`` reads it."""
        row = queued.row
        number = row.game_id if row is not None else 0
        link = row.message_url if row is not None else ""
        reason = queued.refusal
        assert reason is not None
        if reason == "yours" and row is not None and row.guild_id != guild_id:
            reason = "yours elsewhere"
        return Refusal(REFUSALS[reason], number=number, link=link)

    def start(self, row: AnalysisRow, channel_id: int | None, message_id: int | None) -> None:
        key = (row.game_id, row.depth)
        if key in self.tasks:
            return
        self.messages[key] = (channel_id, message_id)
        task = asyncio.get_running_loop().create_task(self._run(row), name=f"wari-analysis-{row.game_id}")
        self.tasks[key] = task
        task.add_done_callback(lambda _: self._forget(key, task))

    def _forget(self, key: tuple[int, str], task: asyncio.Task) -> None:
        if self.tasks.get(key) is task:
            del self.tasks[key]
            self.messages.pop(key, None)

    async def resume(self) -> None:
        """After a restart: start again every analysis left queued or running, on its message."""
        for row in await self.service.unfinished():
            log.info("starting the analysis of game %s (%s) again", row.game_id, row.depth)
            self.start(row, row.channel_id, row.message_id)

    def stop(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()

    async def _run(self, row: AnalysisRow) -> None:
        analysis = await self.service.run(row, self._show_progress)
        game = await self.service.game_of(row)
        async with self.languages.public(row.guild_id):
            if analysis is not None and game is not None:
                message = result_message(game, analysis, side_names(game))
            else:
                message = failed_message(row)
        await self._show(row, message, repost=True)

    async def _show_progress(self, row: AnalysisRow, done: int, total: int) -> None:
        async with self.languages.public(row.guild_id):
            message = progress_message(row, done, total)
        await self._show(row, message, repost=False)

    async def _show(self, row: AnalysisRow, message: Message, *, repost: bool) -> None:
        """Edit the analysis's message; for its end, post it anew if the edit is refused (the
        message was deleted, or never posted), so that nobody is left watching a bar that stopped."""
        channel_id, message_id = self.messages.get((row.game_id, row.depth), (row.channel_id, row.message_id))
        if channel_id is None:
            return
        if await self.presenter.edit(channel_id, message_id, message) or not repost:
            return
        posted = await self.presenter.post(channel_id, message)
        if posted is not None:
            await self.service.set_message(row, channel_id, posted.id)
