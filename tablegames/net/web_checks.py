"""What every request to the browser door passes: it names the door (no DNS rebinding), a form
comes from the party's own page, the answer carries the security headers, and an error is a
sentence for the person at the browser, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

from ..text import visible
from .guard import RefusalTally
from .web_names import DoorNames

SECURITY_HEADERS = {
    # Nothing from anywhere else: no fonts, scripts or frames from outside the party.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; "
        "form-action 'self'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # The party's own forms name their origin (see the docstring); elsewhere, nothing.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}

ERROR_SENTENCES = {
    400: "That request was not one this party's page sends: open / to join the party.",
    404: "Nothing here: open / to join the party.",
    405: "That is not how this page is used: open / to join the party.",
    413: "That form was too large: a name is at most a few words.",
}


def same_origin(request: web.Request) -> bool:
    """True unless the request came from a page of another site, as the browser says: in
    Sec-Fetch-Site (every current browser), or in Origin, which must name this host. ("null":
    a page that sends no referrer, as the party's own pages do, or a sandboxed frame; only
    Sec-Fetch-Site can tell which.) A request that says neither is not from a browser's page."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    if origin is None or (origin == "null" and site is not None):
        return True
    return urlsplit(origin).netloc.lower() == request.host.lower()


class RequestChecks:
    """The browser door's checks of each request, as aiohttp middlewares (`middlewares`);
    each refusal is counted for the host's log."""

    def __init__(self, names: DoorNames, refusals: RefusalTally, log: logging.Logger) -> None:
        self._names, self._refusals, self._log = names, refusals, log

    def middlewares(self) -> list[Middleware]:
        """The checks in the order a request meets them."""
        return [self._sentences, self._headers, self._own_names_only, self._own_pages_only]

    @web.middleware
    async def _own_names_only(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A request is served only if it names this door: a page of another site whose name
        was made to resolve here (DNS rebinding) would otherwise read the party's pages."""
        local = request.transport.get_extra_info("sockname") if request.transport else None
        header = request.headers.get("Host")
        if self._names.answers_to(header, str(local[0]) if local else None):
            return await handler(request)
        return self._refuse(
            request,
            "requests for another host name",
            "web: refused a request from %s for the host %s",
            visible((header or "no Host")[:80]),
            status=421,
            sentence="This is the party's page, and it answers only to the addresses the host "
            "gave out: open the address the host printed (the host can add a name with "
            "--web-name NAME).",
        )

    @web.middleware
    async def _own_pages_only(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A form is posted only from the party's own page (as the websocket is opened): a page
        of another site could otherwise log a guest out, or in under another name."""
        if request.method != "POST" or same_origin(request):
            return await handler(request)
        return self._refuse(
            request,
            "form posts from another site's page",
            "web: refused a form post from %s: it came from another site's page",
            status=403,
            sentence="This form is sent only from the party's own page: open / and try again.",
        )

    def _refuse(
        self,
        request: web.Request,
        what: str,
        line: str,
        *details: object,
        status: int,
        sentence: str,
    ) -> web.Response:
        """The `status` answer saying `sentence` to a request refused as one of `what`, counted
        for the host's log (`line`, given the address and `details`: `Refusals.refused`)."""
        address = request.remote or "?"
        self._refusals.refused(what, address, line, address, *details)
        return web.Response(status=status, text=sentence + "\n")

    @web.middleware
    async def _headers(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        response = await handler(request)
        if not response.prepared:  # (a websocket's are sent already)
            response.headers.update(SECURITY_HEADERS)
        return response

    @web.middleware
    async def _sentences(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every error as a sentence for the person at the browser, never a traceback."""
        try:
            return await handler(request)
        except web.HTTPException as problem:
            if problem.status < 400:
                raise
            sentence = ERROR_SENTENCES.get(
                problem.status, f"That request was refused ({problem.reason})."
            )
            return web.Response(
                status=problem.status, text=sentence + "\n", headers=SECURITY_HEADERS
            )
        except Exception:
            self._log.exception("web: a request for %s failed", visible(request.path[:80]))
            return web.Response(
                status=500,
                text="Something went wrong here; the host's log says what.\n",
                headers=SECURITY_HEADERS,
            )
