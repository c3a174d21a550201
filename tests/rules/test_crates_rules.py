"""Crates scenarios: stacked deals played card by card and checked against the rules
(`tablegames/rules/texts/crates.md`, and the engine's readings in `rules/crates.py`).

Every test is a little game script. `deal(...)` stacks round 1 (one hand per seat, the
turned-up card, the draw pile top first; dealer is seat 0 unless told), then seats act with
named cards. Unless a test says otherwise the turned-up card is KH, so seat 1 plays first.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from tablegames.rules import IllegalAction, get_game

from .scripts import assert_illegal, changing_it_is_caught

Action = dict[str, Any]

FULL_GAME_SIZES = [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
SHORT_GAME_SIZES = FULL_GAME_SIZES[:8]
VALUES = {"A": 1, "2": 20, "4": 15, "5": 30, "6": 30, "7": 20, "8": 50, "9": 30, "10": 25}
VALUES |= {"J": 10, "Q": 10, "K": 10}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])")
VIEW_KEYS = {
    "hand", "hand_sizes", "top", "suit", "crank", "direction", "turn", "dealer", "round",
    "rounds", "hand_size", "scores", "announced", "draw_size", "discard", "lost_turn",
    "phase", "log", "last_round",
}  # fmt: skip


# -- setting the table ---------------------------------------------------------------------------
def deal(
    *hands: Sequence[str],
    upcard: str = "KH",
    draw: Sequence[str] = (),
    dealer: int = 0,
    seed: int = 1,
    **options: Any,
) -> Any:
    """A stacked round 1: one hand per seat, the turned-up card and the draw pile, top first."""
    named = [card for hand in hands for card in hand] + [upcard, *draw]
    assert len(named) == len(set(named)), "the test setup names a card twice"
    return get_game("crates").new(
        players=len(hands),
        seed=seed,
        dealer=dealer,
        hands=[list(hand) for hand in hands],
        upcard=upcard,
        draw=list(draw),
        **options,
    )


def play(card: str, suit: str | None = None, *, announce: bool = False) -> Action:
    action: Action = {"type": "play", "card": card}
    if suit is not None:
        action["suit"] = suit
    if announce:
        action["announce"] = True
    return action


def draw() -> Action:
    return {"type": "draw"}


def name_suit(suit: str) -> Action:
    return {"type": "suit", "suit": suit}


def announce() -> Action:
    return {"type": "announce"}


def dope(target: Any) -> Action:
    return {"type": "dope", "target": target}


def act(state: Any, seat: int, action: Action) -> list[dict[str, Any]]:
    """Apply an action that must be legal; returns its events after checking their shape."""
    events = state.apply(seat, copy.deepcopy(action))
    assert isinstance(events, list)
    for event in events:
        assert isinstance(event.get("text"), str), event
        assert "to" in event, event
    return events


# -- reading the table ---------------------------------------------------------------------------
def table(state: Any) -> dict[str, Any]:
    """What a spectator sees."""
    return state.view(None)


def first_round_over(state: Any) -> dict[str, Any]:
    """How round 1 went, as the table shows it once round 2 has begun (which it must have)."""
    view = table(state)
    assert view["round"] == 2
    assert view["last_round"]["round"] == 1
    return view["last_round"]


def assert_hand(state: Any, seat: int, cards: Iterable[str]) -> None:
    assert sorted(state.view(seat)["hand"]) == sorted(cards)


def turn_moves(state: Any, seat: int) -> list[Action]:
    """The legal plays, draws and suit namings of a seat (leaving out announce/dope calls)."""
    return [a for a in state.legal(seat) if a["type"] in ("play", "draw", "suit")]


def listed_plays(state: Any, seat: int) -> list[tuple[str, str | None, bool]]:
    """Each legal play as (card, suit, announce), sorted."""
    return sorted(
        (a["card"], a.get("suit"), bool(a.get("announce")))
        for a in state.legal(seat)
        if a["type"] == "play"
    )


def playable_cards(state: Any, seat: int) -> set[str]:
    return {card for card, _suit, _announce in listed_plays(state, seat)}


def mentioned_cards(value: Any) -> set[str]:
    """Every card code written anywhere in a view (hands, piles, log texts...)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(CARD.findall(value))
    elif isinstance(value, dict):
        for item in value.values():
            found |= mentioned_cards(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= mentioned_cards(item)
    return found


def log_texts(view: dict[str, Any]) -> list[str]:
    return [entry["text"] if isinstance(entry, dict) else str(entry) for entry in view["log"]]


def hand_points(cards: Iterable[str]) -> int:
    """Score a hand the way the spec says: each 3 cancels the highest other card, else −50."""
    ranks = [card[:-1] for card in cards]
    threes = ranks.count("3")
    others = sorted((VALUES[rank] for rank in ranks if rank != "3"), reverse=True)
    cancelled = min(threes, len(others))
    return sum(others[cancelled:]) - 50 * (threes - cancelled)


# -- a simple bot to play seeded rounds out ------------------------------------------------------
def simple_choice(legal: list[Action]) -> Action:
    """Name a suit, else play (announcing a last-but-one card), else draw."""
    order = {"suit": 0, "play": 1, "draw": 2}
    moves = [a for a in legal if a["type"] in order]
    return min(moves, key=lambda a: (order[a["type"]], not a.get("announce", False)))


def autoplay_round(state: Any, deck: int | None = 52) -> None:
    """Play the current round to its end, checking cards are conserved after every action."""
    start = table(state)["round"]
    for _ in range(20_000):
        if state.over or table(state)["round"] != start:
            return
        waiting = state.waiting_for()
        assert len(waiting) == 1, waiting
        (seat,) = waiting
        act(state, seat, simple_choice(state.legal(seat)))
        view = table(state)
        if deck is not None and not state.over:
            assert sum(view["hand_sizes"]) + view["draw_size"] + len(view["discard"]) == deck
    raise AssertionError("the round never ended")


def assert_round_start(state: Any, size: int, dealer: int) -> None:
    """A freshly dealt round: sizes, dealer, clockwise, and the turned-up card as dealer's turn."""
    view = table(state)
    players = state.players
    left = (dealer + 1) % players
    assert view["hand_size"] == size
    assert view["dealer"] == dealer
    assert view["discard"] == [view["top"]]
    assert view["announced"] == []
    assert view["lost_turn"] == []
    upcard = view["top"][:-1]
    sizes = [size] * players
    if upcard == "5":
        sizes = [size if seat == dealer else size + 1 for seat in range(players)]
    elif upcard == "7":
        sizes[left] += 1
    assert view["hand_sizes"] == sizes
    assert view["direction"] == (-1 if upcard == "10" else 1)
    assert view["crank"] == (2 if upcard == "2" else 0)
    if upcard in ("8", "9"):
        assert view["phase"] == "suit"
        assert state.waiting_for() == frozenset({dealer})
    else:
        first = {"4": (dealer + 2) % players, "6": dealer, "10": (dealer - 1) % players}
        assert view["phase"] == "play"
        assert view["turn"] == first.get(upcard, left)
        assert state.waiting_for() == frozenset({view["turn"]})


# ================================================================================================
# Matching
# ================================================================================================
def test_a_card_of_the_current_suit_can_be_played() -> None:
    state = deal(["JD", "5S", "AC"], ["QH", "2C", "JS"], ["4D", "6C", "KC"])
    assert table(state)["turn"] == 1
    act(state, 1, play("QH"))
    view = table(state)
    assert view["top"] == "QH"
    assert view["suit"] == "H"
    assert view["discard"] == ["KH", "QH"]
    assert view["turn"] == 2
    assert view["hand_sizes"] == [3, 2, 3]
    assert_hand(state, 1, ["2C", "JS"])


def test_a_card_of_the_same_rank_can_be_played_and_changes_the_suit() -> None:
    state = deal(["JD", "5S", "AC"], ["KS", "2C", "JS"], ["4D", "6C", "QC"])
    act(state, 1, play("KS"))
    assert table(state)["top"] == "KS"
    assert table(state)["suit"] == "S"
    # Seat 2 now needs a spade or a king: nothing in 4D 6C QC matches.
    assert turn_moves(state, 2) == [draw()]


def test_a_card_matching_neither_suit_nor_rank_is_illegal() -> None:
    state = deal(["JD", "5S"], ["QH", "KS", "JS", "2C"], ["4D", "6C"])
    assert playable_cards(state, 1) == {"QH", "KS"}
    assert_illegal(state, 1, play("JS"))
    assert_illegal(state, 1, play("2C"))


def test_a_card_of_the_same_colour_only_does_not_fit() -> None:
    # The seed's "same suit or colour" is followed by "suit or ability" (each rank has its own
    # ability): a red card of another suit and rank does not follow the King of Hearts.
    state = deal(["JD", "5S"], ["QH", "5D", "KS", "AH"], ["4D", "6C"])
    assert playable_cards(state, 1) == {"QH", "KS", "AH"}
    assert assert_illegal(state, 1, play("5D")) == "5D does not fit: play a heart, a K, or an 8"


def test_only_the_player_to_act_has_turn_moves() -> None:
    state = deal(["JD", "5S"], ["QH", "2C", "JS"], ["KD", "6C"])
    assert state.waiting_for() == frozenset({1})
    assert turn_moves(state, 0) == []
    assert turn_moves(state, 2) == []
    assert_illegal(state, 2, play("KD"))


# ================================================================================================
# Naming a suit: an 8 is wild and names any suit; a 9 fits like any card, then names its own suit
# or its colour partner
# ================================================================================================
def test_an_eight_is_wild_and_names_any_suit() -> None:
    state = deal(["JD", "5S", "AC"], ["8C", "JS", "4S"], ["KC", "QD", "5H"])
    assert listed_plays(state, 1) == sorted(("8C", suit, False) for suit in "SHDC")
    act(state, 1, play("8C", "D"))
    view = table(state)
    assert view["top"] == "8C"
    assert view["suit"] == "D"
    assert view["turn"] == 2
    # The named suit replaces the eight's own club: KC matches neither diamonds nor 8.
    assert playable_cards(state, 2) == {"QD"}
    assert_illegal(state, 2, play("KC"))
    act(state, 2, play("QD"))
    assert table(state)["suit"] == "D"


@pytest.mark.parametrize(
    ("nine", "allowed", "other_nine"),
    [("9H", "HD", "9S"), ("9D", "DH", "9C"), ("9S", "SC", "9H"), ("9C", "CS", "9D")],
)
def test_a_nine_of_the_suit_names_its_own_suit_or_its_colour_partner(
    nine: str, allowed: str, other_nine: str
) -> None:
    upcard = "K" + nine[-1]  # the nine follows suit
    third = "Q" + allowed[1]  # the colour partner's queen matches nothing yet
    state = deal(["JD"], [nine, other_nine, third], ["6D"], upcard=upcard)
    # The nine of the other colour matches neither suit nor rank: it is not listed.
    assert listed_plays(state, 1) == sorted((nine, suit, False) for suit in allowed)
    choices = " or ".join(SUIT_WORDS[suit] for suit in allowed)
    for suit in "SHDC":
        if suit not in allowed:
            message = assert_illegal(state, 1, play(nine, suit))
            assert message == f"name a suit for your {nine}: {choices}"
    act(state, 1, play(nine, allowed[1]))
    view = table(state)
    assert (view["top"], view["suit"]) == (nine, allowed[1])
    assert log_texts(view)[-1] == f"{{1}} plays {nine} and names {SUIT_WORDS[allowed[1]]}."
    # Seat 2 follows the named suit: its 6D fits after a switch to diamonds only.
    assert playable_cards(state, 2) == ({"6D"} if allowed[1] == "D" else set())


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "card": "8C"},
        {"type": "play", "card": "9H"},
        play("9H", "S"),
        play("9H", "C"),
        play("8C", "X"),
        play("8C", ""),
        play("8C", "spades"),
        {"type": "play", "card": "8C", "suit": 3},
        {"type": "play", "card": "8C", "suit": None},
    ],
)
def test_an_eight_or_a_nine_needs_a_suit_it_may_name(action: Action) -> None:
    state = deal(["JD", "5S"], ["8C", "9H", "4S"], ["6D", "QC"])
    assert_illegal(state, 1, action)


