"""The names the browser door answers to; a request naming any other host is not served.

A page of another site can have its own name resolve to the party's address (DNS rebinding):
the browser then takes the party for that site, and the site's page could read the party's
pages and open its websocket. Such a request names that other site in its Host header, so the
door serves only requests that name it: `localhost` and 127.0.0.1, the address it listens on
(with `--lan`, each of this machine's interface addresses it prints, and the address the
request itself arrived at), the machine's host name (and `NAME.local`, as mDNS gives it), and
the names the host adds with `--web-name`. An address typed as digits cannot be rebound, but
is still one of the door's own or refused. The port in Host is not looked at: a forwarded port
may differ, and it tells nothing about whose page it is.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable

LOOPBACK_NAMES = ("localhost", "127.0.0.1")
#: A host name as `--web-name` takes it: labels of letters, digits and hyphens.
NAME = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*")


def web_name(text: str) -> str:
    """A name given with `--web-name` as the door compares it (lower case, no trailing dot);
    ValueError with a sentence if it is not a host's name or address."""
    name = text.strip().lower().removesuffix(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    if len(name) > 253 or NAME.fullmatch(name) is None:
        raise ValueError(
            f"{text!r} is not a host name: give a name such as party.lan (letters, digits, "
            "hyphens and dots) or an address"
        )
    return name


def named_host(header: str | None) -> str:
    """The host a request's Host header names, as `web_name` writes it, without its port
    ("" if it names none)."""
    if not header:
        return ""
    host = header.strip().lower()
    if host.startswith("["):  # [::1]:8080
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    try:
        return web_name(host)
    except ValueError:
        return ""


def machine_names() -> set[str]:
    """This machine's host name as people type it: as it is set, its first label alone, and
    that with `.local` (the name mDNS gives it on the LAN)."""
    full = socket.gethostname().strip().lower().removesuffix(".")
    if not full:
        return set()
    short = full.split(".")[0]
    return {full, short, f"{short}.local"}


def listening_addresses(listening: str) -> set[str]:
    """The addresses a door listening on `listening` is reached at: that one, or (on every
    interface) each interface's address, as `--lan` prints them."""
    if listening not in ("0.0.0.0", "::", ""):
        return {listening}
    from .launch import lan_addresses  # (the addresses `serve --lan` prints)

    return set(lan_addresses())


class DoorNames:
    """The names a door listening on `listening` answers to, with the host's `extra` ones."""

    def __init__(self, listening: str, extra: Iterable[str] = ()) -> None:
        self.names = frozenset(
            {*LOOPBACK_NAMES, *machine_names(), *listening_addresses(listening)}
            | {web_name(name) for name in extra}
        )

    def answers_to(self, header: str | None, arrived_at: str | None = None) -> bool:
        """True if a request whose Host header is `header`, come in at the local address
        `arrived_at`, names this door."""
        host = named_host(header)
        if not host:
            return False
        return host in self.names or (arrived_at is not None and host == named_host(arrived_at))
