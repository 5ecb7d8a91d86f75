"""Starting games: ``/wari challenge``, ``/wari play``, ``/wari exhibition``, the Accept/Decline/
Withdraw buttons, expiry, rematches, and a thread per game when asked."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.clock import CLOCKS, DEFAULT_CLOCK, Clock
from bot.engine import VARIANTS, Player, Rules, rules_for
from bot.service import FIRST_CHOICES, Refusal

from .base import CogBase, answering, log, now, wari
from .views import board_message, challenge_message

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
CLOCK_CHOICES = [app_commands.Choice(name=f"{code}: {Clock.parse(code).describe()}", value=code) for code in CLOCKS]
#: The options every way of starting a game against a person or the bot shares.
GAME_OPTIONS = {
    "variant": "Rule set (default: wari)",
    "first": "Who moves first (default: random)",
    "houses": "Kalah only: houses per player, 1-10 (default 6)",
    "seeds": "Kalah only: seeds per house, 1-10 (default 4)",
    "clock": f"Time limit: per move, or minutes per player + seconds per move (default: {DEFAULT_CLOCK})",
    "thread": "Play in a new thread of its own, so this channel stays free (default: no)",
}
GAME_CHOICES = {"variant": VARIANT_CHOICES, "first": FIRST_CHOICE_LIST, "clock": CLOCK_CHOICES}
#: Thread auto-archive after a week without messages: long enough for a 3-day move.
THREAD_ARCHIVE_MINUTES = 10080


class ChallengeCommands(CogBase):
    @wari.command(name="challenge", description="Challenge a member of this server to a game")
    @app_commands.describe(opponent="Who you want to play", **GAME_OPTIONS)
    @app_commands.choices(**GAME_CHOICES)
    @answering
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        variant: str = "wari",
        first: str = "random",
        houses: app_commands.Range[int, 1, 10] | None = None,
        seeds: app_commands.Range[int, 1, 10] | None = None,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
    ) -> None:
        rules = self.rules_of(variant, houses, seeds)
        await self.close_expired_challenges()  # an expired one must not block the channel
        if opponent.bot:
            if self.bot.user and opponent.id == self.bot.user.id:
                await self.start_computer_game(interaction, DEFAULT_LEVEL, rules, first, clock, thread)
                return
            raise Refusal("Bots can't play Wari. Challenge a person, or play me with `/wari play`.")
        self.service.check_challenge(interaction.user.id, opponent.id, first, clock)
        title = f"{interaction.user.display_name} vs {opponent.display_name} · {rules.label}"
        where = await self.thread_if(thread, interaction, title, f"⚔️ {title}: the challenge and the game are in the thread below.")
        challenge = await self.service.challenge(
            guild_id=interaction.guild_id,
            channel_id=where.id if where else interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            rules=rules,
            first=first,
            now=now(),
            clock=clock,
            thread=thread,
        )
        message = await self.respond(interaction, where, **challenge_message(challenge))
        await self.service.set_challenge_message(challenge, message.id)

    @staticmethod
    def rules_of(variant: str, houses: int | None, seeds: int | None) -> Rules:
        if variant != "kalah" and (houses is not None or seeds is not None):
            raise Refusal(f"`houses` and `seeds` only apply to kalah: {variant} is always played with 6 houses of 4 seeds.")
        return rules_for(variant, houses, seeds)

    @wari.command(name="play", description="Play against me, the bot, at once")
    @app_commands.describe(level=f"How strongly I play (default: {DEFAULT_LEVEL})", **GAME_OPTIONS)
    @app_commands.choices(level=LEVEL_CHOICES, **GAME_CHOICES)
    @answering
    async def play(
        self,
        interaction: discord.Interaction,
        level: str = DEFAULT_LEVEL,
        variant: str = "wari",
        first: str = "random",
        houses: app_commands.Range[int, 1, 10] | None = None,
        seeds: app_commands.Range[int, 1, 10] | None = None,
        clock: str = DEFAULT_CLOCK,
        thread: bool = False,
    ) -> None:
        await self.start_computer_game(interaction, level, self.rules_of(variant, houses, seeds), first, clock, thread)

    async def start_computer_game(
        self, interaction: discord.Interaction, level: str, rules: Rules, first: str, clock: str, thread: bool
    ) -> None:
        self.computer.check_capacity(interaction.channel_id)
        await self.close_expired_challenges()
        title = f"{interaction.user.display_name} vs {self.bot.user.display_name} ({level}) · {rules.label}"
        where = await self.thread_if(thread, interaction, title, f"🤖 {title}: the game is in the thread below.")
        table = await self.service.play_computer(
            guild_id=interaction.guild_id,
            channel_id=where.id if where else interaction.channel_id,
            human_id=interaction.user.id,
            computer_id=self.bot.user.id,
            level=level,
            rules=rules,
            first=first,
            now=now(),
            clock=clock,
            thread=thread,
        )
        await self.game_changed(await self.post_board(interaction, table, where))

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
        await self.game_changed(await self.post_board(interaction, table))

    async def thread_if(self, wanted: bool, interaction: discord.Interaction, title: str, intro: str) -> discord.Thread | None:
        """If ``wanted``, answer in this channel with ``intro`` and open a public thread from that
        message, named ``title``: the game's channel. ``None`` if not wanted."""
        if not wanted:
            return None
        if not isinstance(interaction.channel, discord.TextChannel):
            raise Refusal("`thread: True` works in a text channel, not inside a thread or a forum. Leave it off here.")
        permissions = interaction.app_permissions
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            raise Refusal(
                "I need the **Create Public Threads** and **Send Messages in Threads** permissions in this channel "
                "to start a game in a thread. Ask a moderator to grant them, or leave `thread` off."
            )
        starter = await self.respond(interaction, None, content=intro, allowed_mentions=discord.AllowedMentions.none())
        try:
            return await starter.create_thread(name=title[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:
            log.warning("could not open a thread in channel %s: %s", interaction.channel_id, exc)
            await self.edit_message(starter.channel.id, starter.id, {"content": f"~~{intro}~~ I couldn't open a thread here."})
            raise Refusal("Discord did not let me open a thread here, so no game was started. Try again, or leave `thread` off.") from None

    @answering
    async def answer_challenge(self, interaction: discord.Interaction, challenge_id: int, action: str) -> None:
        """Accept, Decline or Withdraw pressed on a challenge."""
        user, channel = interaction.user.id, interaction.channel_id
        if action == "accept":
            table = await self.service.accept(challenge_id, user, channel, now())
            if table.row.message_id != interaction.message.id:
                table = await self.service.moved_board(table, interaction.message.id, now())
            await interaction.response.edit_message(**board_message(table))
            await self.game_changed(table)
            return
        if action == "decline":
            challenge = await self.service.decline(challenge_id, user, channel, now())
            closing = f"<@{challenge.opponent_id}> declined the challenge."
        else:
            challenge = await self.service.withdraw(challenge_id, user, channel, now())
            closing = f"<@{challenge.challenger_id}> withdrew the challenge."
        await interaction.response.edit_message(**challenge_message(challenge, closing))
        if challenge.thread:
            await self.archive_thread(challenge.channel_id)

    async def close_expired_challenges(self) -> None:
        """Remove the challenges past their time and say so on their messages."""
        for challenge in await self.service.expire_due(now()):
            closing = "⌛ This challenge expired without an answer."
            await self.edit_message(challenge.channel_id, challenge.message_id, challenge_message(challenge, closing))
            if challenge.thread:
                await self.archive_thread(challenge.channel_id)

    @answering
    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Rematch on a finished board: the same game again, sides swapped, in the same channel."""
        old = await self.service.rematch_of(game_id, interaction.user.id)
        side = old.player(interaction.user.id)
        first = "me" if side is Player.B else "opponent"  # the old B moves first now
        clock, rules = old.row.clock or DEFAULT_CLOCK, old.game.rules
        if old.row.thread:
            await self.archive_thread(old.row.channel_id, archived=False)
        await self.close_expired_challenges()
        level = old.level(side.other)
        if level is not None:
            table = await self.service.play_computer(
                guild_id=old.row.guild_id, channel_id=old.row.channel_id, human_id=interaction.user.id,
                computer_id=self.bot.user.id, level=level, rules=rules, first=first, now=now(), clock=clock, thread=bool(old.row.thread),
            )
            await self.game_changed(await self.post_board(interaction, table))
            return
        challenge = await self.service.challenge(
            guild_id=old.row.guild_id, channel_id=old.row.channel_id, challenger_id=interaction.user.id,
            opponent_id=old.user(side.other), rules=rules, first=first, now=now(), clock=clock,
            thread=bool(old.row.thread), rematch_of=old.row.id,
        )
        message = await self.respond(interaction, None, **challenge_message(challenge))
        await self.service.set_challenge_message(challenge, message.id)
