"""Strangers at the browser door (issue 39): silent and half-sent connections are closed on a
clock, connections are capped per address and in all, accept errors at the file limit cost
the host's log a line, and a page of another site cannot post the party's forms.

The door runs in the test's event loop on loopback; other 127.x source addresses stand in for
other machines of the LAN.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tablegames.net.guard import AttemptLimiter
from tablegames.net.listening import raise_file_limit, sum_accept_errors
from tablegames.net.ssh import SshConfig, SshFrontDoor
from tablegames.net.web import SPARE_PAGES, WebConfig, WebFrontDoor
from tablegames.net.web_identity import COOKIE_NAME
from tablegames.store import Store
from tablegames.testing.metrics import record

from .ssh_harness import Records
from .test_web_door import Doors, stand_in

WAIT = 15.0  # seconds any one step may take (a bound, never a measure)


@pytest.fixture
async def doors(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Doors]:
    settings = getattr(request, "param", {})
    store = Store(tmp_path / "party.db")
    config = SshConfig(port=0, host_key=tmp_path / "host_key", **settings.get("ssh", {}))
    records = Records()
    log = logging.getLogger(f"tablegames.web.strangers{id(records)}")
    log.setLevel(logging.DEBUG)
    log.addHandler(records)
    ssh = SshFrontDoor(config, store, lambda identity, terminal: None, AttemptLimiter(), log)  # type: ignore[arg-type,return-value]
    web_config = WebConfig(port=0, cookie_key=tmp_path / "cookie_key", **settings.get("web", {}))
    web = WebFrontDoor(web_config, ssh, stand_in, log)
    port = await web.start()
    yield Doors(web, ssh, store, records, f"http://127.0.0.1:{port}")
    await web.close()
    store.close()
    log.removeHandler(records)


async def connect(doors: Doors, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", doors.web.port, local_addr=(source, 0))


async def answer_then_closed(reader: asyncio.StreamReader, bound: float = WAIT) -> str:
    """What the door answers on a connection, read until it closes it (within `bound`)."""
    said = b""
    async with asyncio.timeout(bound):
        try:
            while chunk := await reader.read(4096):
                said += chunk
        except ConnectionResetError:
            pass
    return said.decode(errors="replace")


async def counted(doors: Doors, address: str | None, count: int) -> None:
    """Wait until the door counts `count` connections from `address` (None: in all)."""
    async with asyncio.timeout(WAIT):
        while doors.web.connections_from(address) != count:
            await asyncio.sleep(0.02)


# -- finding 4: connections held forever -----------------------------------------------------
@pytest.mark.parametrize(
    "doors", [{"web": {"header_timeout": 1.0, "body_timeout": 1.0}}], indirect=True
)
async def test_silent_and_half_sent_connections_are_closed_on_a_clock(doors):
    silent = [await connect(doors, "127.0.0.2") for _ in range(3)]
    half_headers = await connect(doors, "127.0.0.2")
    half_headers[1].write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    half_body = await connect(doors, "127.0.0.2")
    half_body[1].write(
        b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n\r\nname=ana"
    )
    answers = await asyncio.gather(
        *(answer_then_closed(reader) for reader, _ in [*silent, half_headers, half_body])
    )
    assert answers[:4] == [""] * 4  # nothing to answer: closed
    assert answers[4].startswith("HTTP/1.1 408")
    assert "That form took too long to arrive" in answers[4]
    for _, writer in [*silent, half_headers, half_body]:
        writer.close()
    await counted(doors, None, 0)
    # A friend's browser is answered as ever, and keeps its connection between requests.
    async with doors.client() as browser:
        for _ in range(2):
            async with browser.get(doors.url + "/") as page:
                assert page.status == 200


@pytest.mark.parametrize(
    "doors",
    [{"web": {"connections_per_address": 4, "max_connections": 6, "header_timeout": 30.0}}],
    indirect=True,
)
async def test_connections_are_capped_per_address_and_in_all_with_a_sentence(doors):
    held = []
    for _ in range(4):
        held.append(await connect(doors, "127.0.0.2"))
        await counted(doors, "127.0.0.2", len(held))
    for _ in range(10):
        reader, writer = await connect(doors, "127.0.0.2")
        said = await answer_then_closed(reader)
        writer.close()
        assert said.startswith("HTTP/1.1 503")
        assert "Too many connections from 127.0.0.2 at once (at most 4)" in said
    # Another machine is not held up by them.
    async with doors.client() as browser, browser.get(doors.url + "/") as page:
        assert page.status == 200 and 'action="/join"' in await page.text()
    await counted(doors, None, 4)
    for _ in range(2):
        held.append(await connect(doors, "127.0.0.4"))
    await counted(doors, None, 6)
    reader, writer = await connect(doors, "127.0.0.5")
    said = await answer_then_closed(reader)
    writer.close()
    assert said.startswith("HTTP/1.1 503")
    assert "The party's page has all the connections it can take (6)" in said
    for _, writer in held:
        writer.close()
    await counted(doors, None, 0)
    refused = [line for line in doors.records.lines if "web: refused a connection" in line]
    assert len(refused) == 2, refused  # one per address: summed, the counts come later


@pytest.mark.parametrize("doors", [{"ssh": {"max_per_address": 1}}], indirect=True)
async def test_websockets_are_capped_per_address_beyond_its_players(doors):
    handshake = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{doors.web.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    cap = 1 + SPARE_PAGES  # its players, and a few pages being reloaded or closed
    held = []
    for _ in range(cap):  # refused a session, they never answer the door's goodbye
        reader, writer = await connect(doors, "127.0.0.2")
        writer.write(handshake)
        assert (await reader.readline()).startswith(b"HTTP/1.1 101")
        held.append(writer)
    reader, one_more = await connect(doors, "127.0.0.2")
    one_more.write(handshake)
    said = await answer_then_closed(reader)
    assert said.startswith("HTTP/1.1 503")
    assert f"Too many pages of the party are open from 127.0.0.2 (at most {cap})" in said
    for writer in [*held, one_more]:
        writer.close()
    assert sum("too many pages open" in line for line in doors.records.lines) == 1


async def test_accept_errors_at_the_file_limit_are_summed(doors):
    loop = asyncio.get_running_loop()
    records = Records()
    log = logging.getLogger(f"tablegames.accept.test{id(records)}")
    log.addHandler(records)
    stop = sum_accept_errors(loop, log)
    try:
        for _ in range(1000):  # what asyncio reports for each failed accept
            loop.call_exception_handler(
                {
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(errno.EMFILE, "Too many open files"),
                }
            )
        assert len(records.lines) == 1, records.lines
        assert "Too many open files" in records.lines[0]
    finally:
        stop()
        log.removeHandler(records)
    (summed,) = records.lines[1:]
    assert summed.startswith("refused 999 more connections (out of open files) from any address")


def test_the_soft_file_limit_is_raised_as_far_as_the_hard_one_allows():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        raised = raise_file_limit()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == raised
        assert raised == hard or (hard == resource.RLIM_INFINITY and raised >= 65536)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# -- finding 8: another site's page posts the party's forms ----------------------------------
async def test_form_posts_from_another_site_are_refused_and_logged_once(doors):
    foreign = [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "http://evil.example", "Sec-Fetch-Site": "same-origin"},  # (a lie)
    ]
    tried = honoured = 0
    async with doors.client() as browser:
        async with browser.post(doors.url + "/join", data={"name": "ana"}) as joined:
            assert "guest-ana" in await joined.text()
        for path in ("/forget", "/join"):
            for headers in foreign:
                async with browser.post(
                    doors.url + path,
                    data={"name": "mallory"},
                    headers=headers,
                    allow_redirects=False,
                ) as answer:
                    tried += 1
                    honoured += answer.status != 403 or "Set-Cookie" in answer.headers
                    said = await answer.text()
                    assert "This form is sent only from the party's own page" in said
        async with browser.get(doors.url + "/") as page:
            assert "guest-ana" in await page.text()  # still ana's browser
        # The party's own page posts as ever: at a secure origin (127.0.0.1) the browser says
        # so in Sec-Fetch-Site (and a sandboxed frame's Origin is "null"); at a LAN name, over
        # plain http, only its Origin does (the referrer policy keeps it).
        for own in (
            {"Origin": doors.url, "Sec-Fetch-Site": "same-origin"},
            {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
            {"Origin": doors.url},
        ):
            async with browser.post(
                doors.url + "/join", data={"name": "ana"}, headers=own, allow_redirects=False
            ) as joined:
                assert joined.status == 303
        async with browser.post(doors.url + "/forget", allow_redirects=False) as forgot:
            assert forgot.status == 303 and COOKIE_NAME in forgot.headers.get("Set-Cookie", "")
    assert honoured == 0
    refused = [line for line in doors.records.lines if "another site's page" in line]
    assert len(refused) == 1, refused  # summed
    record("foreign", posts_tried=tried, posts_honoured=honoured)
