"""Starting a host, and the addresses people type: one module for the CLI and the menu.

`run_host` is the one server path: `tablegames host GAME` (one table made for you), `tablegames
serve` (the party: tables made in the lobby, SSH logins) and hosting from the menu all go
through it. It always saves to a store, so a restarted host restores every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field

from ..store import SavedTable, Store
from ..words import plural
from .hosting import HostedTable
from .listening import raise_file_limit, sum_accept_errors
from .server import Server, ServerConfig
from .words import address_text as address_text  # (said here before; kept for its users)

DEFAULT_PORT = 4747
log = logging.getLogger("tablegames.host")


def parse_address(address: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """HOST[:PORT] (IPv6 as [::1]:4747) -> (host, port); ValueError with a sentence if not one."""
    address = address.strip() or "127.0.0.1"
    if address.startswith("["):  # [::1]:4747
        host, _, rest = address[1:].partition("]")
        port_text = rest.lstrip(":")
    elif address.count(":") == 1:
        host, _, port_text = address.partition(":")
    else:  # a bare name, or a bare IPv6 address
        host, port_text = address, ""
    try:
        port = int(port_text) if port_text else default_port
    except ValueError:
        raise ValueError(f"{port_text!r} is not a port number") from None
    if not 0 < port < 65536:
        raise ValueError("a port is a number from 1 to 65535")
    return host or "127.0.0.1", port


#: What `--lan` says when this machine has no address but loopback (no network, or none up).
NO_LAN_ADDRESS = "No network address found on this machine: friends on it use 127.0.0.1."
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) for each of this machine's interfaces that has one, read from
    the interfaces themselves (Linux); elsewhere, what the host name resolves to."""
    import fcntl
    import struct

    found: list[tuple[str, str]] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for name in names:
                asked = struct.pack("256s", name.encode()[:15])
                try:
                    answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, asked)
                except OSError:  # no IPv4 address on it (or not up)
                    continue
                found.append((name, socket.inet_ntoa(answer[20:24])))
    except (OSError, AttributeError):  # (no such ioctl here: not Linux)
        found = []
    if found:
        return found
    try:
        _, _, resolved = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return []
    return [("", address) for address in resolved]


def lan_addresses(
    interfaces: Callable[[], list[tuple[str, str]]] | None = None,
) -> list[str]:
    """This machine's IPv4 addresses others on the LAN could use, in interface order (the
    server listens on all of them with --lan); loopback left out, whatever the host name
    resolves to (Debian's 127.0.1.1). Empty: there is none (say `NO_LAN_ADDRESS`)."""
    read = (interfaces or interface_addresses)()
    found: list[str] = []
    for _, address in read:
        if not address.startswith("127.") and address != "0.0.0.0" and address not in found:
            found.append(address)
    return found


@dataclass
class NewTable:
    """A table the host opens at start (what `tablegames host GAME ...` asks for)."""

    game: str
    players: int
    options: dict[str, object] = field(default_factory=dict)
    bots: str | None = None
    humans: int | None = None
    owner_seat: int | None = None


class HostRefused(Exception):
    """The host will not start as asked; the message says why and what to do instead."""


def describe(saved: SavedTable) -> str:
    """An unfinished table in a few words: `Crates for 3 (table KXPF, 12 moves)`."""
    from ..rules import get_game
    from ..words import plural

    title = get_game(saved.game).title
    return f"{title} for {saved.players} (table {saved.code}, {plural(len(saved.log), 'move')})"


def check_store(store: Store, new: NewTable | None, restore: bool, db_hint: str) -> None:
    """Refuse to open `new` over games the store holds unfinished, unless told to restore.

    Tables that never began (a host stopped while waiting for players) are closed instead:
    a new table takes their place.
    """
    if new is None or restore:
        return
    waiting = [t for t in store.open_tables("server") if t.started is None]
    for saved in waiting:
        store.delete_table(saved.id)
        log.info("closed table %s: it never began", saved.code)
    playing = [t for t in store.open_tables("server") if t.started is not None]
    if playing:
        held = "; ".join(describe(saved) for saved in playing)
        raise HostRefused(
            f"{store.path} holds {plural(len(playing), 'unfinished game')}: {held}. "
            "Continue with `tablegames host "
            f"--restore{db_hint}`, or start this one in another file with --db NEW.db."
        )


async def run_host(
    config: ServerConfig,
    store: Store,
    new: NewTable | None = None,
    restore: bool = True,
    announce: Callable[[Server, list[HostedTable], int], None] | None = None,
    extra: Callable[[Server], Awaitable[Callable[[], Awaitable[None]]]] | None = None,
    console: bool = False,
) -> None:
    """Run a server until cancelled: restore the store's tables, open `new`, then serve.

    `announce(server, tables, port)` says what friends type; `extra(server)` starts services
    beside it (the SSH front door) and returns how to stop them; `console` reads the host's
    commands from a terminal on stdin.
    """
    raise_file_limit()
    stop_summing = sum_accept_errors(asyncio.get_running_loop(), logging.getLogger("tablegames"))
    try:
        await _serve(config, store, new, restore, announce, extra, console)
    finally:
        stop_summing()


async def _serve(
    config: ServerConfig,
    store: Store,
    new: NewTable | None,
    restore: bool,
    announce: Callable[[Server, list[HostedTable], int], None] | None,
    extra: Callable[[Server], Awaitable[Callable[[], Awaitable[None]]]] | None,
    console: bool,
) -> None:
    server = Server(config, store=store)
    tables = server.restore_tables() if restore else []
    if new is not None:
        tables.append(
            server.add_table(
                new.game,
                new.players,
                new.options,
                fill_with_bots=new.bots,
                min_humans=new.humans,
                owner_seat=new.owner_seat,
            )
        )
    port = await server.start()
    stop_extra = await extra(server) if extra is not None else None
    if announce is not None:
        announce(server, tables, port)
    stop_console = None
    if console:
        from .console import HostConsole

        stop_console = HostConsole(server.party).attach()
    try:
        await server.serve_forever()
    finally:
        if stop_console is not None:
            stop_console()
        if stop_extra is not None:
            await stop_extra()
        await server.close()


def stop_quietly(coroutine: Coroutine[object, object, None]) -> None:
    """Run `coroutine` until Ctrl-C, which ends it without a traceback."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(coroutine)
