"""The browser front door of `tablegames serve --web PORT`: the party lobby in a web page.

A small aiohttp server beside the SSH door, sharing its names, limits and fork server. A
browser gets a name form (and the join code field, when the party has one); once it is
given, a signed cookie (`web_identity`) remembers the guest, and the page is a terminal
(xterm.js, served from here: the page makes no request anywhere else) whose websocket this
door bridges to the program an SSH session would run (`web_session`). Closing the tab hangs
the program up; opening the page again starts a new one for the same guest, back in their seat.

Limits, as for SSH (the same `SshConfig`, counted together with the SSH sessions): sessions in
all and per address, the terminal size, each program's memory and processor; wrong join
codes count against the address in the party's `AttemptLimiter`; new sessions from one
address are rate-limited (a reload loop costs a process each); refusals are logged summed;
a page from another site cannot open a session nor post a form (its Origin or Sec-Fetch-Site
is refused, and the cookie is SameSite=Strict and HttpOnly), and a request that names another
host is not served at all (`web_names`: DNS rebinding). Without --lan it listens on 127.0.0.1
only.

Its pages are plain http at a LAN address, which browsers do not count as a secure origin:
they send no Sec-Fetch-Site there, so a form's Origin is the only word on where it came from.
The pages' referrer policy is `same-origin`, which keeps Origin on the party's own posts (and
sends a referrer to nowhere else: the pages load nothing from elsewhere); `no-referrer` made it
"null", and a phone's own form was refused.

Connections, as nginx's: a request's line and headers must come within `header_timeout`
(an idle keep-alive connection goes then too) and a form's body within `body_timeout`; at most
`connections_per_address` are open from one address and `max_connections` in all (fewer if the
process's open files are short: `listening.door_share`), more are answered 503 with a sentence
(`web_gate`); websockets, at most the players allowed from an address and in all, and a few.
"""

from __future__ import annotations

import asyncio
import html
import logging
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from ..names import name_key
from ..paths import data_dir
from .admission import TURNED_AWAY, Visitor, crowded, held_back
from .guard import RateLimit, RefusalTally
from .guest_list import guest_name
from .listening import door_share
from .party import Login
from .ssh import CLOSING_SENTENCE
from .ssh_types import DEFAULT_TERM, Launch, Terminal, safe_size
from .web_checks import RequestChecks, same_origin
from .web_gate import Gate
from .web_identity import (
    COOKIE_DAYS,
    COOKIE_NAME,
    FORM_LIMIT,
    KEY_NAME,
    CookieSigner,
    FormRefused,
    GuestBook,
    GuestsInMemory,
    WebGuest,
    asked_name,
    load_cookie_key,
    name_refusal,
    new_guest,
)
from .web_names import DoorNames
from .web_protocol import MESSAGE_LIMIT, ended, size_asked
from .web_session import BrowserSession

if TYPE_CHECKING:
    from .ssh import SshFrontDoor

STATIC = {  # what the pages load, all from here
    "xterm.js": "text/javascript",
    "addon-fit.js": "text/javascript",
    "addon-unicode11.js": "text/javascript",
    "play.js": "text/javascript",
    "xterm.css": "text/css",
    "page.css": "text/css",
}
STARTS_KEPT = 10_000  # addresses whose session starts are counted (the oldest forgotten first)
#: Seconds between the server's websocket pings (a page that stops answering is closed within
#: one and a half of them). The page pings too, and notices a silent server in a few seconds.
HEARTBEAT = 10.0
#: Websockets open at once beyond the players allowed (per address, and four times that in
#: all): tabs being reloaded, and refused ones still closing.
SPARE_PAGES = 4
LINGERING = 2.0  # seconds the rest of a request's unread body is read and dropped at most


@dataclass
class WebConfig:
    """Where the browser door listens, and how often one address may start a session."""

    host: str = "127.0.0.1"  # loopback unless the host passes --lan
    port: int = 8080  # 0: any free port (tests)
    starts_per_second: float = 0.5  # new sessions one address may start on average...
    start_burst: int = 10  # ...and at once (a party behind one router reloading together)
    cookie_key: Path | None = None  # the cookie key's file; default data_dir()/KEY_NAME
    # As nginx's client_header_timeout and client_body_timeout: a connection has
    # `header_timeout` seconds to send a request's line and headers (and is closed after as
    # long without a request), and a form's body must arrive within `body_timeout`.
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    # Connections open at once from one address, and in all (websockets included); more are
    # answered 503 with a sentence and closed.
    connections_per_address: int = 64
    max_connections: int = 512
    names: tuple[str, ...] = ()  # host names it answers to besides its own (--web-name)


def page(name: str, **values: str) -> str:
    """The page `name` from `web_static`, its `{{NAME}}`s filled with `values` (escaped)."""
    text = resources.files(__package__).joinpath("web_static", name).read_text("utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", html.escape(value))
    return text


