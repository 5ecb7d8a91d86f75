"""Puzzles: ``/wari puzzle next`` (a puzzle near your puzzle rating, solved with cup buttons),
``/wari puzzle daily`` (the server's puzzle of the day, one try each), ``/wari-mod puzzle daily``
(post it in a channel at an hour), and the sweep's part that posts it.

A try is stored move by move (:mod:`bot.service.puzzles`), so its buttons work after a restart;
a wrong move is answered with its refutation, searched in the computer's worker processes.

:func:`install` wires the feature into the cog: its commands, its button handler (kind
``puzzle``) and its part of the sweep.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import date
from typing import TYPE_CHECKING, Any

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.ai.puzzles import daily, puzzle_by_id
from bot.i18n import N_, _, speaking
from bot.names import markdown_name
from bot.service import Computer, Refusal
from bot.service.puzzles import DAILY_VARIANT, Played, PuzzleService, Try, refutation_line
from bot.storage import StorageError
from bot.storage.puzzles import DailySetting, moves_text

from .buttons import Handler
from .languages import Languages
from .presenter import Message, Presenter, Unexpected
from .puzzle_commands import PuzzleCommands, PuzzleModerationCommands
from .puzzle_views import BUTTONS, daily_message, puzzle_message, solvers_line

if TYPE_CHECKING:
    from .cog import WariCog

log = logging.getLogger("cogs.wari")

__all__ = ["BUTTONS", "DailyPuzzles", "Puzzles", "install"]

#: Seconds a refutation may take before the wrong move is shown without it.
REFUTATION_TIMEOUT = 20
#: The answer to a bug in a puzzle press: what it left undone is not known; the try shows it.
PUZZLE_TROUBLE = N_(
    "Something went wrong on my side. `/wari puzzle next` (or `/wari puzzle daily`) shows your try where it "
    "stands; please try again."
)
RESUMED = N_("You have a puzzle under way: here it is again. Finish it, or press **Show the solution**.")


class Puzzles:
    """Tries at puzzles: starting one, its moves, giving up, the next one."""

    def __init__(self, service: PuzzleService, presenter: Presenter, computer: Computer) -> None:
        self.service = service
        self.presenter = presenter
        self.computer = computer
        #: Told when a daily try ends (its server's post shows who solved it).
        self.dailies: DailyPuzzles | None = None

    async def next(self, interaction: discord.Interaction, variant: str, public: bool) -> None:
        """``/wari puzzle next``: the try under way again, else a new puzzle near the player's rating."""
        solver = markdown_name(interaction.user.display_name)
        attempt = await self.service.open_try(interaction.user.id)
        if attempt is not None:
            await self.show(interaction, puzzle_message(attempt, solver), public, note=_(RESUMED))
            return
        attempt = await self.service.start(interaction.user.id, interaction.guild_id, variant, now())
        await self.show(interaction, puzzle_message(attempt, solver), public)

    async def show(self, interaction: discord.Interaction, message: Message, public: bool, note: str = "") -> None:
        """A try's board as the answer: private unless ``public``."""
        fields = message.for_send()
        if note:
            fields["content"] = f"{note}\n{fields.get('content', '')}"
        if interaction.response.is_done():
            await interaction.followup.send(**fields, ephemeral=not public)
        else:
            await interaction.response.send_message(**fields, ephemeral=not public)

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
        elif action == "daily" and self.dailies is not None:
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
            await self.show(interaction, message, public=False)
        if played.ended is not None and attempt.row.daily is not None and self.dailies is not None:
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

    def __init__(self, service: PuzzleService, puzzles: Puzzles, presenter: Presenter, languages: Languages) -> None:
        self.service = service
        self.puzzles = puzzles
        self.presenter = presenter
        self.languages = languages

    async def play(self, interaction: discord.Interaction) -> None:
        """``/wari puzzle daily``: a private try at today's puzzle, or the one already made."""
        guild_id = self.guild_of(interaction)
        user = interaction.user
        attempt, new = await self.service.start_daily(guild_id, user.id, now(), user.display_name)
        solver = markdown_name(interaction.user.display_name)
        note = ""
        if not new and attempt.row.open:
            note = _("Your try at today's puzzle, where you left it:")
        elif not new:
            solvers, tried = await self.service.daily_results(guild_id, attempt.row.daily or "")
            note = _("You have had your try at today's puzzle.") + "\n" + solvers_line(solvers, tried)
        await self.puzzles.show(interaction, puzzle_message(attempt, solver), public=False, note=note)

    async def press(self, interaction: discord.Interaction, day: str) -> None:
        """**Try it** on a post: the presser's private try, in their language."""
        with speaking(await self.languages.of_reader(interaction)):
            if day != now().date().isoformat():
                raise Refusal(N_("This was the puzzle of {day}. Today's: `/wari puzzle daily`."), day=day)
            await self.play(interaction)

    @staticmethod
    def guild_of(interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise Refusal(N_("Wari is played in server channels, not in direct messages."))
        return interaction.guild_id

    async def redraw_post(self, guild_id: int | None, day: str) -> None:
        """The server's post of ``day``, if there is one, with who solved it now."""
        if guild_id is None:
            return
        row = await self.service.store.daily_puzzle(guild_id, day, daily(DAILY_VARIANT, date.fromisoformat(day)).id)
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
        guild_id = self.guild_of(interaction)
        store = self.service.store
        current = await store.daily_setting(guild_id)
        if channel is not None or hour is not None or off:
            if not interaction.permissions.manage_guild:
                raise Refusal(N_("Only members with the Manage Server permission can change this server's settings."))
            chosen = None if off else channel.id if channel is not None else current.channel_id
            if chosen is None and not off:
                raise Refusal(N_("Choose the channel the daily puzzle is posted in: `channel`."))
            hour = None if off else hour if hour is not None else current.hour if current.hour is not None else 12
            await store.set_daily_setting(guild_id, chosen, hour)
            current = DailySetting(guild_id, chosen, hour)
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
        day = moment.date()
        for setting in await self.service.store.dailies_due(day.isoformat(), moment.hour):
            try:
                await self.post(setting, day)
            except Exception:
                log.exception("could not post the daily puzzle of server %s", setting.guild_id)

    async def post(self, setting: DailySetting, day: date) -> None:
        store = self.service.store
        assert setting.channel_id is not None  # a due setting has its channel
        claimed = await store.claim_daily_post(
            setting.guild_id, day.isoformat(), daily(DAILY_VARIANT, day).id, setting.channel_id, now()
        )
        puzzle = puzzle_by_id(claimed.puzzle_id) if claimed is not None else None
        if puzzle is None:
            return  # posted by another process already, or its puzzle is gone
        solvers, tried = await self.service.daily_results(setting.guild_id, day.isoformat())
        async with self.languages.public(setting.guild_id):
            message = daily_message(puzzle, day, solvers, tried)
        posted = await self.presenter.post(setting.channel_id, message)
        if posted is not None:  # else the claim stands: one failed post a day, logged, not one a sweep
            await store.set_daily_message(setting.guild_id, day.isoformat(), posted.id)


class PuzzleFeature:
    """What :func:`install` gives the cog: the features, their button handler and sweep part."""

    def __init__(self, puzzles: Puzzles, dailies: DailyPuzzles) -> None:
        self.puzzles = puzzles
        self.dailies = dailies
        #: The sweep's part (a closer of :class:`cogs.wari.clocks.Clocks`).
        self.post_due_dailies = dailies.post_due

    def handlers(self, press: Any) -> dict[str, Handler]:
        """The button handler of kind ``puzzle``, run through the cog's :meth:`Answering.press`."""
        return {"puzzle": lambda interaction, *args: press(interaction, self.puzzles.press, *args)}


def install(cog: WariCog) -> PuzzleFeature:
    """Build the puzzles for ``cog`` and add their commands to ``/wari`` and ``/wari-mod``."""
    service = PuzzleService(cog.bot.store, rng=getattr(cog.bot, "rng", None))
    languages = cog.presenter.languages
    puzzles = Puzzles(service, cog.presenter, cog.computer)
    dailies = DailyPuzzles(service, puzzles, cog.presenter, languages)
    puzzles.dailies = dailies
    cog.wari.add_command(PuzzleCommands(cog.answering, puzzles, dailies))
    cog.wari_mod.add_command(PuzzleModerationCommands(cog.answering, dailies))
    return PuzzleFeature(puzzles, dailies)
