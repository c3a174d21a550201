"""The Crates screen's game flow, from the table's views alone: which card is picked, what the
status line says and when it goes stale, whether Crates! goes with the next play, which
round's scores are still to show, what a key does now. No widgets: tested without a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ...rules.crates_types import CratesView, LastRound, PlayAction
from ..widgets.card import card_label
from . import crates_view as show

#: A round that ended: how it scored, the totals after it, and how many rounds the game has.
Summary = tuple[LastRound, list[int], int]


@dataclass(frozen=True)
class HandShown:
    """The player's own hand as the screen draws it."""

    cards: list[str]  # sorted as shown
    selected: int | None
    subtitle: str  # under the hand: that Crates! is armed, or nothing
    status: str | None  # the status line from now on ("": cleared), None: as it was


@dataclass(frozen=True)
class Offers:
    """Which of the screen's buttons do something now."""

    draw: bool
    announce: bool
    dope: bool


@dataclass(frozen=True)
class Play:
    """What Enter does: `suit` asks the turned-up card's suit, `say` tells why not (`words`),
    `name` asks which suit `card` names before playing it, `play` plays `card`."""

    kind: Literal["suit", "say", "name", "play"]
    card: str = ""
    words: str = ""


class CratesPresenter:
    """One terminal's Crates flow; the screen draws what this class says from each view and
    keeps the status line (`GameScreen.message`)."""

    def __init__(self, view: CratesView) -> None:
        self.selected: int | None = None
        self.armed = False  # "Crates!" goes with the next play
        self.message_turn: int | None = None  # the status line goes stale when this turn ends
        last_round = view["last_round"]
        self.round_seen = last_round["round"] if last_round else None
        self.summaries: list[Summary] = []
        self.suit_prompted = False
        # The turn last drawn, as (whose, cards on the pile, cards to draw): a new one (a card
        # played or drawn since, another turn after a 6) picks afresh and says what to do; a
        # refused action leaves it as it was (over the network a refusal comes later).
        self.turn_drawn: tuple[int | None, int, int] | None = None

    def taken(self, view: CratesView) -> bool:
        """Note a round that `view` says has just ended; True when it is new (its scores are
        to be shown, and the table waits while people read them)."""
        last_round = view["last_round"]
        if not last_round or last_round["round"] == self.round_seen:
            return False
        self.round_seen = last_round["round"]
        self.summaries.append((last_round, list(view["scores"]), view["rounds"]))
        return True

    def asks_suit(self, view: CratesView, shown: int | None) -> bool:
        """True once per turned-up card that the player at the keyboard (`shown`) must name a
        suit for."""
        if view["phase"] != "suit":
            self.suit_prompted = False
        elif view["turn"] == shown and not self.suit_prompted:
            self.suit_prompted = True
            return True
        return False

    def hand(self, view: CratesView, you: int, read_only: bool, ascii: bool) -> HandShown:
        """Seat `you`'s hand, with the pick moved on and the status line told what to do when
        a new turn of theirs starts."""
        cards = show.sorted_hand(view["hand"])
        mine = view["turn"] == you
        turn = (view["turn"], len(view["discard"]), view["draw_size"])
        status = None
        if mine and turn != self.turn_drawn and not read_only:  # a new turn: what to do
            self.selected = show.first_playable(view)
            status, self.message_turn = show.turn_hint(view, ascii), None
        elif self.message_turn is not None and self.message_turn != view["turn"]:
            status, self.message_turn = "", None  # "It is Ada's turn" no longer holds
        if not (mine and len(cards) == 2):
            self.armed = False
        self.turn_drawn = turn
        if read_only or not cards:  # a replay picks nothing
            self.selected = None
        elif self.selected is not None:
            self.selected = min(self.selected, len(cards) - 1)
        else:
            self.selected = 0
        armed = "Crates! armed: announced with your next play" if self.armed else ""
        return HandShown(cards, self.selected, armed, status)

    @staticmethod
    def offers(view: CratesView, you: int) -> Offers:
        """The buttons that do something for seat `you` now (others are refused)."""
        mine = view["turn"] == you and view["phase"] == "play"
        announce = you not in view["announced"] and len(view["hand"]) in (1, 2)
        return Offers(
            draw=mine and show.first_playable(view) is None,
            announce=you in view["exposed"] or (mine and announce),
            # When someone else may be called (holds one card, no Crates! said): what the
            # players panel shows everyone (one card, no Crates! beside it), no more.
            dope=any(seat != you for seat in view["exposed"]),
        )

    def picked(self, view: CratesView) -> str | None:
        """The picked card, if any (the hand may have changed since it was drawn)."""
        cards = show.sorted_hand(view["hand"])
        if self.selected is None or not cards:
            return None
        self.selected = min(self.selected, len(cards) - 1)
        return str(cards[self.selected])

    def pick(
        self, view: CratesView, index: int, names: Sequence[str], you: int, ascii: bool
    ) -> str | None:
        """Pick the card at `index`: what the status line says of it until this turn ends, or
        None when there is none to pick."""
        self.selected = index
        card = self.picked(view)
        if card is None:
            return None
        self.message_turn = view["turn"]
        return show.card_hint(view, card, names, you, ascii, self.armed)

    def play(self, view: CratesView, you: int, names: Sequence[str], ascii: bool) -> Play:
        """What Enter does for seat `you` now."""
        if view["phase"] == "suit" and view["turn"] == you:
            return Play("suit")
        card = self.picked(view)
        if card is None:
            return Play("say", words="Pick a card first.")
        if view["turn"] != you or card in view["unplayable"]:
            hint = show.card_hint(view, card, names, you, ascii, self.armed)
            return Play("say", card, hint)
        return Play("name" if show.names_a_suit(card) else "play", card)

    def play_action(self, view: CratesView, card: str, suit: str | None) -> PlayAction:
        """The action that plays `card` (naming `suit`), saying Crates! with it if armed."""
        action: PlayAction = {"type": "play", "card": card}
        if suit is not None:
            action["suit"] = suit
        if self.armed and len(view["hand"]) == 2:
            action["announce"] = True
        return action

    def arm(self, view: CratesView, you: int) -> str | None:
        """With two cards on seat `you`'s turn, `c` arms (or disarms) Crates! for the next
        play and this says so; otherwise None: `c` announces now."""
        if you in view["exposed"] or view["turn"] != you or len(view["hand"]) != 2:
            return None
        self.armed = not self.armed
        return (
            "Crates! will be announced with your next play."
            if self.armed
            else "Crates! is no longer armed."
        )

    @staticmethod
    def dope_targets(view: CratesView, you: int) -> list[int]:
        """The seats `you` may call Dope! on: one card left and no Crates! said."""
        return [seat for seat in view["exposed"] if seat != you]

    @staticmethod
    def suit_kept(card: str, ascii: bool) -> str:
        """What the status line says when a suit-naming card's question was put aside."""
        return f"{card_label(card, ascii)} stays in your hand."
