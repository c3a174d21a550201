"""The roach screen's game flow, read from views alone: no app, no terminal, no Pilot."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablegames.local import local_table
from tablegames.rules.roach_types import TYPES, RoachView
from tablegames.testing.screens import STILL
from tablegames.tui.screens import roach_view as show
from tablegames.tui.screens.roach_presenter import RoachPresenter


def seen(**changes: Any) -> RoachView:
    """Seat 0's view of a three-seat table (seat 0 to offer first), with `changes` made."""
    client = local_table("roach", 3, humans=1, seed=1, pace=STILL)
    view = TYPES.view(client.update(0).view)
    return {**view, **changes}  # type: ignore[typeddict-item]


def flight(seen_by: list[int], held_by: list[int]) -> dict[str, Any]:
    return {
        "from": 1,
        "to": 0,
        "claim": "fly",
        "claims": [],
        "seen_by": seen_by,
        "held_by": held_by,
    }


LAYING = {"phase": "lay", "hand": ["bat", "bat", "fly", "frog", "joker"]}


def test_each_phase_offers_its_keys_to_the_player_whose_move_it_is():
    offering = seen()
    assert RoachPresenter.allowed(offering, 0, my_move=True) == {"offer"}
    assert RoachPresenter.allowed(offering, 0, my_move=False) == set()
    laying = seen(**LAYING, lay={"seat": 0, "claim": "bat", "special": "joker"})
    assert RoachPresenter.allowed(laying, 0, my_move=True) == {"mark", "lay"}


def test_a_player_who_looked_at_the_card_may_only_pass_it_on_and_not_to_everyone():
    looked = seen(phase="respond", flight=flight(seen_by=[0], held_by=[1, 0]))
    assert RoachPresenter.allowed(looked, 0, my_move=True) == {"pass_on"}
    assert RoachPresenter.offers("pass_on", looked, 0, my_move=True)
    unseen = seen(phase="respond", flight=flight(seen_by=[], held_by=[1, 0]))
    assert RoachPresenter.allowed(unseen, 0, my_move=True) == {"judge", "pass_on"}
    last = seen(phase="respond", flight=flight(seen_by=[], held_by=[1, 2, 0]))
    assert not RoachPresenter.offers("pass_on", last, 0, my_move=True)  # (all have held it)
    assert RoachPresenter.offers("judge", last, 0, my_move=True)


def test_the_pick_stays_on_the_hand_and_a_replay_picks_nothing():
    view = seen(hand=["fly", "fly", "frog"])
    flow = RoachPresenter()
    flow.selected = 5
    shown = flow.hand(view, 0, read_only=False)
    assert (shown.kinds, shown.selected) == ([("fly", 2), ("frog", 1)], 1)
    assert flow.picked(view) == "frog"
    assert flow.hand(view, 0, read_only=True).selected is None


def test_marking_two_cards_to_lay_out_and_unmarking_one():
    view = seen(**LAYING, turn=0, lay={"seat": 0, "claim": "bat", "special": "joker"})
    flow = RoachPresenter()
    flow.selected = 0  # bat
    assert flow.mark(view) == show.lay_hint(["bat"], "bat")
    assert flow.mark(view) == show.lay_hint(["bat", "bat"], "bat")
    flow.selected = 1  # fly: two are marked already, so it is not added
    flow.mark(view)
    assert flow.marked == ["bat", "bat"]
    flow.selected = 0
    assert flow.mark(view) == show.lay_hint([], "bat")  # (marked again: unmarked)
    shown = flow.hand(view, 0, read_only=False)
    assert shown.blocked == frozenset({"joker"})  # the special card just taken stays in hand
    assert shown.marked == Counter()


def test_the_special_card_just_taken_cannot_be_laid_out():
    view = seen(**LAYING, turn=0, lay={"seat": 0, "claim": "bat", "special": "joker"})
    flow = RoachPresenter()
    flow.selected = 3  # the joker
    assert flow.mark(view) == "You cannot lay out the joker you just took."
    assert flow.marked == []


def test_marks_go_when_laying_out_is_over():
    view = seen(**LAYING, turn=0, lay={"seat": 0, "claim": "bat", "special": "joker"})
    flow = RoachPresenter()
    flow.mark(view)
    assert flow.marked == ["bat"]
    flow.hand(seen(hand=view["hand"]), 0, read_only=False)  # (the offer phase again)
    assert flow.marked == []


def test_the_status_line_goes_stale_when_the_table_moves_on_or_the_keyboard_changes_hands():
    flow = RoachPresenter()
    flow.said(version=7, seat=0)
    assert not flow.stale(7, 0)
    assert flow.stale(8, 0)
    assert flow.stale(7, 1)
    flow.selected, flow.marked, flow.peeking = 2, ["bat"], True
    flow.keyboard_passed()
    assert (flow.selected, flow.marked, flow.peeking) == (0, [], False)


def test_the_players_line_draws_with_no_names_known_yet():
    # (a table screen resized while its client knows no seats — sent to the lobby, its table
    # forgotten — drew `max(6)` and died; a loaded run of the suite met it once)
    players = show.seat_table(seen(), [], None, 80)
    assert "Player" in players.plain
