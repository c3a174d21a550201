"""Roles and the start of a round: role tables, who knows whom, the first captain, appointing."""

from __future__ import annotations

from collections import Counter

import pytest

from tablegames.rules import IllegalAction, SetupError
from tablegames.rules.kraken.characters import CHARACTERS, character_pool

from .helpers import ROLES, act, appoint, keep, kraken, no_mutiny, public, steer, table


@pytest.mark.parametrize(
    ("players", "sailors", "pirates", "cultists"),
    [(6, 3, 2, 0), (7, 4, 2, 0), (8, 4, 3, 0), (9, 5, 3, 0), (10, 5, 4, 0), (11, 5, 4, 1)],
)
def test_roles_follow_the_table(players, sailors, pirates, cultists):
    for seed in range(20):
        roles = kraken.new(players, seed).factions
        assert Counter(roles) == Counter(
            {"sailor": sailors, "pirate": pirates, "cult_leader": 1, "cultist": cultists}
        )


def test_five_players_remove_one_role_unseen():
    mixes = Counter()
    for seed in range(60):
        state = kraken.new(5, seed)
        counts = Counter(state.factions)
        assert counts["cult_leader"] == 1 and counts["sailor"] + counts["pirate"] == 4
        mixes[counts["pirate"]] += 1
        for seat, faction in enumerate(state.factions):
            known = state.view(seat)["known"]
            if faction == "pirate":
                # Only the pirates learn whether there are one or two of them.
                assert len(known) == counts["pirate"] - 1
                assert all(v == "pirate" for v in known.values())
            else:
                assert known == {}
    assert set(mixes) == {1, 2}


def test_pirates_know_each_other_and_nobody_else_knows_anyone():
    state = table(7)
    assert state.view(1)["known"] == {"3": "pirate"}
    assert state.view(3)["known"] == {"1": "pirate"}
    for seat in (0, 2, 4, 5, 6):
        assert state.view(seat)["known"] == {}
    assert state.view(1)["faction"] == "pirate" and state.view(6)["faction"] == "cult_leader"
    log = [e["text"] for e in state.view(1)["log"]]
    assert "You are a pirate." in log and "Your fellow pirates: {3}." in log
    assert public(state)["faction"] is None and public(state)["known"] == {}


def test_eleven_players_cultist_and_leader_do_not_know_each_other():
    state = table(11)
    assert state.view(9)["faction"] == "cultist" and state.view(9)["known"] == {}
    assert state.view(10)["faction"] == "cult_leader" and state.view(10)["known"] == {}
    assert "You do not know who the cult leader is." in [e["text"] for e in state.view(9)["log"]]


def test_stacked_roles_must_fit_the_table():
    with pytest.raises(SetupError, match="do not fit"):
        kraken.new(7, 1, roles=["sailor"] * 6 + ["cult_leader"])
    with pytest.raises(SetupError, match="unknown faction"):
        kraken.new(5, 1, roles=["sailor", "pirate", "sailor", "sailor", "kraken"])
    with pytest.raises(SetupError, match="one faction per seat"):
        kraken.new(5, 1, roles=ROLES[6])
    kraken.new(5, 1, roles=["sailor", "pirate", "pirate", "sailor", "cult_leader"])  # 2+2 fits
    with pytest.raises(SetupError, match="board"):
        kraken.new(5, 1, board="long")
    with pytest.raises(SetupError, match="board"):
        kraken.new(9, 1, board="quick")
    with pytest.raises(SetupError, match="captain"):
        kraken.new(5, 1, captain=5)
    with pytest.raises(SetupError, match="more cards than there are"):
        kraken.new(5, 1, deck=["red-armed"])  # the quick journey has no armed cards


def test_the_captain_card_makes_the_first_captain_who_draws_a_fresh_character():
    for seed in range(30):
        state = kraken.new(7, seed)
        view = public(state)
        captain = view["captain"]
        assert view["captain_card"] == captain
        assert state.characters[captain] in CHARACTERS  # the fresh card, face down
        assert view["characters"][captain] is None
        assert len(set(state.characters)) == 7
        assert f"{{{captain}}} reveals the Captain card and takes command." in [
            e["text"] for e in view["log"]
        ]


def test_stacked_characters_with_the_captain_card():
    dealt = ["gunslinger", "bosun", "captain", "smuggler", "archivist", "equalizer", "minstrel"]
    state = kraken.new(7, 3, dealt_characters=dealt)
    assert state.captain == 2 and public(state)["captain_card"] == 2
    assert state.characters[2] not in dealt and state.characters[2] in CHARACTERS
    assert state.characters[0] == "gunslinger"
    assert state.view(2)["private"]["character"] == state.characters[2]


def test_five_and_six_players_leave_three_characters_out():
    assert set(CHARACTERS) - set(character_pool(6)) == {"debt_collector", "minstrel", "mentor"}
    assert set(character_pool(7)) == set(CHARACTERS) and len(CHARACTERS) == 21
    for seed in range(20):
        state = kraken.new(5, seed)
        assert not {"debt_collector", "minstrel", "mentor"} & set(state.characters)
    with pytest.raises(SetupError, match="left out"):
        kraken.new(5, 1, dealt_characters=["mentor", "bosun", "captain", "smuggler", "archivist"])


