"""Strangers at the browser door (issue 39): malformed requests cost the host's log a few
escaped lines and a sum, not a traceback each; no name typed in the form looks like a held one.

The door runs in the test's event loop, its log through the host's log handler (as `serve`
sets it up), on loopback.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tablegames.names import name_key
from tablegames.net.guard import AttemptLimiter
from tablegames.net.logs import host_log_handler
from tablegames.net.ssh import SshConfig, SshFrontDoor
from tablegames.net.web import WebConfig, WebFrontDoor
from tablegames.store import Store
from tablegames.testing.metrics import record

from .ssh_harness import Records
from .test_web_door import Doors, join, stand_in

PAYLOAD = b"\x1b]0;PWNED\x07\x1b[2J\x1b[8m"
#: Requests no browser sends: escapes in the request line, in a header's name, in its value,
#: a header line without a colon, a bad version, and bytes that are not HTTP at all.
MALFORMED = [
    b"GET /" + PAYLOAD + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-" + PAYLOAD + b": 1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Evil: " + PAYLOAD + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n" + PAYLOAD + b"\r\n\r\n",
    b"GET / HTTP/9." + PAYLOAD + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nContent-Length: " + PAYLOAD + b"\r\n\r\n",
]


@pytest.fixture
def host_log() -> Iterator[io.StringIO]:
    """What the host's terminal shows: every record through the host's log handler."""
    out = io.StringIO()
    handler = host_log_handler(out)
    root = logging.getLogger()
    root.addHandler(handler)
    yield out
    handler.write_sums()
    root.removeHandler(handler)


@pytest.fixture
async def doors(tmp_path: Path) -> AsyncIterator[Doors]:
    store = Store(tmp_path / "party.db")
    config = SshConfig(port=0, host_key=tmp_path / "host_key")
    records = Records()
    log = logging.getLogger("tablegames.web")
    log.addHandler(records)
    ssh = SshFrontDoor(config, store, lambda identity, terminal: None, AttemptLimiter(), log)  # type: ignore[arg-type,return-value]
    web = WebFrontDoor(WebConfig(port=0, cookie_key=tmp_path / "cookie_key"), ssh, stand_in, log)
    port = await web.start()
    yield Doors(web, ssh, store, records, f"http://127.0.0.1:{port}")
    await web.close()
    store.close()
    log.removeHandler(records)


async def ask(port: int, request: bytes) -> bytes:
    """Send `request` on a connection of its own; what came back before the door closed it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    try:
        async with asyncio.timeout(10):
            return await reader.read(-1)
    finally:
        writer.close()


def unsafe(line: str) -> bool:
    return any(not char.isprintable() for char in line)


async def test_three_hundred_malformed_requests_are_a_few_escaped_lines(doors, host_log):
    port = doors.web.port
    answers = []
    for n in range(300):
        answers.append(await ask(port, MALFORMED[n % len(MALFORMED)]))
    assert all(answer.split(b" ", 2)[1] == b"400" for answer in answers), set(answers)
    lines = host_log.getvalue().splitlines()
    assert len(lines) <= 10, lines
    assert not [line for line in lines if unsafe(line)], lines
    assert not any("Traceback" in line for line in lines), lines
    async with doors.client() as browser, browser.get(doors.url + "/") as page:
        assert page.status == 200  # and the door still serves a friend
    record("outside", max_malformed_http_log_lines=len(lines), max_malformed_requests=300)


async def test_a_name_that_looks_like_a_held_one_is_refused_in_the_form(doors, host_log):
    doors.store.claim_name(name_key("alice"), "alice", "SHA256:aliceskey")
    refused = []
    async with doors.client() as browser:
        for name in ("Аlice", "a1ice", "guest‐bob", "gueѕt-bob", "Bоt 2"):
            if "choose another name" in await join(doors, browser, name):
                refused.append(name)
        said = await join(doors, browser, "a1ice")
        assert "That name will not do (a1ice looks like alice): choose another name." in said
        await join(doors, browser, "Сергей")  # a name in one script is a name
        assert "tablegames_guest" in {cookie.key for cookie in browser.cookie_jar}
    assert refused == ["Аlice", "a1ice", "guest‐bob", "gueѕt-bob", "Bоt 2"]
    lines = host_log.getvalue().splitlines()
    assert any("a look-alike name" in line for line in lines) and not any(map(unsafe, lines))
    record("outside", lookalikes_tried=5, lookalikes_admitted=5 - len(refused))
