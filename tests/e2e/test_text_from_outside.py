"""A real party server (`tablegames serve --web`) and strangers at each of its doors (issue 39):
what they send reaches neither the host's terminal (the server's output) nor a player's as
escapes, and 300 malformed HTTP requests are a few lines of it and a sum.

Everything talks to loopback only; counts go to `bench/reliability.py`'s scoreboard.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import asyncssh

from tablegames.net.protocol import PROTOCOL_VERSION
from tablegames.net.ssh import allow_any_user_name
from tablegames.testing.harness import RawPeer
from tablegames.testing.metrics import record

from ..net.test_web_malformed import ask
from ..reliability.test_text_from_outside import (
    ATTEMPTS,
    PAYLOAD,
    TOWER,
    answers_to,
    strings,
    unsafe,
)
from ..web.browser import by_test_names, start_party, stop_party

MALFORMED = [  # (as tests/net/test_web_malformed.py sends them)
    b"GET /\x1b]0;PWNED\x07 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-\x1b[2J: 1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n\x1b[8m\r\n\r\n",
    b"GET / HTTP/9.\x1b]52;c;cm0=\x07\r\n\r\n",
]


async def over_the_join_port(port: int) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """A friend in the lobby and a stranger's escapes; returns the payloads sent and what the
    friend and the stranger were sent."""
    friend, stranger = await RawPeer.open(port), await RawPeer.open(port)
    friend.send({"t": "hello", "v": PROTOCOL_VERSION, "name": "friend"})
    await friend.until_pong()
    sent = [{"t": "hello", "v": PROTOCOL_VERSION, "name": f"x{PAYLOAD}"}, *ATTEMPTS]
    theirs = await answers_to(stranger, sent)
    friends = await friend.until_pong()
    for peer in (friend, stranger):
        await peer.close()
    return len(sent), friends, theirs


async def at_the_ssh_door(port: int) -> int:
    """User names and a terminal type full of escapes, with a key and without; returns how many."""
    allow_any_user_name()  # (the client's asyncssh would refuse to send them; OpenSSH sends them)
    key = asyncssh.generate_private_key("ssh-ed25519")
    names = [f"ben{PAYLOAD}", f"{PAYLOAD}\nforged", "a\u0301" * 40]
    for name in names:
        for keys in ([key], None):
            try:
                async with asyncssh.connect(
                    "127.0.0.1", port, username=name, client_keys=keys, known_hosts=None,
                    agent_path=None, login_timeout=10,
                ) as conn:  # fmt: skip
                    await conn.run("x", term_type=PAYLOAD, check=False, timeout=10)
            except (asyncssh.Error, OSError, TimeoutError):
                pass  # refused: what matters is what the host's log said of it
    return 2 * len(names)


async def at_the_browser_door(url: str) -> int:
    """The name form and paths full of escapes; returns how many."""
    async with by_test_names() as browser:
        for name in (f"ben{PAYLOAD}", TOWER):
            async with browser.post(f"{url}/join", data={"name": name}) as answer:
                await answer.read()
        async with browser.get(f"{url}/%1b]0;PWNED%07%1b[2J") as answer:
            await answer.read()
    return 3


def test_strangers_at_every_door_write_nothing_a_terminal_acts_on(env: dict[str, str]):
    serve, url, ssh_port = start_party(env)
    try:
        (output,) = Path(env["TABLEGAMES_HOME"]).glob("serve-*.out")
        said = output.read_text()
        tcp_port = int(re.findall(r"tablegames join 127\.0\.0\.1:(\d+)", said)[-1])
        web_port = int(url.rsplit(":", 1)[1])

        async def strangers() -> tuple[int, int, int, list[Any], list[Any], int]:
            answers = [await ask(web_port, MALFORMED[n % len(MALFORMED)]) for n in range(300)]
            tcp, friends, theirs = await over_the_join_port(tcp_port)
            ssh = await at_the_ssh_door(ssh_port)
            web = await at_the_browser_door(url)
            return tcp, ssh, web, friends, theirs, len(answers)

        tcp, ssh, web, friends, theirs, bad_requests = asyncio.run(strangers())
        deadline = time.monotonic() + 20  # the malformed requests' sum comes after its window
        while "more like “Error handling request" not in output.read_text():
            assert time.monotonic() < deadline, output.read_text()[-3000:]
            time.sleep(0.2)
    finally:
        stop_party(serve)
    lines = output.read_text().splitlines()
    in_log = [line for line in lines if unsafe(line)]
    to_players = [s for s in [*strings(friends), *strings(theirs)] if unsafe(s)]
    http_lines = [line for line in lines if "Error handling request" in line]
    record(
        "outside",
        all_doors_payloads=tcp + ssh + web,
        all_doors_control_in_log=len(in_log),
        all_doors_control_to_players=len(to_players),
        max_malformed_http_log_lines=len(http_lines),
        max_malformed_requests=bad_requests,
    )
    assert not in_log, in_log
    assert not to_players, to_players
    assert len(http_lines) <= 10, http_lines
    assert any("there is no table \\x1b]0;PWNED" in line for line in lines), lines  # written out
