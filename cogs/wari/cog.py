"""The ``/wari`` commands and the buttons of challenges and boards."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.engine import VARIANTS, rules_for
from bot.render import rules_text
from bot.service import FIRST_CHOICES, Refusal, StaleBoard, Table
from bot.storage import StorageError

from .computer import Computer
from .views import board_message, challenge_message

if TYPE_CHECKING:
    from bot.client import WariBot

log = logging.getLogger(__name__)

VARIANT_CHOICES = [
    app_commands.Choice(name="Wari (default)", value="wari"),
    app_commands.Choice(name="Oware Abapa", value="oware"),
    app_commands.Choice(name="Awari (Computer Olympiad rules)", value="awari"),
    app_commands.Choice(name="Ouril (Cabo Verde)", value="ouril"),
    app_commands.Choice(name="Kalah (Mancala)", value="kalah"),
]
assert [choice.value for choice in VARIANT_CHOICES] == list(VARIANTS)
FIRST_NAMES = {"random": "Random", "me": "Me", "opponent": "My opponent"}
FIRST_CHOICE_LIST = [app_commands.Choice(name=FIRST_NAMES[value], value=value) for value in FIRST_CHOICES]
LEVEL_CHOICES = [app_commands.Choice(name=f"{name}: {player.summary}"[:100], value=name) for name, player in LEVELS.items()]
#: The options every way of starting a game shares.
GAME_OPTIONS = {
    "variant": "Rule set (default: wari)",
    "first": "Who moves first (default: random)",
    "houses": "Kalah only: houses per player, 1-10 (default 6)",
    "seeds": "Kalah only: seeds per house, 1-10 (default 4)",
}

DATABASE_TROUBLE = "I can't reach my game database right now, so nothing was changed. Please try again in a moment."
UNEXPECTED = "Something went wrong on my side and nothing was changed. Please try again."


def now():
    return discord.utils.utcnow()


def answering(callback):
    """Answer a :class:`Refusal` or a database failure with an ephemeral message.

    They are expected outcomes, not bugs, so they never reach the command tree's error
    handler; anything else still does (and :meth:`WariCog.report` answers it there).
    """

    @functools.wraps(callback)
    async def wrapper(self: WariCog, interaction: discord.Interaction, *args, **kwargs) -> None:
        try:
            await callback(self, interaction, *args, **kwargs)
        except (Refusal, StorageError) as error:
            await self.report(interaction, error)

    return wrapper


class WariCog(commands.Cog, name="Wari"):
    """Challenges, boards with cup buttons, surrender, rules and moderation."""

    wari = app_commands.Group(name="wari", description="Play Wari, the West African sowing game", guild_only=True)

    def __init__(self, bot: WariBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def cog_load(self) -> None:
        self.computer = Computer(self.bot)
        self.expire_challenges.start()
        self._resuming = asyncio.get_running_loop().create_task(self._resume_computer())

    async def cog_unload(self) -> None:
        self.expire_challenges.cancel()
        self._resuming.cancel()
        self.computer.close()

    async def _resume_computer(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.computer.resume()
        except StorageError as exc:
            log.error("could not resume the computer's games: %s", exc)

    # -- answering --------------------------------------------------------------------------

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer, whether or not the interaction was already acknowledged."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Turn any failure into a clear ephemeral answer; log what is ours to fix."""
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        if isinstance(error, Refusal):
            text = str(error)
        elif isinstance(error, StorageError):
            log.error("%s", error)
            text = DATABASE_TROUBLE
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = "Wari is played in server channels, not in direct messages."
        else:
            log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
            text = UNEXPECTED
        await self.tell(interaction, text)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await self.report(interaction, error)

    # -- /wari challenge --------------------------------------------------------------------

    @wari.command(name="challenge", description="Challenge a member of this server to a game")
    @app_commands.describe(opponent="Who you want to play", **GAME_OPTIONS)
    @app_commands.choices(variant=VARIANT_CHOICES, first=FIRST_CHOICE_LIST)
    @answering
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        variant: str = "wari",
        first: str = "random",
        houses: app_commands.Range[int, 1, 10] | None = None,
        seeds: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        rules = self.rules_of(variant, houses, seeds)
        await self.close_expired_challenges()  # an expired one must not block the channel
        if opponent.bot:
            if self.bot.user and opponent.id == self.bot.user.id:
                await self.start_computer_game(interaction, DEFAULT_LEVEL, rules, first)
                return
            raise Refusal("Bots can't play Wari. Challenge a person, or play me with `/wari play`.")
        challenge = await self.service.challenge(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            rules=rules,
            first=first,
            now=now(),
        )
        await interaction.response.send_message(**challenge_message(challenge))
        message = await interaction.original_response()
        await self.service.set_challenge_message(challenge, message.id)

    @staticmethod
    def rules_of(variant: str, houses: int | None, seeds: int | None):
        if variant != "kalah" and (houses is not None or seeds is not None):
            raise Refusal(f"`houses` and `seeds` only apply to kalah: {variant} is always played with 6 houses of 4 seeds.")
        return rules_for(variant, houses, seeds)

    @wari.command(name="play", description="Play against me, the bot, at once")
    @app_commands.describe(level=f"How strongly I play (default: {DEFAULT_LEVEL})", **GAME_OPTIONS)
    @app_commands.choices(level=LEVEL_CHOICES, variant=VARIANT_CHOICES, first=FIRST_CHOICE_LIST)
    @answering
    async def play(
        self,
        interaction: discord.Interaction,
        level: str = DEFAULT_LEVEL,
        variant: str = "wari",
        first: str = "random",
        houses: app_commands.Range[int, 1, 10] | None = None,
        seeds: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        await self.start_computer_game(interaction, level, self.rules_of(variant, houses, seeds), first)

    async def start_computer_game(self, interaction: discord.Interaction, level: str, rules, first: str) -> None:
        self.computer.check_capacity(interaction.channel_id)
        await self.close_expired_challenges()
        table = await self.service.play_computer(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            human_id=interaction.user.id,
            computer_id=self.bot.user.id,
            level=level,
            rules=rules,
            first=first,
            now=now(),
        )
        self.computer.schedule(await self.post_board(interaction, table))

    @wari.command(name="exhibition", description="Watch two computer levels play each other")
    @app_commands.describe(
        level_a="Who plays A (moves first)",
        level_b="Who plays B",
        variant="Rule set (default: wari)",
        pace="One move per press of Next move (default), or on its own every few seconds",
    )
    @app_commands.choices(
        level_a=LEVEL_CHOICES,
        level_b=LEVEL_CHOICES,
        variant=VARIANT_CHOICES,
        pace=[app_commands.Choice(name="Next move button", value="button"), app_commands.Choice(name="On its own", value="auto")],
    )
    @answering
    async def exhibition(
        self, interaction: discord.Interaction, level_a: str, level_b: str, variant: str = "wari", pace: str = "button"
    ) -> None:
        self.computer.check_capacity(interaction.channel_id)
        table = await self.service.exhibition(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            computer_id=self.bot.user.id,
            levels=(level_a, level_b),
            rules=rules_for(variant),
            now=now(),
            autoplay=pace == "auto",
        )
        self.computer.schedule(await self.post_board(interaction, table))

    @answering
    async def next_move(self, interaction: discord.Interaction, game_id: int, ply: int) -> None:
        """An exhibition's Next move button: one computer move, shown in place."""
        await interaction.response.defer()
        table = await self.service.table(interaction.channel_id)
        if table is None or table.row.id != game_id or table.game.ply != ply or table.row.message_id != interaction.message.id:
            await self.refuse_stale(interaction, StaleBoard("This board is out of date.", table))
            return
        moved = await self.computer.play_one(table)
        if moved is not None:
            await self.show_move(interaction, moved)

    @answering
    async def answer_challenge(self, interaction: discord.Interaction, challenge_id: int, action: str) -> None:
        """Accept, Decline or Withdraw pressed on a challenge."""
        user, channel = interaction.user.id, interaction.channel_id
        if action == "accept":
            table = await self.service.accept(challenge_id, user, channel, now())
            if table.row.message_id != interaction.message.id:
                table = await self.service.moved_board(table, interaction.message.id, now())
            await interaction.response.edit_message(**board_message(table))
            return
        if action == "decline":
            challenge = await self.service.decline(challenge_id, user, channel, now())
            closing = f"<@{challenge.opponent_id}> declined the challenge."
        else:
            challenge = await self.service.withdraw(challenge_id, user, channel, now())
            closing = f"<@{challenge.challenger_id}> withdrew the challenge."
        await interaction.response.edit_message(**challenge_message(challenge, closing))

    @tasks.loop(seconds=15)
    async def expire_challenges(self) -> None:
        """Close challenges nobody answered in time (the deadline is stored, so restarts are fine)."""
        try:
            await self.close_expired_challenges()
        except Exception:
            log.exception("could not expire challenges; will try again")

    async def close_expired_challenges(self) -> None:
        """Remove the challenges past their time and say so on their messages."""
        for challenge in await self.service.expire_due(now()):
            closing = "⌛ This challenge expired without an answer."
            await self.edit_message(challenge.channel_id, challenge.message_id, challenge_message(challenge, closing))

    @expire_challenges.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def edit_message(self, channel_id: int, message_id: int | None, fields: dict) -> bool:
        """Edit one of our messages by id; ``False`` (and a log line) if Discord refuses."""
        if message_id is None:
            return False
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.warning("could not edit message %s in channel %s: %s", message_id, channel_id, exc)
            return False
        return True

    # -- the board --------------------------------------------------------------------------

    @answering
    async def press_cup(self, interaction: discord.Interaction, game_id: int, ply: int, house: int) -> None:
        """A cup button: play the move and redraw the board in place."""
        await interaction.response.defer()
        try:
            table, move = await self.service.play(
                channel_id=interaction.channel_id,
                game_id=game_id,
                ply=ply,
                message_id=interaction.message.id,
                user_id=interaction.user.id,
                house=house,
                now=now(),
            )
        except StaleBoard as stale:
            await self.refuse_stale(interaction, stale)
            return
        try:
            await self.show_move(interaction, table)
        finally:
            self.computer.schedule(table)  # after our redraw, so the bot's board is drawn last

    async def show_move(self, interaction: discord.Interaction, table: Table) -> None:
        """Redraw the pressed board; if Discord refuses, say that the move counts all the same."""
        try:
            await interaction.edit_original_response(**board_message(table))
        except discord.HTTPException as exc:
            move = table.game.moves[-1]
            log.warning("move %s in game %s saved, but the board could not be redrawn: %s", move, table.row.id, exc)
            await self.tell(
                interaction,
                f"The move `{move}` was played, but I couldn't redraw the board. Press any button or use `/wari board` to see it.",
            )

    async def refuse_stale(self, interaction: discord.Interaction, stale: StaleBoard) -> None:
        table = stale.table
        if table is None:
            await self.tell(interaction, "This game is over. Start a new one with `/wari challenge`.")
        elif table.row.message_id == interaction.message.id:
            # This is the board message, but an earlier redraw failed: bring it up to date.
            await interaction.edit_original_response(**board_message(table))
            await self.tell(interaction, "This board was behind and now shows the current position. Have another look!")
        else:
            link = interaction.channel.get_partial_message(table.row.message_id).jump_url if table.row.message_id else None
            where = f": the game goes on here {link}" if link else ": use `/wari board` to see the current one"
            await self.tell(interaction, f"This board is out of date{where}")

    async def redraw(self, table: Table) -> None:
        await self.edit_message(table.row.channel_id, table.row.message_id, board_message(table))

    @wari.command(name="board", description="Show this channel's game again at the bottom of the channel")
    @answering
    async def board(self, interaction: discord.Interaction) -> None:
        table = await self.service.live_table(interaction.channel_id)
        self.computer.schedule(await self.post_board(interaction, table))

    async def post_board(self, interaction: discord.Interaction, table: Table) -> Table:
        """Answer with the board as a new message, which becomes the game's board from now on."""
        await interaction.response.send_message(**board_message(table))
        message = await interaction.original_response()
        current = await self.service.moved_board(table, message.id, now())
        if current.game.ply != table.game.ply:  # the computer moved while we were posting
            await interaction.edit_original_response(**board_message(current))
        return current

    @wari.command(name="surrender", description="Give up this channel's game: your opponent wins")
    @answering
    async def surrender(self, interaction: discord.Interaction) -> None:
        table = await self.service.surrender(interaction.channel_id, interaction.user.id, now())
        self.computer.cancel(interaction.channel_id)
        winner = table.user(table.game.outcome.winner)
        # Answer first: the redraw is a separate REST call that may be slow.
        await interaction.response.send_message(f"🏳️ <@{interaction.user.id}> surrendered. <@{winner}> wins game #{table.row.id}!")
        await self.redraw(table)

    @wari.command(name="abort", description="Moderators: end this channel's stuck game with no winner")
    @answering
    async def abort(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_messages:
            raise Refusal("Only members with the Manage Messages permission in this channel can abort a game.")
        table = await self.service.abort(interaction.channel_id, now())
        self.computer.cancel(interaction.channel_id)
        await interaction.response.send_message(f"🛑 <@{interaction.user.id}> aborted game #{table.row.id}. No winner.")
        await self.redraw(table)

    @wari.command(name="rules", description="How to play (only you see the answer)")
    @app_commands.describe(variant="Rule set (default: this channel's game, else wari)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @answering
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        table = await self.service.table(interaction.channel_id) if variant is None else None
        rules = table.game.rules if table else rules_for(variant or "wari")
        embed = discord.Embed(title=f"How to play {rules.label}", description=rules_text(rules), colour=discord.Colour.blurple())
        embed.set_footer(text="Start a game with /wari challenge @someone")
        await interaction.response.send_message(embed=embed, ephemeral=True)
