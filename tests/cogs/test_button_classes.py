"""For developers: a button class says which reader reads each field of its custom id's template,
and a class that leaves a field unread (or reads one its template lacks) is refused as it is
written, at import, not at the first press of a player."""

from __future__ import annotations

import pytest

from cogs.wari.buttons import PersistentButton, read_number


def test_a_button_class_whose_fields_are_not_its_templates_is_refused_when_it_is_written():
    with pytest.raises(TypeError, match="are not its template's fields"):

        class Forgetful(PersistentButton, template=r"wari:forgetful:(?P<game>[0-9]+):(?P<ply>[0-9]+)"):
            KIND, BELONGS = "forgetful", ("board", "game")
            FIELDS = {"game": read_number}  # ply is never read


def test_a_button_class_reads_its_fields_and_hands_them_on_in_its_templates_order():
    class Complete(PersistentButton, template=r"wari:complete:(?P<game>[0-9]+):(?P<ply>[0-9]+)"):
        KIND, BELONGS = "complete", ("board", "game")
        FIELDS = {"game": read_number, "ply": read_number}

    match = Complete.__discord_ui_compiled_template__.fullmatch("wari:complete:12:3")
    assert match is not None and Complete.read(match) == (12, 3)
