"""Games against the computer: ``/wari play`` (and a challenge to the bot), ``/wari exhibition``,
and the first board of a game that starts at once."""

from __future__ import annotations

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.engine import Rules
from bot.i18n import N_
from bot.service import Computer, Refusal, Table, WariService
from bot.storage import INTERACTION, SERVER

from .boards import Boards, where_shown
from .challenge_expiry import ChallengeExpiry
from .followup import Followup
from .options import GameOptions, level_name, rules_of
from .permissions import SERVER_ONLY, server_of, venue_of
from .presenter import Presenter, channel_of
from .threads import GameThreads

#: An exhibition that plays on its own needs the bot to post by itself, which it cannot where it only answers presses.
AUTO_PACE_ONLY_WHERE_I_POST = N_(
    "Here I can only answer presses, so an exhibition cannot play on its own: "
    "use `pace: Next move button`, or watch one in a server that has added me."
)


def check_thread(interaction: discord.Interaction, thread: bool) -> None:
    """A game in a thread of its own needs a server that added the bot (which makes the thread).

    :raises Refusal: asked for one anywhere else."""
    if thread and venue_of(interaction) != SERVER:
        raise Refusal(SERVER_ONLY)


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
        #: Ends the challenges past their time (one must not block a channel a game starts in:
        #: :meth:`clear_channel`).
        self.expiry = expiry

    async def play(self, interaction: discord.Interaction, level: str, options: GameOptions) -> None:
        rules = options.rules()
        await self.start(interaction, level, rules, options.first, options.clock, options.thread)

    async def start(
        self, interaction: discord.Interaction, level: str, rules: Rules, first: str, clock: str, thread: bool
    ) -> None:
        assert interaction.channel_id is not None  # a command comes from a channel
        check_thread(interaction, thread)
        self.computer.check_capacity(interaction.channel_id)
        await self.clear_channel(interaction)
        players = (interaction.user.display_name, f"{self.me.display_name} ({level_name(level)})")
        where = await self.threads.open(
            thread, interaction, players, rules, N_("🤖 {title}: the game is in the thread below.")
        )
        async with self.threads.closing_on_failure(where):
            channel_id = where.id if where else interaction.channel_id
            table = await self.new_game(
                interaction, server_of(interaction), channel_id, level, rules, first, clock, thread
            )
        await self.show_new_game(interaction, table, where)

    async def clear_channel(self, interaction: discord.Interaction) -> None:
        """Before a game starts in ``interaction``'s channel, end what must not block it: challenges
        past their time and, where the bot only answers interactions (no sweep ends games there),
        a game whose player to move let their deadline pass, ended on time as a press would end
        it and said through ``interaction``."""
        await self.expiry.close_expired()
        if venue_of(interaction) != INTERACTION:
            return
        live = await self.service.tables.table(channel_of(interaction))
        if live is None or live.row.deadline is None or live.row.deadline > now():
            return
        ended = await self.service.games.time_out(live.row, now())
        if ended is not None:
            await self.followup.ended_on_time(ended, interaction)

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
        """A new game of ``interaction``'s user against the computer at ``level``, stored, where
        ``interaction`` comes from (:func:`.permissions.venue_of`)."""
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
            venue=venue_of(interaction),
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
        await self.followup.game_changed(shown or table, interaction)

    async def exhibition(
        self, interaction: discord.Interaction, level_a: str, level_b: str, variant: str, pace: str
    ) -> None:
        assert interaction.channel_id is not None  # a command comes from a channel
        if pace == "auto" and venue_of(interaction) == INTERACTION:
            raise Refusal(AUTO_PACE_ONLY_WHERE_I_POST)
        me = self.me
        self.computer.check_capacity(interaction.channel_id)
        table = await self.service.starts.exhibition(
            guild_id=server_of(interaction),
            channel_id=interaction.channel_id,
            computer_id=me.id,
            levels=(level_a, level_b),
            rules=rules_of(variant, None, None),
            now=now(),
            autoplay=pace == "auto",
            computer_name=me.display_name,
            venue=venue_of(interaction),
        )
        await self.show_new_game(interaction, table)
