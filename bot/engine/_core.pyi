"""Types of the compiled rules and search (``bot/engine/_core.c``), which carries none of its own.

``code`` is a rules code, the variant's mechanics packed by :func:`bot.engine.core.compiled_code`.

Keep in step with the ``methods`` table of ``_core.c`` (and its ``INTERFACE``).
"""

from collections.abc import Callable, Iterable
from mmap import mmap
from typing import Literal, overload

INTERFACE: int

def mechanics(code: int, /) -> dict[str, str | bool]: ...
def legal(code: int, houses: int, seeds: int, state: tuple[int, ...], /) -> list[int]: ...
def play(
    code: int, houses: int, seeds: int, state: tuple[int, ...], i: int, /
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], bool, bool, int]: ...
def perft(code: int, houses: int, seeds: int, state: tuple[int, ...], depth: int, /) -> int: ...
def search(
    code: int,
    houses: int,
    seeds: int,
    state: tuple[int, ...],
    history: Iterable[tuple[int, ...]],
    seconds: float,
    max_nodes: int,
    max_depth: int,
    progress: Callable[[], object] | None,
    table: bytes | mmap | None = ...,
    table_seeds: int = ...,
    weights: tuple[int, ...] | None = ...,
    techniques: int = ...,
    /,
) -> tuple[int, int, int, tuple[int, ...], int, bool]: ...
def evaluate(code: int, houses: int, seeds: int, state: tuple[int, ...], weights: tuple[int, ...] | None, /) -> int: ...
def features(code: int, houses: int, seeds: int, state: tuple[int, ...], /) -> tuple[int, ...]: ...
def playout(
    code: int,
    houses: int,
    seeds: int,
    state: tuple[int, ...],
    seen: Iterable[tuple[int, ...]],
    seed: int,
    limit: int,
    /,
) -> tuple[int, int]: ...
def build_tables(code: int, seeds: int, report: Callable[[int, int, int, int, int], object] | None, /) -> bytes: ...
@overload
def probe(
    code: int, seeds: int, table: bytes | mmap, state: tuple[int, ...], bounds: Literal[False] = ..., /
) -> int | None: ...
@overload
def probe(
    code: int, seeds: int, table: bytes | mmap, state: tuple[int, ...], bounds: Literal[True], /
) -> tuple[int | None, int | None]: ...
