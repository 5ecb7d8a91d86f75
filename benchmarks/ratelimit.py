"""Discord's rate limits in front of SimCord's simulated REST API, for the benchmarks
(:mod:`benchmarks.load`, :mod:`benchmarks.startup_redraw`): requests over a limit are answered
``429 Too Many Requests`` as Discord answers them, and discord.py's own HTTP client waits and
retries by itself, as it does against Discord.

The limits
----------
- **Global**: :data:`GLOBAL_LIMIT` requests per :data:`GLOBAL_PER` second for the whole bot,
  counted in fixed windows that open with the first request after the last one closed. The
  interaction endpoints (the answer to an interaction, its follow-ups and edits, all through its
  token) are exempt, as on Discord: they never reach discord.py's ``HTTPClient`` anyway, but go
  through its webhook adapter, which this module leaves alone.
- **Per channel** (:data:`DISCORD_ROUTES`): posting messages 5 per 5 s, editing 5 per 5 s,
  deleting 5 per second, each per channel (its ``channel_id``, the route's major parameter),
  in fixed windows that open with the first request; the figures the Discord developer
  community measured and quotes (Discord publishes none). Other routes have no limit of their
  own here, only the global one.

A request over a limit is not counted in it (it was refused); one over both is refused as
global. A refusal carries what Discord's does: the body ``{"message", "retry_after",
"global"}`` (``retry_after`` in seconds, to the millisecond), the headers ``Retry-After``
(whole seconds, rounded up), ``X-RateLimit-Global`` (global only), ``X-RateLimit-Scope``
(``global`` or ``user``), ``Via`` (without which discord.py takes a 429 for a Cloudflare ban),
and for a per-channel limit the bucket's ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
``-Reset-After`` and ``-Bucket``, which every answer of a limited route carries too, so that
discord.py paces itself as it does against Discord.

How it is wired
---------------
SimCord replaces discord.py's ``HTTPClient.request`` by its own (``simcord.http.FakeHTTPClient``),
which calls the simulated backend directly: discord.py's rate-limit handling never runs. Here
:class:`LimitedHTTPClient` puts it back: its ``request`` is discord.py's own
(``discord.http.HTTPClient.request``: buckets, the global lock, sleeping ``retry_after`` and
retrying up to five times), talking to a stand-in for the aiohttp session that asks the
:class:`RateLimiter` first and, if the request may pass, serves it through SimCord's router as
SimCord does (``FakeHTTPClient.request``: its errors are SimCord's). :func:`installed` makes
SimCord build every bot's HTTP client as a :class:`LimitedHTTPClient` while it is active.

Time is SimCord's simulated clock (``env.now()``), and so are discord.py's waits: under SimCord
``loop.time()`` is the simulated clock inside the bot, and a bot task's ``asyncio.sleep`` is a
virtual timer that :meth:`simcord.Env.advance_time` fires at its simulated moment. But SimCord
also arms a wall-clock fallback for it, and an actor's call (a click) waits until every bot task
is idle, that one too: a click would wait out, in real seconds, a retry that another task (a
sweep) is sleeping. So each request of a bot task runs inside ``env.external_wait``, which makes
its sleeps purely virtual and lets a click return while it waits (nothing else of the bot waits
there). The calls of the bot's start (its application's info, the command sync), which SimCord
makes in its own task, cannot wait so: any wait there stalls until SimCord's settle timeout
(its steps of the clock settle with the bot's tasks waiting for the start), so they are counted
but never refused, and take no time. A bot task that waits for a
*lock* held by a request waiting out a rate limit would still hold up a click; the channel lock
is such a lock (a ping is posted under it), so the load driver does not press in a channel with
a request waiting (:meth:`RateLimiter.waiting_in`), as a player would wait for the board.

With ``enforce=False`` the limiter answers every request, without the bucket headers (nothing to
pace by), but still counts the ones that would have been refused (:attr:`Answer.over`): the same
load on a Discord without limits, a baseline.

SimCord answers a request in no time. With a ``latency`` each rate-limited request takes that
long there and back in simulated time (half before Discord judges it, half after): a bot that
sends its requests one after another then meets its round trips before the global limit, as it
does against Discord (50 to 150 ms a request from most hosts).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import simcord
import simcord._runtime
from discord.http import HTTPClient, Route
from multidict import CIMultiDict, CIMultiDictProxy
from simcord.backend.errors import SetupError
from simcord.http import FakeHTTPClient

#: Discord's global limit: requests per second of one bot (interaction endpoints excepted).
GLOBAL_LIMIT = 50
GLOBAL_PER = 1.0
#: Discord's invalid requests limit: this many 401, 403 and 429 answers in 10 minutes get the
#: bot's address banned by Cloudflare for an hour.
INVALID_LIMIT = 10_000
INVALID_PER = 600.0


@dataclass(frozen=True)
class RouteLimit:
    """A per-channel limit of one route: ``limit`` requests per ``per`` seconds per channel."""

    method: str
    pattern: re.Pattern[str]
    limit: int
    per: float
    bucket: str  # the X-RateLimit-Bucket hash Discord would send


DISCORD_ROUTES = (
    RouteLimit("POST", re.compile(r"^/channels/(?P<channel>\d+)/messages$"), 5, 5.0, "send-5-per-5s"),
    RouteLimit("PATCH", re.compile(r"^/channels/(?P<channel>\d+)/messages/\d+$"), 5, 5.0, "edit-5-per-5s"),
    RouteLimit("DELETE", re.compile(r"^/channels/(?P<channel>\d+)/messages/\d+$"), 5, 1.0, "delete-5-per-1s"),
)
#: Interaction endpoints: never limited (they reach discord.py's webhook adapter, not HTTPClient).
EXEMPT = re.compile(r"^/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+(/.*)?)$")
CHANNEL = re.compile(r"^/channels/(?P<channel>\d+)(/|$)")


class Window:
    """A fixed window of ``limit`` requests per ``per`` seconds, opened by the first request
    after the last window closed."""

    __slots__ = ("limit", "per", "opened", "used")

    def __init__(self, limit: int, per: float) -> None:
        self.limit, self.per = limit, per
        self.opened = -math.inf
        self.used = 0

    def _roll(self, now: float) -> None:
        if now >= self.opened + self.per:
            self.opened, self.used = now, 0

    def full(self, now: float) -> bool:
        self._roll(now)
        return self.used >= self.limit

    def take(self, now: float) -> None:
        self._roll(now)
        self.used += 1

    def remaining(self, now: float) -> int:
        self._roll(now)
        return max(0, self.limit - self.used)

    def reset_after(self, now: float) -> float:
        """Seconds until this window closes (a full one: until a request may pass again)."""
        return max(0.0, self.opened + self.per - now)


@dataclass
class Answer:
    """One attempt of a request through :class:`LimitedHTTPClient`, as answered."""

    at: float  # simulated seconds since the limiter started
    method: str
    path: str
    channel: int | None
    status: int  # 200/204 served, 429 refused, or the simulated backend's error status
    #: For a 429: ``"global"`` or ``"user"`` (a per-channel limit, Discord's scope for it).
    scope: str | None = None
    retry_after: float = 0.0
    #: Would have been refused, but the limiter does not enforce (a baseline).
    over: str | None = None
    #: A posted message's text and id (a ping is a posted message).
    content: str | None = None
    message_id: int | None = None


@dataclass
class Verdict:
    refused: str | None  # None, "global" or "user"
    retry_after: float
    route: RouteLimit | None
    window: Window | None
    over: str | None


@dataclass
class RateLimiter:
    """Discord's limits, in simulated time: ``clock()`` is seconds (``env.now().timestamp()``)."""

    clock: Callable[[], float]
    global_limit: int = GLOBAL_LIMIT
    global_per: float = GLOBAL_PER
    routes: tuple[RouteLimit, ...] = DISCORD_ROUTES
    #: ``False``: answer everything, only count what would have been refused (a baseline).
    enforce: bool = True
    #: Simulated seconds a rate-limited request takes there and back (0: none, SimCord's model).
    latency: float = 0.0
    answers: list[Answer] = field(default_factory=list)
    #: Requests under way, by channel (``0``: none): between two actor calls of the driver every
    #: bot task is idle, so these are the requests waiting out a rate limit (or on their way,
    #: with a :attr:`latency`).
    waiting: Counter[int] = field(default_factory=Counter)
    #: The most requests served in one window of the global limit (in a baseline, asked for):
    #: at most :attr:`global_limit` when it is enforced. Set it to 0 to measure from then on.
    busiest_window: int = 0
    started: float = field(init=False)

    def __post_init__(self) -> None:
        self.started = self.clock()
        self._global = Window(self.global_limit, self.global_per)
        self._buckets: dict[tuple[str, int], Window] = {}

    def now(self) -> float:
        """Simulated seconds since the limiter started."""
        return self.clock() - self.started

    def route_of(self, method: str, path: str) -> tuple[RouteLimit | None, int | None]:
        for route in self.routes:
            if route.method == method and (match := route.pattern.match(path)):
                return route, int(match["channel"])
        match = CHANNEL.match(path)
        return None, int(match["channel"]) if match else None

    def window(self, route: RouteLimit, channel: int) -> Window:
        key = (route.bucket, channel)
        window = self._buckets.get(key)
        if window is None:
            window = self._buckets[key] = Window(route.limit, route.per)
        return window

    def judge(self, method: str, path: str, *, enforce: bool = True) -> Verdict:
        """Whether a request may pass now; if it may, it is counted. ``enforce=False``: it
        passes anyway (counted, and noted if it was over a limit)."""
        now = self.clock()
        route, channel = self.route_of(method, path)
        window = self.window(route, channel) if route is not None and channel is not None else None
        over = None
        if self._global.full(now):
            over, retry_after = "global", self._global.reset_after(now)
        elif window is not None and window.full(now):
            over, retry_after = "user", window.reset_after(now)
        if over is not None and self.enforce and enforce:
            return Verdict(over, round(max(retry_after, 0.001), 3), route, window, over)
        self._global.take(now)
        self.busiest_window = max(self.busiest_window, self._global.used)
        if window is not None:
            window.take(now)
        return Verdict(None, 0.0, route, window, over)

    def spend(self, method: str, path: str, count: int = 1) -> None:
        """Count ``count`` requests as made now by someone else (another process of the bot):
        for a test that needs a window already used."""
        for _ in range(count):
            self.judge(method, path)

    def waiting_in(self, channel_id: int) -> bool:
        """Whether a request in this channel is waiting out a rate limit (or on its way)."""
        return self.waiting[channel_id] > 0

    def waiting_requests(self) -> int:
        return sum(self.waiting.values())

    # -- figures -----------------------------------------------------------------------------

    def refusals(self, since: int = 0) -> Counter[str]:
        """429s by scope (``global``, ``user``), of the answers from index ``since`` on."""
        return Counter(answer.scope for answer in self.answers[since:] if answer.status == 429 and answer.scope)

    def would_refuse(self, since: int = 0) -> Counter[str]:
        """Requests over a limit the limiter did not enforce, by scope."""
        return Counter(answer.over for answer in self.answers[since:] if answer.over and answer.status != 429)

    def most_invalid(self, since: int = 0) -> int:
        """The most 401, 403 and 429 answers within any :data:`INVALID_PER` seconds (Discord bans
        a bot's address for an hour beyond :data:`INVALID_LIMIT`)."""
        times = [answer.at for answer in self.answers[since:] if answer.status in (401, 403, 429)]
        most, first = 0, 0
        for last, moment in enumerate(times):
            while moment - times[first] >= INVALID_PER:
                first += 1
            most = max(most, last - first + 1)
        return most


