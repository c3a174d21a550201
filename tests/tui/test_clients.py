"""Every table client has every member the screens use (`TableClient`): no screen probes."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import tablegames.tui as tui
from tablegames.net.client import RemoteClient
from tablegames.replay import Replay, ReplayClient
from tablegames.tui.client import TableClient

from .helpers import stacked

MEMBERS = sorted(
    name for name in {*vars(TableClient), *TableClient.__annotations__} if not name.startswith("_")
)


def clients() -> list[object]:
    local = stacked([["QH", "7S"], ["JH", "10D"]])
    replay = Replay(local.table.game, 2, 1, {"short": True}, [])
    return [local, RemoteClient("127.0.0.1", 1, "x"), ReplayClient(replay, 0)]


def test_the_protocol_names_what_the_screens_use():
    assert {"read_only", "presence", "paces_bots", "saved_game", "listen_notices"} <= set(MEMBERS)


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
