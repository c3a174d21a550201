"""Hot-seat: a hurried player at its table, random keys at random gaps of 0–400 ms, sees only
their own secrets (see `hurried.py`): no seat's secrets on screen but the keyboard holder's, no
action sent for a seat whose player was not handed the keyboard, no exception."""

from __future__ import annotations

import pytest

from tablegames.rules import get_game

from ..cases import case
from ..hurried import DEFAULT_KEYS, NAMES, HurriedTable, check_hurried, key_set, play_hurried

#: The generic screen's keys: its list of actions (the common keys have the digits).
GENERIC_KEYS = ("up", "down", "enter")


def hurried_table(game_name: str) -> HurriedTable:
    """`game_name`'s hurried hot-seat table."""
    own = case(game_name).hurried
    if own is not None:
        players, humans, options, keys = own
        return HurriedTable(game_name, players, humans, options, key_set(*keys))
    players = min(case(game_name).players, len(NAMES))
    options = get_game(game_name).quick_options()
    return HurriedTable(game_name, players, players, options, key_set(*GENERIC_KEYS))


@pytest.mark.real_time_keys
async def test_a_hurried_player_sees_only_their_own_secrets(
    game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a hot-seat table, a player typing random keys in a hurry sees only their own secrets
    and acts only for their own seat, every hand-off passing the keyboard as it should."""
    tally = await play_hurried(
        hurried_table(game_name), seed=1, keys=DEFAULT_KEYS, monkeypatch=monkeypatch
    )
    check_hurried(tally, DEFAULT_KEYS)


@pytest.mark.slow
@pytest.mark.real_time_keys
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
async def test_many_hurried_players_see_only_their_own_secrets(
    game_name: str, seed: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tally = await play_hurried(
        hurried_table(game_name), seed=seed, keys=1000, monkeypatch=monkeypatch
    )
    with capsys.disabled():
        print(f"\n{game_name} seed {seed}: {tally}")
    check_hurried(tally, 1000)
