"""Finding one's way: ``/wari help``, a short tour of the commands that fits a phone, and the
asker's recent games offered as they type a game's number (``/wari record``, ``/wari replay``,
``/wari analyse``)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engine.notation import parse_rules_code
from bot.i18n import N_, _, speaking
from bot.names import plain_name
from bot.service import PlayerService
from bot.storage import SERVER, GameRow, StorageError

from .languages import Languages
from .options import level_name
from .permissions import number_scope, venue_of
from .presenter import Message, Presenter
from .standings import result_for

log = logging.getLogger("cogs.wari")

#: How many recent games the game number's suggestions offer (Discord shows at most 25).
SUGGESTED_GAMES = 10
GUIDE_COLOUR = discord.Colour.blurple()

#: The tour: each part's title and its lines, a command and what it does. Every command of
#: ``/wari`` is in it (``tests/cogs/test_guide.py`` walks the command tree to check).
TOUR = (
    (
        N_("Start a game"),
        (
            N_("`/wari challenge opponent:` a member; leave out the member: anyone here may accept"),
            N_("`/wari seek` wait for an opponent from this server"),
            N_("`/wari play` play me, from Beginner to Expert"),
            N_("`/wari exhibition` watch two of my levels play each other"),
        ),
    ),
    (
        N_("Play"),
        (
            N_("Press one of your houses on the board to sow it"),
            N_("`/wari board` the board again, at the bottom · `/wari rules` how to play"),
            N_("`/wari draw` offer a draw · `/wari abort` call off, before both have moved"),
            N_("`/wari takeback` against me: take back your last move"),
            N_("`/wari surrender` give up (it asks first)"),
        ),
    ),
    (
        N_("Afterwards"),
        (
            N_("`/wari stats` · `/wari recap` · `/wari leaderboard` · `/wari history` · `/wari settings`"),
            N_("`/wari replay game:` step through a game · `/wari record game:` its file"),
        ),
    ),
    (
        N_("Get better"),
        (
            N_("`/wari analyse game:` my analysis of a game: its mistakes marked"),
            N_("`/wari puzzle next` a puzzle near your puzzle rating · `/wari puzzle daily` the server's"),
        ),
    ),
    (
        N_("Tournaments"),
        (
            N_("`/wari tournament list` this server's events · `join` · `leave`"),
            N_("`/wari tournament standings` who leads · `results` every round, as files"),
            N_("`/wari notify` be called when a tournament opens or someone seeks a game"),
        ),
    ),
)
#: In place of the tournaments, outside a server that added the bot (the bot's DM, a group DM, a
#: server that did not add it): what works there, and what does not.
ELSEWHERE_TOUR = (
    N_("Outside a server"),
    (
        N_("In a DM with me: `/wari play`, puzzles, your stats and history, your games' analyses"),
        N_(
            "In a group DM or a server without me: `/wari challenge` someone there, or `/wari play`; I only answer "
            "presses, so no reminders, and a clock's time-out is applied at the next press or `/wari board`"
        ),
        N_("`seek`, tournaments and the daily puzzle need a server that added me"),
    ),
)
#: The moderators' part, shown to members who can use ``/wari-mod`` (Manage Messages).
MODERATOR_TOUR = (
    N_("For moderators"),
    (
        N_("`/wari-mod tournament create` an event here · `start` · `pause` · `resume` · `cancel`"),
        N_("`/wari-mod tournament kick` a player · `result` set a result by hand"),
        N_("`/wari-mod tournament battle` a team battle: roles as teams, each team's best players score"),
        N_("`/wari-mod schedule list` recurring tournaments · `edit` · `stop`"),
        N_("`/wari-mod roles` the roles I call and give · `/wari-mod season settings`"),
        N_("`/wari-mod puzzle daily` a daily puzzle · `/wari-mod settings` this server's"),
        N_("`/wari-mod abort` end a stuck game with no winner"),
    ),
)


def game_choice(row: GameRow, user_id: int) -> app_commands.Choice[int]:
    """A game as the number's suggestion reads: ``#12 · wari · vs bob · won`` (plain text)."""
    other = 1 if row.player_a == user_id else 0
    level = (row.level_a, row.level_b)[other]
    opponent = plain_name((row.name_a, row.name_b)[other] or "?")
    if level is not None:
        opponent = f"{opponent} ({level_name(level)})"
    variant = parse_rules_code(row.variant).label
    result = result_for(row, user_id)
    text = _(
        "#{number} · {variant} · vs {opponent} · {result}",
        number=row.id,
        variant=variant,
        opponent=opponent,
        result=result,
    )
    return app_commands.Choice(name=text[:100], value=row.id)


class Guide:
    """``/wari help`` and the suggestions of game numbers."""

    def __init__(self, players: PlayerService, presenter: Presenter, languages: Languages) -> None:
        self.players = players
        self.presenter = presenter
        self.languages = languages

    async def help(self, interaction: discord.Interaction) -> None:
        """The tour, only for the asker, in their language; a moderator's has their commands too."""
        embed = discord.Embed(title=_("🌱 Wari: the commands"), colour=GUIDE_COLOUR)
        parts: tuple[tuple[str, tuple[str, ...]], ...] = TOUR
        if venue_of(interaction) != SERVER:
            parts = (*TOUR[:-1], ELSEWHERE_TOUR)
        elif interaction.permissions.manage_messages:  # who Discord shows /wari-mod to, by default
            parts = (*TOUR, MODERATOR_TOUR)
        for title, lines in parts:
            embed.add_field(name=_(title), value="\n".join(_(line) for line in lines), inline=False)
        embed.set_footer(text=_("Each command explains its options as you type it."))
        await self.presenter.answer(interaction, Message(embeds=[embed]), private=True)

    async def game_numbers(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[int]]:
        """The asker's latest finished games that may be shown here whose number starts with what
        they typed (:func:`.permissions.number_scope`: another server's are not this server's to
        show, nor to record, replay or analyse; nor a server's a group DM's)."""
        scope = number_scope(interaction)
        try:
            rows, _more = await self.players.archive_page(
                interaction.user.id,
                guild_id=scope.guild_id,
                channel_id=scope.channel_id,
                page=0,
                size=SUGGESTED_GAMES * 3,
            )
            language = await self.languages.of_reader(interaction)
        except StorageError as error:  # suggestions are a help, not an answer: none while the database is away
            log.warning("no game numbers to suggest: %s", error)
            return []
        rows = [row for row in rows if str(row.id).startswith(typed.strip().lstrip("#"))][:SUGGESTED_GAMES]
        with speaking(language):
            return [game_choice(row, interaction.user.id) for row in rows]
