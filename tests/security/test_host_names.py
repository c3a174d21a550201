"""The host is unmistakable (issue 47, item 7): the names people read as the host's, or as the
server's staff (host, admin, server, the host, moderator, root, system... and what looks like
them), are refused at every door; and the host's own lines come as a message of their own that
no guest can send, never as chat under a name.
"""

from __future__ import annotations

import asyncssh
import pytest

from tablegames.net.client import RemoteClient
from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.testing.harness import LOOPBACK, until

from .guest import dial, greeted, last_words, refusals
from .party import open_party

RESERVED = [
    "host",
    "Host",
    "The host",
    "thehost",
    "admin",
    "Administrator",
    "server",
    "moderator",
    "root",
    "system",
    "ＨＯＳＴ",  # full width
    "h0st",  # a zero
    "adrnin",  # "rn" reads as "m"
    "[host]",
    "⚑ the host",
    "the_server",
]
FINE = ["Ghost", "Hosta", "Sara", "Rooty"]


@pytest.mark.parametrize("name", RESERVED)
async def test_a_reserved_name_is_refused_at_the_join_port(tmp_path, name):
    async with open_party(tmp_path) as party:
        guest = await dial(party.port)
        guest.send({"t": "hello", "v": PROTOCOL_VERSION, "name": name})
        (why,) = refusals(await last_words(guest))
        assert "is kept for the host" in why, why
        assert not party.server.party.members


async def test_names_that_only_contain_a_reserved_word_are_fine(tmp_path):
    async with open_party(tmp_path) as party:
        for name in FINE:
            guest = await greeted(party.port, name)
            assert guest.welcome["name"] == name  # type: ignore[attr-defined]


@pytest.mark.parametrize("with_key", [False, True])
async def test_a_reserved_name_is_refused_at_the_ssh_door(tmp_path, with_key):
    key = asyncssh.generate_private_key("ssh-ed25519") if with_key else None
    async with open_party(tmp_path) as party:
        for name in ("admin", "The-host", "m0derator"):
            with pytest.raises(asyncssh.Error) as refused:
                async with await party.ssh(name, key):
                    pass
            assert "is kept for the host" in str(refused.value), refused.value


async def test_a_reserved_name_is_refused_at_the_browser_door(tmp_path):
    async with open_party(tmp_path) as party, party.browser() as browser:
        for name in ("The host", "SERVER", "r00t"):
            async with browser.post(party.url + "/join", data={"name": name}) as answer:
                assert answer.status == 403
                assert "is kept for the host" in await answer.text()
        assert not list(browser.cookie_jar)


async def test_the_hosts_lines_come_as_the_hosts_and_no_guest_can_send_one(tmp_path):
    async with open_party(tmp_path) as party:
        sara = await greeted(party.port, "sara")
        ben = RemoteClient(LOOPBACK, party.port, "ben")
        await ben.connect(lobby=True)
        said = party.console.run("say The join code changed: ask me for the new one.")
        assert said.startswith("Said to everyone")
        (line,) = [f for f in await sara.until_pong() if f["t"] not in ("lobby", "presence")]
        assert line == {"t": "host", "text": "The join code changed: ask me for the new one."}
        await until(lambda: ben.chat_lines, what="the host's line at ben's")
        who, text = ben.chat_lines[-1]
        assert who == "⚑ the host" and text.startswith("The join code changed")
        # A guest cannot send one: it is no message of a client's.
        sara.send({"t": "host", "text": "The join code changed"})
        forged = await last_words(sara)
        assert forged and forged[-1]["t"] == "error"
        await ben.close()