def test_a_plain_card_takes_no_suit() -> None:
    state = deal(["JD", "5S"], ["QH", "2C", "4S"], ["6D", "QC"])
    assert_illegal(state, 1, play("QH", "H"))
    assert_illegal(state, 1, play("QH", "S"))


# ================================================================================================
# A 9 is no wild card: it fits by suit or rank like any other card (rules version 2)
# ================================================================================================
OFF_SUIT_ON_3C = "does not fit: play a club, a 3, or an 8"


def test_the_rules_version_says_nines_are_no_longer_wild() -> None:
    assert get_game("crates").rules_version == 2


def test_a_nine_of_another_suit_and_rank_is_refused_with_the_sentence() -> None:
    # A 9H on a turned-up 3C: only an 8 goes on anything.
    state = deal(["JD", "5S"], ["9H", "JC", "4D"], ["6D", "QS"], upcard="3C")
    assert playable_cards(state, 1) == {"JC"}
    for suit in "SHDC":
        assert assert_illegal(state, 1, play("9H", suit)) == f"9H {OFF_SUIT_ON_3C}"
    assert state.view(1)["unplayable"] == {
        "9H": f"9H {OFF_SUIT_ON_3C}",
        "4D": f"4D {OFF_SUIT_ON_3C}",
    }
    act(state, 1, play("JC"))
    assert table(state)["top"] == "JC"


def test_holding_only_off_suit_nines_the_player_is_told_why_and_draws() -> None:
    state = deal(["JD", "5S"], ["9H", "9D", "JS"], ["6D", "QS"], upcard="3C", draw=["AS", "2S"])
    assert turn_moves(state, 1) == [draw()]
    assert state.view(1)["unplayable"] == {
        card: f"{card} {OFF_SUIT_ON_3C}" for card in ("9H", "9D", "JS")
    }
    assert assert_illegal(state, 1, play("9H", "H")) == f"9H {OFF_SUIT_ON_3C}"
    assert assert_illegal(state, 1, play("9D", "D", announce=False)) == f"9D {OFF_SUIT_ON_3C}"
    act(state, 1, draw())
    assert_hand(state, 1, ["9H", "9D", "JS", "AS"])
    assert table(state)["turn"] == 2


def test_a_nine_fits_on_a_nine_by_rank_whatever_the_suit() -> None:
    state = deal(
        ["JS", "5S"], ["9C", "9H", "4D"], ["9D", "6S", "QH"], upcard="KC", draw=["AC", "2S"]
    )
    assert playable_cards(state, 1) == {"9C"}  # 9H and 4D match neither clubs nor K
    act(state, 1, play("9C", "S"))
    # On a 9 with spades to follow: the 9D by rank, the 6S by suit.
    assert listed_plays(state, 2) == [("6S", None, False), ("9D", "D", False), ("9D", "H", False)]
    act(state, 2, play("9D", "D"))
    act(state, 0, draw())  # JS 5S: neither a diamond nor a 9
    # The 9H refused on the KC now fits the 9D by rank; the 4D by suit.
    assert playable_cards(state, 1) == {"4D", "9H"}
    assert {suit for card, suit, _ in listed_plays(state, 1) if card == "9H"} == {"D", "H"}
    act(state, 1, play("9H", "H"))
    assert (table(state)["top"], table(state)["suit"]) == ("9H", "H")


def test_after_a_turned_up_nine_names_a_suit_a_nine_must_still_fit() -> None:
    state = deal(["JD", "5S"], ["JC", "4H"], ["9H", "QD"], upcard="9S", draw=["AS", "2S"])
    assert sorted(a["suit"] for a in turn_moves(state, 0)) == ["C", "S"]
    act(state, 0, name_suit("C"))
    assert playable_cards(state, 1) == {"JC"}
    act(state, 1, play("JC"))
    assert turn_moves(state, 2) == [draw()]
    message = assert_illegal(state, 2, play("9H", "H"))
    assert message == "9H does not fit: play a club, a J, or an 8"


