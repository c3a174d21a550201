"""Hot-seat: a hurried player at its table, random keys at random gaps of 0–400 ms, sees only
their own secrets (see `hurried.py`): no seat's secrets on screen but the keyboard holder's, no
action sent for a seat whose player was not handed the keyboard, no exception."""

from __future__ import annotations

import random

import pytest

from tablegames.local import local_table
from tablegames.rules import get_game
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens import typeahead

from ..cases import case
from ..hurried import Tally, VirtualClock, Watch, hurry, key_set

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
#: The generic screen's keys: its list of actions (the common keys have the digits).
GENERIC_KEYS = ("up", "down", "enter")


def hurried_table(game_name: str) -> tuple[int, int, dict[str, object], list[str]]:
    """(players, humans, options, keys) of `game_name`'s hurried table."""
    own = case(game_name).hurried
    if own is not None:
        players, humans, options, keys = own
        return players, humans, options, key_set(*keys)
    players = min(case(game_name).players, len(NAMES))
    return players, players, get_game(game_name).quick_options(), key_set(*GENERIC_KEYS)


async def play_hurried(
    game_name: str, seed: int, keys: int, monkeypatch: pytest.MonkeyPatch, pace: float = 0.0
) -> Tally:
    """Hurry through `keys` keys at its table; a player who quits (q, q) comes back to the same
    table in a new app, as `tablegames resume` brings them, and hurries on."""
    players, humans, options, own_keys = hurried_table(game_name)
    clock = VirtualClock()
    monkeypatch.setattr(typeahead, "time", clock)
    client = local_table(
        game_name, players, humans=humans, seed=seed, names=NAMES[:humans], pace=pace, **options
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
async def test_a_hurried_player_sees_only_their_own_secrets(game_name, monkeypatch):
    """At a hot-seat table, a player typing random keys in a hurry sees only their own secrets
    and acts only for their own seat, every hand-off passing the keyboard as it should."""
    tally = await play_hurried(game_name, seed=1, keys=300, monkeypatch=monkeypatch)
    check(tally, 300)


@pytest.mark.slow
@pytest.mark.real_time_keys
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
async def test_many_hurried_players_see_only_their_own_secrets(
    game_name, seed, monkeypatch, capsys
):
    tally = await play_hurried(game_name, seed=seed, keys=1000, monkeypatch=monkeypatch)
    with capsys.disabled():
        print(f"\n{game_name} seed {seed}: {tally}")
    check(tally, 1000)
