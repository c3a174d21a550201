"""The crabs screen's game flow, read from views alone on a clock of the test's own: no app,
no terminal, no Pilot."""

from __future__ import annotations

from typing import Any

from tablegames.local import local_table
from tablegames.rules.crabs_types import TYPES, CrabsView
from tablegames.testing.screens import STILL
from tablegames.tui.screens import crabs_view as show
from tablegames.tui.screens.crabs_presenter import (
    GESTURE_SHOWN,
    MESSAGE_SHOWN,
    CrabsPresenter,
    Swap,
)

NAMES = ["Sara", "Ada (bot)", "Bruno (bot)", "Chidi (bot)"]


class Clock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def seen(**changes: Any) -> CrabsView:
    """Seat 0's view of a four-seat table (dealt into its huddle), with `changes` made."""
    client = local_table("crabs", 4, humans=1, seed=1, pace=STILL)
    view = TYPES.view(client.update(0).view)
    return {**view, **changes}  # type: ignore[typeddict-item]


PLAYING = {"phase": "swap", "huddle": None}


def test_a_card_of_each_row_picked_makes_a_swap():
    view = seen(**PLAYING)  # hand: ab taxi king crabbi; ocean: crabbi kebab king cappuccino
    flow = CrabsPresenter(Clock())
    picked = flow.pick(view, "hand", 1)
    assert picked == Swap("say", "Taxi Crab picked: now an ocean card (j k l ;).")
    assert flow.pick(view, "ocean", 3) == Swap("swap", hand="taxi", ocean="cappuccino")
    assert (flow.picked_hand, flow.picked_ocean) == (None, None)


def test_picking_a_card_again_unpicks_it():
    view = seen(**PLAYING)
    flow = CrabsPresenter(Clock())
    flow.pick(view, "ocean", 0)
    assert flow.pick(view, "ocean", 0) == Swap("say")
    assert flow.picked_ocean is None


def test_the_ocean_pick_goes_when_the_ocean_moves_and_the_hand_pick_when_crabs_are_found():
    view = seen(**PLAYING)
    flow = CrabsPresenter(Clock())
    flow.picked_hand, flow.picked_ocean = 1, 2
    flow.taken(view, [{"kind": "refill", "time": 1.0, "text": "", "to": None}], you=0)  # type: ignore[list-item]
    assert (flow.picked_hand, flow.picked_ocean) == (1, None)
    caught = {"kind": "accuse", "seat": 2, "target": 0, "correct": True}
    flow.taken(view, [{**caught, "time": 2.0, "text": "", "to": None}], you=0)  # type: ignore[list-item]
    assert flow.picked_hand is None


def test_gestures_fade_after_a_few_seconds():
    clock = Clock()
    flow = CrabsPresenter(clock)
    made = {"kind": "gesture", "seat": 2, "gesture": "wink", "time": 1.0, "text": "", "to": None}
    flow.taken(seen(), [made], you=0)  # type: ignore[list-item]
    assert flow.gestures() == {2: "wink"}
    assert not flow.faded()
    clock.now += GESTURE_SHOWN + 0.1
    assert flow.faded()
    assert flow.gestures() == {}
    flow.gestured("nod")
    clock.now += 1.1
    assert flow.faded() and flow.flash is None


def test_a_message_holds_until_its_turn_ends_or_a_few_seconds_pass():
    clock = Clock()
    view = seen(**PLAYING)
    flow = CrabsPresenter(clock)
    flow.said(view)
    assert not flow.stale(view)
    assert flow.stale({**view, "marker": 1})
    clock.now += MESSAGE_SHOWN + 0.1
    assert flow.stale(view)


def test_the_status_line_says_what_to_do_when_nothing_was_said():
    view = seen(**PLAYING)
    flow = CrabsPresenter(Clock())
    assert flow.status(view, 0, "You laid your hand down.", NAMES) == "You laid your hand down."
    assert flow.status(view, 0, "", NAMES) == show.swap_phase_hint(view, 0)
    assert flow.status(view, None, "", NAMES) == ""  # (a spectator is told nothing)
    huddling = seen()
    assert flow.status(huddling, 0, "", NAMES) == show.huddle_hint(huddling, 0, NAMES, 60.0)


def test_the_huddle_counts_down_from_when_it_was_first_seen():
    clock = Clock()
    flow = CrabsPresenter(clock)
    view = seen()  # the huddle ends at table time 60, and nothing has happened yet
    assert flow.huddle_left(view) == 60.0
    clock.now += 15
    assert flow.huddle_left(view) == 45.0
    assert flow.huddle_left(seen(**PLAYING)) == 0.0


def test_the_huddle_opens_by_itself_once_per_pick_of_the_teams():
    flow = CrabsPresenter(Clock())
    view = seen()
    assert flow.asks(view, 0, waiting=False) is None
    assert flow.asks(view, 0, waiting=True) == "huddle"
    assert flow.asks(view, 0, waiting=True) is None
    huddle = {**view["huddle"], "proposal": ["wink"]}
    assert flow.asks({**view, "huddle": huddle}, 0, waiting=True) == "huddle"
    assert flow.asks(view, None, waiting=True) is None  # (a spectator has no huddle)


def test_a_double_crab_is_offered_once_while_it_is_owed():
    flow = CrabsPresenter(Clock())
    owed = seen(**PLAYING, double_take=[{"team": 0, "tokens": 2}])
    assert flow.asks(owed, 0, waiting=False) == "double"
    assert flow.asks(owed, 0, waiting=False) is None
    assert flow.asks(seen(**PLAYING), 0, waiting=False) is None
    assert flow.asks(owed, 0, waiting=False) == "double"  # (owed again later)
