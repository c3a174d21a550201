"""A client's repeated action is answered, never applied twice: in one run and across a restart.

A client that lost its connection resends its last action, not knowing whether it arrived, and
may have acted since; crabs' gestures are legal again and again, so only the server's memory of
what it applied from which client version keeps them from counting twice.
"""

from __future__ import annotations

import random

from tablegames.net.hosting import HostedTable
from tablegames.rules import get_game
from tablegames.rules.crabs import deal_with_fours
from tablegames.store import Store

from .test_log_difference import Recorder

NOD = {"type": "gesture", "name": "nod"}


def crabs_table(store: Store | None = None) -> tuple[HostedTable, list[Recorder]]:
    options = deal_with_fours(4, random.Random(3))
    hosted = HostedTable(code="C", game=get_game("crabs"), players=4, options=options, seed=3,
                         store=store)  # fmt: skip
    peers = [Recorder(f"p{n}") for n in range(4)]
    for peer in peers:
        hosted.claim(peer, None)
    hosted.start()
    return hosted, peers


def other_gesture() -> dict[str, str]:
    from tablegames.rules.crabs import GESTURES

    return {"type": "gesture", "name": next(name for name in GESTURES if name != NOD["name"])}


def gestures_of(hosted: HostedTable, seat: int) -> list[object]:
    assert hosted.table is not None
    return [
        action for who, action, _ in hosted.table.log if who == seat and action["type"] == "gesture"
    ]


def test_an_action_resent_after_another_is_answered_not_applied():
    hosted, peers = crabs_table()
    assert hosted.table is not None
    version = hosted.table.version
    hosted.act(peers[0], version, NOD)
    hosted.act(peers[0], version, other_gesture())
    peers[0].messages.clear()
    hosted.act(peers[0], version, NOD)  # the resend of the first, after the second
    assert gestures_of(hosted, 0) == [NOD, other_gesture()]
    assert peers[0].messages[0] == {"t": "ack", "v": version}
    hosted.act(peers[0], version + 2, NOD)  # the same gesture made again, seeing the others
    assert gestures_of(hosted, 0) == [NOD, other_gesture(), NOD]


def test_a_restored_table_remembers_every_action_it_applied(tmp_path):
    store = Store(tmp_path / "tables.db")
    hosted, peers = crabs_table(store)
    assert hosted.table is not None and hosted.store_id is not None
    version = hosted.table.version
    hosted.act(peers[1], version, NOD)
    hosted.act(peers[1], version, other_gesture())
    restored = HostedTable.restore(store.load(hosted.store_id), store)
    comeback = Recorder("p1")
    restored.attach(restored.seats[1], comeback)
    restored.act(comeback, version, NOD)
    assert gestures_of(restored, 1) == [NOD, other_gesture()]
    assert comeback.messages[-2] == {"t": "ack", "v": version}
