"""`serve --lan` and `host --lan` print this machine's LAN addresses, read from its interfaces
(issue 38): never 127.x, even where the host name resolves to 127.0.1.1, and never a
placeholder."""

from __future__ import annotations

import socket

import typer

from tablegames.net import launch
from tablegames.net.launch import NO_LAN_ADDRESS, lan_addresses
from tablegames.net.server import Server
from tablegames.serve import announce_party
from tablegames.store import Store

DEBIAN = [("lo", "127.0.0.1"), ("wlan0", "192.168.1.20"), ("eth1", "10.0.0.7")]


def test_the_lan_addresses_are_the_interfaces_own_loopback_left_out():
    assert lan_addresses(lambda: DEBIAN) == ["192.168.1.20", "10.0.0.7"]
    assert lan_addresses(lambda: [("lo", "127.0.0.1"), ("lo", "127.0.1.1")]) == []
    twice = [("eth0", "192.168.1.20"), ("eth0:1", "192.168.1.20")]
    assert lan_addresses(lambda: twice) == ["192.168.1.20"]


def test_a_host_name_that_resolves_to_loopback_fools_nothing(monkeypatch):
    monkeypatch.setattr(socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.1.1"]))
    found = lan_addresses()  # this machine's real interfaces
    assert all(not address.startswith("127.") for address in found)


def test_this_machines_interfaces_are_read(monkeypatch):
    read = launch.interface_addresses()
    assert ("lo", "127.0.0.1") in read or any(a.startswith("127.") for _, a in read)


def said_by_serve(monkeypatch, tmp_path, interfaces) -> str:
    monkeypatch.setattr(launch, "interface_addresses", lambda: interfaces)
    lines: list[str] = []
    monkeypatch.setattr(typer, "echo", lambda text="", **_: lines.append(str(text)))
    server = Server()
    server.ssh_port, server.web_port = 2222, 8080
    announce_party(Store(tmp_path / "s.db"), True, "7KQM-XH4P-2R")(server, [], 4747)
    return "\n".join(lines)


def test_serve_lan_prints_every_lan_address_and_no_placeholder(monkeypatch, tmp_path):
    said = said_by_serve(monkeypatch, tmp_path, DEBIAN)
    assert "ssh -p 2222 NAME@192.168.1.20" in said and "ssh -p 2222 NAME@10.0.0.7" in said
    assert "http://192.168.1.20:8080" in said
    assert "127." not in said and "<" not in said


def test_serve_lan_without_a_network_says_so_in_a_sentence(monkeypatch, tmp_path):
    said = said_by_serve(monkeypatch, tmp_path, [("lo", "127.0.0.1")])
    assert NO_LAN_ADDRESS in said and "<" not in said
    assert "ssh -p 2222 NAME@127.0.0.1" in said