# -- the transport ---------------------------------------------------------------------------


@dataclass
class _Call:
    """One ``HTTPClient.request`` call as the bot made it (its tries share it)."""

    route: Route
    files: Any
    form: Any
    kwargs: dict[str, Any]
    #: Made by a bot task: it may be refused and takes the limiter's latency (a call of the bot's
    #: start, made in SimCord's task, is neither: see :meth:`LimitedHTTPClient.request`).
    tracked: bool = False


_CALL: contextvars.ContextVar[_Call] = contextvars.ContextVar("benchmarks_ratelimit_call")
VIA = "1.1 google"  # Discord's answers come through Google's front end; discord.py looks for it


class _Response:
    """Just enough of an aiohttp response for discord.py's ``HTTPClient.request``."""

    def __init__(self, status: int, headers: CIMultiDict[str], body: Any) -> None:
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 429: "Too Many Requests"}.get(status, "Error")
        self._body = body
        if body is not None:
            headers["Content-Type"] = "application/json"
        self.headers = CIMultiDictProxy(headers)

    async def text(self, encoding: str | None = None) -> str:
        return "" if self._body is None else json.dumps(self._body)


class _Exchange:
    """``async with session.request(...) as response``: the limiter, then SimCord's backend."""

    def __init__(self, client: LimitedHTTPClient, method: str, url: str) -> None:
        self.client, self.method, self.url = client, method, url

    async def __aenter__(self) -> _Response:
        """The request's way to Discord, Discord's answer, and its way back (each way half the
        limiter's :attr:`~RateLimiter.latency`)."""
        latency = self.client.limiter.latency if _CALL.get().tracked else 0.0
        if latency:
            await asyncio.sleep(latency / 2)
        try:
            response = await self._exchange()
        except Exception:
            if latency:
                await asyncio.sleep(latency / 2)
            raise
        if latency:
            await asyncio.sleep(latency / 2)
        return response

    async def _exchange(self) -> _Response:
        limiter, call = self.client.limiter, _CALL.get()
        path = _path_of(self.url)
        if EXEMPT.match(path):  # not through HTTPClient on Discord's side of things either
            return await self._serve(call, None, None)
        verdict = limiter.judge(self.method, path, enforce=call.tracked)
        route, channel = limiter.route_of(self.method, path)
        answer = Answer(limiter.now(), self.method, path, channel, 0, over=verdict.over)
        limiter.answers.append(answer)
        if verdict.refused is not None:
            answer.status, answer.scope, answer.retry_after = 429, verdict.refused, verdict.retry_after
            return refusal(verdict, limiter.clock())
        if self.method == "POST" and route is not None and route.bucket.startswith("send"):
            body = call.kwargs.get("json")
            if isinstance(body, dict):
                answer.content = body.get("content")
        try:
            response = await self._serve(call, verdict, limiter.clock())
        except Exception as error:
            answer.status = getattr(error, "status", 500)
            raise
        answer.status = response.status
        if answer.content is not None and isinstance(response._body, dict):
            answer.message_id = int(response._body.get("id", 0)) or None
        return response

    async def __aexit__(self, *exc_info: object) -> None:
        return None

    async def _serve(self, call: _Call, verdict: Verdict | None, now: float | None) -> _Response:
        data = await FakeHTTPClient.request(self.client, call.route, files=call.files, form=call.form, **call.kwargs)
        headers: CIMultiDict[str] = CIMultiDict()
        enforced = self.client.limiter.enforce  # no limits, no bucket to pace by
        if enforced and verdict is not None and verdict.window is not None and verdict.route is not None and now:
            headers.update(bucket_headers(verdict.route, verdict.window, now))
        return _Response(204 if data is None else 200, headers, data)


