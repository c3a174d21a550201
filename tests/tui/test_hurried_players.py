"""Hurried players at tables with a bot: random keys at random gaps of 0–400 ms, a bot moving
meanwhile, every frame checked (see `tablegames/testing/hurried.py`). Every game's hot-seat
table is in the per-game matrix (`tablegames/testing/matrix/test_handoffs.py`).

The default run types 150 keys per table; the slow run (`-m slow`) thousands, over
more seeds. Every run asserts no leak, no action for a seat that had not been handed the
keyboard, no exception, and that the keys got the game somewhere.
"""

from __future__ import annotations

import pytest

from tablegames.testing.hurried import HurriedTable, check_hurried, key_set, play_hurried

#: Each table: a game with a bot or two moving meanwhile, two humans at the keyboard.
TABLES = {
    "crates with a bot": HurriedTable("crates", 3, 2, {"short": True}, key_set(*"dcxhsd"), 0.02),
    "roach with a bot": HurriedTable("roach", 3, 2, {}, key_set(*"tfpl"), 0.02),
    "kraken with bots": HurriedTable("kraken", 5, 2, {"board": "quick"}, key_set(*"ct"), 0.02),
}


#: Keys a hurried player types in the default run (the slow run: 1000 over five more seeds).
DEFAULT_KEYS = 150


@pytest.mark.real_time_keys
@pytest.mark.parametrize("table", TABLES)
async def test_a_hurried_player_sees_only_their_own_secrets(table, monkeypatch):
    tally = await play_hurried(TABLES[table], seed=1, keys=DEFAULT_KEYS, monkeypatch=monkeypatch)
    check_hurried(tally, DEFAULT_KEYS)


@pytest.mark.slow
@pytest.mark.real_time_keys
@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
async def test_many_hurried_players_see_only_their_own_secrets(table, seed, monkeypatch, capsys):
    tally = await play_hurried(TABLES[table], seed=seed, keys=1000, monkeypatch=monkeypatch)
    with capsys.disabled():
        print(f"\n{table} seed {seed}: {tally}")
    check_hurried(tally, 1000)
