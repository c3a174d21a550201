"""The games' declared types are true: random games of each built-in game, every view, legal
action and event checked against its `*_types` module (`CratesView`, `CratesAction`,
`CratesEvent`...). Bots and screens read the plain dicts as these types, so mypy's checks of
them hold only while the engines build exactly this; an event kind a game adds without
declaring it, a key renamed or a None where none was declared fails here."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablegames.rules import get_game
from tablegames.rules.crabs import deal_with_fours
from tablegames.rules.crabs_types import CrabsAction, CrabsEvent, CrabsView
from tablegames.rules.crates_types import CratesAction, CratesEvent, CratesView
from tablegames.rules.kraken.types import KrakenAction, KrakenEvent, KrakenView
from tablegames.rules.roach_types import RoachAction, RoachEvent, RoachView

from ..playouts import playout_counts
from .typecheck import mismatch

#: Each game's (view, action, event) types.
TYPES: dict[str, tuple[Any, Any, Any]] = {
    "crates": (CratesView, CratesAction, CratesEvent),
    "roach": (RoachView, RoachAction, RoachEvent),
    "crabs": (CrabsView, CrabsAction, CrabsEvent),
    "kraken": (KrakenView, KrakenAction, KrakenEvent),
}
#: Every seat's and a spectator's view is checked every this many actions (and at the end);
#: the acting seat's, its legal actions and every event, at every action.
EVERY = 11
LONGEST = 3_000  # actions: every game here ends long before


def options(name: str, index: int, players: int, rng: random.Random) -> dict[str, Any]:
    """Short games: crates' short option, and crabs with partners dealt a four (every other
    game: the huddle first, as dealt)."""
    if name == "crates":
        return {"short": True}
    if name == "crabs" and index % 2:
        return deal_with_fours(players, rng, pot=3)
    return {}


def check(value: Any, hint: Any, what: str) -> None:
    wrong = mismatch(value, hint, what, skip=frozenset({"log"}))
    assert wrong is None, wrong


@pytest.mark.parametrize("name", sorted(TYPES))
@playout_counts(full=40, quick=2)
def test_every_view_action_and_event_is_of_its_games_type(name: str, games: int) -> None:
    view_type, action_type, event_type = TYPES[name]
    game = get_game(name)
    for index in range(games):
        rng = random.Random(index)
        players = rng.randint(game.min_players, game.max_players)
        state = game.new(players, index, **options(name, index, players, rng))
        for event in state.log:
            check(event, event_type, "event")
        for step in range(LONGEST):
            waiting, due = state.waiting_for(), state.deadline()
            if state.over:
                break
            if due is not None and (not waiting or step >= due):
                seat, action, now = 0, {"type": "time"}, max(float(step), due)
            else:
                seat = rng.choice(sorted(waiting)) if waiting else rng.randrange(players)
                legal = state.legal(seat)
                for listed in legal:
                    check(listed, action_type, f"seat {seat}'s action")
                if not legal:
                    continue
                action, now = rng.choice(legal), float(step)
            seen = range(players) if step % EVERY == 0 else [seat]
            for viewer in [*seen, None] if step % EVERY == 0 else seen:
                check(state.view(viewer), view_type, f"view of {viewer}")
            for event in state.apply(seat, action, now):
                check(event, event_type, f"event after {action}")
        assert state.over, f"{name} game {index} did not end in {LONGEST} actions"
        for viewer in [*range(players), None]:
            check(state.view(viewer), view_type, f"final view of {viewer}")


def test_the_checker_finds_what_does_not_fit() -> None:
    """The check can fail: a renamed key, a missing one, a wrong kind, an undeclared event."""
    state = get_game("crates").new(4, 1, short=True)
    view = state.view(0)
    assert mismatch(view, CratesView, skip=frozenset({"log"})) is None
    assert "extra ['hands']" in str(mismatch({**view, "hands": []}, CratesView))
    assert "missing ['top']" in str(
        mismatch({k: v for k, v in view.items() if k != "top"}, CratesView)
    )
    assert "is not a int" in str(mismatch({**view, "crank": "2"}, CratesView))
    assert "is none of" in str(mismatch({**view, "phase": "bidding"}, CratesView))
    event = {"kind": "shrug", "text": "{0} shrugs.", "to": None}
    assert mismatch(event, CratesEvent) is not None
    play = {"type": "play", "card": "7H", "announce": False}  # announce is only ever listed true
    assert mismatch(play, CratesAction) is not None