def test_without_characters_the_first_captain_is_random_or_named():
    captains = {kraken.new(7, seed, characters=False).captain for seed in range(40)}
    assert captains == set(range(7))
    assert kraken.new(7, 1, characters=False, captain=4).captain == 4
    assert public(kraken.new(7, 1, characters=False))["characters"] == [None] * 7


def test_the_captain_appoints_two_different_players_but_never_themselves():
    state = table(7, captain=2)
    assert public(state)["phase"] == "appoint" and state.waiting_for() == {2}
    with pytest.raises(IllegalAction, match="captain cannot be the lieutenant"):
        state.apply(2, {"type": "appoint", "lieutenant": 2, "navigator": 3})
    with pytest.raises(IllegalAction, match="two different players"):
        state.apply(2, {"type": "appoint", "lieutenant": 3, "navigator": 3})
    with pytest.raises(IllegalAction, match="only the captain"):
        state.apply(3, {"type": "appoint", "lieutenant": 4, "navigator": 5})
    with pytest.raises(IllegalAction, match="seat number"):
        state.apply(2, {"type": "appoint", "lieutenant": "me", "navigator": 5})
    events = act(state, 2, {"type": "appoint", "lieutenant": 4, "navigator": 0})
    assert "{2} appoints {4} lieutenant and {0} navigator." in [e["text"] for e in events]
    view = public(state)
    assert (view["captain"], view["lieutenant"], view["navigator"]) == (2, 4, 0)
    assert view["phase"] == "mutiny"


def test_off_duty_players_cannot_be_appointed():
    deck = ["blue-disarmed", "red-drunk", "blue-disarmed", "red-drunk"]
    state = table(7, deck=deck)
    appoint(state, 1, 2)
    no_mutiny(state)
    keep(state, 0, "blue-disarmed")
    keep(state, 1, "blue-disarmed")
    steer(state, "blue-disarmed")
    assert public(state)["off_duty"] == [1, 2]  # 7 players: lieutenant and navigator
    assert state.captain == 0 and public(state)["phase"] == "appoint"
    with pytest.raises(IllegalAction, match="off duty"):
        state.apply(0, {"type": "appoint", "lieutenant": 1, "navigator": 3})
    with pytest.raises(IllegalAction, match="off duty"):
        state.apply(0, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    assert {a["lieutenant"] for a in state.legal(0)} == {3, 4, 5, 6}
    appoint(state, 3, 4)


def test_off_duty_is_ignored_when_too_few_players_remain():
    # 5 players; two navigators jump overboard in one round, the third steers.
    deck = [
        "blue-drunk", "blue-drunk", "red-drunk", "red-drunk",  # first navigation: 2 jumps
        "blue-drunk", "red-drunk", "red-drunk", "red-drunk",  # second: 3 jumps
        "blue-disarmed", "blue-disarmed", "red-mermaid", "red-mermaid",  # third: 4 steers
    ]  # fmt: skip
    state = table(5, deck=deck)
    appoint(state, 1, 2)
    no_mutiny(state)
    keep(state, 0, "blue-drunk")
    keep(state, 1, "red-drunk")
    act(state, 2, {"type": "jump"})
    act(state, 0, {"type": "appoint", "navigator": 3})
    keep(state, 0, "blue-drunk")
    keep(state, 1, "red-drunk")
    act(state, 3, {"type": "jump"})
    assert state.legal(0) == [{"type": "appoint", "navigator": 4}]
    act(state, 0, {"type": "appoint", "navigator": 4})
    keep(state, 0, "blue-disarmed")
    keep(state, 1, "red-mermaid")
    steer(state, "blue-disarmed")
    view = public(state)
    assert view["eliminated"] == [2, 3] and view["off_duty"] == [4] and view["ship"] == "1,1"
    assert view["guns"][4] == 2  # disarmed
    # Only seat 1 is on duty: with fewer than two, off duty is ignored.
    options = {(a["lieutenant"], a["navigator"]) for a in state.legal(0)}
    assert options == {(1, 4), (4, 1)}


STANDARD_KEYS = {
    "faction", "known", "board", "ship", "captain", "lieutenant", "navigator", "off_duty",
    "guns", "resumes", "eliminated", "tongueless", "phase", "waiting", "private", "log",
}  # fmt: skip


def test_standard_view_keys_and_per_seat_lists():
    state = table(7, captain=2)
    for seat in (None, 0, 2):
        view = state.view(seat)
        assert set(view) >= STANDARD_KEYS
        assert len(view["guns"]) == 7 and len(view["resumes"]) == 7
    assert state.view(2)["private"]["prompt"] == "appoint"
    assert state.view(0)["private"]["prompt"] is None
    appoint(state, 0, 1)
    assert state.view(0)["private"]["prompt"] == "mutiny"
    assert state.view(None)["private"] == {}
