"""User stories: members whose nicknames are markup play every flow, and every text the bot sent
shows their names as text that does nothing else.

The checks read every REST call the bot made (SimCord keeps them all, edits included) and render
each text the way Discord would, with SimCord's own Discord-markdown renderer (the one the
sandbox's page uses), field by field: a message's content, an embed's title, description and
fields (markdown), its footer and a thread's name (shown as given).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import discord
import pytest
from simcord.preview._markdown import markdown_summary, markdown_tokens

from bot.i18n import _, language_of, speaking
from bot.names import plain_name
from tests.helpers import buttons, press, surrender

from ..conftest import fresh_world

#: Nicknames that are markup: a masked link, code fences, a heading, a right-to-left override,
#: a quote with a spoiler and mentions, emphasis, and an Arabic name with a digit after it.
HOSTILE = {
    "alice": "[Free Nitro](https://evil.example/n)",
    "bob": "bob ```",
    "carol": "# \u202eevil 99",
    "mod": "> ||mod|| <@1> @everyone",
    "dede": "*Dédé* _x_ ~~y~~ `z`",
    "omar": "عمر 2",
}
#: Where the bot's messages carry their own links: to a board of theirs.
OWN_LINKS = "https://discord.com/channels/"
#: Tokens of Discord markdown that start a block: none of the bot's messages has one of its own.
BLOCKS = {"heading", "blockquote", "bullet_list", "ordered_list"}
#: The field policy of SimCord's renderer for text Discord shows as given (a footer, a thread's name).
PLAIN = "embed_footer"
#: Explicit direction controls that open a scope, and those that close one.
OPENERS, CLOSERS = set("\u202a\u202b\u202d\u202e\u2066\u2067\u2068"), set("\u202c\u2069")


def sent_texts(env) -> Iterator[tuple[str, str, str]]:
    """(what, profile, text) for every text in every REST call the bot made: profile is the
    markdown field policy of SimCord's renderer for that place."""
    for entry in env.http_requests:
        payload = entry.json if isinstance(entry.json, dict) else {}
        payload = payload.get("data", payload) if isinstance(payload.get("data"), dict) else payload
        where = f"{entry.method} {entry.path}"
        parse = (payload.get("allowed_mentions") or {}).get("parse") or ()
        assert "everyone" not in parse and "roles" not in parse, (where, payload["allowed_mentions"])
        if entry.path.endswith("/threads") and payload.get("name"):
            yield where, PLAIN, payload["name"]
        if payload.get("content"):
            yield where, "message", payload["content"]
        for text in laid_out_texts(payload.get("components") or ()):
            yield where, "message", text
        for embed in payload.get("embeds") or ():
            for key, profile in (("title", "embed_title"), ("description", "embed_description")):
                if embed.get(key):
                    yield where, profile, embed[key]
            for field in embed.get("fields") or ():
                yield where, "embed_field_name", field["name"]
                yield where, "embed_field_value", field["value"]
            if (embed.get("footer") or {}).get("text"):
                yield where, PLAIN, embed["footer"]["text"]


def laid_out_texts(components) -> Iterator[str]:
    """The text displays of a V2 message (a board): its own heading and small footer, each a text
    display of one line of the bot's words, are read without their markup (names never start one)."""
    for component in components:
        if component.get("type") == 10:
            content = component["content"]
            own = re.fullmatch(r"(?:### |-# )([^\n]*)", content)
            yield own.group(1) if own else content
        yield from laid_out_texts(component.get("components") or ())


def walk(tokens) -> Iterator[dict]:
    for token in tokens:
        yield token
        yield from walk(token.get("children") or ())


def bidi_balanced(text: str) -> bool:
    """Whether every direction scope opened on a line is closed on that line."""
    for line in text.splitlines():
        depth = 0
        for char in line:
            depth += char in OPENERS
            depth -= char in CLOSERS and depth > 0
        if depth:
            return False
    return True


def visible(profile: str, text: str) -> str:
    """The text a reader sees, markup rendered away, without direction controls."""
    seen = markdown_summary(markdown_tokens(text, profile), max_graphemes=10_000)
    return "".join(
        char
        for char in seen
        if unicodedata.bidirectional(char) not in {"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"}
    )


def board_in(thread):
    """The board in ``thread`` as it is now (a message read from history does not follow edits)."""
    return next(
        m
        for m in thread.history()
        if any(b["custom_id"].startswith(("wari:cup:", "wari:rematch:")) for b in buttons(m))
    )