def test_after_an_eight_names_a_suit_only_the_nine_of_that_suit_fits() -> None:
    state = deal(["JD", "5S"], ["9C", "9H", "9S"], ["6D", "QS"], upcard="8H")
    act(state, 0, name_suit("C"))
    assert playable_cards(state, 1) == {"9C"}  # the 8's own hearts no longer count
    for card in ("9H", "9S"):
        assert state.view(1)["unplayable"][card] == f"{card} does not fit: play a club or an 8"


@pytest.mark.parametrize(
    ("upcard", "advice"),
    [
        ("3C", "play a club, a 3, or an 8"),
        ("AC", "play a club, an ace, or an 8"),
        ("JC", "play a club, a J, or an 8"),
        ("8C", "play a club or an 8"),
        ("9S", "play a club, a 9, or an 8"),
    ],
)
def test_the_refusal_says_what_fits_in_plain_words(upcard: str, advice: str) -> None:
    state = deal(["JD", "5S"], ["KH", "QD"], ["6D", "QS"], upcard=upcard)
    if table(state)["phase"] == "suit":
        act(state, 0, name_suit("C"))
    assert assert_illegal(state, 1, play("KH")) == f"KH does not fit: {advice}"


# ================================================================================================
# Must play; drawing; the draw pile
# ================================================================================================
@pytest.mark.parametrize("playable", ["QH", "KS", "8S", "9H"])
def test_a_player_with_a_playable_card_may_not_draw(playable: str) -> None:
    state = deal(["JD", "5S"], [playable, "2C", "4S"], ["6D", "QC"], draw=["AS"])
    assert all(move["type"] == "play" for move in turn_moves(state, 1))
    assert_illegal(state, 1, draw())


def test_with_nothing_playable_the_player_draws_one_and_the_turn_ends() -> None:
    state = deal(["JD", "5S"], ["2C", "4S"], ["6C", "KC"], draw=["QH", "JC"])
    assert turn_moves(state, 1) == [draw()]
    events = act(state, 1, draw())
    view = table(state)
    assert_hand(state, 1, ["2C", "4S", "QH"])
    assert view["turn"] == 2
    assert view["draw_size"] == 1
    assert view["top"] == "KH"
    assert view["discard"] == ["KH"]
    # The drawn queen is playable, but not this turn.
    assert_illegal(state, 1, play("QH"))
    for event in events:
        if "QH" in mentioned_cards(event["text"]):
            assert event["to"] == [1], "only the drawer may see the card drawn"


def test_an_empty_draw_pile_is_rebuilt_from_the_discards_under_the_top_card() -> None:
    state = deal(["JH", "2C", "4S"], ["QH", "5C", "6S"], draw=[])
    act(state, 1, play("QH"))
    act(state, 0, play("JH"))
    assert table(state)["draw_size"] == 0
    assert turn_moves(state, 1) == [draw()]
    act(state, 1, draw())
    view = table(state)
    assert view["top"] == "JH"
    assert view["discard"] == ["JH"]
    assert view["draw_size"] == 1
    new_card = Counter(state.view(1)["hand"]) - Counter(["5C", "6S"])
    assert sum(new_card.values()) == 1
    assert set(new_card) <= {"KH", "QH"}
    assert sum(view["hand_sizes"]) + view["draw_size"] + len(view["discard"]) == 7
    assert view["turn"] == 0


def test_with_nothing_to_draw_anywhere_the_draw_simply_passes() -> None:
    state = deal(["JD", "5S"], ["2C", "4S"], ["6C", "QC"], draw=[])
    act(state, 1, draw())
    view = table(state)
    assert_hand(state, 1, ["2C", "4S"])
    assert view["turn"] == 2
    assert view["round"] == 1
    assert view["draw_size"] == 0


def test_the_round_is_blocked_when_every_player_passes_in_a_row() -> None:
    state = deal(["2C", "5S"], ["QC", "4D"], ["JS", "7C", "AD"], draw=[])
    act(state, 1, draw())
    assert table(state)["round"] == 1
    act(state, 2, draw())
    assert table(state)["round"] == 1
    act(state, 0, draw())
    last = first_round_over(state)
    assert last["blocked"] is True
    assert last["went_out"] is None
    assert [sorted(hand) for hand in last["hands"]] == [
        ["2C", "5S"],
        ["4D", "QC"],
        ["7C", "AD", "JS"],
    ]
    assert last["points"] == [50, 25, 31]
    assert table(state)["scores"] == [50, 25, 31]


def test_a_real_draw_breaks_the_run_of_passes() -> None:
    state = deal(["6C"], ["2C", "4S"], ["5C"], draw=["JD"])
    act(state, 1, draw())  # takes the jack: not a pass
    act(state, 2, draw())  # pass
    act(state, 0, draw())  # pass
    assert table(state)["round"] == 1
    assert table(state)["turn"] == 1
    act(state, 1, draw())  # pass: now all three have passed in a row
    last = table(state)["last_round"]
    assert last["blocked"] is True
    assert last["points"] == [30, 45, 30]


# ================================================================================================
# Card abilities
# ================================================================================================
def test_an_ace_outside_a_crank_is_a_plain_card() -> None:
    state = deal(["JD", "5S"], ["AH", "AC", "QS"], ["2C", "QD"], draw=["4C"])
    assert_illegal(state, 1, play("AC"))  # an ace must match like any card
    act(state, 1, play("AH"))
    view = table(state)
    assert view["crank"] == 0
    assert view["turn"] == 2
    assert turn_moves(state, 2) == [draw()]  # 2C neither matches AH nor continues anything


def test_a_two_starts_a_crank_at_two() -> None:
    state = deal(["JD", "5S"], ["2H", "QS", "4C"], ["AC", "QD"])
    act(state, 1, play("2H"))
    view = table(state)
    assert view["crank"] == 2
    assert view["top"] == "2H"
    assert view["turn"] == 2


@pytest.mark.parametrize("card", ["3H", "JH", "QH", "KS"])
def test_threes_and_face_cards_have_no_ability(card: str) -> None:
    state = deal(["JD", "5S"], [card, "2C", "4S"], ["6C", "QC"], draw=["AS"])
    act(state, 1, play(card))
    view = table(state)
    assert view["turn"] == 2
    assert view["direction"] == 1
    assert view["crank"] == 0
    assert view["hand_sizes"] == [2, 2, 2]
    assert view["draw_size"] == 1
    assert view["lost_turn"] == []


@pytest.mark.parametrize(("players", "next_turn"), [(3, 0), (2, 1)])
def test_a_four_skips_the_next_player(players: int, next_turn: int) -> None:
    hands = [["JD", "5S"], ["4H", "2C", "7S"], ["6C", "QC"]][:players]
    state = deal(*hands)
    act(state, 1, play("4H"))
    assert table(state)["turn"] == next_turn
    assert state.waiting_for() == frozenset({next_turn})


def test_a_five_makes_every_other_player_draw_one() -> None:
    state = deal(
        ["JD", "5S"],
        ["5H", "2C", "7S"],
        ["JH", "QC"],
        ["6C", "4S"],
        draw=["AS", "AD", "AC", "10S"],
    )
    act(state, 1, play("5H"))
    view = table(state)
    assert view["hand_sizes"] == [3, 2, 3, 3]
    assert view["draw_size"] == 1
    drawn = (
        Counter(state.view(0)["hand"]) - Counter(["JD", "5S"])
        + (Counter(state.view(2)["hand"]) - Counter(["JH", "QC"]))
        + (Counter(state.view(3)["hand"]) - Counter(["6C", "4S"]))
    )  # fmt: skip
    assert sorted(drawn.elements()) == ["AC", "AD", "AS"]
    # Then the next player plays normally.
    assert view["turn"] == 2
    act(state, 2, play("JH"))
    assert table(state)["turn"] == 3


def test_a_six_gives_the_same_player_another_turn() -> None:
    state = deal(["JD", "5S"], ["6H", "6C", "JS", "2D"], ["QC", "KC"], draw=["4H", "AS"])
    act(state, 1, play("6H"))
    assert table(state)["turn"] == 1
    assert state.waiting_for() == frozenset({1})
    assert_illegal(state, 1, draw())  # 6C is playable, so it must be played
    act(state, 1, play("6C"))
    assert table(state)["turn"] == 1
    # JS and 2D match neither clubs nor a 6: draw one and the turn passes.
    assert turn_moves(state, 1) == [draw()]
    act(state, 1, draw())
    assert_hand(state, 1, ["JS", "2D", "4H"])
    assert table(state)["turn"] == 2


