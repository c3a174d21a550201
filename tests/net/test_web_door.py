"""The browser door without a browser: its form, cookie, limits and websocket, on loopback.

The door runs in the test's event loop, with an SSH door that is not listening (the browser
door shares its names, limits and settings); sessions run the stand-in table program.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tablegames.net.guard import AttemptLimiter
from tablegames.net.party import Login
from tablegames.net.server import Server, ServerConfig
from tablegames.net.ssh import SshConfig, SshFrontDoor
from tablegames.net.ssh_types import Launch, Terminal
from tablegames.net.web import WebConfig, WebFrontDoor
from tablegames.net.web_identity import COOKIE_NAME
from tablegames.serve import ssh_front_door
from tablegames.store import Store

from .ssh_harness import PROGRAM, Records

WAIT = 20.0  # seconds any one step may take (a bound, never a measure)


def stand_in(login: Login, terminal: Terminal) -> Launch:
    """The stand-in program, told who it runs for (as the SSH tests' one is)."""
    env = {"PATH": "/usr/bin:/bin", "TERM": terminal.term, "PLAYER": login.name}
    return Launch([sys.executable, str(PROGRAM)], {**env, "GUEST": "yes", "KEY": "none"})


@dataclass
class Doors:
    web: WebFrontDoor
    ssh: SshFrontDoor
    store: Store
    records: Records
    url: str

    def client(self) -> aiohttp.ClientSession:
        """A browser of sorts: it keeps cookies (for an address, as browsers do)."""
        return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


@pytest.fixture
async def doors(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Doors]:
    settings = getattr(request, "param", {})
    store = Store(tmp_path / "party.db")
    config = SshConfig(port=0, host_key=tmp_path / "host_key", **settings)
    records = Records()
    log = logging.getLogger(f"tablegames.web.test{id(records)}")
    log.setLevel(logging.DEBUG)
    log.addHandler(records)
    ssh = SshFrontDoor(config, store, lambda identity, terminal: None, AttemptLimiter(), log)  # type: ignore[arg-type,return-value]
    web = WebFrontDoor(
        WebConfig(
            port=0, cookie_key=tmp_path / "cookie_key", start_burst=3, starts_per_second=0.001
        ),
        ssh,
        stand_in,
        log,
    )
    port = await web.start()
    yield Doors(web, ssh, store, records, f"http://127.0.0.1:{port}")
    await web.close()
    store.close()
    log.removeHandler(records)


async def join(doors: Doors, client: aiohttp.ClientSession, name: str, code: str = "") -> str:
    async with client.post(f"{doors.url}/join", data={"name": name, "code": code}) as answer:
        return await answer.text()


def logged(doors: Doors, text: str) -> bool:
    return any(text in line for line in doors.records.lines)


async def screen_until(socket: aiohttp.ClientWebSocketResponse, *texts: str) -> str:
    """What the program printed, read until every one of `texts` is in it."""
    seen = ""
    async with asyncio.timeout(WAIT):
        while not all(text in seen for text in texts):
            message = await socket.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data.decode(errors="replace")
            elif message.type == aiohttp.WSMsgType.TEXT:
                seen += message.data
            else:
                raise AssertionError(f"closed before {texts}: {seen!r}")
    return seen


async def test_the_form_is_the_front_page_and_its_sentences_are_clear(doors):
    async with doors.client() as browser:
        async with browser.get(doors.url + "/") as page:
            text = await page.text()
            assert page.status == 200 and 'action="/join"' in text
            assert "code-none" in text  # no join code field without a code
            assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        async with browser.post(doors.url + "/join", data={"name": " \x1b "}) as refused:
            assert refused.status == 400
            assert "Type the name you want to play under" in await refused.text()
        assert COOKIE_NAME not in {cookie.key for cookie in browser.cookie_jar}
        for path, status in (("/nothing", 404), ("/static/../../etc/passwd", 404)):
            async with browser.get(doors.url + path) as missing:
                said = await missing.text()
                assert missing.status == status and "open / to join the party" in said
        async with browser.put(doors.url + "/join") as wrong:
            assert wrong.status == 405 and "Traceback" not in await wrong.text()


async def test_a_name_gives_a_signed_httponly_strict_cookie_and_the_terminal_page(doors):
    async with doors.client() as browser:
        async with browser.post(
            doors.url + "/join", data={"name": "ana"}, allow_redirects=False
        ) as answer:
            assert answer.status == 303
            cookie = answer.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        async with browser.get(doors.url + "/") as page:
            text = await page.text()
            assert "guest-ana" in text and "/static/play.js" in text
        # The same cookie changed by one character: the form again, nobody's page.
        (kept,) = [c for c in browser.cookie_jar if c.key == COOKIE_NAME]
        value = kept.value
        tampered = value[:5] + ("x" if value[5] != "x" else "y") + value[6:]
    async with aiohttp.ClientSession(cookies={COOKIE_NAME: tampered}) as tamperer:
        async with tamperer.get(doors.url + "/") as page:
            assert 'action="/join"' in await page.text()
        async with tamperer.ws_connect(doors.url + "/ws") as socket:
            assert "Open the page again to join" in await screen_until(socket, "ended")


async def test_a_name_an_ssh_key_owns_is_refused_from_the_web_and_logged(doors):
    doors.store.claim_name("ben", "ben", "SHA256:benskey")
    async with doors.client() as browser:
        async with browser.post(doors.url + "/join", data={"name": "BEN"}) as refused:
            assert refused.status == 403
            assert "belongs to a player who joins with an SSH key" in await refused.text()
        assert COOKIE_NAME not in {cookie.key for cookie in browser.cookie_jar}
    assert any(
        "web: refused 127.0.0.1 (BEN): name held by a key" in line for line in doors.records.lines
    )


@pytest.mark.parametrize("doors", [{"join_code": "AB12-CD34"}], indirect=True)
async def test_the_join_code_is_asked_and_wrong_ones_hold_the_address_back(doors):
    async with doors.client() as browser:
        async with browser.get(doors.url + "/") as page:
            assert "code-needed" in await page.text()
        for _ in range(3):
            said = await join(doors, browser, "ana", "nope")
            assert "That is not the join code" in said
        said = await join(doors, browser, "ana", "nope")
        assert "Too many wrong join codes from 127.0.0.1: try again in" in said
        # Held back: even the right code waits (the limiter is the party's, shared with SSH).
        assert "Too many wrong join codes" in await join(doors, browser, "ana", "ab12cd34")
        assert COOKIE_NAME not in {cookie.key for cookie in browser.cookie_jar}
    assert doors.ssh.limiter.failures("127.0.0.1") == 4
    assert sum("web: wrong join code from 127.0.0.1" in line for line in doors.records.lines) == 1
    doors.ssh.limiter.succeeded("127.0.0.1")  # (as time would)
    async with doors.client() as browser:
        said = await join(doors, browser, "ana", "ab12 cd34")
        assert "/static/play.js" in said  # in, and the code is not asked again
        async with browser.ws_connect(doors.url + "/ws?width=90&height=30") as socket:
            await screen_until(socket, "PLAYER=guest-ana", "SIZE=90x30")


@pytest.mark.parametrize("doors", [{"join_code": "AB12-CD34"}], indirect=True)
async def test_a_refused_name_keeps_the_code_typed_and_a_wrong_code_is_not_kept(doors):
    doors.store.claim_name("ben", "ben", "SHA256:benskey")
    async with doors.client() as browser:
        said = await join(doors, browser, "ben", "ab12-cd34")
        assert "belongs to a player who joins with an SSH key" in said
        assert 'value="ab12-cd34"' in said  # only the name to type again
        said = await join(doors, browser, "  ", "ab12-cd34")
        assert 'value="ab12-cd34"' in said
        said = await join(doors, browser, "ana", "nope")
        assert "That is not the join code" in said and 'value="nope"' not in said


async def test_a_session_runs_the_program_and_ignores_what_the_page_does_not_send(doors):
    async with doors.client() as browser:
        await join(doors, browser, "ana")
        async with browser.ws_connect(doors.url + "/ws?width=100&height=30") as socket:
            await screen_until(socket, "PLAYER=guest-ana", "READY")
            for junk in ("not json", "[]", '["exec", "ls"]', '["resize", {"width": true}]'):
                await socket.send_str(junk)
            await socket.send_bytes(b"\x00\xff binary")
            await socket.send_str(json.dumps(["ping", "42"]))
            assert "pong" in await screen_until(socket, '["pong", "42"]')
            await socket.send_str(json.dumps(["resize", {"width": 9999, "height": 9999}]))
            (session,) = doors.web.sessions
            assert session.program is not None
            async with asyncio.timeout(WAIT):  # (passed on a few times a second at most)
                while session.program.size() != (640, 240):  # no larger than SSH allows
                    await asyncio.sleep(0.05)
            await socket.send_str(json.dumps(["stdin", "hello\r"]))
            await screen_until(socket, "YOU SAID: hello")
            await socket.send_str(json.dumps(["stdin", "exit 0\r"]))
            said = await screen_until(socket, "ended")
            assert "You left the party" in said
    assert logged(doors, "web: ignored a malformed message from 127.0.0.1")
    assert logged(doors, "web: guest-ana logged in from 127.0.0.1 (browser)")


@pytest.mark.parametrize("doors", [{"max_per_address": 1, "max_sessions": 2}], indirect=True)
async def test_sessions_are_capped_per_address_and_in_all_with_the_ssh_ones(doors):
    async with doors.client() as ana, doors.client() as bea:
        await join(doors, ana, "ana")
        await join(doors, bea, "bea")
        async with ana.ws_connect(doors.url + "/ws") as first:
            await screen_until(first, "READY")
            async with bea.ws_connect(doors.url + "/ws") as second:
                said = await screen_until(second, "ended")
                assert "Too many players from 127.0.0.1 at once (at most 1)" in said
            # The SSH door counts browser sessions too, and the other way round.
            assert doors.ssh.logged_in_from("127.0.0.1") == 1
            doors.ssh.config.max_per_address = 5
            doors.ssh.sessions.add(object())  # type: ignore[arg-type]  (an SSH session)
            assert doors.ssh.full()
            async with bea.ws_connect(doors.url + "/ws") as third:
                assert "The table server is full (2 sessions)" in await screen_until(third, "ended")


async def test_a_page_of_another_site_cannot_open_a_session_nor_a_stranger_without_a_name(doors):
    async with doors.client() as browser:
        await join(doors, browser, "ana")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await browser.ws_connect(doors.url + "/ws", origin="http://evil.example")
        assert refused.value.status == 403
    async with doors.client() as stranger, stranger.ws_connect(doors.url + "/ws") as socket:
        assert "Open the page again to join" in await screen_until(socket, "ended")
    assert not doors.web.sessions


async def test_a_reload_loop_is_rate_limited_per_address(doors):
    async with doors.client() as browser:
        await join(doors, browser, "ana")
        for _ in range(3):  # the burst the door allows (see the fixture)
            async with browser.ws_connect(doors.url + "/ws") as socket:
                await screen_until(socket, "READY")
        async with browser.ws_connect(doors.url + "/ws") as socket:
            said = await screen_until(socket, "ended")
        assert "Too many new sessions from 127.0.0.1 at once" in said
    assert logged(doors, "web: refused 127.0.0.1 (ana): sessions started too often")


@pytest.mark.parametrize("lan", [False, True])
async def test_the_browser_door_listens_beyond_loopback_only_with_lan(tmp_path, monkeypatch, lan):
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    server = Server(ServerConfig(port=0))
    await server.start()
    store = Store(tmp_path / "party.db")
    start = ssh_front_door(store, lan, 0, 4, None, web_port=0)
    stop = await start(server)
    try:
        assert server.web_port
        wanted = "00000000" if lan else "0100007F"  # 0.0.0.0 or 127.0.0.1, as /proc says it
        listening = [
            line.split()[1]
            for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
            if line.split()[3] == "0A"  # LISTEN
        ]
        assert f"{wanted}:{server.web_port:04X}" in listening
    finally:
        await stop()
        await server.close()
        store.close()


async def test_closing_the_door_ends_every_session_with_a_sentence(doors):
    async with doors.client() as browser:
        await join(doors, browser, "ana")
        async with browser.ws_connect(doors.url + "/ws") as socket:
            await screen_until(socket, "READY")
            closing = asyncio.create_task(doors.web.close())
            said = await screen_until(socket, "ended")
            await closing
    assert "The host has closed the table server." in said
    assert not doors.web.sessions and logged(doors, "web: guest-ana left (127.0.0.1, browser)")
