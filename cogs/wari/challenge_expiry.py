"""Challenges past their time: removed, and their messages say so.

The sweep runs it, and so does anything that starts a game in a channel (a challenge, a game
against the computer, a rematch): an expired challenge must not block the channel. It is a
feature of its own so that both :mod:`.challenges` and :mod:`.computer_games` can be given it
(the first starts games against the computer through the second).

Where the bot only answers interactions, an expired challenge is closed in storage only: its
message is brought up to date by the next press on it, which says the challenge is over."""

from __future__ import annotations

from discord.utils import utcnow as now  # Discord's time (a simulated Discord runs its own)

from bot.i18n import _
from bot.service import WariService
from bot.storage import INTERACTION

from .languages import Languages
from .presenter import Presenter
from .views import challenge_message


class ChallengeExpiry:
    """Closes the challenges past their time."""

    def __init__(self, service: WariService, presenter: Presenter, languages: Languages) -> None:
        self.service = service
        self.presenter = presenter
        self.languages = languages

    async def close_expired(self) -> None:
        """Remove the challenges past their time and say so on their messages (where the bot may edit them)."""
        for challenge in await self.service.challenges.expire_due(now()):
            if challenge.venue == INTERACTION:
                continue
            async with self.languages.public(challenge.guild_id):
                fields = challenge_message(challenge, _("⌛ This challenge expired without an answer."))
            await self.presenter.edit(challenge.channel_id, challenge.message_id, fields)
            if challenge.thread:
                await self.presenter.archive_thread(challenge.channel_id)