def bucket_headers(route: RouteLimit, window: Window, now: float) -> dict[str, str]:
    reset_after = window.reset_after(now) if window.used else route.per
    return {
        "X-RateLimit-Limit": str(route.limit),
        "X-RateLimit-Remaining": str(window.remaining(now)),
        "X-RateLimit-Reset": f"{now + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": route.bucket,
    }


def refusal(verdict: Verdict, now: float) -> _Response:
    """A 429 as Discord sends it."""
    headers: CIMultiDict[str] = CIMultiDict(
        {"Retry-After": str(math.ceil(verdict.retry_after)), "X-RateLimit-Scope": verdict.refused or "user", "Via": VIA}
    )
    if verdict.refused == "global":
        headers["X-RateLimit-Global"] = "true"
    elif verdict.route is not None and verdict.window is not None:
        headers.update(bucket_headers(verdict.route, verdict.window, now))
    body = {
        "message": "You are being rate limited.",
        "retry_after": verdict.retry_after,
        "global": verdict.refused == "global",
    }
    return _Response(429, headers, body)


def _path_of(url: str) -> str:
    """``/channels/1/messages`` of ``https://discord.com/api/v10/channels/1/messages?x=1``."""
    path = url.split("?", 1)[0]
    index = path.find("/api/v")
    if index != -1:
        path = path[index + len("/api/v") :]
        path = path[path.find("/") :]
    return path


