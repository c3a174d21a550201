"""A join that fails says why in a sentence: nobody listening, no such machine, a refusal."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tablegames.net.client import RemoteClient, ServerRefused, why_not_joined


async def test_a_port_nobody_listens_on_is_named_with_a_hint():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # a loopback port just freed: nothing listens there
    client = RemoteClient("127.0.0.1", port, "Sara")
    with pytest.raises(ConnectionRefusedError) as refused:
        await asyncio.wait_for(client.connect(), timeout=10)
    assert why_not_joined(refused.value, "127.0.0.1", port) == (
        f"Nothing answers at 127.0.0.1:{port}. Is `tablegames host` running there, on that port?"
    )


@pytest.mark.parametrize(
    ("problem", "said"),
    [
        (ServerRefused("wrong join code."), "The table at h:1 said no: wrong join code."),
        (socket.gaierror(-2, "Name or service not known"), "There is no machine called 'h'"),
        (TimeoutError(), "h:1 did not answer in time."),
        (OSError(113, "No route to host"), "Could not reach h:1: No route to host."),
    ],
)
def test_each_problem_has_its_sentence(problem, said):
    assert why_not_joined(problem, "h", 1).startswith(said)
