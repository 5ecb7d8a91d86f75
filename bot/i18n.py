"""Languages: every text the bot shows, in English, French or Portuguese.

Wari is played across francophone West Africa and Ouril in Cabo Verde, so the bot speaks
French and Portuguese as well as English. Texts are written in English in the code, marked
with :func:`_` (translated where they are used) or :func:`N_` (module constants, translated
later with :func:`_`), and their translations live in gettext catalogs, ``bot/locales/fr.po``
and ``bot/locales/pt.po``, managed with Babel (``pybabel extract`` / ``update``: see the README).

The language of what is being written is a context variable: the cog sets it for each
interaction and each background task (:func:`speaking`), so that the functions drawing boards
and messages need no language argument.

>>> with speaking("fr"):
...     _("Move {number}", number=3)
'Coup 3'
>>> _("Move {number}", number=3)
'Move 3'
>>> with speaking("pt"):
...     n_("{name} sowed {count} seed from house {house}", "{name} sowed {count} seeds from house {house}", 2,
...        name="Ama", count=2, house=5)
'Ama semeou 2 sementes da casa 5'
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po

#: The languages the bot speaks, English first (the language of the code and the fallback).
LANGUAGES = ("en", "fr", "pt")
#: The locale of each language: the Portuguese is Brazil's.
LOCALES = {"en": "en", "fr": "fr", "pt": "pt_BR"}
#: Each language's name in itself, as a choice in the settings lists it.
LANGUAGE_NAMES = {code: str(Locale.parse(locale).get_display_name(locale)) for code, locale in LOCALES.items()}
LANGUAGE_NAMES = {code: name[:1].upper() + name[1:] for code, name in LANGUAGE_NAMES.items()}  # at a list's head
LOCALE_DIR = Path(__file__).with_name("locales")

_language: ContextVar[str] = ContextVar("language", default="en")


def language_of(locale: object) -> str | None:
    """The bot's language for a Discord locale (``fr``, ``pt-BR``, ``en-US``...), or ``None``.

    >>> language_of("pt-BR"), language_of("fr"), language_of("en-GB"), language_of("de")
    ('pt', 'fr', 'en', None)
    """
    code = str(getattr(locale, "value", locale) or "").lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


@functools.cache
def catalog(language: str) -> dict[object, object]:
    """The translations of ``language``: msgid (a tuple for plural forms) to msgstr."""
    if language == "en":
        return {}
    with open(LOCALE_DIR / f"{language}.po", "rb") as file:
        messages = read_po(file, locale=language)
    return {message.id: message.string for message in messages if message.id and message.string and not message.fuzzy}


def current_language() -> str:
    return _language.get()


def language_name(code: str) -> str:
    """A language's name as a sentence in the language of the moment says it (lower case where
    that language writes it so).

    >>> language_name("fr"), language_name("pt")
    ('French', 'Portuguese (Brazil)')
    >>> with speaking("fr"):
    ...     language_name("fr"), language_name("en")
    ('français', 'anglais')
    """
    return str(Locale.parse(LOCALES[code]).get_display_name(LOCALES[current_language()]))


@contextlib.contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Write in ``language`` (English if ``None``) inside the block."""
    token = _language.set(language if language in LANGUAGES else "en")
    try:
        yield
    finally:
        _language.reset(token)


def _(message: str, **params: object) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    translated = catalog(_language.get()).get(message)
    text = translated if isinstance(translated, str) and translated else message  # a text's msgstr is a text
    return text.format(**params) if params else text


@functools.cache
def plural_form(language: str) -> Callable[[float], str]:
    """The plural rule of ``language``: which form (``one``, ``other``...) a count takes."""
    return Locale(language).plural_form


def n_(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The form of a message for ``count`` things, in the current language."""
    language = _language.get()
    forms = catalog(language).get((singular, plural))
    one = plural_form(language)(count) == "one"  # French and Portuguese: 0 is singular too
    if isinstance(forms, tuple) and forms and all(forms):  # a plural message's msgstr is its forms
        text = forms[0] if one else forms[-1]
    else:
        text = singular if one else plural
    return text.format(**params)


def labelled(label: object, value: object) -> str:
    """``label: value`` as the current language writes it (French puts a space before the colon).

    >>> labelled("Ama", "4:59")
    'Ama: 4:59'
    >>> with speaking("fr"):
    ...     labelled("Ama", "4:59")
    'Ama : 4:59'
    """
    return _("{label}: {value}", label=label, value=value)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it (for constants: :func:`_` them where used)."""
    return message


class Text:
    """A message translated when it is shown (``str()``), in the language of that moment: for a
    text made in one place and shown in another (a refusal, a part of a larger message).

    >>> later = Text("Move {number}", number=2)
    >>> with speaking("fr"):
    ...     str(later)
    'Coup 2'
    """

    __slots__ = ("message", "params")

    def __init__(self, message: str, **params: object) -> None:
        self.message, self.params = message, params

    def __str__(self) -> str:
        return _(self.message, **self.params)

    def __repr__(self) -> str:
        return f"Text({self.message!r})"
