"""The sandbox's additions to SimCord's browser page (imported only once SimCord is there).

SimCord's Preview serves one channel at a time (the threads where games with ``thread: True``
are played were out of its reach), and renders Discord timestamps (``<t:…:R>``) once, in the
page's profile language (English). The sandbox serves the same page with a script of its own,
``bot/sandbox/static/sandbox.js``, and two endpoints for it, behind the session's capability
like SimCord's:

``GET /sandbox/state``
    The sandbox's clock (its simulated *now*, and whether it runs with real time), the channels
    the page can show (#games and its threads, newest first, then Ama's DM with the bot) and
    which one it shows, and each
    member's language (their ``/wari settings language``, else the server's).
``GET /sandbox/show?channel=ID``
    Show that channel (#games, one of its threads, or Ama's DM) on every page of the session.

The script adds a channel picker (and follows a thread the bot just opened), and re-renders
every ``<t:…>`` each second against the sandbox's clock, in the language of the member the page
is shown to, as Discord shows them in each reader's app language (the member's ``/wari settings
language``, else the server's ``/wari-mod settings language``, else English). For that SimCord's
``text.js`` is served with each timestamp's value and style kept on its element (``data-unix``,
``data-style``, ``data-timezone``).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, ClassVar, Protocol

from aiohttp import web
from simcord.preview._server import PreviewServer


class Sandbox(Protocol):
    """What the page asks of the sandbox that serves it (:class:`bot.sandbox.Sandbox`)."""

    async def show_channel(self, channel_id: int) -> bool: ...

    async def page_state(self) -> dict[str, Any]: ...


log = logging.getLogger("bot.sandbox")

STATIC = Path(__file__).with_name("static")
#: The sandbox's own files, served next to SimCord's.
OWN_FILES = {"/sandbox.js": ("sandbox.js", "application/javascript"), "/sandbox.css": ("sandbox.css", "text/css")}
STATE_PATH = "/sandbox/state"
SHOW_PATH = "/sandbox/show"
#: Where SimCord's text.js makes a timestamp's element, and what the sandbox adds after it.
TIMESTAMP_ANCHOR = 'const time = node("time", "discord-timestamp", rendered);'
TIMESTAMP_DATA = (
    " time.dataset.unix = String(token.unix); time.dataset.style = style;"
    ' time.dataset.timezone = options.timezone || "UTC";'
)
HEAD_END, BODY_END = "</head>", "</body>"
INJECTED_HEAD = '<link rel="stylesheet" href="/sandbox.css">\n  '
INJECTED_BODY = '<script type="module" src="/sandbox.js"></script>\n  '


def patched_text_js(source: str) -> str:
    """SimCord's text.js, with each timestamp's value and style kept on its element.

    >>> patched_text_js('x; const time = node("time", "discord-timestamp", rendered); y').count("dataset.unix")
    1
    """
    if TIMESTAMP_ANCHOR not in source:
        log.warning("SimCord's text.js changed: the page cannot keep its relative times up to date")
        return source
    return source.replace(TIMESTAMP_ANCHOR, TIMESTAMP_ANCHOR + TIMESTAMP_DATA, 1)


def patched_index(source: str) -> str:
    """SimCord's page, with the sandbox's stylesheet and script.

    >>> patched_index("<html><head></head><body></body></html>").count("sandbox")
    2
    """
    return source.replace(HEAD_END, INJECTED_HEAD + HEAD_END, 1).replace(BODY_END, INJECTED_BODY + BODY_END, 1)


class SandboxServer(PreviewServer):
    """SimCord's loopback server, serving the sandbox's script and answering it too."""

    _STATIC_FILES: ClassVar[dict[str, str]] = {
        **PreviewServer._STATIC_FILES,
        **{route: name for route, (name, _type) in OWN_FILES.items()},
        STATE_PATH: "",
        SHOW_PATH: "",
    }

    def __init__(self, preview: Any, port: int, sandbox: Sandbox) -> None:
        super().__init__(preview, port)
        self.sandbox = sandbox

    def _check_host(self, request: web.Request) -> None:
        if self.port is None or request.headers.get("Host", "") not in self._allowed_hosts():
            raise web.HTTPForbidden()

    async def _index(self, request: web.Request) -> web.StreamResponse:
        self._check_host(request)
        text = _simcord_static("index.html").read_text(encoding="utf-8")
        return web.Response(text=patched_index(text), content_type="text/html", headers=self._SECURITY_HEADERS)

    async def _static(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path in (STATE_PATH, SHOW_PATH):
            return await self._api(request)
        if path in OWN_FILES:
            self._check_host(request)
            name, content_type = OWN_FILES[path]
            text = (STATIC / name).read_text(encoding="utf-8")
            return web.Response(text=text, content_type=content_type, headers=self._SECURITY_HEADERS)
        if path == "/text.js":
            self._check_host(request)
            text = patched_text_js(_simcord_static("text.js").read_text(encoding="utf-8"))
            return web.Response(text=text, content_type="application/javascript", headers=self._SECURITY_HEADERS)
        return await super()._static(request)

    async def _api(self, request: web.Request) -> web.StreamResponse:
        if not self._authorized(request):
            raise web.HTTPUnauthorized()
        if request.path == SHOW_PATH:
            try:
                channel_id = int(request.query.get("channel", ""))
            except ValueError:
                raise web.HTTPBadRequest(text="channel must be a channel id") from None
            if not await self.sandbox.show_channel(channel_id):
                raise web.HTTPNotFound(text="no such channel to show")
        state = await self.sandbox.page_state()
        return web.Response(text=json.dumps(state), content_type="application/json", headers=self._SECURITY_HEADERS)


def _simcord_static(name: str) -> Path:
    import simcord.preview._server as server

    return Path(server.__file__).with_name("static") / name