def test_a_seven_makes_the_next_player_draw_one_then_play_normally() -> None:
    state = deal(["JD", "5S"], ["7H", "2C", "4S"], ["2D", "KC"], draw=["QH", "AS"])
    act(state, 1, play("7H"))
    view = table(state)
    assert_hand(state, 2, ["2D", "KC", "QH"])
    assert view["draw_size"] == 1
    assert view["turn"] == 2  # the draw is not a skip
    assert playable_cards(state, 2) == {"QH"}
    act(state, 2, play("QH"))
    assert table(state)["turn"] == 0


def test_a_ten_reverses_the_direction_of_play() -> None:
    state = deal(["JH", "2C", "4D"], ["10H", "2S", "4C"], ["5D", "6D"], ["QH", "KC", "7S"])
    act(state, 1, play("10H"))
    assert table(state)["direction"] == -1
    assert table(state)["turn"] == 0
    act(state, 0, play("JH"))
    assert table(state)["turn"] == 3
    act(state, 3, play("QH"))
    assert table(state)["turn"] == 2


def test_a_ten_between_two_players_flips_direction_but_not_the_turn_order() -> None:
    state = deal(["JH", "2C", "4D"], ["10H", "10S", "4C"])
    act(state, 1, play("10H"))
    assert table(state)["direction"] == -1
    assert table(state)["turn"] == 0
    act(state, 0, play("JH"))
    assert table(state)["turn"] == 1
    assert playable_cards(state, 1) == set()
    assert turn_moves(state, 1) == [draw()]


def test_a_second_ten_restores_clockwise_play() -> None:
    state = deal(["10C", "2C", "4D"], ["10H", "2S", "4C"], ["5D", "6D"])
    act(state, 1, play("10H"))
    act(state, 0, play("10C"))
    assert table(state)["direction"] == 1
    assert table(state)["turn"] == 1


# ================================================================================================
# The turned-up card is the dealer's first turn
# ================================================================================================
@pytest.mark.parametrize("upcard", ["QD", "AD", "3D", "JC"])
def test_a_plain_turned_up_card_lets_the_dealers_left_start(upcard: str) -> None:
    state = deal(["JS", "5S"], ["QS", "2H"], ["6H", "KS"], upcard=upcard, draw=["AS"])
    view = table(state)
    assert view["top"] == upcard
    assert view["suit"] == upcard[-1]
    assert view["discard"] == [upcard]
    assert view["turn"] == 1
    assert state.waiting_for() == frozenset({1})
    assert view["crank"] == 0
    assert view["direction"] == 1
    assert view["phase"] == "play"
    assert view["hand_sizes"] == [2, 2, 2]
    assert view["draw_size"] == 1
    assert view["dealer"] == 0
    assert view["round"] == 1


@pytest.mark.parametrize(("dealer", "left"), [(0, 1), (2, 0)])
def test_a_turned_up_seven_makes_the_dealers_left_draw_then_play(dealer: int, left: int) -> None:
    hands = [["JD", "5S"], ["QS", "2C"], ["6C", "KC"]]
    state = deal(*hands, upcard="7H", draw=["AS", "4D"], dealer=dealer)
    assert_hand(state, left, [*hands[left], "AS"])
    view = table(state)
    assert view["draw_size"] == 1
    assert view["turn"] == left
    assert sum(view["hand_sizes"]) == 7


@pytest.mark.parametrize(("players", "dealer", "first"), [(3, 0, 2), (3, 2, 1), (2, 0, 0)])
def test_a_turned_up_four_skips_the_dealers_left(players: int, dealer: int, first: int) -> None:
    hands = [["JD", "5S"], ["QS", "2C"], ["6C", "KC"]][:players]
    state = deal(*hands, upcard="4H", dealer=dealer)
    assert table(state)["turn"] == first
    assert state.waiting_for() == frozenset({first})


def test_a_turned_up_ten_reverses_so_the_dealers_right_starts() -> None:
    state = deal(["JD", "5S"], ["QH", "2C"], ["JH", "KC"], upcard="10H")
    assert table(state)["direction"] == -1
    assert table(state)["turn"] == 2
    act(state, 2, play("JH"))
    assert table(state)["turn"] == 1


def test_a_turned_up_ten_between_two_players() -> None:
    state = deal(["JD", "5S"], ["QH", "2C"], upcard="10H")
    assert table(state)["direction"] == -1
    assert table(state)["turn"] == 1


def test_a_turned_up_five_makes_everyone_but_the_dealer_draw() -> None:
    state = deal(["JD", "5S"], ["QS", "2C"], ["6C", "KC"], upcard="5H", draw=["AS", "AC", "4D"])
    view = table(state)
    assert view["hand_sizes"] == [2, 3, 3]
    assert view["draw_size"] == 1
    assert_hand(state, 0, ["JD", "5S"])
    drawn = (Counter(state.view(1)["hand"]) - Counter(["QS", "2C"])) + (
        Counter(state.view(2)["hand"]) - Counter(["6C", "KC"])
    )
    assert sorted(drawn.elements()) == ["AC", "AS"]
    assert view["turn"] == 1


def test_a_turned_up_two_starts_a_crank_for_the_dealers_left() -> None:
    state = deal(["JD", "5S"], ["QS", "KC"], ["6C", "JC"], upcard="2H", draw=["4S", "4D", "4C"])
    view = table(state)
    assert view["crank"] == 2
    assert view["turn"] == 1
    assert turn_moves(state, 1) == [draw()]
    act(state, 1, draw())
    assert_hand(state, 1, ["QS", "KC", "4S", "4D"])
    view = table(state)
    assert view["crank"] == 0
    assert view["turn"] == 2
    assert view["draw_size"] == 1
    assert view["top"] == "2H"


def test_a_turned_up_six_gives_the_dealer_another_turn() -> None:
    state = deal(["JD", "QH", "5C"], ["QS", "2C"], ["4C", "KC"], upcard="6H", draw=["AS"])
    assert table(state)["turn"] == 0
    assert state.waiting_for() == frozenset({0})
    act(state, 0, play("QH"))
    assert table(state)["turn"] == 1


def test_a_turned_up_six_when_the_dealer_cannot_play_draws_one_and_passes() -> None:
    state = deal(["JD", "5C"], ["QS", "2C"], ["4C", "KC"], upcard="6H", draw=["AS"])
    assert turn_moves(state, 0) == [draw()]
    act(state, 0, draw())
    assert_hand(state, 0, ["JD", "5C", "AS"])
    assert table(state)["turn"] == 1


def test_a_turned_up_eight_waits_for_the_dealer_to_name_any_suit() -> None:
    state = deal(["JD", "5S"], ["QS", "2C"], ["6C", "KC"], upcard="8H")
    view = table(state)
    assert view["phase"] == "suit"
    assert state.waiting_for() == frozenset({0})
    assert sorted(a["suit"] for a in turn_moves(state, 0)) == sorted("SHDC")
    assert all(a["type"] == "suit" for a in turn_moves(state, 0))
    assert turn_moves(state, 1) == []
    assert_illegal(state, 1, play("QS"))  # nobody plays before the suit is named
    assert_illegal(state, 0, play("JD"))
    assert_illegal(state, 0, draw())
    assert_illegal(state, 1, name_suit("S"))  # only the dealer names it
    assert_illegal(state, 0, name_suit("X"))
    act(state, 0, name_suit("C"))
    view = table(state)
    assert view["phase"] == "play"
    assert view["top"] == "8H"
    assert view["suit"] == "C"
    assert view["turn"] == 1
    assert state.waiting_for() == frozenset({1})
    assert playable_cards(state, 1) == {"2C"}


def test_a_turned_up_nine_lets_the_dealer_name_only_its_colour() -> None:
    state = deal(["JD", "5S"], ["QS", "2C"], ["6C", "KC"], upcard="9S")
    assert sorted(a["suit"] for a in turn_moves(state, 0)) == ["C", "S"]
    assert_illegal(state, 0, name_suit("H"))
    assert_illegal(state, 0, name_suit("D"))
    act(state, 0, name_suit("C"))
    assert table(state)["suit"] == "C"
    assert table(state)["turn"] == 1