class _Session:
    """The stand-in for discord.py's aiohttp session."""

    closed = False

    def __init__(self, client: LimitedHTTPClient) -> None:
        self.client = client

    def request(self, method: str, url: str, **kwargs: Any) -> _Exchange:
        return _Exchange(self.client, method, url)


class LimitedHTTPClient(FakeHTTPClient):
    """SimCord's HTTP client with discord.py's own request loop (rate limits and all) put back,
    talking to a :class:`RateLimiter` before SimCord's backend. Made by :func:`installed`."""

    limiter: ClassVar[RateLimiter]
    env: ClassVar[simcord.Env]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        setattr(self, "_HTTPClient__session", _Session(self))  # noqa: B010 (a name-mangled attribute)
        self._global_over = asyncio.Event()  # discord.py makes it at login, which SimCord's replaces
        self._global_over.set()

    async def request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        limiter = self.limiter
        channel = limiter.route_of(route.method, _path_of(route.url))[1] or 0
        call = _Call(route, files, form, dict(kwargs))
        token = _CALL.set(call)
        limiter.waiting[channel] += 1
        started = False

        async def send(tracked: bool) -> Any:
            nonlocal started
            started, call.tracked = True, tracked
            return await HTTPClient.request(self, route, files=files, form=form, **kwargs)

        try:
            try:
                wait = self.env.external_wait(send(True), reason="a request waiting out Discord's rate limit")
                return await wait
            except SetupError:
                if started:
                    raise
                # Not a bot task: the bot's start, which SimCord runs in the caller's task. A wait
                # there would stall (SimCord settles the clock's step with the bot's tasks still
                # waiting for the start), so these few calls (the application's info, the command
                # sync) take no time and are never refused, only counted.
                return await send(False)
        finally:
            limiter.waiting[channel] -= 1
            if not limiter.waiting[channel]:
                del limiter.waiting[channel]
            _CALL.reset(token)


@contextlib.contextmanager
def installed(env: simcord.Env, limiter: RateLimiter) -> Iterator[type[LimitedHTTPClient]]:
    """While active, SimCord gives every bot it attaches (a start, a restart) an HTTP client that
    goes through ``limiter``; ``env`` is the simulated Discord (for its ``external_wait``)."""

    class Client(LimitedHTTPClient):
        pass

    Client.limiter, Client.env = limiter, env
    original = simcord._runtime.FakeHTTPClient
    simcord._runtime.FakeHTTPClient = Client  # type: ignore[misc]
    try:
        yield Client
    finally:
        simcord._runtime.FakeHTTPClient = original  # type: ignore[misc]
