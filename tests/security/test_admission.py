"""One admission policy at every door (issue 50, item 3): the join port, the SSH door and the
browser door read a join code alike, as people type it (any case, spaces, any dash, full-width
letters from a phone's keyboard), and refuse a wrong one alike.
"""

from __future__ import annotations

import asyncssh
import pytest

from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.testing.harness import LOOPBACK

from .guest import dial, last_words, refusals
from .party import WAIT, Party, open_party

CODE = "7KQM-XH4P-2R"
TYPED = [
    " 7kqm xh4p 2r ",
    "7KQM–XH4P–2R",  # en dashes, as a phone's keyboard may put them
    "7kqm\u2010xh4p\u20102r",  # Unicode hyphens
    "７ＫＱＭ－ＸＨ４Ｐ－２Ｒ",  # full width
]


class Typist(asyncssh.SSHClient):
    """An SSH guest who types `code` at the join code prompt, once."""

    def __init__(self, code: str) -> None:
        self.code, self.typed = code, False

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: list[tuple[str, bool]]
    ) -> list[str] | None:
        if self.typed:
            return None  # once: a second prompt means it was wrong
        self.typed = True
        return [self.code for _ in prompts]


async def door_verdicts(party: Party, typed: str) -> dict[str, bool]:
    """Whether `typed` let a guest in at each door."""
    guest = await dial(party.port, "127.0.0.2")
    guest.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "sara", "code": typed})
    guest.send({"t": "bye"})
    verdicts = {"join port": [f["t"] for f in await last_words(guest)][:1] == ["welcome"]}
    assert party.server.ssh_port is not None
    try:
        async with asyncssh.connect(
            LOOPBACK,
            party.server.ssh_port,
            username="ben",
            client_factory=lambda: Typist(typed),
            client_keys=None,
            kbdint_auth=True,
            known_hosts=None,
            local_addr=("127.0.0.3", 0),
            agent_path=None,
            config=[],
            login_timeout=WAIT,
        ):
            verdicts["ssh door"] = True
    except asyncssh.PermissionDenied:
        verdicts["ssh door"] = False
    form = {"name": "cy", "code": typed}
    async with (
        party.browser("127.0.0.4") as phone,
        phone.post(party.url + "/join", data=form) as page,
    ):
        verdicts["browser door"] = 'action="/join"' not in await page.text()
    return verdicts


@pytest.mark.parametrize("typed", TYPED)
async def test_the_join_code_as_people_type_it_opens_every_door(tmp_path, typed):
    async with open_party(tmp_path, code=CODE) as party:
        verdicts = await door_verdicts(party, typed)
    assert verdicts == {"join port": True, "ssh door": True, "browser door": True}


async def test_a_wrong_code_is_wrong_at_every_door_and_counts_against_the_address(tmp_path):
    async with open_party(tmp_path, code=CODE) as party:
        verdicts = await door_verdicts(party, "7KQM-XH4P-2S")
        assert verdicts == {"join port": False, "ssh door": False, "browser door": False}
        guard = party.server.party.guard
        assert [guard.failures(a) for a in ("127.0.0.2", "127.0.0.3", "127.0.0.4")] == [1, 1, 1]
        guest = await dial(party.port, "127.0.0.2")
        guest.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "sara"})
        needed = "this table needs a join code: add --code CODE"
        assert refusals(await last_words(guest)) == [needed]
