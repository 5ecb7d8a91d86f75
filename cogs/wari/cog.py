"""The Wari cog: the ``/wari`` and ``/wari-mod`` commands as Discord sees them, each handed to the
feature that does it.

The cog is only the seam: it declares every command's name, options and descriptions (discord.py
reads them from here), builds the features with what each may use of the services the bot built
(:class:`bot.service.services.Services`) and of each other, and hands each command and each
button press to its feature through :class:`cogs.wari.answering.Answering`, which makes sure it
is answered. To find what a command does, read the method it names here.

======================  ==========================================
feature                 commands and buttons
======================  ==========================================
:mod:`.challenges`      challenge; Accept/Decline/Withdraw, Rematch
:mod:`.computer_games`  play, exhibition
:mod:`.games`           board, rules; cups, Next move
:mod:`.endings`         surrender, abort, wari-mod abort; Surrender
:mod:`.draws`           draw; Accept/Decline of an offer
:mod:`.controls`        a board's Take back, Offer draw, Abort, Surrender (handed to the three above)
:mod:`.seeks`           seek; Cancel
:mod:`.takebacks`       takeback; Accept/Decline of a request
:mod:`.standings`       stats, leaderboard, history; ◀ ▶
:mod:`.records`         record, replay; ⏮ ◀ ▶ ⏭
:mod:`.analyses`        analyse; Analyse
:mod:`.puzzles`         puzzle next|daily, wari-mod puzzle daily; a puzzle's cups, Show the solution,
                        Next puzzle, Try it; the daily post (sweep)
:mod:`.tournaments`     tournament join|leave|standings|results|list, wari-mod tournament ...;
                        Join/Leave; each event's next step (sweep)
:mod:`.seasons`         recap, wari-mod season settings; the season leaderboard; each season's podium
                        (sweep)
:mod:`.settings`        settings (a player's, a server's)
:mod:`.roles`           notify, wari-mod roles; the calls of a tournament or a seek (:mod:`.tiers`:
                        the rating-tier roles, after each rated game)
:mod:`.guide`           help; the game numbers suggested as they are typed
:mod:`.menus`           the Apps menus: Challenge to Wari (a member), Analyse this game (a board)
:mod:`.clocks`          the sweep: pings, reminders, time-outs, outages; challenges past their time
                        (:mod:`.challenge_expiry`)
======================  ==========================================
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.ai import DEFAULT_LEVEL
from bot.clock import DEFAULT_CLOCK
from bot.i18n import N_
from bot.service import Refusal, Table
from bot.service.services import Services

from . import buttons, records, standings
from .analyses.feature import Analyses
from .analyses.views import AnalyseButton
from .answering import Answering
from .boards import Boards
from .challenge_expiry import ChallengeExpiry
from .challenges import Challenges
from .clocks import Clocks
from .computer_games import ComputerGames
from .controls import Controls
from .cooldowns import limited
from .draws import Draws
from .endings import Endings, SurrenderButton
from .followup import Followup, Notices
from .games import Games
from .guide import Guide
from .languages import Languages
from .menus import ContextMenus
from .options import GAME_CHOICES, GAME_OPTIONS, LEVEL_CHOICES, VARIANT_CHOICES, GameOptions
from .permissions import EVERY_INSTALL, EVERYWHERE, Hosting, hosting, hosts_games, server_only
from .pings import Pings
from .presenter import Presenter
from .puzzles import views as puzzle_views
from .puzzles.commands import PuzzleCommands, PuzzleModerationCommands
from .puzzles.feature import DailyPuzzles, Puzzles
from .records import Records
from .roles import CALL_CHOICES, STOP_CHOICES, RoleCalls, RoleSettings
from .seasons import SEASON_CHOICES, SeasonModerationCommands, Seasons
from .seeks import CancelSeekButton, PlaySeekButton, Seeks
from .settings import BOARD_CHOICES, LANGUAGE_CHOICES, Settings
from .standings import SCOPES, Standings
from .takebacks import TakebackButton, Takebacks
from .threads import GameThreads
from .tiers import TierRoles
from .tournaments.commands import ScheduleCommands, TournamentCommands, TournamentModerationCommands
from .tournaments.feature import Tournaments
from .tournaments.moderation import TournamentModeration
from .tournaments.runs import TournamentRunner
from .tournaments.schedules import ScheduleModeration
from .tournaments.views import TeamButton, TournamentButton
from .views import ChallengeButton, ControlButton, CupButton, DrawButton, NextMoveButton, RematchButton

if TYPE_CHECKING:
    from bot.client import WariBot

#: Every button that outlives the process: found again from its custom id after a restart.
BUTTONS = (
    CupButton,
    ControlButton,
    ChallengeButton,
    NextMoveButton,
    RematchButton,
    DrawButton,
    SurrenderButton,
    CancelSeekButton,
    PlaySeekButton,
    TakebackButton,
    TournamentButton,
    TeamButton,
    AnalyseButton,
    *puzzle_views.BUTTONS,
    *records.BUTTONS,
    *standings.BUTTONS,
)
Houses = app_commands.Range[int, 1, 10]
PACES = [
    app_commands.Choice(name=N_("Next move button"), value="button"),
    app_commands.Choice(name=N_("On its own"), value="auto"),
]
ON_OFF = [app_commands.Choice(name=N_("on"), value="on"), app_commands.Choice(name=N_("off"), value="off")]


class WariCog(commands.Cog, name="Wari"):
    """Challenges, boards with cup buttons, clocks and pings, draws, rematches, settings and moderation."""

    #: Installed to servers and to users, used anywhere: a server, the bot's DM, a group DM. What
    #: needs a server that added the bot is marked :func:`server_only` (see :mod:`.permissions`).
    wari = app_commands.Group(
        name="wari",
        description=N_("Play Wari, the West African sowing game"),
        allowed_installs=EVERY_INSTALL,
        allowed_contexts=EVERYWHERE,
    )
    #: The moderators' commands, a group of their own: Discord hides it from members without Manage
    #: Messages (a subcommand cannot have permissions of its own), and server admins may change who sees it.
    #: A server's own: installed with the bot to a server, used there only.
    wari_mod = app_commands.Group(
        name="wari-mod",
        description=N_("Moderators: look after this server's Wari games"),
        allowed_installs=app_commands.AppInstallationType(guild=True),
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        default_permissions=discord.Permissions(manage_messages=True),
    )

    def __init__(self, bot: WariBot, services: Services) -> None:
        self.bot = bot
        games, players, events = services.games, services.players, services.tournaments
        #: The services' computer: the bot closes it; the cog stops its searches when it goes.
        self.computer = computer = services.computer
        languages = Languages(bot, players)
        self.presenter = presenter = Presenter(bot, languages)
        boards = Boards(bot, games, players, presenter, languages)
        pings = Pings(games, presenter, languages)
        notices = Notices(presenter, pings)
        threads = GameThreads(presenter)
        expiry = ChallengeExpiry(games, presenter, languages)
        self.hosting = hosting = Hosting(players)
        calls = RoleCalls(services.roles, presenter, languages)
        runner = TournamentRunner(bot, games, events, presenter, languages, boards, notices, players, calls)
        self.tiers = tiers = TierRoles(bot, services.roles, languages)

        async def on_end(table: Table) -> None:
            try:
                await runner.on_game_end(table)
            finally:
                await tiers.game_ended(table)

        self.followup = followup = Followup(notices, presenter, languages, boards, computer, on_end=on_end)
        self.answering = Answering(presenter, languages, on_time_up=followup.ended_on_time)
        self.computer_games = ComputerGames(bot, games, presenter, boards, followup, computer, threads, expiry)
        self.challenges = Challenges(bot, games, presenter, boards, followup, self.computer_games, threads, hosting)
        self.games = Games(games, presenter, languages, boards, followup, computer)
        self.endings = Endings(games, presenter, languages, followup)
        self.takebacks = Takebacks(games, presenter, followup, computer)
        self.draws = Draws(bot, games, presenter, followup, computer)
        self.controls = Controls(games, languages, boards, self.takebacks, self.draws, self.endings)
        self.seasons = Seasons(services.seasons, presenter, languages)
        self.standings = Standings(players, presenter, self.seasons)
        self.records = Records(bot, games, services.analyses, presenter)
        self.analyses = Analyses(services.analyses, self.records, presenter, languages)
        self.settings = Settings(players, presenter, languages)
        self.guide = Guide(players, presenter, languages)
        self.seeks = Seeks(services.seeks, games, presenter, languages, boards, followup, threads, calls)
        self.roles = RoleSettings(services.roles, presenter, tiers)
        self.tournaments = Tournaments(events, runner, presenter)
        moderation = TournamentModeration(games, events, runner, self.tournaments, presenter, followup)
        dailies = DailyPuzzles(services.puzzles, presenter, languages)
        self.puzzles = Puzzles(services.puzzles, presenter, computer, dailies)
        self.wari.add_command(TournamentCommands(self.answering, self.tournaments))
        self.wari.add_command(PuzzleCommands(self.answering, self.puzzles, dailies))
        self.wari_mod.add_command(TournamentModerationCommands(self.answering, moderation))
        self.wari_mod.add_command(ScheduleCommands(self.answering, ScheduleModeration(events, runner, presenter)))
        self.wari_mod.add_command(PuzzleModerationCommands(self.answering, dailies))
        self.wari_mod.add_command(SeasonModerationCommands(self.answering, self.seasons))
        closers = (
            expiry.close_expired,
            self.seeks.close_expired,
            runner.run_due,
            dailies.post_due,
            self.seasons.close_due,
        )
        self.clocks = Clocks(bot, games, boards, pings, followup, computer, closers)
        self.menus = ContextMenus(self.answering, self.challenges, self.analyses, hosting, BUTTONS)

    # -- lifecycle and listeners ----------------------------------------------------------------

    async def cog_load(self) -> None:
        press = self.answering.press
        handlers = {
            "cup": lambda i, *args: press(i, self.games.press_cup, *args),
            "act": lambda i, *args: press(i, self.controls.press, *args),
            "next": lambda i, *args: press(i, self.games.next_move, *args),
            "rematch": lambda i, *args: press(i, self.challenges.rematch, *args),
            "challenge": lambda i, *args: press(i, self.challenges.answer, *args),
            "draw": lambda i, *args: press(i, self.draws.answer, *args),
            "surrender": lambda i, *args: press(i, self.endings.surrender, *args),
            "seek": lambda i, *args: press(i, self.seeks.cancel, *args),
            "seek-play": lambda i, *args: press(i, self.seeks.play, *args),
            "takeback": lambda i, *args: press(i, self.takebacks.answer, *args),
            "tournament": lambda i, *args: press(i, self.tournaments.press, *args),
            "team": lambda i, *args: press(i, self.tournaments.choose_team, *args),
            "page": lambda i, *args: press(i, self.standings.turn_page, *args),
            "replay": lambda i, *args: press(i, self.records.step, *args),
            "analyse": lambda i, *args: press(i, self.analyses.press, *args),
            "puzzle": lambda i, *args: press(i, self.puzzles.press, *args),
        }
        buttons.register(self.bot, handlers)
        self.menus.add_to(self.bot.tree)
        # Every slash command's failure is answered (a check, a cooldown, an option that cannot be
        # read, a bug), wherever the command lives: the tree hears of them all, whereas the cog's
        # own error handler would miss the commands of a sub-group (bound to the group, not the cog).
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.error(self.presenter.report)
        await self.clocks.start()
        self._resuming = asyncio.get_running_loop().create_task(self.clocks.resume())
        await self.analyses.resume()
        self.tiers.resume()  # the old bands' roles a process before left to delete

    async def cog_unload(self) -> None:
        buttons.unregister(self.bot)
        self.menus.remove_from(self.bot.tree)
        self.bot.tree.error(self._tree_on_error)
        self.clocks.stop()
        await self.clocks.note_shown()  # the boards' marks kept in memory, before the database closes
        self._resuming.cancel()
        self.analyses.stop()
        await self.tiers.stop()
        self.computer.stop_thinking()  # its workers are the services': the bot closes them

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Before any command's own checks (a cooldown): a command marked ``hosting`` first
        checks that the bot may host a game in the channel."""
        if hosts_games(interaction.command):
            await self.hosting.check_command(interaction)
        return True

    @property
    def sweep(self) -> tasks.Loop:
        return self.clocks.sweep

    @property
    def heartbeat(self) -> tasks.Loop:
        return self.clocks.heartbeat

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        self.clocks.went_offline()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self.clocks.back_online()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.clocks.back_online()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the presses discord.py drops: a button a redraw removed between the click and
        its arrival (a double click, two players racing) is no longer on the message Discord
        sends with the press, so no item is made for it; nor for an id that no button class
        matches (an older version's, or a forged one). Every ``wari:`` press gets an answer, and
        one whose id is not of the pressed message is refused (see :mod:`.buttons`)."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        custom_id = str(interaction.data.get("custom_id", "")) if interaction.data is not None else ""
        if not custom_id.startswith("wari:"):
            return  # not ours
        if custom_id in buttons.custom_ids(interaction.message) and buttons.recognise(custom_id, BUTTONS):
            return  # discord.py dispatches it
        try:
            item = await buttons.dropped_press(interaction, custom_id, BUTTONS)
        except Refusal as refusal:
            await self.presenter.report(interaction, refusal)
            return
        await item.callback(interaction)

    # -- /wari: starting games ------------------------------------------------------------------

    @wari.command(name="challenge", description=N_("Challenge a member of this server, or anyone here, to a game"))
    @app_commands.describe(
        opponent=N_("Who you want to play (leave it out: anyone in this channel may accept)"),
        rating_within=N_("Open challenges only: who may accept, in rating points from yours (default: anyone)"),
        rated=N_("Change both players' ratings (default: yes); unrated games allow takebacks"),
        **GAME_OPTIONS,
    )
    @app_commands.choices(**GAME_CHOICES)
    @limited("game", "post")
    @hosting()
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        variant: str = "wari",
        first: str = "random",
        houses: Houses | None = None,
        seeds: Houses | None = None,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
        rating_within: app_commands.Range[int, 25, 1000] | None = None,
        rated: bool = True,
    ) -> None:
        options = GameOptions(variant, first, houses, seeds, clock, thread, rated)
        args = (opponent, options, rating_within)
        await self.answering.command(interaction, self.challenges.challenge, *args, private=False)

    @wari.command(name="play", description=N_("Play against me, the bot, at once"))
    @app_commands.describe(level=N_("How strongly I play, from Beginner to Expert (default: Strong)"), **GAME_OPTIONS)
    @app_commands.choices(level=LEVEL_CHOICES, **GAME_CHOICES)
    @limited("game", "post")
    @hosting()
    async def play(
        self,
        interaction: discord.Interaction,
        level: str = DEFAULT_LEVEL,
        variant: str = "wari",
        first: str = "random",
        houses: Houses | None = None,
        seeds: Houses | None = None,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
    ) -> None:
        options = GameOptions(variant, first, houses, seeds, clock, thread)
        await self.answering.command(interaction, self.computer_games.play, level, options, private=False)

    @wari.command(
        name="seek", description=N_("Find an opponent: wait in this server's queue, play as soon as one fits")
    )
    @app_commands.describe(
        variant=N_("Rule set (default: wari)"),
        clock=GAME_OPTIONS["clock"],
        rating_within=N_("Only opponents within this many rating points of you (default: anyone)"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, clock=GAME_CHOICES["clock"])
    @limited("game", "post")
    @hosting()
    @server_only()  # checked first (the checks run from the function up): a refusal spends no cooldown
    async def seek(
        self,
        interaction: discord.Interaction,
        variant: str = "wari",
        clock: str = DEFAULT_CLOCK,
        rating_within: app_commands.Range[int, 25, 1000] | None = None,
    ) -> None:
        args = (variant, clock, rating_within)
        await self.answering.command(interaction, self.seeks.seek, *args, private=False)

    @wari.command(name="exhibition", description=N_("Watch two computer levels play each other"))
    @app_commands.describe(
        level_a=N_("Who plays A (moves first)"),
        level_b=N_("Who plays B"),
        variant=N_("Rule set (default: wari)"),
        pace=N_("One move per press of Next move (default), or on its own every few seconds"),
    )
    @app_commands.choices(level_a=LEVEL_CHOICES, level_b=LEVEL_CHOICES, variant=VARIANT_CHOICES, pace=PACES)
    @limited("game", "post")
    @hosting()
    async def exhibition(
        self, interaction: discord.Interaction, level_a: str, level_b: str, variant: str = "wari", pace: str = "button"
    ) -> None:
        args = (level_a, level_b, variant, pace)
        await self.answering.command(interaction, self.computer_games.exhibition, *args, private=False)

    # -- /wari: the game in this channel --------------------------------------------------------

    @wari.command(name="board", description=N_("Show this channel's game again at the bottom of the channel"))
    @limited("post")
    @hosting()
    async def board(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.games.board, private=False)

    @wari.command(name="surrender", description=N_("Give up this channel's game: your opponent wins (asks first)"))
    async def surrender(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.endings.ask_surrender, private=True)

    @wari.command(name="abort", description=N_("Call off this channel's game before both sides have moved: unrated"))
    async def player_abort(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.endings.abort, private=False)

    @wari.command(name="draw", description=N_("Offer your opponent a draw"))
    @limited("post")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.draws.offer, private=False)

    @wari.command(name="help", description=N_("A short tour of the commands (only you see it)"))
    async def help(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.guide.help, private=True)

    @wari.command(
        name="takeback",
        description=N_("Take back your last move: against me at once; in an unrated game, if your opponent agrees"),
    )
    @limited("post")
    async def takeback(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.takebacks.take_back, private=False)

    @wari.command(name="rules", description=N_("How to play (only you see the answer)"))
    @app_commands.describe(variant=N_("Rule set (default: this channel's game, else wari)"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        await self.answering.command(interaction, self.games.rules, variant, private=False)

    @wari_mod.command(name="abort", description=N_("End this channel's stuck game with no winner"))
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.answering.command(interaction, self.endings.moderator_abort, private=False)

    # -- /wari: what players remember -----------------------------------------------------------

    @wari.command(name="stats", description=N_("A player's games, results, ratings and rating history"))
    @app_commands.describe(
        member=N_("Whose stats (default: yours)"),
        variant=N_("One rule set only"),
        public=N_("Show them to the channel"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @limited("look", "post")
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        variant: str | None = None,
        public: bool = False,
    ) -> None:
        args = (member, variant, public)
        await self.answering.command(interaction, self.standings.stats, *args, private=not public)

    @wari.command(name="leaderboard", description=N_("The best rated players"))
    @app_commands.describe(
        variant=N_("Rule set (default: wari)"),
        scope=N_("This server's players (default) or everyone"),
        public=N_("Show it to the channel"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPES)
    @limited("look", "post")
    async def leaderboard(
        self, interaction: discord.Interaction, variant: str = "wari", scope: str = "server", public: bool = False
    ) -> None:
        args = (variant, scope, public)
        await self.answering.command(interaction, self.standings.leaderboard, *args, private=not public)

    @wari.command(name="recap", description=N_("A player's season in this server, as a picture"))
    @app_commands.describe(
        member=N_("Whose season (default: yours)"),
        season=N_("This season (default) or the last one that ended"),
        variant=N_("One rule set (default: the one played most in the season)"),
        public=N_("Show it to the channel"),
    )
    @app_commands.choices(season=SEASON_CHOICES, variant=VARIANT_CHOICES)
    @limited("look", "post")
    @server_only()  # checked first: a refusal spends no cooldown
    async def recap(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        season: str = "current",
        variant: str | None = None,
        public: bool = False,
    ) -> None:
        args = (member, season, variant, public)
        await self.answering.command(interaction, self.seasons.recap, *args, private=not public)

    @wari.command(name="history", description=N_("A player's latest games"))
    @app_commands.describe(member=N_("Whose games (default: yours)"), public=N_("Show them to the channel"))
    @limited("look", "post")
    async def history(
        self, interaction: discord.Interaction, member: discord.User | None = None, public: bool = False
    ) -> None:
        await self.answering.command(interaction, self.standings.history, member, public, private=not public)

    @wari.command(name="record", description=N_("Download a game's full record as a text file (PGN-like)"))
    @app_commands.describe(
        game=N_("The game's number (as on its board)"), public=N_("Post it for the channel (default: only you)")
    )
    @limited("look", "post")
    async def record(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None], public: bool = False
    ) -> None:
        await self.answering.command(interaction, self.records.download, game, public, private=not public)

    @wari.command(name="replay", description=N_("Step through a game move by move, from its end (anyone may press)"))
    @app_commands.describe(
        game=N_("The game's number (as on its board)"), public=N_("Post it for the channel to watch (default: yes)")
    )
    @limited("look", "post")
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None], public: bool = True
    ) -> None:
        await self.answering.command(interaction, self.records.replay, game, public, private=not public)

    @wari.command(name="analyse", description=N_("The computer's analysis of a finished game: its mistakes marked"))
    @app_commands.describe(
        game=N_("The game's number (as on its board)"),
        quick=N_("A quicker, shallower analysis (default: no)"),
    )
    @limited("look", "post")
    async def analyse(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, None], quick: bool = False
    ) -> None:
        await self.answering.command(interaction, self.analyses.analyse, game, quick, private=False)

    @record.autocomplete("game")
    @replay.autocomplete("game")
    @analyse.autocomplete("game")
    async def game_numbers(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.guide.game_numbers(interaction, current)

    # -- settings -------------------------------------------------------------------------------

    @wari.command(name="settings", description=N_("Your Wari settings (only you see the answer)"))
    @app_commands.describe(
        pings=N_("Be mentioned in a new message when it is your move (default: on)"),
        language=N_("The language of what only you see (default: your Discord's)"),
    )
    @app_commands.choices(pings=ON_OFF, language=LANGUAGE_CHOICES)
    async def player_settings(
        self, interaction: discord.Interaction, pings: str | None = None, language: str | None = None
    ) -> None:
        await self.answering.command(interaction, self.settings.player, pings, language, private=False)

    @wari_mod.command(name="settings", description=N_("This server's Wari settings (Manage Server)"))
    @app_commands.describe(
        language=N_("The language of boards and announcements here (default: the server's)"),
        board=N_("Draw boards as text or as a picture (default: text)"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, board=BOARD_CHOICES)
    async def server_settings(
        self, interaction: discord.Interaction, language: str | None = None, board: str | None = None
    ) -> None:
        await self.answering.command(interaction, self.settings.server, language, board, private=False)

    # -- roles that call players ----------------------------------------------------------------

    @wari.command(name="notify", description=N_("Be pinged when a tournament opens or someone seeks a game here"))
    @app_commands.describe(
        what=N_("Which calls: tournaments, or players seeking a game"),
        on=N_("Take the role that is pinged (on, the default) or give it back (off)"),
    )
    @app_commands.choices(what=CALL_CHOICES, on=ON_OFF)
    @server_only()
    async def notify(self, interaction: discord.Interaction, what: str, on: str = "on") -> None:
        await self.answering.command(interaction, self.roles.notify, what, on, private=True)

    @wari_mod.command(name="roles", description=N_("The roles I ping and give here (Manage Roles)"))
    @app_commands.describe(
        tournaments=N_("The role pinged when a tournament opens for sign-up and when it starts"),
        seeks=N_("The role pinged when someone seeks a game (at most once every 30 minutes)"),
        tiers=N_("Rating-tier roles: the width of each band, in rating points (e.g. 200)"),
        stop=N_("Stop these calls, or the rating-tier roles"),
    )
    @app_commands.choices(stop=STOP_CHOICES)
    async def server_roles(
        self,
        interaction: discord.Interaction,
        tournaments: discord.Role | None = None,
        seeks: discord.Role | None = None,
        tiers: app_commands.Range[int, 50, 1000] | None = None,
        stop: str | None = None,
    ) -> None:
        args = (tournaments, seeks, tiers, stop)
        await self.answering.command(interaction, self.roles.server, *args, private=True)