def test_naming_a_suit_outside_the_suit_phase_is_illegal() -> None:
    state = deal(["JD", "5S"], ["QS", "2C"], ["6C", "KC"])
    for suit in "SHDC":
        assert_illegal(state, 1, name_suit(suit))
        assert_illegal(state, 0, name_suit(suit))


# ================================================================================================
# The crank
# ================================================================================================
def test_any_ace_or_two_adds_to_the_crank_until_someone_draws_the_count() -> None:
    state = deal(
        ["2C", "QD", "JD"],
        ["2H", "KD", "8S", "5H"],
        ["AS", "QC", "JH"],
        draw=["4C", "4D", "4H", "4S", "5C", "5D"],
    )
    act(state, 1, play("2H"))
    assert table(state)["crank"] == 2
    # A spade ace continues a heart crank; a heart jack does not.
    assert playable_cards(state, 2) == {"AS"}
    assert_illegal(state, 2, play("JH"))
    assert_illegal(state, 2, draw())  # who can continue the crank must
    act(state, 2, play("AS"))
    assert table(state)["crank"] == 3
    assert table(state)["top"] == "AS"
    act(state, 0, play("2C"))
    assert table(state)["crank"] == 5
    assert table(state)["turn"] == 1
    # Seat 1 has no ace or two; the wild 8 and the heart 5 do not help.
    assert turn_moves(state, 1) == [draw()]
    assert_illegal(state, 1, play("8S", "S"))
    assert_illegal(state, 1, play("5H"))
    act(state, 1, draw())
    assert_hand(state, 1, ["KD", "8S", "5H", "4C", "4D", "4H", "4S", "5C"])
    view = table(state)
    assert view["crank"] == 0
    assert view["draw_size"] == 1
    assert view["top"] == "2C"
    assert view["suit"] == "C"
    assert view["turn"] == 2  # the player after the drawer
    act(state, 2, play("QC"))  # an ordinary play again
    assert table(state)["turn"] == 0


def test_eights_and_nines_cannot_be_played_during_a_crank() -> None:
    # The 9H and QH follow the 2H's suit, the 8S is wild: none of them is an ace or a 2.
    state = deal(["JD", "5S"], ["8S", "9H", "QH"], ["6C", "KC"], upcard="2H", draw=["4C", "4D"])
    assert turn_moves(state, 1) == [draw()]
    assert_illegal(state, 1, play("8S", "S"))
    assert_illegal(state, 1, play("9H", "H"))
    assert_illegal(state, 1, play("QH"))


def test_a_player_on_a_crank_is_told_to_draw_only_when_they_may() -> None:
    # Seat 1 holds an ace: it must keep the crank going, so no sentence offers the draw.
    state = deal(["JD", "5S"], ["AS", "QH"], ["6C", "KC"], upcard="2H", draw=["4C", "4D"])
    must = "a crank of 2 is running: you must play an ace or a 2"
    assert state.view(1)["unplayable"] == {"QH": must}
    assert assert_illegal(state, 1, play("QH")) == must
    act(state, 1, play("AS"))
    # Seat 2 holds no ace or 2: drawing the count is its way out, and the sentence says so.
    may_draw = "a crank of 3 is running: play an ace or a 2, or draw 3"
    assert state.view(2)["unplayable"] == {"6C": may_draw, "KC": may_draw}
    assert assert_illegal(state, 2, play("KC")) == may_draw


def test_a_two_of_another_suit_continues_the_crank() -> None:
    state = deal(["JD", "5S"], ["2S", "QH"], ["6C", "KC"], upcard="2H", draw=["4C", "4D"])
    assert playable_cards(state, 1) == {"2S"}
    act(state, 1, play("2S"))
    assert table(state)["crank"] == 4
    assert table(state)["turn"] == 2


def test_the_crank_draw_is_limited_to_the_cards_that_exist() -> None:
    state = deal(["JD", "5S"], ["QS", "KC"], ["6C", "JC"], upcard="2H", draw=["4S"])
    act(state, 1, draw())
    assert_hand(state, 1, ["QS", "KC", "4S"])
    view = table(state)
    assert view["draw_size"] == 0
    assert view["crank"] == 0
    assert view["turn"] == 2


def test_the_crank_draw_rebuilds_the_pile_from_the_discards() -> None:
    state = deal(["2S", "JC", "QC"], ["2H", "JD", "5C"], draw=["QD"])
    act(state, 1, play("2H"))
    act(state, 0, play("2S"))
    assert table(state)["crank"] == 4
    act(state, 1, draw())  # 4 wanted: QD, then KH and 2H from under the top card
    assert_hand(state, 1, ["JD", "5C", "QD", "KH", "2H"])
    view = table(state)
    assert view["discard"] == ["2S"]
    assert view["draw_size"] == 0
    assert view["crank"] == 0
    assert view["turn"] == 0


def test_the_listed_plays_are_made_once_and_whoever_changes_one_is_caught_in_the_tests() -> None:
    # `legal` hands out plays made once (each card's, and each with its announcement): an
    # answer is the engine's own, and the tests (`State.checking`) catch whoever changes one.
    state = deal(["JD", "5S", "6C"], ["QH", "2C", "4H"], ["4D", "KC"])
    other = deal(["JC", "5D", "6S"], ["QH", "3C"], ["4S", "KD"])
    first = state.legal(1)
    assert first[0] is other.legal(1)[0] and first == [play("QH"), play("4H")]
    changing_it_is_caught(first[0], "card", "AH", lambda: other.legal(1))
    assert other.legal(1) == [play("QH"), play("QH", announce=True)]


# ================================================================================================
# One card left: "Crates!"
# ================================================================================================
def test_a_play_leaving_one_card_is_listed_with_and_without_the_announcement() -> None:
    state = deal(["JD", "5S", "6C"], ["QH", "2C"], ["4D", "KC"])
    assert listed_plays(state, 1) == [("QH", None, False), ("QH", None, True)]


def test_a_wild_leaving_one_card_is_listed_per_suit_with_and_without_it() -> None:
    state = deal(["JD", "5S", "6C"], ["8C", "2D"], ["4D", "KC"])
    expected = sorted(("8C", suit, flag) for suit in "SHDC" for flag in (False, True))
    assert listed_plays(state, 1) == expected


def test_a_play_leaving_more_cards_has_no_announcement() -> None:
    state = deal(["JD", "5S", "6C"], ["QH", "2C", "4S"], ["4D", "KC"])
    assert listed_plays(state, 1) == [("QH", None, False)]
    act(state, 1, play("QH"))
    assert announce() not in state.legal(1)
    assert dope(1) not in state.legal(0)
    assert_illegal(state, 1, announce())
    assert_illegal(state, 0, dope(1))


def test_announcing_with_the_play() -> None:
    state = deal(["JD", "5S", "6C"], ["QH", "2C"], ["4D", "KC"])
    act(state, 1, play("QH", announce=True))
    assert table(state)["announced"] == [1]
    assert dope(1) not in state.legal(0)
    assert dope(1) not in state.legal(2)
    assert_illegal(state, 0, dope(1))


def test_announcing_as_a_separate_action_out_of_turn() -> None:
    state = deal(["JD", "5S", "6C"], ["QH", "2C"], ["4D", "KC"])
    act(state, 1, play("QH"))
    assert table(state)["announced"] == []
    assert announce() in state.legal(1)
    assert dope(1) in state.legal(0)
    assert dope(1) in state.legal(2)
    assert state.waiting_for() == frozenset({2})  # optional calls never hold the game up
    act(state, 1, announce())  # seat 2 is to act; seat 1 announces anyway
    view = table(state)
    assert view["announced"] == [1]
    assert view["turn"] == 2
    assert view["hand_sizes"][1] == 1
    assert_illegal(state, 2, dope(1))


def test_announcing_with_more_than_one_card_is_illegal() -> None:
    state = deal(["JD", "5S", "6C"], ["QH", "2C"], ["4D", "KC"])
    assert announce() not in state.legal(1)
    assert_illegal(state, 1, announce())


