"""Hurried players at tables with a bot: random keys at random gaps of 0–400 ms, a bot moving
meanwhile, every frame checked (see `tablegames/testing/hurried.py`). Every game's hot-seat
table is in the per-game matrix (`tablegames/testing/matrix/test_handoffs.py`).

The default run types a few hundred keys per table; the slow run (`-m slow`) thousands, over
more seeds. Every run asserts no leak, no action for a seat that had not been handed the
keyboard, no exception, and that the keys got the game somewhere.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablegames.local import local_table
from tablegames.testing.hurried import Tally, VirtualClock, Watch, hurry, key_set
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens import typeahead

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")

#: Each table: (game, players, humans, options, the game's own keys, pace of its bots).
TABLES: dict[str, tuple[str, int, int, dict[str, Any], list[str], float]] = {
    "crates with a bot": ("crates", 3, 2, {"short": True}, key_set(*"dcxhsd"), 0.02),
    "roach with a bot": ("roach", 3, 2, {}, key_set(*"tfpl"), 0.02),
    "kraken with bots": ("kraken", 5, 2, {"board": "quick"}, key_set(*"ct"), 0.02),
}


async def play_hurried(table: str, seed: int, keys: int, monkeypatch: pytest.MonkeyPatch) -> Tally:
    """Hurry through `keys` keys at `table`; a player who quits (q, q) comes back to the same
    table in a new app, as `tablegames resume` brings them, and hurries on."""
    game, players, humans, options, own_keys, pace = TABLES[table]
    clock = VirtualClock()
    monkeypatch.setattr(typeahead, "time", clock)
    client = local_table(
        game, players, humans=humans, seed=seed, names=NAMES[:humans], pace=pace, **options
    )
    watch, rng = Watch(client, clock), random.Random(seed)
    while watch.tally.keys < keys and not client.table.over:
        app = TableGamesApp(client)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            watch.sit_down(app)
            await hurry(pilot, watch, own_keys, keys, rng)
    return watch.tally


def check(tally: Tally, keys: int) -> None:
    assert tally.leaks == []
    assert tally.problems == 0
    assert tally.keys >= keys or tally.actions > 0  # (a game over early ends the run)
    moved = tally.actions + tally.handoffs  # moves made, and keyboards passed on
    assert moved >= keys // 30, f"the keys got the game nowhere: {tally}"


@pytest.mark.real_time_keys
@pytest.mark.parametrize("table", TABLES)
async def test_a_hurried_player_sees_only_their_own_secrets(table, monkeypatch):
    tally = await play_hurried(table, seed=1, keys=300, monkeypatch=monkeypatch)
    check(tally, 300)


@pytest.mark.slow
@pytest.mark.real_time_keys
@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
async def test_many_hurried_players_see_only_their_own_secrets(table, seed, monkeypatch, capsys):
    tally = await play_hurried(table, seed=seed, keys=1000, monkeypatch=monkeypatch)
    with capsys.disabled():
        print(f"\n{table} seed {seed}: {tally}")
    check(tally, 1000)
