"""The host's hand on the door (issue 47, item 9): `kick NAME` ends their sessions at every
door and a bot takes their seat; `ban NAME` also turns away their key, their browser's cookie
and their address until the server stops; `code new` gives a fresh join code and whoever is in
stays. A browser's cookie is revoked on the server by `/forget` and by a ban, and opens only
the party that issued it.
"""

from __future__ import annotations

import asyncio
import re

import aiohttp
import asyncssh

from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.net.web_identity import COOKIE_NAME
from tablegames.testing.harness import until

from .guest import answers, dial, greeted, last_words, refusals
from .party import WAIT, Party, open_party

CODE = "7KQM-XH4P-2R"
SHORT_CRATES = {"t": "create", "game": "crates", "players": 2, "bots": "normal",
                "options": {"short": True}}  # fmt: skip


async def dealt_for(party: Party, name: str, source: str = "127.0.0.2") -> tuple[object, str]:
    """`name` opens a crates table from `source` and deals at once (a bot in the other seat)."""
    guest = await greeted(party.port, name, source)
    (seated,) = [f for f in await answers(guest, SHORT_CRATES) if f["t"] == "seated"]
    await answers(guest, {"t": "start"})
    hosted = party.server.tables[seated["table"]]
    await until(lambda: hosted.table is not None, what="the deal")
    return guest, seated["table"]


async def browser_guest(party: Party, browser: aiohttp.ClientSession, name: str) -> str:
    """`name` joins in `browser`; returns its cookie's value."""
    async with browser.post(party.url + "/join", data={"name": name}) as answer:
        assert answer.status == 200, await answer.text()  # (the redirect, followed)
    return next(c.value for c in browser.cookie_jar if c.key == COOKIE_NAME)


async def plays_in(browser: aiohttp.ClientSession, url: str) -> bool:
    """True if the front page is the terminal page for this browser (not the name form)."""
    async with browser.get(url + "/") as page:
        return 'action="/join"' not in await page.text()


def with_cookie(party: Party, value: str, source: str) -> aiohttp.ClientSession:
    """A browser elsewhere holding a copy of a cookie."""
    browser = party.browser(source)
    browser.cookie_jar.update_cookies({COOKIE_NAME: value})
    return browser


# -- kick ---------------------------------------------------------------------------------------
async def test_kick_ends_their_connection_and_a_bot_takes_their_seat(tmp_path):
    async with open_party(tmp_path) as party:
        sara, code = await dealt_for(party, "sara")
        said = party.console.run("kick sara")
        assert said == "sara was sent away; a bot plays their seat at table " + code + "."
        farewell = (await last_words(sara))[-1]  # type: ignore[arg-type]
        assert farewell == {"t": "bye", "code": "sent-away", "text": "the host sent you away"}
        seat = party.server.tables[code].seats[0]
        assert seat.bot_level is not None and seat.peer is None
        # A kick is no ban: they may come back (to the lobby: the seat is the bot's now).
        again = await greeted(party.port, "sara")
        assert again.welcome["name"] == "sara"  # type: ignore[attr-defined]


