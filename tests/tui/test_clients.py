"""Every table client has every member of the port the screens use (`TableClient`) and the
optional capabilities it claims, no others: no screen probes."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import tablegames.tui as tui
from tablegames.net.client import RemoteClient
from tablegames.replay import Replay, ReplayClient
from tablegames.tui.client import Pacing, Saving, SeatPresence, TableClient

from .helpers import stacked

MEMBERS = sorted(
    name for name in {*vars(TableClient), *TableClient.__annotations__} if not name.startswith("_")
)


def clients() -> list[object]:
    local = stacked([["QH", "7S"], ["JH", "10D"]])
    replay = Replay(local.table.game, 2, 1, {"short": True}, [])
    return [local, RemoteClient("127.0.0.1", 1, "x"), ReplayClient(replay, 0)]


def test_the_port_names_what_the_screens_use_and_nothing_only_some_tables_have():
    assert {"read_only", "submit", "update", "listen", "listen_notices"} <= set(MEMBERS)
    assert not {"presence", "paces_bots", "saved_game", "way_back", "pace"} & set(MEMBERS)


CAPABILITIES = {  # what each client offers besides the port
    "LocalClient": {Saving, Pacing},
    "RemoteClient": {SeatPresence},
    "ReplayClient": set(),
}


@pytest.mark.parametrize("client", clients(), ids=lambda c: type(c).__name__)
def test_every_client_has_the_capabilities_of_its_tables_and_no_others(client):
    # A game on this machine is saved and paced here; a network seat hears who is away; a
    # replay has neither. (Local clients once carried `presence = None`, and so on.)
    offered = {kind for kind in (Saving, SeatPresence, Pacing) if isinstance(client, kind)}
    assert offered == CAPABILITIES[type(client).__name__]


@pytest.mark.parametrize("client", clients(), ids=lambda c: type(c).__name__)
def test_every_client_has_every_member(client):
    missing = [name for name in MEMBERS if not hasattr(client, name)]
    assert missing == []


def test_no_screen_asks_what_kind_of_client_it_has():
    probes = []
    for path in Path(inspect.getfile(tui)).parent.rglob("*.py"):
        text = path.read_text()
        probes += [f"{path.name}: {m}" for m in re.findall(r"getattr\(self\.client[^)]*\)", text)]
        probes += [f"{path.name}: {m}" for m in re.findall(r"hasattr\(self\.client[^)]*\)", text)]
    assert probes == []
