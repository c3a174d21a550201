"""Strangers at the SSH door (issue 39): a user name that looks like a held one is refused with
a sentence, and nothing in a user name reaches the host's log as escapes.

The door runs in the test's event loop; clients are asyncssh's (any user name, any key), all
on loopback.
"""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import pytest

from tablegames.names import name_key
from tablegames.net.guard import AttemptLimiter
from tablegames.net.logs import host_log_handler
from tablegames.net.ssh import SshConfig, SshFrontDoor
from tablegames.store import Store
from tablegames.testing.metrics import record

from .ssh_harness import table_program

PAYLOAD = "\x1b]0;PWNED\x07\x1b[2J\x1b[8m\u202e"


@pytest.fixture
def host_log() -> Iterator[io.StringIO]:
    """What the host's terminal shows: every record (asyncssh's too) through its handler."""
    out = io.StringIO()
    handler = host_log_handler(out)
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("asyncssh", "tablegames")}
    for name in levels:
        logging.getLogger(name).setLevel(logging.INFO)
    root.addHandler(handler)
    yield out
    handler.write_sums()
    root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[SshFrontDoor]:
    store = Store(tmp_path / "party.db")
    config = SshConfig(port=0, host_key=tmp_path / "host_key")
    door = SshFrontDoor(config, store, table_program, AttemptLimiter())
    await door.start()
    yield door
    await door.close()
    store.close()


async def login(door: SshFrontDoor, name: str, key: asyncssh.SSHKey | None) -> str:
    """Log in as `name` (with `key`, or as a guest); "" if let in, else the door's sentence."""
    try:
        async with asyncssh.connect(
            "127.0.0.1",
            door.port,
            username=name,
            client_keys=[key] if key is not None else None,
            known_hosts=None,
            agent_path=None,
            preferred_auth="publickey" if key is not None else "keyboard-interactive",
            login_timeout=10,
        ):
            return ""
    except asyncssh.DisconnectError as refused:
        return refused.reason or "refused"


LOOK_ALIKES = ["Аlice", "a1ice", "AIice", "guest‐bob", "gueѕt-bob", "Bоt 2", "ɑlice"]


async def test_a_user_name_that_looks_like_a_held_one_is_refused(door, host_log):
    alices_key = asyncssh.generate_private_key("ssh-ed25519")
    door.names.claim_name(name_key("alice"), "alice", alices_key.get_fingerprint())
    door.names_elsewhere = lambda: ["sara"]  # sara sits at a table (joined over the port)
    strangers_key = asyncssh.generate_private_key("ssh-ed25519")
    said = {}
    for name in [*LOOK_ALIKES, "sarɑ"]:
        said[name] = await login(door, name, strangers_key)
    said["a1ice (no key)"] = await login(door, "a1ice", None)
    admitted = [name for name, sentence in said.items() if not sentence]
    assert not admitted, said
    assert "a1ice looks like alice: connect under another name" in said["a1ice"], said
    assert "mixes Cyrillic and Latin letters" in said["Аlice"], said
    assert "sarɑ looks like sara" in said["sarɑ"], said
    assert await login(door, "alice", alices_key) == ""  # the owner is let in as ever
    assert await login(door, "Сергей", strangers_key) == ""  # one script: a name
    record("outside", lookalikes_tried=len(said), lookalikes_admitted=len(admitted))


async def test_escapes_in_a_user_name_reach_no_log(door, host_log):
    key = asyncssh.generate_private_key("ssh-ed25519")
    names = [f"ben{PAYLOAD}", PAYLOAD, f"{PAYLOAD}\nforged", "a\u0301" * 50]
    for name in names:
        await login(door, name, key)
        await login(door, name, None)
    lines = host_log.getvalue().splitlines()
    assert any("Beginning auth for user" in line for line in lines), lines  # asyncssh's own
    leaks = [line for line in lines if any(not char.isprintable() for char in line)]
    record("outside", ssh_payloads=2 * len(names), ssh_control_in_log=len(leaks))
    assert not leaks, leaks
