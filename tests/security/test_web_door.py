"""The browser door as a LAN guest and a stranger meet it (issue 47, items 1 and 8).

A phone reaches the party by a name, over plain http: a non-secure origin, where Chromium sends
no Sec-Fetch-Site and the form's Origin is all the door hears about where a post came from
(`tests/web/browser.py` maps the names to loopback). Another site's page, served at a second
name on loopback, can neither post the party's form nor open its websocket; a page at a name
the party was not given (DNS rebinding), and any request whose Host names another host, is not
served at all. The real `tablegames serve --web`; every packet stays on loopback.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tablegames.net.web_names import DoorNames, web_name

from ..web.browser import (
    ELSEWHERE,
    PARTY_NAME,
    REBOUND,
    headless_chromium,
    start_party,
    stop_party,
    why_no_browser,
)
from ..web.phone import UPRIGHT, Phone, phone_context

browsers = pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser()))
REFUSED_FORM = "This form is sent only from the party's own page"
OTHER_HOST = "answers only to the addresses the host gave out"
#: In a page: open a websocket to `url`; "open" if it opened, "refused" if it failed.
OPEN_SOCKET = """(url) => new Promise((done) => {
  const socket = new WebSocket(url);
  socket.onopen = () => { socket.close(); done("open"); };
  socket.onerror = () => done("refused");
})"""


class Party:
    """`tablegames serve --web` reached by `PARTY_NAME`, as a phone on the LAN reaches it."""

    def __init__(self, env: dict[str, str]) -> None:
        self.serve, self.base, _ = start_party(env, "--pace", "0.05")
        self.port = int(self.base.rsplit(":", 1)[1])

    def close(self) -> None:
        stop_party(self.serve)


@pytest.fixture
def party(tmp_path: Path) -> Iterator[Party]:
    env = {**os.environ, "TABLEGAMES_HOME": str(tmp_path), "TABLEGAMES_LOG": "info"}
    with closing(Party(env)) as running:
        yield running


@pytest.fixture
def chromium() -> Iterator[Any]:
    with headless_chromium() as browser:
        yield browser


@contextmanager
def another_site(page: str, referrer_policy: str) -> Iterator[str]:
    """A site of its own on loopback serving `page` (its `{PARTY}` the party's address) under
    `referrer_policy`; yields its address by `ELSEWHERE`."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Referrer-Policy", referrer_policy)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://{ELSEWHERE}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def ask(port: int, request: bytes) -> bytes:
    """Send `request` to the party on a connection of its own; what came back (its head and
    the start of its body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < 40:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
        return answer


def requests_naming(host: str, port: int) -> dict[str, bytes]:
    """Each kind of request a browser makes, naming `host` in its Host header: a page, a
    static file, the form, the websocket."""
    head = f"Host: {host}\r\n".encode()
    form = b"name=mallory"
    return {
        "page": b"GET / HTTP/1.1\r\n" + head + b"Connection: close\r\n\r\n",
        "static": b"GET /static/play.js HTTP/1.1\r\n" + head + b"Connection: close\r\n\r\n",
        "form": (
            b"POST /join HTTP/1.1\r\n" + head + b"Content-Type: application/x-www-form-urlencoded"
            b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(form) + form
        ),
        "websocket": (
            b"GET /ws HTTP/1.1\r\n" + head + b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + f"Origin: http://{host}\r\n\r\n".encode()
        ),
    }


@pytest.mark.e2e
@browsers
def test_a_phone_joins_by_the_partys_lan_name_over_plain_http(party, chromium):
    phone = Phone(phone_context(chromium, UPRIGHT).new_page(), party.base)
    posts: list[dict[str, str]] = []
    phone.page.on(
        "request",
        lambda request: posts.append(request.all_headers()) if request.method == "POST" else None,
    )
    phone.join("ana")  # by a tap on Join
    phone.wait_for("guest-ana", "New table")
    # As on a LAN: not a secure origin, so no Sec-Fetch-Site; the form said where it came from.
    assert phone.page.evaluate("() => window.isSecureContext") is False
    (joined,) = posts
    assert "sec-fetch-site" not in joined and joined.get("origin") == party.base, joined
    # The terminal's websocket works there too: the phone opens a table by taps.
    phone.open_table("crates", 2)
    assert "Traceback" not in phone.screen()


@pytest.mark.e2e
@browsers
@pytest.mark.parametrize("policy", ["no-referrer", "unsafe-url"])
def test_another_sites_page_cannot_post_the_form_nor_open_the_websocket(party, chromium, policy):
    # ("no-referrer": Chromium's Origin is "null"; "unsafe-url": it names the other site.)
    phone = Phone(phone_context(chromium, UPRIGHT).new_page(), party.base)
    phone.join("ana")
    page = phone.page
    socket_url = f"ws://{PARTY_NAME}:{party.port}/ws?width=60&height=20"
    assert page.evaluate(OPEN_SOCKET, socket_url) == "open"  # (from the party's own page)
    hostile = (
        f'<form id="f" method="post" action="{party.base}/join">'
        '<input name="name" value="mallory"></form>'
    )
    with another_site(hostile, policy) as elsewhere:
        page.goto(elsewhere + "/")
        assert page.evaluate(OPEN_SOCKET, socket_url) == "refused"
        with page.expect_navigation():
            page.evaluate("() => document.getElementById('f').submit()")
        assert REFUSED_FORM in page.inner_text("body")
    page.goto(party.base + "/")
    phone.wait_for("guest-ana", "New table")  # still ana: her cookie was not replaced
    assert "mallory" not in phone.screen()


@pytest.mark.e2e
@browsers
def test_a_page_at_a_name_the_party_was_not_given_is_not_served(party, chromium):
    # DNS rebinding: a name (here `REBOUND`) made to resolve to the party's address.
    page = chromium.new_page()
    answer = page.goto(f"http://{REBOUND}:{party.port}/")
    assert answer is not None and answer.status == 421
    assert OTHER_HOST in page.inner_text("body")
    assert page.locator("#name").count() == 0
    # Its scripts could still try the websocket and the form at that name: refused as well.
    socket_url = f"ws://{REBOUND}:{party.port}/ws"
    assert page.evaluate(OPEN_SOCKET, socket_url) == "refused"
    posted = page.evaluate(
        "(url) => fetch(url, {method: 'POST', body: new URLSearchParams({name: 'eve'})})"
        ".then((answer) => answer.status)",
        f"http://{REBOUND}:{party.port}/join",
    )
    assert posted == 421


@pytest.mark.e2e
def test_a_forged_host_header_is_refused_for_pages_forms_and_websockets(party):
    for host in ("evil.test", f"evil.test:{party.port}", "party.lan.evil.test", "10.9.9.9"):
        for kind, request in requests_naming(host, party.port).items():
            answer = ask(party.port, request)
            assert answer.startswith(b"HTTP/1.1 421 "), (host, kind, answer)
            assert OTHER_HOST.encode() in answer and b"Set-Cookie" not in answer, (kind, answer)
    no_host = ask(party.port, b"GET / HTTP/1.0\r\n\r\n")
    assert no_host.startswith(b"HTTP/1.0 421 ") or no_host.startswith(b"HTTP/1.1 421 "), no_host
    # Its own names are served: the name it was given, loopback, this machine's name.
    machine = socket.gethostname().split(".")[0]
    for own in (PARTY_NAME, f"127.0.0.1:{party.port}", "localhost", machine, f"{machine}.local"):
        requests = requests_naming(own, party.port)
        assert ask(party.port, requests["page"]).startswith(b"HTTP/1.1 200 "), own
        upgraded = ask(party.port, requests["websocket"])
        assert upgraded.startswith(b"HTTP/1.1 101 "), (own, upgraded)


def test_the_door_answers_to_its_addresses_names_and_the_hosts_names(monkeypatch):
    monkeypatch.setattr(
        "tablegames.net.launch.interface_addresses",
        lambda: [("lo", "127.0.0.1"), ("wlan0", "192.168.1.20"), ("eth0", "10.0.0.7")],
    )
    lan = DoorNames("0.0.0.0", ["Party.LAN.", "[::1]"])
    for header in ("192.168.1.20:8080", "10.0.0.7", "party.lan:8080", "PARTY.lan", "[::1]:80"):
        assert lan.answers_to(header), header
    assert lan.answers_to(f"{socket.gethostname()}:8080")
    assert lan.answers_to("172.17.0.2:8080", arrived_at="172.17.0.2")  # where it came in
    for header in ("evil.test", "192.168.1.21", "party.lan.evil.test", "", None, "a b", "[::2]"):
        assert not lan.answers_to(header), header
    alone = DoorNames("127.0.0.1")  # without --lan: loopback and the machine's names only
    assert alone.answers_to("127.0.0.1:8080") and not alone.answers_to("192.168.1.20")
    for bad in ("party lan", "*.lan", "-party.lan", "http://party.lan", ""):
        with pytest.raises(ValueError, match="is not a host name"):
            web_name(bad)


def test_serve_takes_web_names_only_with_the_web_door_and_says_why_a_name_is_refused():
    from typer.testing import CliRunner

    from tablegames.cli import app

    runner = CliRunner()
    without = runner.invoke(app, ["serve", "--web-name", "party.lan"])
    assert without.exit_code == 2 and "need --web PORT too" in without.output
    wrong = runner.invoke(app, ["serve", "--web", "0", "--web-name", "party lan"])
    assert wrong.exit_code == 2 and "'party lan' is not a host name" in wrong.output