def test_a_player_dealt_a_single_card_has_nothing_to_announce() -> None:
    state = deal(["JD", "5S"], ["QS", "2C"], ["6C"])
    assert table(state)["announced"] == []
    assert dope(2) not in state.legal(0)
    assert dope(2) not in state.legal(1)
    assert_illegal(state, 0, dope(2))
    assert announce() not in state.legal(2)
    assert_illegal(state, 2, announce())


def test_a_round_of_single_cards_owes_no_announcement_until_a_play_leaves_one() -> None:
    # Round 8 deals one card each: nothing is "left" of a hand yet, so nobody announces, and
    # everyone can see that everyone holds one. A play that leaves one card does owe it.
    state = deal(["2C"], ["3C"], ["9C"], draw=["KS", "4D", "5D", "6S"])
    for seat in range(3):
        assert not [a for a in state.legal(seat) if a["type"] in ("announce", "dope")]
    said = "you were dealt one card: there is nothing to announce"
    assert assert_illegal(state, 1, announce()) == said
    caught = "Dope! only catches a player holding one unannounced card"
    assert assert_illegal(state, 0, dope(1)) == caught
    act(state, 1, draw())  # nothing fits the KH: seat 1 draws the KS
    act(state, 2, draw())
    act(state, 0, draw())
    act(state, 1, play("KS"))  # two cards down to one: now it must be announced
    assert_hand(state, 1, ["3C"])
    assert announce() in state.legal(1) and dope(1) in state.legal(0) and dope(1) in state.legal(2)
    act(state, 2, dope(1))  # caught: two more cards and a lost turn
    assert table(state)["hand_sizes"][1] == 3 and table(state)["lost_turn"] == [1]


def test_the_duty_to_announce_ends_when_the_hand_size_changes() -> None:
    state = deal(["7H", "JS", "4C"], ["QH", "2C"], draw=["5S", "6S"])
    act(state, 1, play("QH"))
    assert dope(1) in state.legal(0)
    act(state, 0, play("7H"))  # seat 1 draws: two cards again
    assert_hand(state, 1, ["2C", "5S"])
    assert dope(1) not in state.legal(0)
    assert_illegal(state, 0, dope(1))
    assert_illegal(state, 1, announce())


def test_an_announced_player_leaves_the_list_when_their_hand_changes() -> None:
    state = deal(["7H", "JS", "4C"], ["QH", "2C"], draw=["5S", "6S"])
    act(state, 1, play("QH", announce=True))
    assert table(state)["announced"] == [1]
    act(state, 0, play("7H"))
    assert table(state)["announced"] == []


# ================================================================================================
# "Dope!"
# ================================================================================================
def test_dope_makes_the_caught_player_draw_two_and_lose_their_next_turn() -> None:
    state = deal(
        ["JC", "KC", "4D"],
        ["QH", "5C"],
        ["JH", "JS", "QS"],
        draw=["2S", "3S", "AD"],
    )
    act(state, 1, play("QH"))
    assert dope(1) not in state.legal(1)
    act(state, 0, dope(1))  # seat 0 calls while seat 2 is to act
    view = table(state)
    assert_hand(state, 1, ["5C", "2S", "3S"])
    assert view["lost_turn"] == [1]
    assert view["announced"] == []
    assert view["draw_size"] == 1
    assert view["turn"] == 2
    assert state.waiting_for() == frozenset({2})
    act(state, 2, play("JH"))
    assert table(state)["turn"] == 0
    act(state, 0, play("JC"))
    view = table(state)
    assert view["turn"] == 2  # seat 1 loses this turn
    assert view["lost_turn"] == []
    assert_hand(state, 1, ["5C", "2S", "3S"])
    act(state, 2, play("JS"))
    act(state, 0, draw())  # KC 4D on JS: nothing to play, takes AD
    assert table(state)["turn"] == 1  # the lost turn was lost only once


def test_a_four_skipping_the_caught_player_does_not_use_up_the_lost_turn() -> None:
    state = deal(
        ["4H", "KC", "JD"], ["QH", "5C"], ["JH", "KH", "QS"], upcard="AH", draw=["2S", "3S"]
    )
    act(state, 1, play("QH"))
    act(state, 2, dope(1))
    assert table(state)["lost_turn"] == [1]
    act(state, 2, play("JH"))
    act(state, 0, play("4H"))  # skips seat 1
    assert table(state)["turn"] == 2
    assert table(state)["lost_turn"] == [1]
    act(state, 2, play("KH"))
    act(state, 0, play("KC"))  # now seat 1 loses the turn
    assert table(state)["turn"] == 2
    assert table(state)["lost_turn"] == []


def test_a_four_skips_one_player_and_a_lost_turn_skips_the_next() -> None:
    state = deal(["4H", "KC", "JD"], ["QH", "JS", "6C"], ["JH", "5C"], draw=["2S", "3S"])
    act(state, 1, play("QH"))
    act(state, 2, play("JH"))  # one card, not announced
    act(state, 1, dope(2))
    assert table(state)["lost_turn"] == [2]
    act(state, 0, play("4H"))  # skips seat 1; then play reaches seat 2, who loses the turn
    view = table(state)
    assert view["turn"] == 0
    assert view["lost_turn"] == []


def test_dope_between_two_players_gives_the_caller_the_next_turn_too() -> None:
    state = deal(["JH", "JS", "QD"], ["QH", "5C"], draw=["2S", "3S"])
    act(state, 1, play("QH"))
    act(state, 0, dope(1))
    act(state, 0, play("JH"))
    assert table(state)["turn"] == 0
    assert table(state)["lost_turn"] == []
    act(state, 0, play("JS"))
    assert table(state)["turn"] == 1


def test_dope_during_the_caught_players_own_turn_costs_their_next_turn() -> None:
    state = deal(["JC", "KS", "4D"], ["QH", "5H"], ["JH", "QS", "6D"], draw=["QC", "3S", "AD"])
    act(state, 1, play("QH"))
    act(state, 2, play("JH"))
    act(state, 0, play("JC"))
    assert table(state)["turn"] == 1
    act(state, 2, dope(1))  # play has already reached seat 1: this turn is still theirs
    assert_hand(state, 1, ["5H", "QC", "3S"])
    assert table(state)["turn"] == 1
    act(state, 1, play("QC"))
    assert table(state)["lost_turn"] == [1]
    act(state, 2, play("QS"))
    act(state, 0, play("KS"))
    assert table(state)["turn"] == 2  # the next time play reaches seat 1, it skips them
    assert table(state)["lost_turn"] == []


def test_wrong_dope_calls_are_illegal_and_change_nothing() -> None:
    state = deal(["JC", "KC", "4D"], ["QH", "5C"], ["JH", "JS", "QS"], draw=["2S", "3S"])
    assert_illegal(state, 0, dope(1))  # two cards
    assert_illegal(state, 1, dope(2))  # three cards
    act(state, 1, play("QH", announce=True))
    assert_illegal(state, 0, dope(1))  # announced
    assert_illegal(state, 2, dope(1))


def test_only_opponents_may_call_dope() -> None:
    state = deal(["JC", "KC", "4D"], ["QH", "5C"], ["JH", "JS", "QS"], draw=["2S", "3S"])
    act(state, 1, play("QH"))
    assert dope(1) not in state.legal(1)
    assert_illegal(state, 1, dope(1))
    act(state, 1, announce())  # the duty is still open to fulfil
    assert table(state)["announced"] == [1]


@pytest.mark.parametrize(
    "call",
    [dope(9), dope(-1), dope("1"), dope(None), dope(1.0), {"type": "dope"}],
)
def test_malformed_dope_calls_are_illegal(call: Action) -> None:
    state = deal(["JC", "KC", "4D"], ["QH", "5C"], ["JH", "JS", "QS"], draw=["2S", "3S"])
    act(state, 1, play("QH"))
    assert_illegal(state, 0, call)


