"""Names are text, never markup: how the bot writes what a member chose (a display name, a
nickname; a tournament's name next) into its messages.

Discord reads markdown in a message's content and in an embed's title, description and fields.
A name put there as it is can act: ``[Free Nitro](https://evil.example)`` becomes a masked link
under the bot's own name, three backticks open a code fence that swallows the board, ``# `` at the
start of a line makes a heading, ``||`` a spoiler, ``<@123>`` a mention; and a right-to-left
override (U+202E) left open flips the rest of the line. Every name the bot shows goes through
:func:`markdown_name` (or, where Discord shows text exactly as given, such as a thread's name,
:func:`plain_name`), so that it reads as the member wrote it and does nothing else:

>>> print(markdown_name("[Free Nitro](https://evil.example/n)"))
\\[Free Nitro\\]\\(https\\:\\/\\/evil\\.example\\/n\\)
>>> print(markdown_name("```"), markdown_name("# big"), markdown_name("@everyone"))
\\`\\`\\` \\# big \\@everyone

A backslash before ASCII punctuation is Discord's (and CommonMark's) escape: the reader sees the
character itself, and the markup it would start never begins. The colon's escape also keeps a bare
address from being turned into a link. Plain names are left exactly as they are:

>>> markdown_name("Ama"), markdown_name("Kofi Mensah"), markdown_name("Zoë")
('Ama', 'Kofi Mensah', 'Zoë')

**Direction.** The explicit direction controls (embeddings, overrides, isolates: U+202A–U+202E,
U+2066–U+2069) are taken out: an override makes a name display other letters than it holds, and
one left open flips everything after the name. A name with right-to-left letters (Arabic, Hebrew)
is then wrapped in a first-strong isolate (U+2068 … U+2069), so that it keeps its own direction
without pulling the digits and words beside it into it:

>>> markdown_name("\\u202eevil") == "evil"
True
>>> plain_name("عمر 7") == "\\u2068عمر 7\\u2069"
True
"""

from __future__ import annotations

import functools
import string
import unicodedata

#: Every ASCII punctuation character: each may be escaped, and escaping all of them leaves no
#: markup of Discord's to think of (links, emphasis, code, spoilers, headings, quotes, lists,
#: mentions, emoji, timestamps, autolinks).
_PUNCTUATION = frozenset(string.punctuation)
#: The explicit bidirectional formatting characters: LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Bidirectional classes that run right to left (Hebrew, Arabic letters, Arabic digits).
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


#: How many names :func:`plain_name` and :func:`markdown_name` remember: every board and list
#: writes its players' names again, and a member's name seldom changes.
NAMES_REMEMBERED = 4096


@functools.lru_cache(maxsize=NAMES_REMEMBERED)
def plain_name(name: str) -> str:
    """``name`` for a place Discord shows exactly as given (a thread's name, an embed's footer):
    on one line, without direction controls, and isolated if it runs right to left.

    >>> plain_name("Ama\\nKofi")
    'Ama Kofi'
    >>> plain_name("[x](y)")
    '[x](y)'
    """
    text = " ".join(name.splitlines())
    text = "".join(char for char in text if char not in _DIRECTION_CONTROLS)
    if any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in text):
        return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
    return text


@functools.lru_cache(maxsize=NAMES_REMEMBERED)
def markdown_name(name: str) -> str:
    """``name`` for Discord markdown (contents, embed titles, descriptions and fields): as
    :func:`plain_name`, with every ASCII punctuation character escaped.

    >>> print(markdown_name("**Ama** ||x||"))
    \\*\\*Ama\\*\\* \\|\\|x\\|\\|
    """
    return "".join(f"\\{char}" if char in _PUNCTUATION else char for char in plain_name(name))
