"""Nothing lost when Discord fails: each REST call of each user flow fails in turn (500, 503,
404 and 429), and the channel still tells the truth, at once or after the next thing a player
would do; no answer says "nothing was changed" when something was.

Run with ``-s`` to see the tally of the trials (tried, true at once, healed by a next action).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ..conftest import fresh_world
from .faults import BUG, FLOWS, UNTRUE_AFTER_A_CHANGE, Channel, Flow, answers, next_action, state

STATUSES = (500, 503, 404, 429)
TALLY: Counter = Counter()

#: Each tick of the bot's loops costs real time while SimCord advances the clock.
SLOW_CLOCK = {"settle_timeout": 60}


def pattern(path: str) -> str:
    """The call's path as an fnmatch pattern (brackets in a token must not become a class)."""
    return re.sub(r"[\[\]*?]", "?", path)


async def calls_of(flow: Flow, tmp_path) -> list[tuple[str, str]]:
    """The REST calls the flow's action makes when nothing fails."""
    async with fresh_world(tmp_path / "clean.sqlite3", **SLOW_CLOCK) as world:
        context = await flow.setup(world)
        before = len(world.env.backend.http_requests)
        await flow.act(world, context)
        return [(call.method, call.path) for call in world.env.backend.http_requests[before:]]


async def trial(flow: Flow, call: tuple[str, str], status: int, database) -> str:
    """Run the flow with ``call`` failing; how it ended: ``at once`` or ``healed by ...``."""
    async with fresh_world(database, **SLOW_CLOCK) as world:
        context = await flow.setup(world)
        before = state(world)
        world.env.inject_error(call[0], pattern(call[1]), status=status)
        result = await flow.act(world, context)  # None: no interaction (the sweep acted)
        assert not world.env.backend.faults, "the call to fail was made and failed"
        told = answers(result) if result is not None else []
        changed = state(world) != before
        assert not any(BUG in text for text in told), told
        assert not (changed and any(UNTRUE_AFTER_A_CHANGE in text for text in told)), told
        assert result is None or result.acknowledged or result.followups, "an interaction went unanswered"
        problems = (await Channel.read(world)).mismatches()
        if not problems:
            return "at once"
        done = await next_action(world, told)
        still = (await Channel.read(world)).mismatches()
        assert not still, f"{problems} -> after {done}: {still}"
        print(f"\n  {call[0]} {call[1]} failing with {status}: {problems}; healed: {done}")
        return f"healed by {done.split(' ')[0]}"


@pytest.mark.parametrize("flow", FLOWS, ids=[flow.name for flow in FLOWS])
async def test_every_failing_call_of_a_flow_leaves_the_channel_telling_the_truth(flow, tmp_path):
    calls = await calls_of(flow, tmp_path)
    assert calls, "the flow makes REST calls"
    outcomes = Counter()
    for number, call in enumerate(dict.fromkeys(calls)):
        for status in STATUSES:
            outcomes[await trial(flow, call, status, tmp_path / f"{number}-{status}.sqlite3")] += 1
    TALLY.update({"tried": sum(outcomes.values()), **outcomes})
    print(f"\n{flow.name}: {len(set(calls))} calls x {len(STATUSES)} statuses: {dict(outcomes)}")


@pytest.fixture(scope="module", autouse=True)
def tally():
    yield
    print(f"\nfault injection in all: {dict(TALLY)}")
