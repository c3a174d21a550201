"""Imagined states for bots' look-ahead: the public table from a view, a pick to rebuild, copies.

Not a faithful rebuild (`State.from_view`): the roles are a guess the bot supplies and the
characters are left out, which is what its rollouts need. `KrakenState.imagine` and
`KrakenState.copy` are the public hooks; bots never set a state's attributes themselves.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TypeVar

from .cards import DECKS, RITUALS
from .types import KrakenView
from .voyage import ROUND_STEPS, Mutiny, Voyage

V = TypeVar("V", bound=Voyage)
#: Picks that come from a card's action (the ritual step follows), not the map's.
CARD_PICKS = frozenset(("mermaid", "telescope"))


def copy_public(state: Voyage, view: KrakenView) -> None:
    """Set the table as `view` shows it: ship, guns, offices, résumés, piles' sizes, marks."""
    state.ship = view["ship"]
    state.guns = list(view["guns"])
    state.eliminated = set(view["eliminated"])
    state.tongueless = set(view["tongueless"])
    state.unconvertible = set(view["unconvertible"])
    state.not_a = [list(cards) for cards in view["not_a"]]
    state.off_duty = set(view["off_duty"])
    state.resumes = [list(r) for r in view["resumes"]]
    state.captain = view["captain"]
    state.lieutenant = view["lieutenant"]
    state.navigator = view["navigator"]
    state.round = view["round"]
    state.revealed_card = view["last_card"]
    state.rituals_used = list(view["rituals_used"])
    left = Counter(RITUALS) - Counter(view["rituals_used"])
    rituals = list(left.elements())
    state.rng.shuffle(rituals)
    state.rituals = rituals[: view["rituals_left"]]
    state.known = [dict() for _ in range(view["players"])]
    for seat, faction in enumerate(state.factions):
        if faction == "cultist" and seat != view["seat"]:
            state.known[seat][state.factions.index("cult_leader")] = "cult_leader"
    state.mutiny = None
    state.window, state.window_pending, state.interrupt = None, set(), None
    state.hands, state.kept, state.logbook = {}, {}, []
    state.upcoming.sit_out, state.upcoming.must_raise = set(), set()


def unseen_cards(view: KrakenView, mine: list[str]) -> list[str]:
    """Navigation cards the viewer has not seen where they are: the deck less the résumés and
    its own cards (`mine`)."""
    left = Counter(DECKS[view["board"]])
    for resume in view["resumes"]:
        left.subtract(resume)
    left.subtract(mine)
    return sorted((+left).elements())


def set_pick(state: Voyage, view: KrakenView, rng: random.Random) -> bool:
    """Set up the decision the view is at (whom to pick); False if it is not one we rebuild."""
    private = view["private"]
    prompt = private.get("prompt")
    me = view["seat"]
    mine = list(private.get("drawn") or []) + list(private.get("logbook") or [])
    kept = private.get("kept")
    if kept:
        mine.append(kept)
    if prompt != "pick" or not view["pick"]:
        return False
    pool = unseen_cards(view, mine)
    rng.shuffle(pool)
    reason = view["pick"]
    state.pick_reason, state.pick_seat, state.phase = reason, me, "pick"
    state.crew = {
        "captain": view["captain"],
        "lieutenant": view["lieutenant"],
        "navigator": view["navigator"],
    }
    rest = ROUND_STEPS.index("ritual" if reason in CARD_PICKS else "card_action")
    state.agenda = list(ROUND_STEPS[rest:])
    discards = view["discard_size"]
    state.discard_pile = pool[:discards]
    state.draw_pile = pool[discards:]
    return True


def rollout_copy(world: V) -> V:
    """A copy deep enough for a rollout (the chart and tables are shared)."""
    state = type(world).__new__(type(world))
    state.__dict__.update(world.__dict__)
    for name in (
        "guns",
        "draw_pile",
        "discard_pile",
        "rituals",
        "rituals_used",
        "factions",
        "logbook",
        "agenda",
        "log",
        "character_used",
        "character_revealed",
    ):
        setattr(state, name, list(getattr(world, name)))
    for name in (
        "eliminated",
        "tongueless",
        "unconvertible",
        "off_duty",
        "window_pending",
        "gunsmiths",
    ):
        setattr(state, name, set(getattr(world, name)))
    state.resumes = [list(r) for r in world.resumes]
    state.not_a = [list(r) for r in world.not_a]
    state.known = [dict(k) for k in world.known]
    state.hands = {s: list(h) for s, h in world.hands.items()}
    state.kept = dict(world.kept)
    state.crew = dict(world.crew)
    state.peeks = [list(p) for p in world.peeks]
    if world.mutiny is not None:
        m = world.mutiny
        state.mutiny = Mutiny(
            list(m.mutineers), m.threshold, m.max_raise, set(m.must_raise), dict(m.choices)
        )
    return state
