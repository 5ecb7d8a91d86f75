"""The bot's application emojis: a picture of a cup and its seeds for each count from 0 to 48
(:mod:`bot.pictures.cups`), which the boards' cup buttons show beside their text.

Discord keeps an application's emojis for the application, usable in every server and DM without
the bot being a member, so the bot uploads its own, after it is ready and in the background (49
calls the first time; a start never waits for them). Each emoji is named after its count and the
digest of its picture (``wari_cup12_1f2e3d4c``), so a start uploads only the names it does not
find: never twice the same picture, and a changed drawing is uploaded under its new names while
the old emojis stay, so that older boards keep their pictures (Discord allows 2,000 of them).

Whatever cannot be uploaded (Discord refuses: its limits, an outage) is shown as text: the
buttons' own words already say the count, and :func:`cup_emoji` has no picture for it. The first
refusal stops the uploads of that start (the next would most likely be refused too) and is one
warning; the next start tries the missing ones again. discord.py waits out Discord's rate limits
(429) by itself, and the uploads go one at a time. In a sharded deployment only the process that
syncs the commands uploads; the others take what they find.

The emojis known are kept for the whole process, which serves one application, so that the
functions drawing boards need no bot to find them.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging

import discord

log = logging.getLogger(__name__)

#: How every cup emoji's name begins.
PREFIX = "wari_cup"

#: The cup emojis of this process's application, by seed count: those found or uploaded.
_known: dict[int, discord.PartialEmoji] = {}


def cup_emoji(seeds: int) -> discord.PartialEmoji | None:
    """The picture of a cup holding ``seeds`` seeds, for a button; ``None`` where there is none
    (not uploaded yet or refused, or more seeds than a picture shows): the text says it alone."""
    return _known.get(seeds)


def forget_cup_emojis() -> None:
    """Know no cup emoji (until :class:`CupEmojis` finds them): the cups show as text."""
    _known.clear()


def emoji_name(seeds: int, picture: bytes) -> str:
    """The name of the emoji of a cup of ``seeds`` drawn as ``picture``: its count, then the
    digest of its picture (a new drawing is a new name).

    >>> emoji_name(12, b"png")
    'wari_cup12_8f8cbb7d'
    """
    return f"{PREFIX}{seeds}_{hashlib.sha256(picture).hexdigest()[:8]}"


def drawn_cups() -> dict[int, tuple[str, bytes]]:
    """Every count's emoji name and picture (drawn once a process: some 0.4 s, in a thread)."""
    # Imported here: Pillow is needed only once the bot runs (the sandbox checks for it first).
    from .pictures.cups import MOST_SEEDS, cup_png

    pictures = {seeds: cup_png(seeds) for seeds in range(MOST_SEEDS + 1)}
    return {seeds: (emoji_name(seeds, picture), picture) for seeds, picture in pictures.items()}


class CupEmojis:
    """Finds the cup emojis of the bot's application after the bot is ready, uploading those
    missing when it ``uploads`` (see the module's documentation)."""

    def __init__(self, client: discord.Client, *, uploads: bool) -> None:
        self.client = client
        self.uploads = uploads
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Find (and upload) them in the background once the bot is ready; until then, text."""
        forget_cup_emojis()  # another application's, in a process that ran another bot before (tests)
        self.task = asyncio.get_running_loop().create_task(self._when_ready(), name="wari-cup-emojis")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _when_ready(self) -> None:
        await self.client.wait_until_ready()
        await self.load()

    async def load(self) -> None:
        """Take the emojis the application has, then upload the missing ones, one at a time."""
        cups = await asyncio.to_thread(drawn_cups)
        try:
            existing = {emoji.name: emoji for emoji in await self.client.fetch_application_emojis()}
        except discord.HTTPException as exc:
            log.warning("could not list the application's emojis (%s): the cups show as text", _reason(exc))
            return
        missing = []
        for seeds, (name, picture) in cups.items():
            if name in existing:
                _known[seeds] = _partial(existing[name])
            else:
                missing.append((seeds, name, picture))
        if missing and self.uploads:
            await self._upload(missing)

    async def _upload(self, missing: list[tuple[int, str, bytes]]) -> None:
        for done, (seeds, name, picture) in enumerate(missing):
            try:
                emoji = await self.client.create_application_emoji(name=name, image=picture)
            except discord.HTTPException as exc:
                log.warning(
                    "Discord refused to upload the cup emoji %s (%s): %d cups show as text until the next start",
                    name,
                    _reason(exc),
                    len(missing) - done,
                )
                return
            _known[seeds] = _partial(emoji)
        log.info("uploaded %d cup emojis", len(missing))


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id)


def _reason(exc: discord.HTTPException) -> str:
    return f"{exc.status} {exc.text or 'with no reason'}"
