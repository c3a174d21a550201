"""A game declares secrets in the shapes a leak takes (`State.secrets`): a `WORD` betrays one
wherever it is written, in a sentence too; a `GROUP` of things hidden together betrays one as a
list in any order; a view key the game calls `history` is left to the exact-view check; a
declared value that is also a key of the recipient's own view is no leak as a key."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from tablegames.rules import WORD, Game, Secrets, State, hidden_group
from tablegames.testing.scanner import Scanner, Truth

HANDS = [["7H", "fly", "fly"], ["9C", "bat", "fly"]]


class Hidden(State):
    """Two hands, each with one card of a kind (its code a word) and common cards."""

    history: ClassVar[frozenset[str]] = frozenset({"last_round"})

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, random.Random(seed))
        self.hands = [list(hand) for hand in HANDS]

    @property
    def over(self) -> bool:
        return False

    def _waiting_for(self) -> frozenset[int]:
        return frozenset()

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        return []

    def _view(self, seat: int | None) -> dict[str, Any]:
        hand = list(self.hands[seat]) if seat is not None else None
        return {"hand": hand, "upcoming": {"equalizer": False}}  # (a key, like Kraken's)

    def _result(self) -> dict[str, Any]:
        return {"winners": [], "scores": [0, 0]}

    def secrets(self, seat: int | None) -> Secrets:
        found: Secrets = {}
        for other, hand in enumerate(self.hands):
            if other != seat:
                found[(WORD, hand[0])] = f"seat {other} holds {hand[0]}"
                seen = [self.hands[seat]] if seat is not None else []
                hidden_group(found, hand, f"seat {other}'s hand", seen)
                found[("character", "equalizer")] = f"seat {other}'s character is equalizer"
        return found


GAME = Game("hidden", "Hidden", 2, 2, 2, "Two hands.", Hidden)


def leaks(frame_view: dict[str, object]) -> list[str]:
    """What the scanner finds leaked to seat 0 in an update with `frame_view` as its view."""
    scanner = Scanner(Truth(GAME, 2, {}, seed=1, log=[]))
    own = GAME.new(2, 1).view(0)
    update = {"t": "update", "version": 0, "view": {**own, **frame_view}, "legal": []}
    found = scanner.scan_message(0, 0, {**update, "waiting": [], "events": []})
    return [finding.what for finding in found if finding.kind == "leak"]


def test_a_word_betrays_its_secret_in_any_sentence_under_any_key():
    assert leaks({"note": "Bo was dealt the 9C, then a bat"}) == ["seat 1 holds 9C"]
    assert leaks({"note": "Ann holds 7H"}) == []  # her own card


def test_a_group_betrays_its_secret_as_a_list_in_any_order():
    assert "seat 1's hand" in leaks({"pile": ["fly", "bat", "9C"]})
    assert leaks({"pile": ["fly", "fly", "7H"]}) == []  # her own hand


def test_a_key_that_is_history_is_not_searched_for_secrets_of_now():
    assert leaks({"last_round": {"hands": [["9C", "bat", "fly"]]}}) == []
    assert leaks({"round_before": {"hands": [["9C", "bat", "fly"]]}}) != []


def test_a_value_that_is_also_a_key_of_the_view_is_a_leak_under_its_field_only():
    # Feed the Kraken's views have an ``equalizer`` key (a mutiny's upcoming effects): a
    # character of that name was reported leaked to every seat in every frame.
    assert leaks({}) == []
    assert leaks({"character": "equalizer"}) == ["seat 1's character is equalizer"]
