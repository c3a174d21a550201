"""A join that fails says why in a sentence: nobody listening, no such machine, a refusal."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tablegames.net.client import RemoteClient, ServerRefused, why_not_joined
from tablegames.net.messages import Join


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


async def test_a_table_of_a_game_not_installed_here_is_named_not_a_hang_up(monkeypatch):
    # The host loads a game from elsewhere (TABLEGAMES_GAMES) that this terminal does not.
    from tablegames.rules import GAMES

    from ..reliability.harness import running_server

    async with running_server() as (server, port):
        server.add_table("loveletter", 2)
        monkeypatch.delitem(GAMES, "loveletter")
        client = RemoteClient("127.0.0.1", port, "Sara")
        with pytest.raises(ServerRefused) as refused:
            await asyncio.wait_for(client.connect(), timeout=10)
        await client.close()
    said = why_not_joined(refused.value, "127.0.0.1", port)
    assert "this table plays loveletter, which is not installed here" in said
    assert "hung up" not in said and "KeyError" not in said


async def test_a_seat_at_a_game_not_installed_here_ends_with_its_name(monkeypatch):
    # Sent straight to a table (a rematch, a party login) the client is told `seated` first.
    from tablegames.net.client import HungUp
    from tablegames.rules import GAMES

    from ..reliability.harness import running_server

    async with running_server() as (server, port):
        hosted = server.add_table("loveletter", 2)
        monkeypatch.delitem(GAMES, "loveletter")
        client = RemoteClient("127.0.0.1", port, "Sara", table=hosted.code)
        client.sit_down = _pick_blindly.__get__(client)  # type: ignore[method-assign]
        with pytest.raises(HungUp, match="this table plays loveletter, which is not"):
            await asyncio.wait_for(client.connect(), timeout=10)
        await client.close()


def _pick_blindly(self, lobby):
    """Sit at the table asked for without looking at the lobby's list of games."""
    self.send(Join(table=self.table_code))
