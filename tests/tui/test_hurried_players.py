"""Hurried players at tables with a bot: random keys at random gaps of 0–400 ms, a bot moving
meanwhile, every frame checked (see `tablegames/testing/hurried.py`). Every game's hot-seat
table is in the per-game matrix (`tablegames/testing/matrix/test_handoffs.py`).

The default run types `DEFAULT_KEYS` at the kraken table (three bots moving between two
people's hand-offs); the slow run (`-m slow`) 1000 keys at every table, over five more seeds. The
crates and roach tables with a bot are in the slow run only: the default run hurries every
game's hot-seat table in the matrix (every hand-off between people) and the kraken table here
(bots moving meanwhile), and these two took a third of the suite's hurried CPU. Every run
asserts no leak, no action for a seat that had not been handed the keyboard, no exception,
and that the keys got the game somewhere.
"""

from __future__ import annotations

import pytest

from tablegames.testing.hurried import (
    DEFAULT_KEYS,
    HurriedTable,
    check_hurried,
    key_set,
    play_hurried,
)

#: Each table: a game with a bot or two moving meanwhile, two humans at the keyboard.
TABLES = {
    "crates with a bot": HurriedTable("crates", 3, 2, {"short": True}, key_set(*"dcxhsd"), 0.02),
    "roach with a bot": HurriedTable("roach", 3, 2, {}, key_set(*"tfpl"), 0.02),
    "kraken with bots": HurriedTable("kraken", 5, 2, {"board": "quick"}, key_set(*"ct"), 0.02),
}


#: The tables the default run hurries at (the slow run: every table, see above).
IN_THE_DEFAULT_RUN = ("kraken with bots",)


@pytest.mark.real_time_keys
@pytest.mark.parametrize(
    "table",
    [name if name in IN_THE_DEFAULT_RUN else pytest.param(name, marks=pytest.mark.slow)
     for name in TABLES],
)  # fmt: skip
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
