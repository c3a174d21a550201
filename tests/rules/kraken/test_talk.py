"""Feed the Kraken's claims: what a seat may claim, the sentence people read, and that what it is
offered (and what a bot says) comes from its own view alone."""

from __future__ import annotations

import random

import pytest

from tablegames.bots import get_bot
from tablegames.rules import IllegalAction
from tablegames.rules.kraken import talk

from .helpers import ROLES, appoint, keep, no_mutiny, steer, table

DECK = ["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"]
TAIL = ["blue-drunk", "red-telescope", "yellow-uprising", "blue-disarmed"]


def navigated(roles=None, tail=TAIL):
    """Captain 0 passes blue, lieutenant 1 passes yellow, navigator 2 steers blue."""
    state = table(7, deck=DECK + list(tail), roles=roles)
    appoint(state, 1, 2)
    no_mutiny(state)
    keep(state, 0, "blue-drunk")
    keep(state, 1, "yellow-uprising")
    steer(state, "blue-drunk")
    return state


def test_after_a_navigation_each_officer_is_invited_to_say_the_truth_it_knows():
    state = navigated()
    captain = talk.natural(state.view(0))
    assert captain == {
        "kind": "passed",
        "nav": 1,
        "office": "captain",
        "drew": ["blue", "red"],
        "passed": "blue",
    }
    assert talk.natural(state.view(1))["passed"] == "yellow"
    assert talk.natural(state.view(2)) == {"kind": "handed", "nav": 1, "cards": ["blue", "yellow"]}
    assert talk.natural(state.view(3)) is None  # nothing seen: nothing invited
    assert talk.natural(state.view(0), [captain]) is None  # said already
    assert talk.sentence(0, captain) == (
        '{0} claims: "as captain (navigation 1) I drew blue and red and passed blue"'
    )


def test_a_claim_is_checked_against_public_facts_only_never_against_the_truth():
    state = navigated()
    lie = {"kind": "passed", "nav": 1, "office": "captain", "drew": ["red", "red"], "passed": "red"}
    assert talk.check(state.view(0), lie) == lie  # a lie is a claim like any other
    with pytest.raises(IllegalAction, match="not the lieutenant"):
        talk.check(state.view(0), {**lie, "office": "lieutenant"})
    with pytest.raises(IllegalAction, match="revealed so far"):
        talk.check(state.view(0), {**lie, "nav": 2})
    with pytest.raises(IllegalAction, match="the card you passed"):
        talk.check(state.view(0), {**lie, "passed": "blue"})
    with pytest.raises(IllegalAction, match="fields"):
        talk.check(state.view(0), {"kind": "role", "target": 3})
    with pytest.raises(IllegalAction, match="kind must be one of"):
        talk.check(state.view(0), {"kind": "gossip"})
    with pytest.raises(IllegalAction, match="no seat 9"):
        talk.check(state.view(0), {"kind": "role", "target": 9, "group": "pirate"})
    with pytest.raises(IllegalAction, match="not searched"):
        talk.check(state.view(0), {"kind": "searched", "target": 3, "group": "pirate"})
    with pytest.raises(IllegalAction, match="spectators"):
        talk.check(state.view(None), {"kind": "role", "target": 3, "group": "pirate"})
    accusation = {"kind": "role", "target": 3, "group": "pirate"}
    assert talk.sentence(1, talk.check(state.view(1), accusation)) == (
        '{1} claims: "{3} is a pirate"'
    )
    assert talk.words(4, {"kind": "role", "target": 4, "group": "cult"}) == "I am in the cult"


def test_the_team_claim_names_the_team_it_was_about():
    state = table(7, deck=DECK)
    appoint(state, 1, 2)
    claim = talk.check(state.view(5), {"kind": "team", "stance": "suspect"})
    assert claim == {
        "kind": "team",
        "stance": "suspect",
        "captain": 0,
        "lieutenant": 1,
        "navigator": 2,
    }
    assert talk.sentence(5, claim) == '{5} claims: "I suspect this team ({0}, {1}, {2})"'


def test_the_menu_offers_true_claims_first_and_every_lie_of_the_same_shape():
    state = navigated()
    menu = talk.offers(state.view(0))
    assert list(menu) == ["passed", "role", "guns"]
    assert menu["passed"][0] == talk.natural(state.view(0))
    assert len(menu["passed"]) == 9  # six colour pairs, and which of the two was passed
    assert {c["target"] for c in menu["role"]} == set(range(7))
    assert [c["guns"] for c in menu["guns"]] == [0, 1, 2, 3]
    assert "handed" in talk.offers(state.view(2))


def test_claims_offered_and_a_bots_words_do_not_depend_on_what_the_claimer_cannot_know():
    # Two tables that differ only in others' roles and in the undrawn cards: seat 0 (a sailor
    # in both) sees the same, so it is offered the same and its bot says the same.
    swapped = list(ROLES[7])
    swapped[3], swapped[4] = swapped[4], swapped[3]  # the pirate sits elsewhere
    first = navigated()
    second = navigated(roles=swapped, tail=list(reversed(TAIL)))
    assert first.factions != second.factions
    assert first.view(0) == second.view(0)
    assert talk.offers(first.view(0)) == talk.offers(second.view(0))
    assert talk.natural(first.view(0)) == talk.natural(second.view(0))
    for seed in range(20):
        bots = [get_bot("kraken", "normal", 0, random.Random(seed)) for _ in range(2)]
        said = [bot.speak(state.view(0)) for bot, state in zip(bots, (first, second), strict=True)]
        assert said[0] == said[1]


def test_players_fed_to_the_kraken_or_without_a_tongue_cannot_claim():
    state = navigated()
    state.tongueless.add(3)
    state.eliminated.add(4)
    with pytest.raises(IllegalAction, match="no tongue"):
        talk.check(state.view(3), {"kind": "role", "target": 3, "group": "sailor"})
    with pytest.raises(IllegalAction, match="fed to the Kraken"):
        talk.check(state.view(4), {"kind": "role", "target": 4, "group": "sailor"})
    assert talk.offers(state.view(3)) == {}


def test_nobody_claims_while_the_navigation_cards_go_round():
    state = table(7, deck=DECK + TAIL)
    appoint(state, 1, 2)
    no_mutiny(state)
    assert state.view(5)["phase"] == "navigation"
    with pytest.raises(IllegalAction, match="nobody may talk or signal"):
        talk.check(state.view(5), {"kind": "role", "target": 5, "group": "sailor"})
    assert talk.offers(state.view(5)) == {}
    keep(state, 0, "blue-drunk")
    keep(state, 1, "yellow-uprising")
    assert talk.natural(state.view(0)) is None  # the navigator is still choosing
    steer(state, "blue-drunk")
    assert talk.natural(state.view(0)) is not None