async def test_kick_ends_their_sessions_at_the_ssh_and_browser_doors(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with open_party(tmp_path) as party, party.browser() as phone:
        ssh = await party.ssh("ben", key, source="127.0.0.3")
        terminal = await ssh.create_process(term_type="xterm", term_size=(80, 24))
        await until(lambda: party.member("ben"), WAIT, "ben's session in the lobby")
        await browser_guest(party, phone, "cy")
        async with phone.ws_connect(party.url.replace("http", "ws") + "/ws") as page:
            await until(lambda: party.member("guest-cy"), WAIT, "cy's session in the lobby")
            assert party.console.run("kick ben").startswith("ben was sent away")
            assert party.console.run("kick guest-cy").startswith("guest-cy was sent away")
            async with asyncio.timeout(WAIT):
                await ssh.wait_closed()
                said = ""
                async for message in page:
                    said += str(message.data)
            assert "the host sent you away" in said.lower()
        terminal.close()
        assert not party.member("ben") and not party.member("guest-cy")


# -- ban ----------------------------------------------------------------------------------------
async def test_ban_turns_away_their_address_key_and_cookie_until_the_server_stops(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with open_party(tmp_path) as party, party.browser("127.0.0.4") as phone:
        sara = await greeted(party.port, "sara", source="127.0.0.2")
        assert party.console.run("ban sara").startswith("sara was sent away and banned")
        await last_words(sara)
        again = await dial(party.port, "127.0.0.2")  # any name, from that address
        again.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "notsara"})
        assert refusals(await last_words(again)) == ["the host has turned you away"]
        friend = await greeted(party.port, "friend", source="127.0.0.9")  # others still come
        assert friend.welcome["name"] == "friend"  # type: ignore[attr-defined]
        # An SSH key, from wherever it comes next.
        ssh = await party.ssh("ben", key, source="127.0.0.3")
        terminal = await ssh.create_process(term_type="xterm", term_size=(80, 24))
        await until(lambda: party.member("ben"), WAIT, "ben's session in the lobby")
        assert party.console.run("ban ben").startswith("ben was sent away and banned")
        async with asyncio.timeout(WAIT):
            await ssh.wait_closed()
        terminal.close()
        try:
            async with await party.ssh("benny", key, source="127.0.0.5"):
                raise AssertionError("a banned key came back in")
        except asyncssh.Error as refused:
            assert "the host has turned you away" in str(refused).lower()
        # A browser's cookie, copied to another address.
        cookie = await browser_guest(party, phone, "cy")
        async with phone.ws_connect(party.url.replace("http", "ws") + "/ws"):
            await until(lambda: party.member("guest-cy"), WAIT, "cy's session in the lobby")
            said = party.console.run("ban guest-cy")
            assert said.startswith("guest-cy was sent away and banned")
        async with with_cookie(party, cookie, "127.0.0.6") as copy:
            assert not await plays_in(copy, party.url)


async def test_a_ban_on_this_machine_turns_away_no_friend_logged_into_it(tmp_path):
    """Everyone logged into the party's own machine comes from 127.0.0.1: banning one of them
    bans their key, not everyone there."""
    async with open_party(tmp_path) as party:
        sara = await greeted(party.port, "sara", source="127.0.0.1")
        assert party.console.run("ban sara").startswith("sara was sent away and banned")
        await last_words(sara)
        friend = await greeted(party.port, "friend", source="127.0.0.1")
        assert friend.welcome["name"] == "friend"  # type: ignore[attr-defined]


# -- the join code ------------------------------------------------------------------------------
async def test_code_new_changes_the_join_code_and_whoever_is_in_stays(tmp_path):
    async with open_party(tmp_path, code=CODE) as party:
        sara = await greeted(party.port, "sara", code=CODE)
        said = party.console.run("code new")
        found = re.search(r"The join code is now (\S+)", said)
        assert found, said
        new = found.group(1)
        assert new != CODE and party.store.fact("join_code", str) == new
        late = await dial(party.port, "127.0.0.3")
        late.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "late", "code": CODE})
        assert refusals(await last_words(late)) == ["wrong join code"]
        welcome = await greeted(party.port, "later", "127.0.0.4", code=new)
        assert welcome.welcome["name"] == "later"  # type: ignore[attr-defined]
        assert [f["t"] for f in await answers(sara, {"t": "lobby"})] == ["lobby"]  # still in


# -- cookies ------------------------------------------------------------------------------------
async def test_forget_revokes_the_cookie_on_the_server(tmp_path):
    async with open_party(tmp_path) as party:
        async with party.browser("127.0.0.2") as phone:
            cookie = await browser_guest(party, phone, "cy")
            assert await plays_in(phone, party.url)
            async with phone.post(party.url + "/forget") as forgot:
                assert forgot.status == 200
        async with with_cookie(party, cookie, "127.0.0.3") as copy:
            assert not await plays_in(copy, party.url)  # the copy kept elsewhere is no key


async def test_a_cookie_opens_only_the_party_that_issued_it(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with open_party(tmp_path / "a") as first, first.browser() as phone:
        cookie = await browser_guest(first, phone, "cy")
        assert await plays_in(phone, first.url)
    # Another party on this machine (another store, the same cookie key in the data directory).
    async with (
        open_party(tmp_path / "b") as second,
        with_cookie(second, cookie, "127.0.0.2") as copy,
    ):
        assert not await plays_in(copy, second.url)
