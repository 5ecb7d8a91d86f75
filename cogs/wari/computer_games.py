"""Games against the computer: ``/wari play`` (and a challenge to the bot), ``/wari exhibition``,
and the first board of a game that starts at once."""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine import Rules
from bot.i18n import N_
from bot.service import Computer, Table, WariService

from .boards import Boards, where_shown
from .challenge_expiry import ChallengeExpiry
from .followup import Followup
from .options import GameOptions, level_name, rules_of
from .presenter import Presenter
from .threads import GameThreads


class ComputerGames:
    """Starting games the computer plays in, and showing a new game's first board."""

    def __init__(
        self,
        client: discord.Client,
        service: WariService,
        presenter: Presenter,
        boards: Boards,
        followup: Followup,
        computer: Computer,
        threads: GameThreads,
        expiry: ChallengeExpiry,
    ) -> None:
        self.client = client
        self.service = service
        self.presenter = presenter
        self.boards = boards
        self.followup = followup
        self.computer = computer
        self.threads = threads
        #: Ends the challenges past their time (one must not block a channel a game starts in).
        self.expiry = expiry

    async def play(self, interaction: discord.Interaction, level: str, options: GameOptions) -> None:
        rules = options.rules()
        await self.start(interaction, level, rules, options.first, options.clock, options.thread)

    async def start(
        self, interaction: discord.Interaction, level: str, rules: Rules, first: str, clock: str, thread: bool
    ) -> None:
        # Its commands are guild_only (from a server channel).
        assert interaction.guild_id is not None and interaction.channel_id is not None
        self.computer.check_capacity(interaction.channel_id)
        await self.expiry.close_expired()
        players = (interaction.user.display_name, f"{self.me.display_name} ({level_name(level)})")
        where = await self.threads.open(
            thread, interaction, players, rules, N_("🤖 {title}: the game is in the thread below.")
        )
        async with self.threads.closing_on_failure(where):
            channel_id = where.id if where else interaction.channel_id
            table = await self.new_game(
                interaction, interaction.guild_id, channel_id, level, rules, first, clock, thread
            )
        await self.show_new_game(interaction, table, where)

    @property
    def me(self) -> discord.ClientUser:
        """The bot's own user (logged in: it is answering an interaction)."""
        assert self.client.user is not None
        return self.client.user

    async def new_game(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        channel_id: int,
        level: str,
        rules: Rules,
        first: str,
        clock: str,
        thread: bool,
    ) -> Table:
        """A new game of ``interaction``'s user against the computer at ``level``, stored."""
        return await self.service.starts.play_computer(
            guild_id=guild_id,
            channel_id=channel_id,
            human_id=interaction.user.id,
            computer_id=self.me.id,
            level=level,
            rules=rules,
            first=first,
            now=now(),
            clock=clock,
            thread=thread,
            names=(interaction.user.display_name, self.me.display_name),
        )

    async def show_new_game(
        self, interaction: discord.Interaction, table: Table, where: discord.abc.Messageable | None = None
    ) -> None:
        """Post a game's first board; if Discord refuses, the game stands all the same, and the
        player is told how to see it."""
        shown = await self.boards.post(interaction, table, where)
        if shown is None:
            await self.presenter.tell(
                interaction,
                N_("Game #{number} has started. {where}"),
                number=table.row.id,
                where=where_shown(None),
            )
        await self.followup.game_changed(shown or table)

    async def exhibition(
        self, interaction: discord.Interaction, level_a: str, level_b: str, variant: str, pace: str
    ) -> None:
        # A guild_only command (from a server channel).
        assert interaction.guild_id is not None and interaction.channel_id is not None
        me = self.me
        self.computer.check_capacity(interaction.channel_id)
        table = await self.service.starts.exhibition(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            computer_id=me.id,
            levels=(level_a, level_b),
            rules=rules_of(variant, None, None),
            now=now(),
            autoplay=pace == "auto",
            computer_name=me.display_name,
        )
        await self.show_new_game(interaction, table)
