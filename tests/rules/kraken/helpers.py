"""Shared helpers for Feed the Kraken scenarios: stacked tables and one-line game moves."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tablegames.rules import get_game
from tablegames.rules.kraken import KrakenState

Action = dict[str, Any]
kraken = get_game("kraken")

#: A fixed role per seat for each table size (seat 1 and 3 are pirates, the leader sits last).
ROLES: dict[int, list[str]] = {
    5: ["sailor", "pirate", "sailor", "sailor", "cult_leader"],
    6: ["sailor", "pirate", "sailor", "pirate", "sailor", "cult_leader"],
    7: ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"],
    8: ["sailor", "pirate", "sailor", "pirate", "sailor", "pirate", "sailor", "cult_leader"],
    9: ["sailor", "pirate", "sailor", "pirate", "sailor", "pirate", "sailor", "sailor",
        "cult_leader"],
    10: ["sailor", "pirate", "sailor", "pirate", "sailor", "pirate", "sailor", "pirate",
         "sailor", "cult_leader"],
    11: ["sailor", "pirate", "sailor", "pirate", "sailor", "pirate", "sailor", "pirate",
         "sailor", "cultist", "cult_leader"],
}  # fmt: skip


def table(
    players: int = 7,
    deck: Sequence[str] = (),
    captain: int = 0,
    roles: Sequence[str] | None = None,
    seed: int = 1,
    **options: Any,
) -> KrakenState:
    """A stacked game, characters off unless `dealt_characters` (or characters=True) is given."""
    if "dealt_characters" in options:
        options.setdefault("characters", True)
    options.setdefault("characters", False)
    state = kraken.new(
        players,
        seed,
        roles=list(roles or ROLES[players]),
        deck=list(deck),
        captain=captain,
        **options,
    )
    assert isinstance(state, KrakenState)
    return state


def act(state: KrakenState, seat: int, action: Action) -> list[dict[str, Any]]:
    """Apply an action that must be listed as legal; returns its events."""
    assert action in state.legal(seat), (action, state.legal(seat)[:20])
    events = state.apply(seat, copy.deepcopy(action))
    for event in events:
        assert isinstance(event["text"], str) and "to" in event
    return events


def texts(events: Iterable[Mapping[str, Any]], seat: int | None = None) -> list[str]:
    """The sentences among `events` that `seat` sees (None: the public ones)."""
    return [e["text"] for e in events if e["to"] is None or (seat is not None and seat in e["to"])]


def appoint(state: KrakenState, lieutenant: int | None, navigator: int | None) -> None:
    act(state, state.captain, {"type": "appoint", "lieutenant": lieutenant, "navigator": navigator})


def raise_guns(state: KrakenState, raised: Mapping[int, int] | None = None) -> None:
    """Every seat asked to mutiny raises its number in `raised` (0 if not named)."""
    raised = raised or {}
    for seat in sorted(state.waiting_for()):
        assert state.phase == "mutiny"
        act(state, seat, {"type": "mutiny", "guns": raised.get(seat, 0)})


def no_mutiny(state: KrakenState) -> None:
    if state.phase == "mutiny":
        raise_guns(state)


def keep(state: KrakenState, seat: int, card: str) -> None:
    act(state, seat, {"type": "keep", "card": card})


def steer(state: KrakenState, card: str) -> None:
    assert state.navigator is not None
    act(state, state.navigator, {"type": "steer", "card": card})


def sail(
    state: KrakenState,
    lieutenant: int,
    navigator: int,
    captain_keeps: str,
    lieutenant_keeps: str,
    course: str,
) -> None:
    """One quiet round: appoint, nobody mutinies, both keep a card, the navigator steers."""
    appoint(state, lieutenant, navigator)
    no_mutiny(state)
    captain = state.captain
    keep(state, captain, captain_keeps)
    keep(state, lieutenant, lieutenant_keeps)
    steer(state, course)


def public(state: KrakenState) -> dict[str, Any]:
    return state.view(None)


def private(state: KrakenState, seat: int) -> dict[str, Any]:
    view: dict[str, Any] = state.view(seat)["private"]
    return view


def at(state: KrakenState, space: str) -> KrakenState:
    """Put the ship on `space` before the first navigation (a stacked position)."""
    assert state.resumes == [[]] * state.players, "only before anything has been revealed"
    state.ship = space
    return state