# ================================================================================================
# Going out
# ================================================================================================
@pytest.mark.parametrize(
    "last",
    [play("QH"), play("4H"), play("10H"), play("6H"), play("AH"), play("8C", "S"), play("9H", "D")],
)
def test_playing_the_last_card_goes_out_and_ends_the_round(last: Action) -> None:
    state = deal(["JD"], [last["card"]], ["QC"], draw=["AS", "AC"])
    act(state, 1, last)
    result = first_round_over(state)
    assert result["went_out"] == 1
    assert result["blocked"] is False
    assert result["hands"] == [["JD"], [], ["QC"]]
    assert result["points"] == [10, 0, 10]
    assert table(state)["scores"] == [10, 0, 10]


def test_a_final_seven_still_makes_the_next_player_draw() -> None:
    state = deal(["2D"], ["7H"], ["QC", "JC"], draw=["AS", "4C"])
    act(state, 1, play("7H"))
    result = table(state)["last_round"]
    assert result["went_out"] == 1
    assert [sorted(hand) for hand in result["hands"]] == [["2D"], [], ["AS", "JC", "QC"]]
    assert result["points"] == [20, 0, 21]


def test_a_final_five_still_makes_every_other_player_draw() -> None:
    state = deal(["2D"], ["5H"], ["QC"], draw=["AS", "AC", "4C"])
    act(state, 1, play("5H"))
    result = table(state)["last_round"]
    assert [len(hand) for hand in result["hands"]] == [2, 0, 2]
    assert sorted(result["hands"][0] + result["hands"][2]) == ["2D", "AC", "AS", "QC"]
    assert result["points"] == [21, 0, 11]


def test_a_final_two_starts_a_crank_among_the_remaining_players() -> None:
    state = deal(
        ["2C", "JD"],
        ["2H"],
        ["AS", "QC"],
        draw=["4C", "4D", "4S", "5C", "5D", "6C"],
    )
    act(state, 1, play("2H"))
    view = table(state)
    assert view["round"] == 1  # the round waits for the crank
    assert view["crank"] == 2
    assert view["turn"] == 2
    assert view["hand_sizes"] == [2, 0, 2]
    act(state, 2, play("AS"))
    act(state, 0, play("2C"))
    assert table(state)["turn"] == 2  # seat 1 is out of the round
    assert table(state)["crank"] == 5
    act(state, 2, draw())
    result = first_round_over(state)
    assert result["went_out"] == 1
    assert [sorted(hand) for hand in result["hands"]] == [
        ["JD"],
        [],
        sorted(["QC", "4C", "4D", "4S", "5C", "5D"]),
    ]
    assert result["points"] == [10, 0, 115]


def test_a_final_two_between_two_players_makes_the_other_draw_two() -> None:
    state = deal(["QD", "JD"], ["2H"], draw=["4C", "4D", "4S"])
    act(state, 1, play("2H"))
    assert table(state)["round"] == 1
    assert table(state)["turn"] == 0
    act(state, 0, draw())
    result = table(state)["last_round"]
    assert result["went_out"] == 1
    assert sorted(result["hands"][0]) == ["4C", "4D", "JD", "QD"]
    assert result["points"] == [50, 0]


def test_going_out_on_a_running_crank_lets_the_crank_finish() -> None:
    state = deal(["QD", "JD"], ["2H", "KC", "5S"], ["AS"], draw=["4C", "4D", "4S", "6C"])
    act(state, 1, play("2H"))
    act(state, 2, play("AS"))  # seat 2's last card: out, and the crank is at 3
    view = table(state)
    assert view["round"] == 1
    assert view["crank"] == 3
    assert view["turn"] == 0
    act(state, 0, draw())
    result = table(state)["last_round"]
    assert result["went_out"] == 2
    assert [sorted(hand) for hand in result["hands"]] == [
        ["4C", "4D", "4S", "JD", "QD"],
        ["5S", "KC"],
        [],
    ]
    assert result["points"] == [65, 40, 0]


# ================================================================================================
# Scoring
# ================================================================================================
def test_every_card_scores_its_value() -> None:
    hand = ["AS", "2S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    state = deal(hand, ["QH"])
    act(state, 1, play("QH"))
    result = table(state)["last_round"]
    assert result["points"] == [1 + 20 + 15 + 30 + 30 + 20 + 50 + 30 + 25 + 10 + 10 + 10, 0]
    assert result["points"] == [251, 0]
    assert result["cancelled"] == [[], []]
    assert table(state)["scores"] == [251, 0]


@pytest.mark.parametrize(
    ("hand", "points", "cancelled_others"),
    [
        (["3S", "2S", "8S"], 20, ["8S"]),  # spec example `3 2 8` → 20
        (["3S"], -50, []),  # spec example `3` → −50
        (["3S", "3C", "8S"], -50, ["8S"]),  # spec example `3 3 8` → −50
        (["3S", "3C", "8S", "KS", "2S"], 10, ["8S", "2S"]),  # spec example `3 3 8 K 2` → 10
        (["3S", "KS", "8S"], 10, ["8S"]),  # highest value first
        (["3S", "AS"], 0, ["AS"]),
    ],
)
def test_threes_cancel_the_highest_cards(
    hand: list[str], points: int, cancelled_others: list[str]
) -> None:
    state = deal(hand, ["QH"])
    act(state, 1, play("QH"))
    result = table(state)["last_round"]
    assert result["points"] == [points, 0]
    assert table(state)["scores"] == [points, 0]
    cancelled = result["cancelled"][0]
    assert sorted(card for card in cancelled if not card.startswith("3")) == sorted(
        cancelled_others
    )
    # Each cancelled card goes with the three that cancelled it.
    assert sum(card.startswith("3") for card in cancelled) == len(cancelled_others)
    assert result["cancelled"][1] == []


def test_totals_accumulate_over_rounds() -> None:
    state = deal(["KS", "QS"], ["QH"])
    act(state, 1, play("QH"))
    assert table(state)["scores"] == [20, 0]
    autoplay_round(state)
    view = table(state)
    assert view["round"] == 3
    points = view["last_round"]["points"]
    assert view["last_round"]["round"] == 2
    assert view["scores"] == [20 + points[0], points[1]]


# ================================================================================================
# Rounds, dealers and the whole game
# ================================================================================================
def test_the_next_round_is_dealt_at_once_by_the_player_on_the_left() -> None:
    state = deal(["JD"], ["QH"], ["6C"], dealer=2)  # seat 0 starts after dealer 2
    act(state, 0, draw())  # JD matches nothing on KH and the pile is empty: a pass
    act(state, 1, play("QH"))
    view = table(state)
    assert view["round"] == 2
    assert_round_start(state, size=7, dealer=0)


def test_direction_is_clockwise_again_at_the_start_of_the_next_round() -> None:
    state = deal(["JH"], ["10H", "QC"], ["5D", "6D"])
    act(state, 1, play("10H"))
    assert table(state)["direction"] == -1
    act(state, 0, play("JH"))
    assert table(state)["round"] == 2
    # Clockwise, unless round 2's own turned-up card is a 10 (that is the dealer's first turn).
    assert_round_start(state, size=7, dealer=1)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 1), (4, 7), (5, 11)])
def test_a_full_game_is_fifteen_rounds_from_eight_cards_to_one_and_back(
    players: int, seed: int
) -> None:
    state = get_game("crates").new(players=players, seed=seed)
    first_dealer = table(state)["dealer"]
    totals = [0] * players
    for number, size in enumerate(FULL_GAME_SIZES, start=1):
        view = table(state)
        assert view["round"] == number
        assert view["rounds"] == 15
        assert view["scores"] == totals
        assert view["last_round"] is None or view["last_round"]["round"] == number - 1
        assert_round_start(state, size, dealer=(first_dealer + number - 1) % players)
        autoplay_round(state)
        result = table(state)["last_round"]
        assert result["round"] == number
        assert (result["went_out"] is None) == result["blocked"]
        if result["went_out"] is not None:
            assert result["hands"][result["went_out"]] == []
        assert result["points"] == [hand_points(hand) for hand in result["hands"]]
        totals = [total + points for total, points in zip(totals, result["points"], strict=True)]
    assert state.over
    assert table(state)["phase"] == "over"
    assert table(state)["scores"] == totals
    final = state.result()
    assert final["scores"] == totals
    assert sorted(final["winners"]) == [s for s in range(players) if totals[s] == min(totals)]
    assert state.waiting_for() == frozenset()
    assert all(state.legal(seat) == [] for seat in range(players))
    with pytest.raises(IllegalAction):
        state.apply(0, draw())


