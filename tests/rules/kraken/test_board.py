"""Both sea charts and the navigation deck, checked entry by entry against the spec's tables.

The spec (the project's, from which `tablegames/rules/texts/kraken.md` was written) is not in this
repository: its tables are copied below, and compared with the spec file itself only where it
sits beside the checkout (`shared/spec/kraken.md`).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tablegames.rules.kraken.board import (
    BOARDS,
    COLOURS,
    GOALS,
    LONG,
    QUICK,
    START,
    is_goal,
)
from tablegames.rules.kraken.cards import DECKS, RITUALS, action, colour, deck_cards

from .helpers import public, table

SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "kraken.md"

# The spec's two tables, copied verbatim; `test_copies_match_the_spec_file` keeps them honest.
QUICK_TABLE = """
| `0,0` | `-1,1` | `0,2` | `1,1` | start |
| `-1,1` | `-2,2` | `-1,3` | `0,2` |  |
| `1,1` | `0,2` | `1,3` | `2,2` |  |
| `-2,2` | `-2,4` | `-2,4` | `-1,3` |  |
| `0,2` | `-1,3` | `-1,3` | `1,3` |  |
| `2,2` | `1,3` | `2,4` | `2,4` |  |
| `-1,3` | `-2,4` | `-1,5` | `0,4` | cabin search |
| `1,3` | `0,4` | `1,5` | `2,4` | cabin search |
| `-2,4` | `-3,5` | `-2,6` | `-1,5` | cabin search |
| `0,4` | `-1,5` | `0,6` | `1,5` |  |
| `2,4` | `1,5` | `2,6` | `3,5` |  |
| `-3,5` | **Crimson Cove** | `-2,6` | `-2,6` |  |
| `-1,5` | `-2,6` | `-1,7` | `0,6` |  |
| `1,5` | `0,6` | `1,7` | `2,6` |  |
| `3,5` | `2,6` | `2,6` | **Bluewater Bay** |  |
| `-2,6` | **Crimson Cove** | `-1,7` | `-1,7` |  |
| `0,6` | `-1,7` | `0,8` | `1,7` |  |
| `2,6` | `1,7` | `1,7` | **Bluewater Bay** |  |
| `-1,7` | **Crimson Cove** | **Crimson Cove** | `0,8` | feed the kraken |
| `1,7` | `0,8` | **Bluewater Bay** | **Bluewater Bay** | feed the kraken |
| `0,8` | **Crimson Cove** | **Kraken** | **Bluewater Bay** |  |
"""
LONG_TABLE = """
| `0,0` | `-1,1` | `0,2` | `1,1` | start |
| `-1,1` | `-1,3` | `-1,3` | `0,2` |  |
| `1,1` | `0,2` | `1,3` | `1,3` |  |
| `0,2` | `-1,3` | `0,4` | `1,3` |  |
| `-1,3` | `-2,4` | `-1,5` | `0,4` | cabin search |
| `1,3` | `0,4` | `1,5` | `2,4` | cabin search |
| `-2,4` | `-2,6` | `-2,6` | `-1,5` | cabin search |
| `0,4` | `-1,5` | `-1,5` | `1,5` | cabin search |
| `2,4` | `1,5` | `2,6` | `2,6` |  |
| `-1,5` | `-2,6` | `-1,7` | `0,6` |  |
| `1,5` | `0,6` | `1,7` | `2,6` |  |
| `-2,6` | `-3,7` | `-2,8` | `-1,7` |  |
| `0,6` | `-1,7` | `0,8` | `1,7` | off with the tongue |
| `2,6` | `1,7` | `2,8` | `3,7` |  |
| `-3,7` | **Crimson Cove** | `-2,8` | `-2,8` |  |
| `-1,7` | `-2,8` | `-1,9` | `0,8` | flogging |
| `1,7` | `0,8` | `1,9` | `2,8` | flogging |
| `3,7` | `2,8` | `2,8` | **Bluewater Bay** |  |
| `-2,8` | **Crimson Cove** | `-1,9` | `-1,9` |  |
| `0,8` | `-1,9` | `0,10` | `1,9` |  |
| `2,8` | `1,9` | `1,9` | **Bluewater Bay** |  |
| `-1,9` | **Crimson Cove** | **Crimson Cove** | `0,10` | feed the kraken |
| `1,9` | `0,10` | **Bluewater Bay** | **Bluewater Bay** | feed the kraken |
| `0,10` | **Crimson Cove** | **Kraken** | **Bluewater Bay** | feed the kraken |
"""
SUPPLY_LINE = (
    "Long journey supply line: south of it are `0,0`, `-1,1`, `1,1`, `0,2`, `-1,3`, `1,3`, "
    "`-2,4`, `0,4`, `2,4`, `-1,5`, `1,5`, `0,6`"
)
GOAL_NAMES = {"Crimson Cove": "crimson_cove", "Bluewater Bay": "bluewater_bay", "Kraken": "kraken"}
ACTION_NAMES = {
    "": None,
    "start": None,
    "cabin search": "cabin_search",
    "flogging": "flogging",
    "off with the tongue": "off_with_the_tongue",
    "feed the kraken": "feed_the_kraken",
}


def parse(text: str) -> dict[str, tuple[str, str, str, str | None]]:
    """The spec table as space -> (red, yellow, blue, action) in the engine's codes."""
    rows = {}
    for line in text.strip().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        space, red, yellow, blue, printed = cells
        targets = []
        for cell in (red, yellow, blue):
            bold = re.fullmatch(r"\*\*(.+)\*\*", cell)
            targets.append(GOAL_NAMES[bold.group(1)] if bold else cell.strip("`"))
        rows[space.strip("`")] = (targets[0], targets[1], targets[2], ACTION_NAMES[printed])
    return rows


