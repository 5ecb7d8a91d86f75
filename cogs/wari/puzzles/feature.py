"""Puzzles: ``/wari puzzle next`` (a puzzle near your puzzle rating, solved with cup buttons),
``/wari puzzle daily`` (the server's puzzle of the day, one try each), ``/wari-mod puzzle daily``
(post it in a channel at an hour), and the sweep's part that posts it.

A try is stored move by move (:mod:`bot.service.puzzles`), so its buttons work after a restart;
a wrong move is answered with its refutation, searched in the computer's worker processes.

The cog builds :class:`DailyPuzzles` first, then :class:`Puzzles` with it (a daily try's buttons
are a puzzle's, and its end redraws the server's post); their commands are
:mod:`.commands`, their button handler is of kind ``puzzle``, and
:meth:`DailyPuzzles.post_due` is a part of the sweep.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import date
from typing import Any

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.ai.puzzles import puzzle_by_id
from bot.i18n import N_, _, speaking
from bot.names import markdown_name
from bot.service import Computer, Refusal
from bot.service.puzzles import Played, PuzzleService, Try, refutation_line
from bot.storage import StorageError
from bot.storage.puzzles import DailySetting, moves_text

from ..languages import Languages
from ..permissions import server_here
from ..presenter import Message, Presenter, Unexpected
from .views import daily_message, puzzle_message, solvers_line

log = logging.getLogger("cogs.wari")

__all__ = ["DailyPuzzles", "Puzzles"]

#: Seconds a refutation may take before the wrong move is shown without it.
REFUTATION_TIMEOUT = 20
#: The answer to a bug in a puzzle press: what it left undone is not known; the try shows it.
PUZZLE_TROUBLE = N_(
    "Something went wrong on my side. `/wari puzzle next` (or `/wari puzzle daily`) shows your try where it "
    "stands; please try again."
)
RESUMED = N_("You have a puzzle under way: here it is again. Finish it, or press **Show the solution**.")


def with_note(message: Message, note: str) -> Message:
    """A try's board with ``note`` above its words (a try shown again says why)."""
    if not note:
        return message
    words = message.content if isinstance(message.content, str) else ""
    return replace(message, content=f"{note}\n{words}")


class Puzzles:
    """Tries at puzzles: starting one, its moves, giving up, the next one."""

    def __init__(self, service: PuzzleService, presenter: Presenter, computer: Computer, dailies: DailyPuzzles) -> None:
        self.service = service
        self.presenter = presenter
        self.computer = computer
        #: The daily tries: a Try it press is theirs, and the end of one redraws its server's post.
        self.dailies = dailies

    async def next(self, interaction: discord.Interaction, variant: str, public: bool) -> None:
        """``/wari puzzle next``: the try under way again, else a new puzzle near the player's rating."""
        solver = markdown_name(interaction.user.display_name)
        attempt = await self.service.open_try(interaction.user.id)
        if attempt is not None:
            resumed = with_note(puzzle_message(attempt, solver), _(RESUMED))
            await self.presenter.answer(interaction, resumed, private=not public)
            return
        attempt = await self.service.start(interaction.user.id, interaction.guild_id, variant, now())
        await self.presenter.answer(interaction, puzzle_message(attempt, solver), private=not public)

    async def press(self, interaction: discord.Interaction, action: str, *values: Any) -> None:
        """A puzzle button: a cup, Show the solution, Next puzzle, or a daily post's Try it. A bug
        is answered with words that point at the try (`/wari board` shows a game, not a puzzle)."""
        try:
            await self._handle(interaction, action, *values)
        except (Refusal, StorageError):
            raise  # answered as they are
        except Exception as error:
            raise Unexpected(PUZZLE_TROUBLE) from error

    async def _handle(self, interaction: discord.Interaction, action: str, *values: Any) -> None:
        if action == "move":
            await self.move(interaction, *values)
        elif action == "solution":
            await self.give_up(interaction, *values)
        elif action == "next":
            public = interaction.message is not None and not interaction.message.flags.ephemeral
            await self.next(interaction, values[0], public)
        elif action == "daily":
            await self.dailies.press(interaction, values[0])

    async def move(self, interaction: discord.Interaction, attempt_id: int, step: int, house: int) -> None:
        played = await self.service.move(attempt_id, interaction.user.id, step, house, now())
        await self.answer(interaction, played)

    async def give_up(self, interaction: discord.Interaction, attempt_id: int, step: int) -> None:
        played = await self.service.give_up(attempt_id, interaction.user.id, step, now())
        await self.answer(interaction, played)

    async def answer(self, interaction: discord.Interaction, played: Played) -> None:
        """Redraw the pressed board; a wrong move first waits for its refutation."""
        attempt, refutation = played.attempt, None
        if attempt.wrong is not None:
            await self.presenter.acknowledge(interaction)  # a search follows: Discord waits
            refutation = await self.refute(attempt)
        solver = markdown_name(interaction.user.display_name)
        message = puzzle_message(attempt, solver, played.ended, refutation)
        if not await self.presenter.update_pressed(interaction, message):
            await self.presenter.answer(interaction, message, private=True)
        if played.ended is not None and attempt.row.daily is not None:
            await self.dailies.redraw_post(attempt.row.guild_id, attempt.row.daily)

    async def refute(self, attempt: Try) -> tuple[int, ...] | None:
        """The opponent's best line after the try's wrong move (``None`` if the search failed)."""
        assert attempt.wrong is not None
        args = (attempt.puzzle.id, moves_text(attempt.right_moves), attempt.wrong)
        try:
            return await asyncio.wait_for(self.computer.in_worker(refutation_line, *args), REFUTATION_TIMEOUT)
        except Exception:
            log.exception("could not refute move %s of puzzle try %s", attempt.wrong, attempt.row.id)
            return None