async def play_every_flow(world, members, language: str) -> None:
    """Challenge, accept, moves, draw offers, a rematch, a time-out, surrender, a withdrawn and a
    declined challenge, a moderator's abort, the computer, threads, stats, leaderboard, history,
    record and replay."""
    alice, bob, carol, mod, dede, omar = (members[key] for key in HOSTILE)

    def word(text: str) -> str:  # a button's label in the server's language
        with speaking(language):
            return _(text)

    channel = world.channel
    # In a thread: a game of moves, a declined draw, an accepted one, then a rematch declined.
    await alice.slash(channel, "wari challenge", opponent=bob, thread=True, first="me")
    (thread,) = channel.threads
    await bob.click(thread.history()[0], label=word("Accept"))
    for member, house in ((alice, 5), (bob, 7), (alice, 2), (bob, 12)):
        await press(member, board_in(thread), house)
    offer = (await alice.slash(thread, "wari draw")).response
    await bob.click(offer, label=word("Decline"))
    await press(alice, board_in(thread), 1)
    offer = (await bob.slash(thread, "wari draw")).response
    await alice.click(offer, label=word("Accept"))
    board = board_in(thread)
    (rematch,) = [b["custom_id"] for b in buttons(board) if b["label"] == word("Rematch")]
    challenge = (await bob.click(board, custom_id=rematch)).response
    await alice.click(challenge, label=word("Decline"))
    # In the channel: a time-out on a one-hour clock.
    board = (await carol.slash(channel, "wari challenge", opponent=omar, clock="1h/move", first="me")).response
    await omar.click(board, label=word("Accept"))
    await press(carol, board, 3)
    for _step in range(7):  # ten minutes at a time: SimCord settles each step within its time limit
        await world.env.advance_time(10 * 60)
    # A challenge withdrawn, then a game surrendered, then one a moderator aborts.
    challenge = (await dede.slash(channel, "wari challenge", opponent=carol)).response
    await dede.click(challenge, label=word("Withdraw"))
    board = (await dede.slash(channel, "wari challenge", opponent=omar, first="me")).response
    await omar.click(board, label=word("Accept"))
    await press(dede, board, 4)
    await surrender(omar, channel)
    board = (await mod.slash(channel, "wari challenge", opponent=alice, first="opponent")).response
    await alice.click(board, label=word("Accept"))
    await mod.slash(channel, "wari-mod abort")
    # The computer, in a thread of its own.
    await omar.slash(channel, "wari play", level="greedy", first="me", thread=True)
    computer_thread = channel.threads[-1]
    await press(omar, board_in(computer_thread), 3)
    await surrender(omar, computer_thread)
    # What players remember, shown to the channel.
    for member in members.values():
        await member.slash(channel, "wari stats", public=True)
        await member.slash(channel, "wari history", public=True)
    await alice.slash(channel, "wari leaderboard", public=True)
    await alice.slash(channel, "wari leaderboard", scope="everyone", public=True)
    for game in (1, 2, 3, 4, 5):
        await carol.slash(channel, "wari record", game=game, public=True)
        replay = (await carol.slash(channel, "wari replay", game=game)).response
        steps = [b["custom_id"] for b in buttons(replay) if not b.get("disabled")]
        if steps:  # back to the start, where the replay says who moves first
            await carol.click(replay, custom_id=steps[0])


@pytest.mark.parametrize("locale", ["en-US", "fr", "pt-BR"])
async def test_hostile_nicknames_are_shown_as_text_in_every_message(database_path, locale):
    async with fresh_world(database_path) as world:
        guild = world.env.create_guild("Markup Club", preferred_locale=locale)
        world.channel = guild.create_text_channel("games")
        moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_messages=True))
        members = {
            key: guild.add_member(world.env.create_user(key), nick=nick, roles=[moderators] if key == "mod" else [])
            for key, nick in HOSTILE.items()
        }
        await play_every_flow(world, members, language_of(locale))
        texts = list(sent_texts(world.env))

    assert len(texts) > 150
    shown = dict.fromkeys(HOSTILE, 0)
    for where, profile, text in texts:
        tokens = list(walk(markdown_tokens(text, profile)))
        links = [token["href"] for token in tokens if token["type"] == "link_open"]
        assert all(link.startswith(OWN_LINKS) for link in links), (where, text, links)
        assert not BLOCKS & {token["type"] for token in tokens}, (where, text)
        assert [token for token in tokens if token["type"] == "code_block" and "evil" in token["content"]] == []
        if profile != PLAIN:
            assert text.count("```") % 2 == 0, (where, text)
            assert not re.search(r"^(#|>|-|\d+\.)\s", text, re.MULTILINE), (where, text)
        assert bidi_balanced(text), (where, text)
        assert "\u202e" not in text, (where, text)
        seen = visible(profile, text)
        for key, nick in HOSTILE.items():
            recognised = plain_name(nick).strip("\u2068\u2069")
            shown[key] += recognised in seen
    # Every name was shown, in full, as it reads (the override aside), and more than once.
    assert all(count >= 3 for count in shown.values()), shown


async def test_record_files_keep_the_exact_names(database_path):
    async with fresh_world(database_path) as world:
        # A record names players as Discord does outside the server: by their global display name.
        alice = world.guild.add_member(world.env.create_user("ama", global_name=HOSTILE["alice"]))
        carol = world.guild.add_member(world.env.create_user("kofi", global_name=HOSTILE["carol"]))
        board = (await alice.slash(world.channel, "wari challenge", opponent=carol, first="me")).response
        await carol.click(board, label="Accept")
        await press(alice, board, 5)
        await surrender(carol, world.channel)
        result = await alice.slash(world.channel, "wari record", game=1)
        (attachment,) = result.response.attachments
        text = (await attachment.read()).decode("utf-8")
    assert f'[PlayerA "{HOSTILE["alice"]}"]' in text
    assert f'[PlayerB "{HOSTILE["carol"]}"]' in text
