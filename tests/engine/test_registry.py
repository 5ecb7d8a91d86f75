"""One list of variants: the registry of ``bot/engine/rules.py``, and the compiled core reading it.

The compiled core knows no variant: it is given a variant's mechanics packed in one number
(:func:`bot.engine.core.compiled_code`) and says what it read (``_core.mechanics``). These tests
fail when the two disagree: a mechanic added to the registry that the C does not read, a grand
slam kind it does not know, a packing that puts a bit where the C does not look, or a variant
named again in the C. That both engines then play every variant alike, move by move, is
``test_compiled.py``'s (it plays every variant of the registry).
"""

import dataclasses
import itertools
import re
from pathlib import Path

import pytest

from bot.engine import REGISTRY, VARIANTS, GrandSlam, Mechanics, rules_for
from bot.engine.core import _core, compiled_code

CORE_SOURCE = Path(__file__).resolve().parents[2] / "bot" / "engine" / "_core.c"


def as_registry_states_them(mechanics: Mechanics) -> dict[str, str | bool]:
    """The mechanics as plain values: the grand slam by its name, the rest as they are."""
    return {
        field: value.value if isinstance(value, GrandSlam) else value
        for field, value in dataclasses.asdict(mechanics).items()
    }


@pytest.mark.compiled_core
@pytest.mark.parametrize("variant", REGISTRY, ids=lambda variant: variant.name)
def test_the_compiled_core_reads_each_variant_of_the_registry_as_the_registry_states_it(variant):
    assert _core is not None  # the marker skips this test where the core was not built
    code = compiled_code(rules_for(variant.name).mechanics)
    assert _core.mechanics(code) == as_registry_states_them(variant.mechanics)


@pytest.mark.compiled_core
def test_the_compiled_core_reads_every_mix_of_mechanics_a_new_variant_could_make():
    """A new variant made of known mechanics needs no C: every combination reads back as it was."""
    assert _core is not None  # as above
    fields = dataclasses.fields(Mechanics)
    choices = [list(GrandSlam) if field.name == "grand_slam" else [False, True] for field in fields]
    codes = set()
    for values in itertools.product(*choices):
        mechanics = Mechanics(**{field.name: value for field, value in zip(fields, values, strict=True)})
        code = compiled_code(mechanics)
        assert _core.mechanics(code) == as_registry_states_them(mechanics), mechanics
        codes.add(code)
    assert len(codes) == len(list(itertools.product(*choices)))  # no two mixes share a code


@pytest.mark.compiled_core
@pytest.mark.parametrize("code", [-1, len(GrandSlam), 7, 64, 1 << 20])
def test_the_compiled_core_refuses_a_rules_code_it_cannot_read(code):
    assert _core is not None  # as above
    with pytest.raises(ValueError, match="unsupported rules"):
        _core.mechanics(code)
    with pytest.raises(ValueError, match="unsupported rules"):
        _core.legal(code, 6, 4, (4,) * 12 + (0, 0, 0, 0))


def test_the_compiled_core_names_no_variant_in_its_code():
    """Only its comments and messages may: its behaviour comes from the mechanics alone."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"", "", CORE_SOURCE.read_text(), flags=re.S)
    named = {name for name in VARIANTS if re.search(rf"\b{name}\b", code, re.IGNORECASE)}
    assert named == set()


def test_the_variants_are_the_registry_in_its_order_the_default_first():
    assert tuple(variant.name for variant in REGISTRY) == VARIANTS
    assert rules_for().name == VARIANTS[0] == "wari"
    assert len(set(VARIANTS)) == len(VARIANTS)


def test_only_the_variants_whose_entry_allows_it_may_change_the_board():
    for variant in REGISTRY:
        bigger = variant.houses[-1] + 1
        with pytest.raises(ValueError, match="houses"):
            rules_for(variant.name, houses=bigger)
        if len(variant.houses) > 1:
            assert rules_for(variant.name, houses=variant.houses[0]).houses == variant.houses[0]
