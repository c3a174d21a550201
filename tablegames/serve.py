"""The party server's pieces beside the game server: the SSH front door, the browser door
(`--web`) and what they launch.

Each SSH session, and each browser tab, runs `tablegames session 127.0.0.1:PORT` on its own
pseudo-terminal; the app in it talks to the game server over the same protocol as `tablegames
join`, proving who it is with a ticket the party made for that login (no second game path).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Awaitable, Callable

import typer

from .net.forkserver import ForkServer
from .net.hosting import HostedTable
from .net.launch import NO_LAN_ADDRESS, address_text, lan_addresses
from .net.party import Login
from .net.server import Server
from .net.ssh import Identity, Launch, SshConfig, SshFrontDoor, Terminal
from .rules.plugins import registry_environment
from .store import Store

#: With --lan, players at once from one address unless the host says: a household behind one
#: router (a phone and a laptop each), not a crowd from one machine.
LAN_PLAYERS_PER_ADDRESS = 4


def session_environment() -> dict[str, str]:
    """What every session's program starts with (its terminal and ticket are added): nothing
    of the host's environment but where programs and the data directory are, and the games
    this server loaded (`registry_environment`): a session, and the fork server sessions come
    from, load exactly the server's registry, however it was built (installed packages,
    TABLEGAMES_GAMES), so every door offers every game the server has."""
    env = {
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/"),
        **registry_environment(),
    }
    if "TABLEGAMES_HOME" in os.environ:
        env["TABLEGAMES_HOME"] = os.environ["TABLEGAMES_HOME"]
    return env


def ticket_launcher(server: Server, port: int) -> Callable[[Login, Terminal], Launch]:
    """What each session runs: the lobby app, with a ticket proving its login."""

    def launch(login: Login, terminal: Terminal) -> Launch:
        ticket = server.party.doors.ticket_for(login)
        env = {**session_environment(), "TERM": terminal.term, "TABLEGAMES_TICKET": ticket}
        argv = [sys.executable, "-m", "tablegames", "session", address_text("127.0.0.1", port)]
        return Launch(argv, env, ended=lambda: server.party.doors.revoke(ticket))

    return launch


def session_launcher(server: Server, port: int) -> Callable[[Identity, Terminal], Launch]:
    """What each SSH session runs: the lobby app, with a ticket proving its login."""
    launch = ticket_launcher(server, port)

    def launch_for(identity: Identity, terminal: Terminal) -> Launch:
        login = Login(identity.name, identity.fingerprint, identity.holder, identity.address)
        return launch(login, terminal)

    return launch_for


def party_ssh_config(
    lan: bool, ssh_port: int, max_sessions: int, code: str | None, max_per_address: int | None
) -> SshConfig:
    """The SSH door's settings for `serve` with these options. Players at once from one
    address: `LAN_PLAYERS_PER_ADDRESS` with --lan (friends behind one router), else
    `max_sessions` (on one box everyone is 127.0.0.1), unless the host says."""
    if max_per_address is None:
        max_per_address = min(LAN_PLAYERS_PER_ADDRESS, max_sessions) if lan else max_sessions
    return SshConfig(
        host="0.0.0.0" if lan else "127.0.0.1",
        port=ssh_port,
        max_sessions=max_sessions,
        max_per_address=max_per_address,
        join_code=code,
    )


def ssh_front_door(
    store: Store,
    lan: bool,
    ssh_port: int,
    max_sessions: int,
    code: str | None,
    max_per_address: int | None = None,
    web_port: int | None = None,
    web_names: tuple[str, ...] = (),
) -> Callable[[Server], Awaitable[Callable[[], Awaitable[None]]]]:
    """Start the SSH front door beside `server` (and the browser door on `web_port`, if
    given, answering to `web_names` too); returns how to stop them."""

    async def start(server: Server) -> Callable[[], Awaitable[None]]:
        config = party_ssh_config(lan, ssh_port, max_sessions, code, max_per_address)
        assert server.port is not None
        forks = await start_forks()
        door = SshFrontDoor(
            config,
            store,
            session_launcher(server, server.port),
            forks=forks,
            admission=server.party.admission,
        )
        door.names_elsewhere = server.party.doors.held_names
        server.ssh_port = await door.start()
        browsers = None
        if web_port is not None:
            from .net.web import WebConfig, WebFrontDoor

            web_config = WebConfig(host=config.host, port=web_port, names=web_names)
            browsers = WebFrontDoor(
                web_config, door, ticket_launcher(server, server.port), guests=store
            )
            try:
                server.web_port = await browsers.start()
            except BaseException:
                await door.close()
                if forks is not None:
                    await forks.close()
                raise

        async def stop() -> None:
            if browsers is not None:
                await browsers.close()
            await door.close()
            if forks is not None:
                await forks.close()

        return stop

    return start


async def start_forks() -> ForkServer | None:
    """The fork server sessions start from, or None (each session then starts a new process,
    as slowly as that is) if it cannot start here."""
    try:
        return await ForkServer.start(session_environment())
    except (OSError, TimeoutError) as problem:
        logging.getLogger("tablegames.ssh").warning(
            "sessions will start as new processes: the fork server did not start (%s)", problem
        )
        return None


def announce_party(
    store: Store, lan: bool, code: str | None, web_names: tuple[str, ...] = ()
) -> Callable[[Server, list[HostedTable], int], None]:
    """Print exactly what friends type, once the server listens (the browser page at its
    addresses, and at `web_names`, the names the host gave it)."""

    def announce(server: Server, tables: list[HostedTable], port: int) -> None:
        hosts = (lan_addresses() or ["127.0.0.1"]) if lan else ["127.0.0.1"]
        ssh_port = server.ssh_port
        typer.echo(f"Party server up: {len(tables)} table(s) restored, saved in {store.path}.")
        if hosts == ["127.0.0.1"] and lan:
            typer.echo(NO_LAN_ADDRESS)
        for host in hosts:
            typer.echo(f"Friends join with:  ssh -p {ssh_port} NAME@{host}")
        if server.web_port is not None:
            for host in [*hosts, *web_names]:
                page = address_text(host, server.web_port)
                typer.echo(f"Or in a browser (a phone too):  http://{page}")
        if code:
            typer.echo(f"They will be asked for the join code: {code}")
        code_part = f" --code {code}" if code else ""
        typer.echo(
            f"With tablegames installed:  tablegames join {address_text(hosts[0], port)}{code_part}"
        )

    return announce
