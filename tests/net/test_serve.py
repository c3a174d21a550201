"""The party's sessions: what each SSH login runs, and the ticket that proves who it is."""

from __future__ import annotations

from tablegames.net.client import RemoteClient, ServerRefused
from tablegames.net.messages import Lobby
from tablegames.net.server import Server, ServerConfig
from tablegames.net.ssh import Identity, Terminal
from tablegames.serve import session_launcher


async def test_a_session_runs_the_lobby_with_a_ticket_that_ends_with_it():
    server = Server(ServerConfig(port=0))
    port = await server.start()
    try:
        launch = session_launcher(server, port)
        plan = launch(Identity("ann", "SHA256:key", False, "127.0.0.1"), Terminal("xterm", 80, 24))
        assert plan.argv[-2:] == ["session", f"127.0.0.1:{port}"]
        assert plan.env["TERM"] == "xterm" and "SSH_AUTH_SOCK" not in plan.env
        ticket = plan.env["TABLEGAMES_TICKET"]
        ann = RemoteClient("127.0.0.1", port, "mallory", ticket=ticket)
        first = await ann.greet()
        assert (
            isinstance(first, Lobby) and ann.name == "ann"
        )  # the ticket's name, not the asked one
        await ann.close()
        assert plan.ended is not None
        plan.ended()  # the session is over
        again = RemoteClient("127.0.0.1", port, "ann", ticket=ticket)
        try:
            await again.greet()
        except ServerRefused as refusal:
            assert "log in again" in str(refusal)
        else:
            raise AssertionError("a void ticket was accepted")
        await again.close()
    finally:
        await server.close()


async def test_a_guest_session_does_not_own_its_name_and_is_known_by_its_address():
    server = Server(ServerConfig(port=0))
    port = await server.start()
    try:
        plan = session_launcher(server, port)(
            Identity("guest-bo", None, True, "10.0.0.7"), Terminal("xterm", 80, 24)
        )
        guest = RemoteClient("127.0.0.1", port, "x", ticket=plan.env["TABLEGAMES_TICKET"])
        await guest.greet()
        (member,) = server.party.members
        assert member.name == "guest-bo" and member.key is None
        # Its seats are held under its name and the address its ssh came from (not loopback).
        assert member.identity == "guest-bo@10.0.0.7" and member.address == "10.0.0.7"
        await guest.close()
    finally:
        await server.close()