@pytest.mark.parametrize(("board", "text"), [(QUICK, QUICK_TABLE), (LONG, LONG_TABLE)])
def test_every_arrow_and_map_action_matches_the_spec(board, text):
    expected = parse(text)
    assert set(board.spaces) == set(expected)
    for space, (red, yellow, blue, printed) in expected.items():
        assert board.destination(space, "red") == red, (space, "red")
        assert board.destination(space, "yellow") == yellow, (space, "yellow")
        assert board.destination(space, "blue") == blue, (space, "blue")
        assert board.map_action(space) == printed, space


def test_every_view_holds_the_chart_made_once_and_a_changed_one_is_caught_in_the_tests():
    # Every view of every seat holds the same chart, made once per board (a table builds every
    # seat's view after every action): views are read, and the tests catch a holder's change.
    state = table()
    chart = state.view(0)["map"]
    assert chart is state.view(3)["map"] is public(state)["map"] is QUICK.chart()
    assert chart["0,0"] == {
        "red": QUICK.destination("0,0", "red"),
        "yellow": QUICK.destination("0,0", "yellow"),
        "blue": QUICK.destination("0,0", "blue"),
        "action": QUICK.map_action("0,0"),
    }
    red = chart["0,0"]["red"]
    chart["0,0"]["red"] = "kraken"
    try:
        with pytest.raises(AssertionError, match="quick chart of the views was changed"):
            state.view(1)
    finally:
        chart["0,0"]["red"] = red
    assert state.view(1)["map"]["0,0"]["red"] == red


def test_supply_line_matches_the_spec():
    south = set(re.findall(r"`([-\d]+,\d+)`", SUPPLY_LINE))
    assert LONG.supply_south == south
    assert QUICK.supply_south is None
    assert LONG.crosses_supply_line("0,6", "1,7") and LONG.crosses_supply_line("1,5", "2,6")
    assert not LONG.crosses_supply_line("-2,6", "-1,7")  # both north of the line
    assert not LONG.crosses_supply_line("0,4", "1,5")  # both south of it
    assert not QUICK.crosses_supply_line("0,6", "1,7")


@pytest.mark.skipif(not SPEC.exists(), reason="the shared spec is not next to this checkout")
def test_copies_match_the_spec_file():
    spec = SPEC.read_text(encoding="utf-8")
    for table_text in (QUICK_TABLE, LONG_TABLE):
        for line in table_text.strip().splitlines():
            assert line in spec, line
    assert SUPPLY_LINE in spec


@pytest.mark.parametrize(("board", "most"), [(QUICK, 9), (LONG, 11)])
def test_every_move_goes_north_and_every_voyage_ends(board, most):
    def level(space: str) -> int:
        return int(space.split(",")[1])

    longest = {}

    def moves_left(space: str) -> int:
        if is_goal(space):
            return 0
        if space not in longest:
            for colour_name in COLOURS:
                nxt = board.destination(space, colour_name)
                assert is_goal(nxt) or level(nxt) > level(space), (space, colour_name)
                assert is_goal(nxt) or nxt in board.spaces, nxt
            longest[space] = 1 + max(moves_left(board.destination(space, c)) for c in COLOURS)
        return longest[space]

    assert moves_left(START) == most
    reachable_goals = {
        board.destination(s, c) for s in board.spaces for c in ("red", "yellow", "blue")
    }
    assert set(GOALS) <= reachable_goals


def test_boards_by_player_count():
    assert public(table(5))["board"] == "quick"
    assert public(table(7))["board"] == "quick"
    assert public(table(7, board="long"))["board"] == "long"
    assert public(table(8))["board"] == "long"
    assert set(BOARDS) == {"quick", "long"}


def test_navigation_decks():
    assert DECKS["long"] == {
        "yellow-uprising": 6, "blue-drunk": 4, "blue-disarmed": 2, "red-drunk": 5,
        "red-mermaid": 2, "red-telescope": 2, "red-armed": 2,
    }  # fmt: skip
    quick = Counter(deck_cards("quick"))
    assert quick == Counter(deck_cards("long")) - Counter(
        {"yellow-uprising": 1, "blue-drunk": 1, "red-armed": 2}
    )
    assert len(deck_cards("quick")) == 19 and len(deck_cards("long")) == 23
    assert {colour(c) for c in deck_cards("long")} == {"red", "yellow", "blue"}
    assert all(colour(c) == "yellow" for c in deck_cards("long") if action(c) == "uprising")
    assert RITUALS == {"conversion": 3, "gun_stash": 1, "cult_cabin_search": 1}
    assert public(table(5))["deck_size"] == 19
    assert public(table(8))["deck_size"] == 23


def test_stacked_deck_is_drawn_top_first_and_the_rest_is_shuffled_below():
    state = table(7, deck=["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"])
    assert state.draw_pile[-4:] == ["yellow-uprising", "red-mermaid", "blue-drunk", "red-drunk"]
    assert Counter(state.draw_pile) == Counter(deck_cards("quick"))
