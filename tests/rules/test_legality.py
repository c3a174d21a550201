"""Legality is defined once, by `legal`: the base class's `apply` refuses anything else, with
the game's sentence (`why_illegal`) or a generic one, before any handler runs, and hands the
handler the listed action itself.

Each game is tried with an action outside `legal()` whose handler would fail the test if it ran,
then with a legal action spelt another way (`normal_form`: an alias, a default spelt out, a list
in another order) that reaches its handler as listed. Values are compared with their types:
``true`` is no seat 1. A game's hook agrees with `legal` over random games (it objects to no
legal action). Tiny games below show the generic sentences and a free parameter.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from tablegames.rules import Game, State, get_game
from tablegames.rules.core import IllegalAction

from .kraken.helpers import appoint
from .kraken.helpers import table as kraken_table
from .scripts import assert_illegal

Action = dict[str, Any]


# -- one scenario per game: refused before any handler, with the game's sentence --------------
def crates_state() -> Any:
    hands = [["7H", "2C", "9S"], ["4D", "5D"], ["6S", "QC"]]
    return get_game("crates").new(3, 1, dealer=2, hands=hands, upcard="KH", draw=["AC", "3D"])


def roach_state() -> Any:
    hands = [["bat", "fly", "frog"], ["mouse", "bat"], ["scorpion", "ladybug"]]
    return get_game("roach").new(3, 1, hands=hands, first=0)


def crabs_state() -> Any:
    hands = [["king"] * 4, ["ab"] * 4, ["jab"] * 4, ["taxi"] * 4]
    ocean = ["crabbi", "bunny", "kebab", "diet"]
    return get_game("crabs").new(4, 1, hands=hands, ocean=ocean, first_side=0)


def kraken_state() -> Any:
    roles = ["sailor", "pirate", "sailor", "pirate", "sailor", "cult_leader", "sailor"]
    return get_game("kraken").new(7, 1, roles=roles, captain=0, characters=False)


#: (the game's state, a seat, an action not in its legal actions, the game's sentence)
REFUSED = {
    "crates": (crates_state, 0, {"type": "play", "card": "5D"}, "you do not hold 5D"),
    "roach": (
        roach_state,
        0,
        {"type": "offer", "card": "bat", "to": 0, "claim": "bat"},
        "you cannot offer a card to yourself",
    ),
    "crabs": (
        crabs_state,
        1,
        {"type": "swap", "hand": "ab", "ocean": "diet"},
        "it is side 0's turn to swap, not yours",
    ),
    "kraken": (
        kraken_state,
        0,
        {"type": "appoint", "lieutenant": 0, "navigator": 1},
        "the captain cannot be the lieutenant",
    ),
}


def no_handler_runs(state: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every handler of `state`'s game fails the test if it is reached (until the test ends)."""

    def reached(self: Any, seat: int, action: Action, now: float) -> None:
        raise AssertionError(f"a handler was given {action} from seat {seat}")

    for kind in type(state).handlers:
        monkeypatch.setitem(type(state)._dispatch, kind, reached)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_action_outside_legal_is_refused_by_the_base_class_with_the_games_sentence(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, seat, action, sentence = REFUSED[name]
    state = make()
    assert action not in state.legal(seat)
    no_handler_runs(state, monkeypatch)
    assert assert_illegal(state, seat, action) == sentence
    assert state.why_illegal(seat, action) == sentence


def test_an_action_listed_before_a_move_is_judged_again_after_it() -> None:
    """`apply` trusts an action that is the very object `legal` just listed only while nothing
    has moved since: the same object handed in again after its move is refused."""
    state = crates_state()
    play = next(action for action in state.legal(0) if action.get("card") == "7H")
    state.apply(0, play)
    with pytest.raises(IllegalAction, match=r"^it is not your turn$"):
        state.apply(0, play)  # (the object itself: `assert_illegal` would hand in a copy)
    assert play not in state.legal(1)
    with pytest.raises(IllegalAction, match="7H"):
        state.apply(1, play)


def test_a_bots_look_ahead_state_is_not_checked_in_play_but_is_in_the_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A `trusted` state (a bot's look-ahead) takes its actions without asking `legal`, in play;
    the tests (`State.checking`, set in conftest) check it as any other."""
    assert State.checking, "tests/conftest.py turns the checks on for the whole suite"
    checked = crates_state()
    checked.trusted = True
    assert not checked.trusted
    with pytest.raises(IllegalAction, match="you do not hold 5D"):
        checked.apply(0, {"type": "play", "card": "5D"})
    monkeypatch.setattr(State, "checking", False)  # as in play
    state = crates_state()
    state.trusted = True
    monkeypatch.setattr(state, "legal", lambda seat: pytest.fail("legal was asked"))
    state.apply(0, {"type": "play", "card": "7H"})
    assert state.discard_pile[-1] == "7H" and state.turn == 1


def handed(state: Any, monkeypatch: pytest.MonkeyPatch, kind: str) -> list[Action]:
    """What `kind`'s handler is given from now on (it then runs as usual)."""
    given: list[Action] = []
    handler = type(state)._dispatch[kind]

    def recording(self: Any, seat: int, action: Action, now: float) -> None:
        given.append(action)
        handler(self, seat, action, now)

    monkeypatch.setitem(type(state)._dispatch, kind, recording)
    return given


LOOK_OUT_AT_2 = [
    "captain",
    "kleptomaniac",
    "look_out",
    "gunslinger",
    "gunsmith",
    "herbalist",
    "bosun",
]
#: (the game's state, a seat, a legal action spelt another way, the way `legal` lists it)
SPELLINGS = {
    "crates": (
        crates_state,
        0,
        {"type": "play", "card": "7H", "announce": False},
        {"type": "play", "card": "7H"},
    ),
    "roach": (
        roach_state,
        0,
        {"type": "offer", "card": "frog", "to": 1, "claim": "Toad"},
        {"type": "offer", "card": "frog", "to": 1, "claim": "frog"},
    ),
    "crabs": (
        lambda: get_game("crabs").new(4, 1),  # (the huddle)
        0,
        {"type": "signal", "name": "nod", "also": "wink"},
        {"type": "signal", "name": "wink", "also": "nod"},
    ),
    "kraken": (
        lambda: kraken_table(7, dealt_characters=LOOK_OUT_AT_2),
        2,
        {"type": "character", "name": "Look-out"},
        {"type": "character", "name": "look_out"},
    ),
}


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_a_legal_action_spelt_another_way_reaches_its_handler_as_listed(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, seat, spelt, listed = SPELLINGS[name]
    state = make()
    assert spelt not in state.legal(seat) and listed in state.legal(seat)
    given = handed(state, monkeypatch, spelt["type"])
    state.apply(seat, spelt)
    assert given == [listed]


def test_true_is_no_seat_and_one_point_oh_is_no_seat_either() -> None:
    state = crabs_state()
    assert {"type": "accuse", "target": 1} in state.legal(0)
    for target in (True, 1.0):
        assert assert_illegal(state, 0, {"type": "accuse", "target": target}) == (
            "say whom you accuse, by seat number"
        )
    state.apply(0, {"type": "accuse", "target": 1})


def test_kraken_lists_named_in_any_order_are_taken_in_seat_order() -> None:
    dealt = ["captain", "kleptomaniac", "look_out", "minstrel", "gunsmith", "herbalist", "mentor"]
    state = kraken_table(7, dealt_characters=dealt)
    appoint(state, 1, 2)  # the Minstrel's window opens
    uses = [a for a in state.legal(3) if a["type"] == "character"]
    assert {"type": "character", "name": "minstrel", "targets": [1, 5]} in uses
    events = state.apply(3, {"type": "character", "name": "Minstrel", "targets": [5, 1]})
    assert events[0]["targets"] == [1, 5]


# -- the hook agrees with `legal` ---------------------------------------------------------------
def moments(name: str, games: int) -> Iterator[tuple[Any, int]]:
    """Every (state, seat to act) of `games` random games of `name`."""
    game = get_game(name)
    for index in range(games):
        rng = random.Random(index)
        state = game.new(game.default_players, index, **game.quick_options())
        for step in range(3000):
            if state.over:
                break
            waiting, due = state.waiting_for(), state.deadline()
            if due is not None and (not waiting or step >= due):
                state.apply(0, {"type": "time"}, max(float(step), due))
                continue
            seat = rng.choice(sorted(waiting)) if waiting else rng.randrange(state.players)
            yield state, seat
            legal = state.legal(seat)
            if legal:
                state.apply(seat, rng.choice(legal), float(step))


@pytest.mark.parametrize("name", ["crates", "roach", "crabs", "kraken"])
def test_the_games_sentences_never_object_to_a_legal_action_and_explain_the_others(
    name: str,
) -> None:
    """`why_illegal` only explains: it must not disagree with `legal` (None for every legal
    action), and it has a sentence of the game's own for most actions that are not legal (here:
    the moves a seat may make now, made by the next seat)."""
    explained = refused = 0
    for state, seat in moments(name, 2):
        legal = state.legal(seat)
        for action in legal:
            why = state.why_illegal(seat, state.normal_form(action))
            assert why is None, (action, why)
        other = (seat + 1) % state.players
        for action in legal[:: max(1, len(legal) // 5)]:
            if action not in state.legal(other):
                refused += 1
                explained += state.why_illegal(other, state.normal_form(action)) is not None
    assert refused and explained / refused > 0.95, (explained, refused)


# -- a game without sentences of its own, and a free parameter ----------------------------------
class Guess(State):
    """Seat 0 guesses a number from 1 to 10 (any number: `legal` cannot list it), or passes."""

    handlers: ClassVar[dict[str, str]] = {"guess": "_guess", "pass": "_pass"}
    free_fields = frozenset({"number"})

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, random.Random(seed))
        self.guessed: list[object] = []

    @property
    def over(self) -> bool:
        return len(self.guessed) >= 2

    def _legal(self, seat: int) -> list[Action]:
        return [{"type": "guess"}, {"type": "pass"}] if seat == 0 else []

    def _waiting_for(self) -> frozenset[int]:
        return frozenset({0})

    def _view(self, seat: int | None) -> Action:
        return {"guessed": list(self.guessed)}

    def _result(self) -> Action:
        return {"winners": [0], "scores": [1, 0]}

    def why_illegal(self, seat: int, action: Action) -> str | None:
        number = action.get("number")
        if action["type"] == "guess" and (type(number) is not int or not 1 <= number <= 10):
            return "guess a whole number from 1 to 10"
        return None

    def _guess(self, seat: int, action: Action, now: float) -> None:
        self.guessed.append(action["number"])

    def _pass(self, seat: int, action: Action, now: float) -> None:
        self.guessed.append(None)


GUESS = Game("guess", "Guess", 2, 2, 2, "Guess a number.", factory=Guess)


def test_a_free_parameter_is_checked_by_the_games_hook_and_given_to_the_handler() -> None:
    state = GUESS.new(2, 1)
    for wrong in (
        {"type": "guess"},
        {"type": "guess", "number": 11},
        {"type": "guess", "number": True},
    ):
        assert assert_illegal(state, 0, wrong) == "guess a whole number from 1 to 10"
    state.apply(0, {"type": "guess", "number": 7})
    assert state.guessed == [7]


class Plain(Guess):
    """The same game, saying nothing of its own about refused actions."""

    free_fields = frozenset()

    def why_illegal(self, seat: int, action: Action) -> str | None:
        return None


def test_a_game_without_sentences_of_its_own_refuses_in_generic_words() -> None:
    state = Game("plain", "Plain", 2, 2, 2, "", factory=Plain).new(2, 1)
    assert assert_illegal(state, 1, {"type": "pass"}) == "you have nothing to do now"
    assert assert_illegal(state, 0, {"type": "guess", "number": 3}) == (
        "that guess is not one of your choices now"
    )
    state.apply(0, {"type": "pass"})
    with pytest.raises(IllegalAction, match=r"^unknown action type 'shout'$"):
        state.apply(0, {"type": "shout"})
