"""What each seat must not know at a moment of Feed the Kraken (`State.secrets`): factions it
has not learnt, unrevealed characters, navigation cards, sealed fists."""

from __future__ import annotations

from ..contract import Secrets
from ..core import hidden_group
from .roles import CULT_LEADER, CULTIST
from .voyage import Voyage

#: What a search never shows: the cult tells its ranks apart, nobody else does.
CULT_RANKS = frozenset((CULT_LEADER, CULTIST))


class Secrecy(Voyage):
    """The game's declaration of its secrets (a mixin of `game.KrakenState`)."""

    def secrets(self, seat: int | None) -> Secrets:
        """What `seat` (None: a spectator) must not know now."""
        return _secrets(self, seat)


def _secrets(state: Voyage, seat: int | None) -> Secrets:
    found: Secrets = {}
    if not state.over:  # the roles are shown to all at the end
        _factions(state, seat, found)
    for other, name in enumerate(state.characters):
        if other != seat and name is not None and not state.character_revealed[other]:
            found.setdefault(("character", name), f"seat {other}'s character is {name}")
    seen: list[list[str] | None] = [state.rituals_used, *state.resumes, *state.not_a]
    if seat is not None:  # what the seat itself holds or saw may look like a hidden pile
        steering = state.phase == "steer" and seat == state.navigator
        seen += [state.hands.get(seat), state.logbook if steering else None]
        seen += [peek["cards"] for peek in state.peeks[seat]]
    for other, cards in state.hands.items():
        if other != seat:
            hidden_group(found, cards, f"seat {other} drew {cards}", seen)
    own_kept = state.kept.get(seat) if seat is not None else None
    for other, card in state.kept.items():
        if other != seat and card != own_kept:
            found.setdefault(("kept", card), f"seat {other} kept {card}")
    if seat is None or seat != state.navigator:  # the navigator was shown the logbook
        hidden_group(found, state.logbook, f"the logbook holds {state.logbook}", seen)
    interrupt = state.interrupt
    if interrupt is not None and interrupt.kind == "peek" and interrupt.seat != seat:
        why = f"seat {interrupt.seat} peeks at {interrupt.card}"
        found.setdefault(("peek", interrupt.card), why)
    hidden_group(found, state.draw_pile, "the navigation draw pile", seen, minimum=4)
    hidden_group(found, state.rituals, "the ritual pile", seen, minimum=4)
    hidden_group(found, state.spare_characters, "the undealt characters", seen, minimum=4)
    mutiny = state.mutiny
    if mutiny is not None and mutiny.raised is None:
        own_guns = mutiny.choices.get(seat) if seat is not None else None
        for other, guns in mutiny.choices.items():
            if other != seat and guns != own_guns:
                found.setdefault(("mutiny_guns", guns), f"seat {other} raises {guns} in secret")
    return found


def _factions(state: Voyage, seat: int | None, found: Secrets) -> None:
    """The factions `seat` has not learnt, by the seat (``"3": "pirate"``) and alone."""
    known = dict(state.known[seat]) if seat is not None else {}
    own_faction = state.factions[seat] if seat is not None else None
    if own_faction not in CULT_RANKS:
        # Only the cult tells its ranks apart (the leader knows its converts, a convert the
        # leader): a search shows anyone else "cult", so a rank they hold is a leak.
        known = {other: code for other, code in known.items() if code not in CULT_RANKS}
    legit = {own_faction, *known.values()}
    for other, faction in enumerate(state.factions):
        # Only an exact faction is known: a search's group ("cult") leaves the cult's rank
        # secret, and a pirate's old mate may have been converted since.
        if other == seat or known.get(other) == faction:
            continue
        why = f"seat {other} is a {faction}"
        found.setdefault((str(other), faction), why)
        if faction not in legit:
            found.setdefault(("faction", faction), why)
            found.setdefault(("group", faction), why)
