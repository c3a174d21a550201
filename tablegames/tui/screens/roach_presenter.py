"""The roach screen's game flow, from the table's views alone: which kind of card is picked,
which are marked to lay out, what the keys do in each phase, when the status line goes stale.
No widgets: tested without a terminal."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...rules.roach_types import Phase, RoachView
from . import roach_view as show

#: The game's keys' actions each phase offers the player whose move it is.
PHASE_ACTIONS: dict[Phase, set[str]] = {
    "offer": {"offer"},
    "respond": {"judge", "pass_on"},
    "lay": {"mark", "lay"},
}


@dataclass(frozen=True)
class HandShown:
    """The player's own hand as the screen draws it: a chip per kind of card."""

    kinds: list[tuple[str, int]]
    selected: int | None
    marked: Counter[str]
    blocked: frozenset[str]  # the special card just taken, which stays in hand


class RoachPresenter:
    """One terminal's roach flow; the screen draws what this class says from each view and
    keeps the status line (`GameScreen.message`)."""

    def __init__(self) -> None:
        self.selected: int | None = 0
        self.marked: list[str] = []  # cards marked to be laid out
        self.message_version = -1  # the status line goes stale when the table moves on
        self.message_seat: int | None = None  # and belongs to the seat it was said to
        self.peeking = False  # we peeked: the card's way on is asked once the table shows it

    def keyboard_passed(self) -> None:
        """A new player at the keyboard starts afresh."""
        self.selected, self.marked, self.peeking = 0, [], False

    def said(self, version: int, seat: int) -> None:
        """The status line was just told something at table version `version`, for `seat`."""
        self.message_version, self.message_seat = version, seat

    def stale(self, version: int, seat: int) -> bool:
        """True when what the status line was told no longer holds (the table moved on, or
        another seat has the keyboard)."""
        return self.message_version != version or self.message_seat != seat

    def hand(self, view: RoachView, you: int, read_only: bool) -> HandShown:
        """Seat `you`'s hand, the pick kept on a card and marks dropped outside laying out."""
        kinds = show.hand_kinds(view["hand"])
        if view["phase"] != "lay" or view["turn"] != you:
            self.marked = []
        if kinds and not read_only:  # a replay picks nothing
            self.selected = min(self.selected or 0, len(kinds) - 1)
        else:
            self.selected = None
        blocked: frozenset[str] = frozenset()
        lay = view["lay"]
        if lay and lay["seat"] == you and Counter(view["hand"])[lay["special"]] == 1:
            blocked = frozenset({lay["special"]})
        return HandShown(kinds, self.selected, Counter(self.marked), blocked)

    def picked(self, view: RoachView) -> str | None:
        """The kind of card picked, if any (the hand may have changed since it was drawn)."""
        kinds = show.hand_kinds(view["hand"])
        if self.selected is None or not kinds:
            return None
        self.selected = min(self.selected, len(kinds) - 1)
        return kinds[self.selected][0]

    @staticmethod
    def allowed(view: RoachView, you: int, my_move: bool) -> set[str]:
        """The game actions seat `you` may take now (`my_move`: it is theirs, at this keyboard)."""
        if not my_move:
            return set()
        flight = view["flight"]
        if view["phase"] == "respond" and flight and you in flight["seen_by"]:
            return {"pass_on"}  # looked at the card: it must go on
        return PHASE_ACTIONS.get(view["phase"], set())

    @classmethod
    def offers(cls, action: str, view: RoachView, you: int, my_move: bool) -> bool:
        """True when the key or button for `action` does something now."""
        allowed = cls.allowed(view, you, my_move)
        if action == "pass_on":
            return action in allowed and show.can_pass(view)
        return action in allowed

    def mark(self, view: RoachView) -> str | None:
        """Mark (or unmark) the picked card to lay out: what the status line says then, or
        None when nothing is to be marked."""
        card = self.picked(view)
        lay = view["lay"]
        if card is None or lay is None:  # (marking is allowed only while laying out)
            return None
        held = Counter(view["hand"])[card] - (1 if card == lay["special"] else 0)
        if held <= 0:
            return f"You cannot lay out the {card} you just took."
        if self.marked.count(card) < held and len(self.marked) < 2:
            self.marked.append(card)
        else:
            self.marked = [marked for marked in self.marked if marked != card]
        return show.lay_hint(self.marked, lay["claim"])