class WebFrontDoor:
    """An HTTP server whose pages join the party: the name form, then the terminal page."""

    def __init__(
        self,
        config: WebConfig,
        ssh: SshFrontDoor,
        launch: Callable[[Login, Terminal], Launch],
        log: logging.Logger | None = None,
        guests: GuestBook | None = None,
    ) -> None:
        self.config = config
        self.ssh = ssh  # names, limits and the fork server are the SSH door's
        self.launch = launch
        # The party's record of the guests it let in (the store's; else this door's own).
        self.guests = guests if guests is not None else GuestsInMemory()
        self.party = self.guests.fact("server_id", lambda: secrets.token_hex(16))
        ssh.admission.doors.append(self)
        self._closing: set[asyncio.Task[None]] = set()
        self.log = log if log is not None else logging.getLogger("tablegames.web")
        self.refusals = RefusalTally(self.log)
        self.sessions: set[BrowserSession] = set()
        self.port = 0
        self.signer: CookieSigner | None = None
        self._starts: OrderedDict[str, RateLimit] = OrderedDict()
        self._static = {
            name: resources.files(__package__).joinpath("web_static", name).read_bytes()
            for name in STATIC
        }
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self.gate = Gate(config.connections_per_address, config.max_connections, self.refusals)
        self.sockets: Counter[str] = Counter()  # websockets open now, per address
        self.checks = RequestChecks(DoorNames(config.host, config.names), self.refusals, self.log)

    @property
    def join_code(self) -> str | None:
        return self.ssh.join_code

    def send_away(self, person: str, why: str) -> Visitor:
        """End every browser session of the person whose name key is `person` (the host's
        `kick`, `ban`), telling the page `why`; returns their browsers' ids and addresses."""
        found = Visitor(person)
        for session in list(self.sessions):
            if name_key(session.name) != person:
                continue
            found.holders.add(session.guest.holder)
            found.addresses.add(session.address)
            found.sessions += 1
            task = asyncio.get_running_loop().create_task(
                session.close(why[:1].upper() + why[1:] + ".")
            )
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        return found

    def sessions_from(self, address: str | None) -> int:
        """Browser sessions from `address` now (None: in all)."""
        if address is None:
            return len(self.sessions)
        return sum(1 for session in self.sessions if session.address == address)

    def connections_from(self, address: str | None) -> int:
        """Connections open now from `address` (None: in all), websockets included."""
        return self.gate.connections_from(address)

    def app(self) -> web.Application:
        """The web application (the door's routes, headers and sentences for errors)."""
        app = web.Application(
            client_max_size=4 * FORM_LIMIT,
            middlewares=self.checks.middlewares(),
        )
        app.add_routes(
            [
                web.get("/", self.front_page),
                web.post("/join", self.join),
                web.post("/forget", self.forget),
                web.get("/ws", self.websocket),
                web.get("/static/{name}", self.static),
            ]
        )
        return app

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        key_path = self.config.cookie_key
        key = load_cookie_key(data_dir() / KEY_NAME if key_path is None else key_path)
        self.signer = CookieSigner(key)
        self.ssh.elsewhere = self.sessions_from
        config = self.config
        self._runner = web.AppRunner(
            self.app(),
            access_log=None,
            handle_signals=False,
            shutdown_timeout=2,
            # aiohttp's keep-alive clock runs from connecting until a whole request has come,
            # and between requests: nginx's client_header_timeout and keepalive_timeout.
            keepalive_timeout=config.header_timeout,
            lingering_time=LINGERING,
        )
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        self.gate.in_all = door_share(config.max_connections)
        # Its own listening socket, not an aiohttp site: every connection passes the gate.
        self._listener = await asyncio.get_running_loop().create_server(
            self.gate.protocol(server), config.host, config.port
        )
        self.port = int(self._listener.sockets[0].getsockname()[1])
        self.log.info("web: listening on %s port %d", config.host, self.port)
        return self.port

    async def close(self) -> None:
        """Stop listening and end every browser session; returns once every program is gone."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        await asyncio.gather(*(session.close(CLOSING_SENTENCE) for session in list(self.sessions)))
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.ssh.elsewhere = lambda address: 0
        self.refusals.flush()
        self.log.info("web: closed")

    # -- pages ------------------------------------------------------------------------------
    async def front_page(self, request: web.Request) -> web.Response:
        """The terminal page for a guest the cookie names, else the name form."""
        guest = self._guest(request)
        if guest is not None and self._code_given(guest):
            return _html(page("play.html", NAME=guest.name))
        return self._form(asked=guest.asked if guest is not None else "")

    def _turned_away(self, address: str) -> web.Response | None:
        """The page for an address the host banned (None: it is not banned)."""
        if not self.ssh.admission.turned_away(address=address):
            return None
        self._refused(address, "", "banned by the host")
        return self._form(TURNED_AWAY[:1].upper() + TURNED_AWAY[1:] + ".", status=403)

    async def join(self, request: web.Request) -> web.Response:
        """The name form, given: a cookie for the guest, or the form again with why not."""
        address = request.remote or "?"
        banned = self._turned_away(address)
        if banned is not None:
            return banned
        try:
            async with asyncio.timeout(self.config.body_timeout):
                form = await request.post()
        except TimeoutError:
            self._refused(address, "", "form too slow")
            return web.Response(
                status=408, text="That form took too long to arrive: open / and send it again.\n"
            )
        typed, given_code = form.get("name"), form.get("code")
        asked = typed if isinstance(typed, str) else ""
        # A refused name keeps the code typed beside it (it was not tried): only the name
        # is to be typed again. A wrong code is not kept.
        code_typed = given_code[:FORM_LIMIT] if isinstance(given_code, str) else ""
        try:
            asked = asked_name(asked)
        except FormRefused as empty:
            return self._form(str(empty), asked, status=400, code=code_typed)
        holder = self.ssh.guest_list.name_holder(name_key(asked))
        why = name_refusal(asked, holder, self.ssh.guest_list.look_alike_problem(asked))
        if why is not None:
            reason = "name held by a key" if holder is not None else "a look-alike name"
            self._refused(address, asked, reason)
            return self._form(why, asked, status=403, code=code_typed)
        wrong = self._check_code(address, code_typed)
        if wrong is not None:
            return self._form(wrong, asked, status=403)
        earlier = self._guest(request)
        if earlier is not None and name_key(earlier.asked) == name_key(asked):
            # The same guest again (a new join code, say): the same id, so the same seats.
            guest = WebGuest(earlier.guest_id, asked, earlier.name, self.party, time.time())
        else:
            guest = new_guest(asked, guest_name(asked, self.ssh.guest_list.name_in_use), self.party)
        self.guests.web_guest_let_in(guest.guest_id, code_given=self.join_code is not None)
        response = web.Response(status=303, headers={"Location": "/"})
        self._set_cookie(response, guest)
        return response

    async def forget(self, request: web.Request) -> web.Response:
        """Forget this browser's guest (to join under another name): on the server too, so no
        copy of its cookie opens the party again."""
        guest = self._guest(request)
        if guest is not None:
            self.guests.web_guest_struck(guest.guest_id)
        response = web.Response(status=303, headers={"Location": "/"})
        response.del_cookie(COOKIE_NAME, path="/")
        return response

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return web.Response(
            body=self._static[name],
            content_type=STATIC[name],
            headers={"Cache-Control": "max-age=3600"},
        )

    # -- the terminal's websocket -------------------------------------------------------------
    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """Run one session for this tab, or tell the page in a sentence why not."""
        address = request.remote or "?"
        if not same_origin(request):
            self._refused(address, "a page from another site", "another site's page")
            return web.Response(
                status=403, text="This page opens only from the party's own address.\n"
            )
        too_many = self._too_many_pages(address)
        if too_many is not None:
            refused = web.Response(status=503, text=too_many + "\n")
            refused.force_close()  # (nothing more to ask on this connection)
            return refused
        self.sockets[address] += 1
        try:
            return await self._run_websocket(request, address)
        finally:
            self.sockets[address] -= 1
            if self.sockets[address] <= 0:
                del self.sockets[address]

    async def _run_websocket(self, request: web.Request, address: str) -> web.StreamResponse:
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=4 * MESSAGE_LIMIT)
        await socket.prepare(request)
        guest = self._guest(request)
        refusal = self._why_not_start(address, guest)
        if refusal is not None or guest is None:
            await socket.send_str(ended(refusal or "Open the page again to join."))
            await socket.close()
            return socket
        ssh = self.ssh
        place = guest.holder  # where this guest comes from, as the SSH door's guests go
        name = ssh.guest_list.guest_arrived(guest.asked, place, True, had=guest.name)
        query = request.query
        columns, rows = safe_size(*size_asked(query.get("width"), query.get("height")))
        terminal = Terminal(DEFAULT_TERM, columns, rows)
        session = BrowserSession(self, socket, guest, name, address, terminal)
        self.sessions.add(session)
        self.log.info("web: %s logged in from %s (browser)", name, address)
        try:
            await session.run()
        finally:
            self.sessions.discard(session)
            ssh.guest_list.guest_left(guest.asked, place)
            minutes = (time.monotonic() - session.started) / 60
            self.log.info("web: %s left (%s, browser) after %.0f min", name, address, minutes)
        return socket

    def _too_many_pages(self, address: str) -> str | None:
        """Why this address may not open another websocket now (None: it may)."""
        here = self.ssh.max_per_address() + SPARE_PAGES
        in_all = self.ssh.config.max_sessions + 4 * SPARE_PAGES
        if self.sockets[address] >= here:
            self._refused(address, "", "too many pages open")
            return (
                f"Too many pages of the party are open from {address} (at most {here}): close "
                "one, then open this one again."
            )
        if self.sockets.total() >= in_all:
            self._refused(address, "", "too many pages open in all")
            return f"The party has all the pages open it can take ({in_all}); try again later."
        return None

    def _why_not_start(self, address: str, guest: WebGuest | None) -> str | None:
        """Why this tab may not have a session now (None: it may)."""
        ssh, config = self.ssh, self.ssh.config
        if ssh.admission.turned_away(address=address):
            self._refused(address, "", "banned by the host")
            return TURNED_AWAY[:1].upper() + TURNED_AWAY[1:] + "."
        if guest is None or not self._code_given(guest):
            return "Open the page again to join (your name was not remembered)."
        if not self._start_allowed(address):
            self._refused(address, guest.asked, "sessions started too often")
            return (
                f"Too many new sessions from {address} at once: wait a few seconds, then open "
                "the page again."
            )
        if ssh.full():
            self.log.warning("web: refused %s (%s): full", guest.name, address)
            return f"The table server is full ({config.max_sessions} sessions); try again later."
        limit = ssh.max_per_address()
        if ssh.logged_in_from(address) >= limit:
            self._refused(address, guest.asked, "too many players from one address")
            return crowded(address, limit)
        holder = ssh.guest_list.name_holder(name_key(guest.asked))
        why = name_refusal(guest.asked, holder, ssh.guest_list.look_alike_problem(guest.asked))
        if why is not None:
            self._refused(address, guest.asked, "name held by a key")
            return why
        return None

    # -- helpers ----------------------------------------------------------------------------
    def _guest(self, request: web.Request) -> WebGuest | None:
        """The guest this browser's cookie names, if this party let them in and they are still
        let in (not forgotten, not banned); else None, whatever the cookie says."""
        assert self.signer is not None, "start() first"
        guest = self.signer.read(request.cookies.get(COOKIE_NAME))
        if guest is None or guest.party != self.party:
            return None
        if self.guests.web_guest(guest.guest_id) is None:
            return None  # forgotten (`/forget`), or never let in here
        if self.ssh.admission.turned_away(holder=guest.holder):
            return None
        return guest

    def _code_given(self, guest: WebGuest) -> bool:
        """True if `guest` gave the join code (or none is asked): whoever is in stays in
        when the host changes the code."""
        return self.join_code is None or self.guests.web_guest(guest.guest_id) is True

    def _check_code(self, address: str, given: str) -> str | None:
        """Why the join code given in the form is not accepted (None: it is, or none is needed)."""
        expected = self.join_code
        if expected is None:
            return None
        admission = self.ssh.admission
        wait = admission.held_back(address)
        if wait > 0:
            self._refused(address, "", "held back after wrong join codes")
            return held_back(address, wait)
        if admission.try_code(address, given[:FORM_LIMIT]):
            return None
        self.refusals.refused(  # never the code tried
            "wrong join codes", address, "web: wrong join code from %s", address
        )
        wait = admission.held_back(address)
        if wait > 0:
            return held_back(address, wait)
        return "That is not the join code: ask the host for it."

    def _start_allowed(self, address: str) -> bool:
        limit = self._starts.pop(address, None) or RateLimit(
            self.config.starts_per_second, self.config.start_burst
        )
        self._starts[address] = limit  # most recent last
        while len(self._starts) > STARTS_KEPT:
            self._starts.popitem(last=False)
        return limit.allow()

    def _refused(self, address: str, name: str, reason: str) -> None:
        self.refusals.refused(
            f"logins ({reason})",
            address,
            "web: refused %s (%s): %s",
            address,
            name or "no name",
            reason,
        )

    def _form(
        self, problem: str = "", asked: str = "", status: int = 200, code: str = ""
    ) -> web.Response:
        code_field = "needed" if self.join_code is not None else "none"
        text = page("form.html", PROBLEM=problem, NAME=asked, CODE=code_field, CODE_GIVEN=code)
        return _html(text, status)

    def _set_cookie(self, response: web.StreamResponse, guest: WebGuest) -> None:
        assert self.signer is not None
        response.set_cookie(
            COOKIE_NAME,
            self.signer.sign(guest),
            max_age=COOKIE_DAYS * 86400,
            path="/",
            httponly=True,
            samesite="Strict",
        )


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(
        text=text,
        status=status,
        content_type="text/html",
        headers={"Cache-Control": "no-store"},
    )