def test_a_short_game_is_eight_rounds_from_eight_cards_down_to_one() -> None:
    state = get_game("crates").new(players=3, seed=5, short=True)
    first_dealer = table(state)["dealer"]
    for number, size in enumerate(SHORT_GAME_SIZES, start=1):
        assert table(state)["round"] == number
        assert table(state)["rounds"] == 8
        assert_round_start(state, size, dealer=(first_dealer + number - 1) % 3)
        if size == 1:  # dealt a single card: nothing to announce, nobody to call out
            for seat in range(3):
                assert not [a for a in state.legal(seat) if a["type"] in ("announce", "dope")]
        autoplay_round(state)
    assert state.over
    assert table(state)["last_round"]["round"] == 8


def test_a_stacked_short_game_still_counts_eight_rounds() -> None:
    state = deal(["JD"], ["QH"], short=True)
    assert table(state)["rounds"] == 8
    assert table(state)["hand_size"] == 8
    act(state, 1, play("QH"))
    assert_round_start(state, size=7, dealer=1)


def test_the_result_is_not_ready_before_the_game_is_over() -> None:
    state = deal(["JD"], ["QH"])
    assert not state.over
    with pytest.raises(ValueError):
        state.result()


def test_equal_lowest_totals_share_the_win() -> None:
    # About one seeded two-player short game in 300 ties; the first is seed 863, 972 the next
    # (a search from 0 took 8 s of every run). Another engine may tie elsewhere: then search on.
    for seed in range(860, 2860):
        state = get_game("crates").new(players=2, seed=seed, short=True)
        while not state.over:
            autoplay_round(state)
        final = state.result()
        if final["scores"][0] == final["scores"][1]:
            assert sorted(final["winners"]) == [0, 1]
            return
        lowest = min(final["scores"])
        assert final["winners"] == [final["scores"].index(lowest)]
    raise AssertionError("no seeded short game ended in a tie: the test needs another seed range")


def test_the_first_dealer_is_drawn_from_the_seed_and_logged() -> None:
    game = get_game("crates")
    first, again = game.new(players=4, seed=11), game.new(players=4, seed=11)
    assert table(first)["dealer"] == table(again)["dealer"]
    assert table(first)["log"] == table(again)["log"]
    texts = log_texts(table(first))
    for seat in range(4):
        assert any(f"{{{seat}}}" in text and CARD.search(text) for text in texts), (
            f"the log does not say what seat {seat} drew for the deal: {texts}"
        )
    dealers = {table(game.new(players=4, seed=seed))["dealer"] for seed in range(20)}
    assert len(dealers) > 1, "the first dealer does not depend on the seed"


# ================================================================================================
# Illegal actions change nothing
# ================================================================================================
@pytest.mark.parametrize(
    ("seat", "action"),
    [
        pytest.param(2, play("KC"), id="not-your-turn-play"),
        pytest.param(0, draw(), id="not-your-turn-draw"),
        pytest.param(1, play("KC"), id="card-not-in-hand"),
        pytest.param(1, play("JS"), id="card-does-not-match"),
        pytest.param(1, play("2D"), id="two-does-not-match"),
        pytest.param(1, play("8C"), id="wild-without-suit"),
        pytest.param(1, play("8C", "X"), id="wild-with-bad-suit"),
        pytest.param(1, play("QH", "H"), id="plain-card-with-suit"),
        pytest.param(1, draw(), id="draw-with-a-playable-card"),
        pytest.param(1, {"type": "fold"}, id="unknown-type"),
        pytest.param(1, {}, id="no-type"),
        pytest.param(1, {"type": "play"}, id="play-without-card"),
        pytest.param(1, {"type": "play", "card": 123}, id="card-is-a-number"),
        pytest.param(1, {"type": "play", "card": None}, id="card-is-none"),
        pytest.param(1, {"type": "play", "card": "ZZ"}, id="card-is-not-a-card"),
        pytest.param(1, {"type": "play", "card": ["QH"]}, id="card-is-a-list"),
        pytest.param(1, "play QH", id="action-is-not-a-map"),
        pytest.param(1, name_suit("S"), id="suit-outside-suit-phase"),
        pytest.param(1, announce(), id="announce-with-four-cards"),
        pytest.param(0, dope(1), id="dope-on-four-cards"),
        pytest.param(7, draw(), id="no-such-seat"),
    ],
)
def test_illegal_actions_raise_and_leave_the_state_unchanged(seat: Any, action: Any) -> None:
    state = deal(["JD", "5S", "6C"], ["QH", "8C", "JS", "2D"], ["4D", "KC", "7S"], draw=["AS"])
    assert_illegal(state, seat, action)
    # The table still plays on normally afterwards.
    act(state, 1, play("QH"))
    assert table(state)["turn"] == 2


# ================================================================================================
# Views: what each seat may know
# ================================================================================================
def test_every_view_has_the_standard_keys() -> None:
    state = deal(["7H", "KS"], ["2C", "9D"], ["QH"], upcard="JH", draw=["AS", "3D"])
    for seat in (0, 1, 2, None):
        view = state.view(seat)
        assert not VIEW_KEYS - set(view), VIEW_KEYS - set(view)
        assert view["rounds"] == 15
        assert view["hand_size"] == 8
        assert view["scores"] == [0, 0, 0]
        assert view["last_round"] is None
        assert view["hand_sizes"] == [2, 2, 1]
        assert view["draw_size"] == 2


def test_each_seat_sees_only_its_own_cards() -> None:
    hands = [["7H", "KS"], ["2C", "4D"], ["QH"]]
    pile = ["AS", "3D"]
    state = deal(*hands, upcard="JH", draw=pile)
    for seat in range(3):
        assert sorted(state.view(seat)["hand"]) == sorted(hands[seat])
        hidden = {card for other in range(3) if other != seat for card in hands[other]}
        assert not mentioned_cards(state.view(seat)) & (hidden | set(pile))
    assert state.view(None)["hand"] == []
    everything = {card for hand in hands for card in hand} | set(pile)
    assert not mentioned_cards(state.view(None)) & everything


def test_a_drawn_card_is_shown_only_to_the_player_who_drew_it() -> None:
    state = deal(["7H", "KS"], ["2C", "4D"], ["QH"], upcard="JH", draw=["AS", "3D"])
    events = act(state, 1, draw())
    for event in events:
        if "AS" in mentioned_cards(event["text"]):
            assert event["to"] == [1]
    assert "AS" in state.view(1)["hand"]
    for seat in (0, 2, None):
        assert "AS" not in mentioned_cards(state.view(seat))
    for seat in (0, 1, 2):
        for entry in state.view(seat)["log"]:
            if isinstance(entry, dict):
                assert entry.get("to") is None or seat in entry["to"]
    for entry in state.view(None)["log"]:
        if isinstance(entry, dict):
            assert entry.get("to") is None


def test_a_play_is_told_to_everyone_with_the_player_and_the_card() -> None:
    state = deal(["JD", "5S", "AC"], ["QH", "2C", "JS"], ["4D", "6C", "KC"])
    events = act(state, 1, play("QH"))
    public = [event["text"] for event in events if event["to"] is None]
    assert any("{1}" in text and "QH" in mentioned_cards(text) for text in public), events
    for seat in (0, 1, 2, None):
        assert any("QH" in mentioned_cards(text) for text in log_texts(state.view(seat)))


def test_the_calls_are_told_to_everyone() -> None:
    state = deal(["JC", "KC", "4D"], ["QH", "5C"], ["JH", "JS", "QS"], draw=["2S", "3S"])
    act(state, 1, play("QH"))
    events = act(state, 0, dope(1))
    assert any(e["to"] is None and "dope" in e["text"].lower() for e in events), events
    assert "2S" not in mentioned_cards(state.view(0))  # the penalty cards stay private
    state = deal(["JC", "KC", "4D"], ["QH", "5C"], ["JH", "JS", "QS"], draw=["2S", "3S"])
    events = act(state, 1, play("QH", announce=True))
    assert any(e["to"] is None and "crates" in e["text"].lower() for e in events), events