class DailyPuzzles:
    """Each server's puzzle of the day: a try at it, its post and the moderators' setting."""

    def __init__(self, service: PuzzleService, presenter: Presenter, languages: Languages) -> None:
        self.service = service
        self.presenter = presenter
        self.languages = languages

    async def play(self, interaction: discord.Interaction) -> None:
        """``/wari puzzle daily``: a private try at today's puzzle, or the one already made."""
        guild_id = server_here(interaction)
        user = interaction.user
        attempt, new = await self.service.start_daily(guild_id, user.id, now(), user.display_name)
        solver = markdown_name(interaction.user.display_name)
        note = ""
        if not new and attempt.row.open:
            note = _("Your try at today's puzzle, where you left it:")
        elif not new:
            solvers, tried = await self.service.daily_results(guild_id, attempt.row.daily or "")
            note = _("You have had your try at today's puzzle.") + "\n" + solvers_line(solvers, tried)
        await self.presenter.answer(interaction, with_note(puzzle_message(attempt, solver), note), private=True)

    async def press(self, interaction: discord.Interaction, day: str) -> None:
        """**Try it** on a post: the presser's private try, in their language."""
        with speaking(await self.languages.of_reader(interaction)):
            if day != now().date().isoformat():
                raise Refusal(N_("This was the puzzle of {day}. Today's: `/wari puzzle daily`."), day=day)
            await self.play(interaction)

    async def redraw_post(self, guild_id: int | None, day: str) -> None:
        """The server's post of ``day``, if there is one, with who solved it now."""
        if guild_id is None:
            return
        row = await self.service.daily_post(guild_id, date.fromisoformat(day))
        puzzle = puzzle_by_id(row.puzzle_id)
        if row.channel_id is None or row.message_id is None or puzzle is None:
            return
        solvers, tried = await self.service.daily_results(guild_id, day)
        async with self.languages.public(guild_id):
            message = daily_message(puzzle, date.fromisoformat(day), solvers, tried)
        await self.presenter.edit(row.channel_id, row.message_id, message)

    async def setting(
        self, interaction: discord.Interaction, channel: discord.abc.GuildChannel | None, hour: int | None, off: bool
    ) -> None:
        """``/wari-mod puzzle daily``: where and at which UTC hour the day's puzzle is posted."""
        guild_id = server_here(interaction)
        if channel is None and hour is None and not off:
            current = await self.service.daily_setting(guild_id)
        elif not interaction.permissions.manage_guild:
            raise Refusal(N_("Only members with the Manage Server permission can change this server's settings."))
        else:
            chosen = channel.id if channel is not None else None
            current = await self.service.change_daily_setting(guild_id, channel_id=chosen, hour=hour, off=off)
        await self.presenter.tell(interaction, self.setting_words(current))

    @staticmethod
    def setting_words(setting: DailySetting) -> str:
        if setting.channel_id is None or setting.hour is None:
            return _(
                "📅 The daily puzzle is not posted here. Choose where and when: "
                "`/wari-mod puzzle daily channel: hour:`. Members can still play it with `/wari puzzle daily`."
            )
        return _(
            "📅 The daily puzzle is posted in {channel} every day at **{hour}:00 UTC** "
            "(today's at once if that hour has passed). Stop with `off: True`.",
            channel=f"<#{setting.channel_id}>",
            hour=f"{setting.hour:02d}",
        )

    async def post_due(self) -> None:
        """The sweep's part: post each server's puzzle of the day once its hour has come."""
        moment = now()
        for setting in await self.service.dailies_due(moment):
            try:
                await self.post(setting, moment.date())
            except Exception:
                log.exception("could not post the daily puzzle of server %s", setting.guild_id)

    async def post(self, setting: DailySetting, day: date) -> None:
        puzzle = await self.service.claim_daily_post(setting, day, now())
        if puzzle is None:
            return  # posted by another process already, or its puzzle is gone
        assert setting.channel_id is not None  # a due setting has its channel
        solvers, tried = await self.service.daily_results(setting.guild_id, day.isoformat())
        async with self.languages.public(setting.guild_id):
            message = daily_message(puzzle, day, solvers, tried)
        posted = await self.presenter.post(setting.channel_id, message)
        if posted is not None:  # else the claim stands: one failed post a day, logged, not one a sweep
            await self.service.set_daily_message(setting.guild_id, day, posted.id)
