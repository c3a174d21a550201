"""A join that fails says why in a sentence: nobody listening, no such machine, a refusal."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tablegames.net.client import RemoteClient, ServerRefused, why_not_joined
from tablegames.net.messages import Join, Lobby, Seated


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
    from tablegames.testing.harness import running_server

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


async def test_a_seat_at_a_game_not_installed_here_sends_it_back_to_the_lobby(monkeypatch):
    # Sent straight to a table (a rematch, a party login) the client is told `seated` first:
    # it goes back to the lobby, saying why, and the connection stays for the other tables.
    from tablegames.net.client_protocol import NotInstalled
    from tablegames.rules import GAMES
    from tablegames.testing.harness import running_server

    async with running_server() as (server, port):
        hosted = server.add_table("loveletter", 2)
        server.add_table("crates", 2)
        monkeypatch.delitem(GAMES, "loveletter")
        client = RemoteClient("127.0.0.1", port, "Sara", table=hosted.code)
        client.sit_down = _pick_blindly.__get__(client)  # type: ignore[method-assign]
        with pytest.raises(NotInstalled, match="this table plays loveletter, which is not"):
            await asyncio.wait_for(client.connect(), timeout=10)
        assert client.connected and client.table_code is None and client.game is None
        assert isinstance(await asyncio.wait_for(client.next_event(), timeout=10), Lobby)
        crates = next(table.code for table in client.lobby if table.game == "crates")
        client.ask.join(crates)
        seated = await asyncio.wait_for(client.next_event(), timeout=10)
        assert isinstance(seated, Seated) and client.game is not None
        assert client.game.name == "crates"
        assert all(not seat.peer for seat in hosted.seats)  # the seat it was given is free
        await client.close()


def _pick_blindly(self, lobby):
    """Sit at the table asked for without looking at the lobby's list of games."""
    self.send(Join(table=self.table_code))
