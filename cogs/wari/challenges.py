"""Challenges: ``/wari challenge`` (to a member, or open to anyone here), the Accept/Decline/
Withdraw buttons, rematches, and a thread per game when asked (expiry: :mod:`.challenge_expiry`)."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.ai import DEFAULT_LEVEL
from bot.clock import DEFAULT_CLOCK
from bot.engine import Player
from bot.engine.notation import rules_code
from bot.i18n import N_, _
from bot.service import Refusal, Table, WariService
from bot.storage import ANYONE, DM, INTERACTION, ChallengeRow, StorageError

from .boards import Boards, where_shown
from .computer_games import ComputerGames, check_thread
from .cooldowns import charge
from .followup import Followup
from .options import GameOptions
from .permissions import Hosting, server_of, venue_of
from .presenter import Presenter, channel_of
from .reach import notify_through, through_interactions
from .threads import GameThreads
from .views import challenge_message

log = logging.getLogger("cogs.wari")

#: Seconds between the tries at saving a posted challenge's message id when the database fails.
#: All within the minute after which a challenge without a message counts as never posted.
MESSAGE_ID_RETRIES = (2, 8, 20)
#: In the bot's DM nobody but the bot can answer a challenge.
DM_CHALLENGE = N_("Here, in our DM, you can play me: `/wari play`. Challenge a person in a server or in a group DM.")


#: Where the bot only answers interactions, a challenge must reach someone who is there to answer it.
NOT_HERE = N_("{name} is not in this conversation, so they could not answer your challenge here.")


def check_here(interaction: discord.Interaction, opponent: discord.User | discord.Member) -> None:
    """Where the bot only answers interactions it cannot call anyone elsewhere: the opponent must
    be in the conversation (a member of the server; outside one, a recipient of the group DM, or
    of the DM between two people, as Discord sends its channel).

    :raises Refusal: they are not."""
    if venue_of(interaction) != INTERACTION:
        return
    if interaction.guild_id is not None:
        present = isinstance(opponent, discord.Member)
    else:
        present = opponent.id in {user.id for user in getattr(interaction.channel, "recipients", ())}
    if not present:
        raise Refusal(NOT_HERE, name=opponent.display_name)


class Challenges:
    """Challenges and their answers, and rematches (games against the computer start in
    :mod:`.computer_games`, which also clears a channel before a game starts in it)."""

    def __init__(
        self,
        client: discord.Client,
        service: WariService,
        presenter: Presenter,
        boards: Boards,
        followup: Followup,
        computer_games: ComputerGames,
        threads: GameThreads,
        hosting: Hosting,
    ) -> None:
        self.client = client
        self.service = service
        self.presenter = presenter
        self.boards = boards
        self.followup = followup
        self.computer_games = computer_games
        self.threads = threads
        #: A rematch hosts a game, as the commands marked ``hosting`` do: it checks the same.
        self.hosting = hosting

    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None,
        options: GameOptions,
        rating_within: int | None = None,
    ) -> None:
        rules, first, clock, thread = options.rules(), options.first, options.clock, options.thread
        if venue_of(interaction) == DM and (opponent is None or opponent.id != self.computer_games.me.id):
            raise Refusal(DM_CHALLENGE)
        await self.computer_games.clear_channel(interaction)  # nothing left over may block the channel
        if opponent is None:
            await self.open_challenge(interaction, options, rating_within)
            return
        if rating_within is not None:
            raise Refusal(N_("`rating_within` is for open challenges: leave out `opponent` to let anyone accept."))
        if opponent.bot:
            if opponent.id == self.computer_games.me.id:
                await self.computer_games.start(interaction, DEFAULT_LEVEL, rules, first, clock, thread)
                return
            raise Refusal(N_("Bots can't play Wari. Challenge a person, or play me with `/wari play`."))
        self.service.challenges.check_challenge(interaction.user.id, opponent.id, first, clock)
        check_here(interaction, opponent)
        check_thread(interaction, thread)
        players = (interaction.user.display_name, opponent.display_name)
        intro = N_("⚔️ {title}: the challenge and the game are in the thread below.")
        where = await self.threads.open(thread, interaction, players, rules, intro)
        assert interaction.channel_id is not None  # a command comes from a channel
        async with self.threads.closing_on_failure(where):
            challenge = await self.service.challenges.challenge(
                guild_id=server_of(interaction),
                channel_id=where.id if where else interaction.channel_id,
                challenger_id=interaction.user.id,
                opponent_id=opponent.id,
                rules=rules,
                first=first,
                now=now(),
                clock=clock,
                thread=thread,
                names=(interaction.user.display_name, opponent.display_name),
                rated=options.rated,
                venue=venue_of(interaction),
            )
            await self.post_challenge(interaction, where, challenge)

    async def open_challenge(
        self, interaction: discord.Interaction, options: GameOptions, rating_within: int | None
    ) -> None:
        """A challenge anyone in the channel may accept (within ``rating_within`` points of the
        challenger's rating in its rule set, if given)."""
        rules, first, clock, thread = options.rules(), options.first, options.clock, options.thread
        user = interaction.user
        self.service.challenges.check_challenge(user.id, ANYONE, first, clock)
        check_thread(interaction, thread)
        rating_range: tuple[int | None, int | None] = (None, None)
        if rating_within is not None:
            mine = (await self.service.challenges.rating_of(user.id, rules_code(rules))).points
            rating_range = (mine - rating_within, mine + rating_within)
        where = await self.threads.open(
            thread,
            interaction,
            (user.display_name, _("anyone")),
            rules,
            N_("⚔️ {title}: the challenge is in the thread below."),
        )
        assert interaction.channel_id is not None  # a command comes from a channel
        async with self.threads.closing_on_failure(where):
            challenge = await self.service.challenges.challenge(
                guild_id=server_of(interaction),
                channel_id=where.id if where else interaction.channel_id,
                challenger_id=user.id,
                opponent_id=ANYONE,
                rules=rules,
                first=first,
                now=now(),
                clock=clock,
                thread=thread,
                names=(user.display_name, None),
                rating_range=rating_range,
                rated=options.rated,
                venue=venue_of(interaction),
            )
            await self.post_challenge(interaction, where, challenge)

    async def post_challenge(
        self, interaction: discord.Interaction, where: discord.abc.Messageable | None, challenge: ChallengeRow
    ) -> None:
        """Post a stored challenge (as the answer, or in ``where``) and remember its message.

        If Discord refuses the post, nobody can see or answer the challenge: it is removed
        again, and the challenger is told so.
        """
        try:
            message = await self.presenter.respond(interaction, where, challenge_message(challenge))
        except discord.HTTPException as exc:
            log.warning("could not post challenge %s in channel %s: %s", challenge.id, challenge.channel_id, exc)
            await self.service.challenges.drop_unposted(challenge)
            raise Refusal(
                N_("Discord did not let me post your challenge, so it was not made. Please try again.")
            ) from None
        await self.remember_challenge_message(challenge, message.id)

    async def remember_challenge_message(self, challenge: ChallengeRow, message_id: int) -> None:
        """Save the id of a posted challenge's message, trying again a few times if the database
        fails: without it the challenge can still be answered, but its expiry cannot edit its
        message, and a minute later the channel would take it for one never posted."""
        for pause in (None, *MESSAGE_ID_RETRIES):
            if pause:
                await asyncio.sleep(pause)
            try:
                await self.service.challenges.set_challenge_message(challenge, message_id)
                return
            except StorageError as exc:
                log.warning("challenge %s is posted, but its message could not be saved yet: %s", challenge.id, exc)
        log.error("challenge %s is posted, but its message could not be saved", challenge.id)

    async def answer(self, interaction: discord.Interaction, challenge_id: int, action: str) -> None:
        """Accept, Decline or Withdraw pressed on a challenge."""
        user, channel = interaction.user.id, interaction.channel_id
        # A button on a challenge's message, in a server channel.
        assert channel is not None and interaction.message is not None
        if action == "accept":
            table = await self.service.challenges.accept(
                challenge_id, user, channel, now(), interaction.user.display_name
            )
            if table.row.message_id != interaction.message.id:
                table = await self.service.games.moved_board(table, interaction.message.id, now())
            if await self.presenter.update_pressed(interaction, await self.boards.message(table)):
                await self.service.games.shown(table)
            else:
                shown = await self.post_board(table)
                await self.presenter.tell(
                    interaction,
                    N_("Game #{number} has started. {where}"),
                    number=table.row.id,
                    where=where_shown(shown),
                )
                table = shown or table
            await self.followup.game_changed(table, interaction)
            return
        if action == "decline":
            challenge = await self.service.challenges.decline(challenge_id, user, channel, now())
            closing = _("{name} declined the challenge.", name=challenge.names[1])
        else:
            challenge = await self.service.challenges.withdraw(challenge_id, user, channel, now())
            closing = _("{name} withdrew the challenge.", name=challenge.names[0])
        if not await self.presenter.update_pressed(interaction, challenge_message(challenge, closing)):
            await self.presenter.tell(
                interaction, N_("The challenge is closed, but Discord did not let me update its message.")
            )
        if action == "decline":  # the challenger learns it from a message of its own (an edit notifies nobody)
            player = f"<@{challenge.challenger_id}>"
            text = _("{player}, {name} declined your challenge.", player=player, name=challenge.names[1])
            await notify_through(self.presenter, interaction, challenge, text, challenge.challenger_id)
        if challenge.thread:
            await self.presenter.archive_thread(challenge.channel_id)

    async def post_board(self, table: Table) -> Table | None:
        """Post the board of a game whose challenge's message Discord did not let me turn into it:
        in the channel, where the bot may post (``None``: it did not, or may not)."""
        if through_interactions(table.row):
            return None
        return await self.boards.post(None, table, self.client.get_partial_messageable(table.row.channel_id))

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Rematch on a finished board: the same game again, sides swapped, in the same channel,
        where the bot is now (:func:`.permissions.venue_of`: a server may have added or removed it
        since the old game)."""
        old = await self.service.starts.rematch_of(game_id, interaction.user.id, channel_of(interaction))
        await self.hosting.check(interaction)
        charge(interaction, "game", "post")  # it starts a game, as /wari challenge does
        side = old.player(interaction.user.id)
        assert side is not None  # rematch_of refuses anyone but a player of the game
        first = "me" if side is Player.B else "opponent"  # the old B moves first now
        clock, rules, channel = old.row.clock or DEFAULT_CLOCK, old.game.rules, old.row.channel_id
        await self.computer_games.clear_channel(interaction)
        level = old.level(side.other)
        if level is not None:
            self.computer_games.computer.check_capacity(channel)
            thread = bool(old.row.thread)
            table = await self.computer_games.new_game(
                interaction, old.row.guild_id, channel, level, rules, first, clock, thread
            )
        else:
            challenge = await self.service.challenges.challenge(
                guild_id=old.row.guild_id,
                channel_id=channel,
                challenger_id=interaction.user.id,
                opponent_id=old.user(side.other),
                rules=rules,
                first=first,
                now=now(),
                clock=clock,
                thread=bool(old.row.thread),
                rematch_of=old.row.id,
                names=(interaction.user.display_name, (old.row.name_a, old.row.name_b)[side.other]),
                rated=bool(old.row.rated),
                venue=venue_of(interaction),
            )
        if old.row.thread:  # the game's thread was archived when it ended: reopen it to post
            await self.presenter.archive_thread(channel, archived=False)
        if level is not None:
            await self.computer_games.show_new_game(interaction, table)
        else:
            await self.post_challenge(interaction, None, challenge)
