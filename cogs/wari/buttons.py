"""How a persistent button finds the feature that handles it: one registry per bot, kept on the
bot itself so that it goes with it (a registry beside the bot, keyed by it, would keep every bot
alive through its handlers, which reach back to it).

A button's custom id carries its kind and what it needs (``wari:cup:<game>:<ply>:<house>``), so it
works after a restart with no view kept in memory. Every button class is a :class:`PersistentButton`
that says, besides its look, its id's ``template``, which reader reads each field of it
(``FIELDS``) and the ``KIND`` of handler a press goes to: the base reads the id and hands the press
to the handler the cog registered for that kind (:func:`register`), with the values read.

A custom id comes back with every press, and whoever sends the press chooses it: it is read here,
once, into typed values (:func:`read_number`, :func:`read_house`, :func:`read_variant`,
:func:`read_day`), and a
value no button of ours carries (a number the database cannot hold, a house off every board, an
unknown rule set) is a :class:`ForgedId`, refused like any refusal: privately, with no traceback.

A press may change only the message it belongs to. discord.py dispatches a press only when its
id is on the pressed message; the cog answers the others (:func:`dropped_press`), which are
either a click that a redraw overtook or a forgery, and lets them through only when the message
still carries a button of the same thing (:func:`belongs`): the board of the same game, the same
puzzle try, the same leaderboard. Each button class says what that thing is in ``BELONGS``: a
family and the fields of its id that name it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import date
from typing import Any, ClassVar, Self

import discord

from bot.engine import VARIANTS
from bot.i18n import N_
from bot.service import Refusal

from .presenter import Message, Presenter

#: A press's handler: the interaction, then the values the button's custom id carries.
Handler = Callable[..., Awaitable[None]]
#: How one field of a custom id is read: its text in, its typed value out, or a :class:`ForgedId`.
Reader = Callable[[str], Any]

#: The attribute of the bot that holds its registry.
_REGISTRY = "wari_button_handlers"

#: The largest number a custom id may carry: ids, moves and pages are stored or queried as the
#: databases' 64-bit integers (SQLite's INTEGER, PostgreSQL's BIGINT).
NUMBER_MAX = 2**63 - 1
#: The highest house of any board: kalah's largest, 10 houses a side.
HOUSE_MAX = 20

UNKNOWN_BUTTON = N_("I don't recognise this button, so nothing was done.")
NOT_ON_THIS_MESSAGE = N_(
    "That button is not on this message, so nothing was done: the message shows where things stand now."
)
OLDER_BUTTON = N_("This button is from an older version of the bot and no longer works. Use `/wari board`.")


class ForgedId(Refusal):
    """A custom id that no button of ours carries: refused, and nothing is done."""

    def __init__(self) -> None:
        super().__init__(UNKNOWN_BUTTON)


# -- reading a custom id's values ---------------------------------------------------------------


def read_number(text: str, *, least: int = 0, most: int = NUMBER_MAX) -> int:
    """A whole number of a custom id, from ``least`` to ``most`` (the database's range unless told).

    >>> read_number("42"), read_number("9223372036854775807")
    (42, 9223372036854775807)
    >>> read_number("9223372036854775808")
    Traceback (most recent call last):
    ...
    cogs.wari.buttons.ForgedId: I don't recognise this button, so nothing was done.
    """
    # Digits only, and no more of them than ``most`` has: int() of a long string is slow, and
    # refused beyond 4,300 digits.
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        raise ForgedId()
    value = int(text)
    if not least <= value <= most:
        raise ForgedId()
    return value


def read_house(text: str) -> int:
    """A house of a custom id: on some board (1 to :data:`HOUSE_MAX`); whether it is on this
    game's board, the mover's and not empty is the game's to say."""
    return read_number(text, least=1, most=HOUSE_MAX)


def read_one_of(text: str, choices: Iterable[str]) -> str:
    """A word of a custom id that must be one of ``choices``."""
    if text not in choices:
        raise ForgedId()
    return text


def read_variant(text: str) -> str:
    """A rule set of a custom id: one the bot plays."""
    return read_one_of(text, VARIANTS)


def read_day(text: str) -> str:
    """A day of a custom id, ``YYYY-MM-DD``: a day of the calendar."""
    try:
        date.fromisoformat(text)
    except ValueError:
        raise ForgedId() from None
    return text


# -- which message a press may change -----------------------------------------------------------


def custom_ids(message: discord.Message) -> set[str]:
    """The custom ids of the buttons on ``message`` as Discord last sent it: in its action rows,
    or anywhere in its layout (a Components V2 message nests its rows in a container)."""
    return {
        custom_id for component in _walk(message.components) if (custom_id := getattr(component, "custom_id", None))
    }


def _walk(components: Iterable[discord.Component]) -> Iterable[discord.Component]:
    """Every component of a message, the nested ones too (children of rows and containers, a section's accessory)."""
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def recognise(
    custom_id: str, classes: Iterable[type[PersistentButton]]
) -> tuple[type[PersistentButton], re.Match[str]] | None:
    """The button class whose template ``custom_id`` matches, with the match (``None``: none does)."""
    for button in classes:
        match = button.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return button, match
    return None


def subject(button: type[PersistentButton], match: re.Match[str]) -> tuple[str, ...]:
    """What a button is about, as its class's ``BELONGS`` says: its family, then the fields that
    name the thing (``("board", "12")`` for every button of game 12's board)."""
    family, *fields = button.BELONGS
    return (family, *(match[field] for field in fields))


def belongs(message: discord.Message, about: tuple[str, ...], classes: Iterable[type[PersistentButton]]) -> bool:
    """Whether ``message`` carries a button about the same thing as ``about``."""
    classes = tuple(classes)
    for custom_id in custom_ids(message):
        found = recognise(custom_id, classes)
        if found is not None and subject(*found) == about:
            return True
    return False


async def dropped_press(
    interaction: discord.Interaction, custom_id: str, classes: Iterable[type[PersistentButton]]
) -> PersistentButton:
    """The button of a press discord.py dropped (its id matches no button, or is not on the pressed
    message), read from its id, to run; a :class:`bot.service.Refusal` if there is none to run:
    an id of no button of ours, or of a thing the pressed message does not show."""
    message = interaction.message
    assert message is not None  # a press comes from a message
    classes = tuple(classes)
    found = recognise(custom_id, classes)
    if found is None:
        raise Refusal(OLDER_BUTTON) if custom_id in custom_ids(message) else ForgedId()
    button, match = found
    item = await button.from_custom_id(interaction, discord.ui.Button(custom_id=custom_id), match)
    if not belongs(message, subject(button, match), classes):
        raise Refusal(NOT_ON_THIS_MESSAGE)
    return item


# -- handing a press to its feature -------------------------------------------------------------


def register(client: discord.Client, handlers: Mapping[str, Handler]) -> None:
    """The handlers of ``client``'s buttons, by kind (the cog registers them when it loads)."""
    setattr(client, _REGISTRY, dict(handlers))


def unregister(client: discord.Client) -> None:
    setattr(client, _REGISTRY, {})


def _handlers(client: discord.Client) -> Mapping[str, Handler]:
    return getattr(client, _REGISTRY, {})


async def dispatch(interaction: discord.Interaction, kind: str, *values: object) -> None:
    """Hand a press of a ``kind`` button to its handler."""
    handler = _handlers(interaction.client).get(kind)
    if handler is None:  # the cog is not loaded (being reloaded): the press still gets an answer
        restarting = Message(content="Wari is restarting: press again in a moment.")
        await Presenter.answer(interaction, restarting, private=True)
        return
    await handler(interaction, *values)


# -- the buttons' common part -------------------------------------------------------------------


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A button whose custom id carries all a press needs (the base of every button class; its
    own template matches no id). A class says, besides its look (its ``__init__``, which takes
    the id's values in the order of ``FIELDS``, then its look's options):

    - ``template=``: the regular expression of its ids, one named group a field;
    - ``FIELDS``: each field's reader (:func:`read_number`, :func:`read_house`...), in the
      order the constructor and the handler take the values;
    - ``KIND``: the handler a press goes to (see :func:`register`), and ``ACTION`` the words
      handed to it before the values (the puzzle buttons' one handler tells them apart so);
    - ``BELONGS``: the family of what it is about, then the fields that name it (:func:`subject`).

    The values are read from the id once, here, for every class (:meth:`from_custom_id`), and a
    press is handed on once, here (:meth:`callback`).
    """

    KIND: ClassVar[str]
    ACTION: ClassVar[tuple[str, ...]] = ()
    FIELDS: ClassVar[Mapping[str, Reader]]
    BELONGS: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, *, template: str | re.Pattern[str]) -> None:
        super().__init_subclass__(template=template)
        named = tuple(cls.__discord_ui_compiled_template__.groupindex)
        if tuple(cls.FIELDS) != named:  # a field read twice or never: the class is wrong, not the id
            raise TypeError(f"{cls.__name__}: FIELDS {tuple(cls.FIELDS)} are not its template's fields {named}")

    def __init__(self, button: discord.ui.Button, *values: Any) -> None:
        super().__init__(button)
        #: What the id carries, typed, in the order of ``FIELDS``: what the handler is handed.
        self.values = values

    @classmethod
    def read(cls, match: re.Match[str]) -> tuple[Any, ...]:
        """The values of an id matched by the template, each read by its field's reader."""
        return tuple(read(match[name]) for name, read in cls.FIELDS.items())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*cls.read(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.KIND, *self.ACTION, *self.values)
