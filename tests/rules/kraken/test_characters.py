"""All 21 characters, each in a short script: its timing window, its effect, used once."""

from __future__ import annotations

import pytest

from tablegames.rules import IllegalAction

from .helpers import act, appoint, keep, no_mutiny, private, public, raise_guns, sail, table, texts

#: Characters that never open a window in these scripts (the Herbalist only once signs exist).
QUIET = [
    "gunslinger",
    "kleptomaniac",
    "gunsmith",
    "look_out",
    "mentor",
    "spiritualist",
    "herbalist",
]
DECK = ["blue-disarmed", "red-drunk", "red-drunk", "red-mermaid"]


def cast(players=7, **placed):
    """A 7-seat (or smaller) table where `placed` characters sit at the given seats and every
    other seat holds an 'any time' character (or the Spiritualist), so no stray window opens."""
    fill = [name for name in QUIET if name not in placed and (players >= 7 or name != "mentor")]
    dealt = []
    for seat in range(players):
        named = [name for name, at in placed.items() if at == seat]
        dealt.append(named[0] if named else fill.pop(0))
    return dealt


def game(players=7, deck=DECK, **placed):
    return table(players, deck=deck, dealt_characters=cast(players, **placed))


def use(state, seat, name, **args):
    return act(state, seat, {"type": "character", "name": name, **args})


def decline(state, seat):
    return act(state, seat, {"type": "decline"})


# -- any time --------------------------------------------------------------------------------
def test_kleptomaniac_steals_a_gun_once_but_not_while_fists_are_closed():
    state = game(kleptomaniac=2)
    events = use(state, 2, "kleptomaniac", target=4)
    assert "{2} reveals the Kleptomaniac and steals a gun from {4}." in texts(events)
    view = public(state)
    assert view["guns"][2] == 4 and view["guns"][4] == 2
    assert view["characters"][2] == "kleptomaniac" and view["characters_used"][2]
    with pytest.raises(IllegalAction, match="already used"):
        state.apply(2, {"type": "character", "name": "kleptomaniac", "target": 5})
    state = game(kleptomaniac=2)
    appoint(state, 1, 3)
    with pytest.raises(IllegalAction, match="mutiny is being chosen"):
        state.apply(2, {"type": "character", "name": "kleptomaniac", "target": 4})
    with pytest.raises(IllegalAction, match="only use the character card you hold"):
        state.apply(3, {"type": "character", "name": "kleptomaniac", "target": 4})


def test_gunslinger_takes_two_guns():
    state = game(gunslinger=5)
    use(state, 5, "gunslinger")
    assert public(state)["guns"][5] == 5


def test_gunsmith_pays_a_gun_and_gets_one_raised_gun_back_after_each_mutiny():
    state = game(gunsmith=3)
    use(state, 3, "gunsmith")
    assert public(state)["guns"][3] == 2 and public(state)["gunsmiths"] == [3]
    appoint(state, 1, 2)
    raise_guns(state, {3: 2, 4: 3})
    assert public(state)["captain"] == 4 and public(state)["guns"][3] == 1  # 2 raised, 1 back


def test_look_out_sees_the_top_card_and_may_discard_it():
    state = game(deck=["yellow-uprising", *DECK], look_out=4)
    use(state, 4, "look_out")
    assert public(state)["phase"] == "peek" and state.waiting_for() == {4}
    assert private(state, 4)["peek"] == "yellow-uprising"
    assert private(state, 0)["peek"] is None
    with pytest.raises(IllegalAction, match="wait"):
        state.apply(0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    act(state, 4, {"type": "telescope", "choice": "discard"})
    assert public(state)["phase"] == "appoint" and public(state)["discard_size"] == 1
    appoint(state, 1, 2)
    no_mutiny(state)
    assert private(state, 0)["drawn"] == ["blue-disarmed", "red-drunk"]


def test_mentor_turns_a_used_character_face_down_again():
    state = game(mentor=1, gunslinger=2)
    use(state, 2, "gunslinger")
    with pytest.raises(IllegalAction, match="cannot do that"):
        state.apply(1, {"type": "character", "name": "mentor", "target": 3})  # unused
    use(state, 1, "mentor", target=2)
    assert not public(state)["characters_used"][2]
    use(state, 2, "gunslinger")
    assert public(state)["guns"][2] == 7


# -- before the team is appointed ------------------------------------------------------------
def test_herbalist_moves_an_off_duty_sign():
    state = game(herbalist=5)
    assert public(state)["phase"] == "appoint"  # no sign to move yet: no window
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    view = public(state)
    assert view["off_duty"] == [1, 2] and view["phase"] == "window"
    assert view["window"] == "before_appoint" and state.waiting_for() == {5}
    with pytest.raises(IllegalAction, match="nobody is being appointed"):
        state.apply(0, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    use(state, 5, "herbalist", source=1, target=3)
    assert public(state)["off_duty"] == [2, 3] and public(state)["phase"] == "appoint"
    appoint(state, 1, 4)


def test_a_window_closes_when_everyone_declines():
    state = game(herbalist=5, consultant=4)
    assert state.waiting_for() == {4}  # no sign yet: only the Consultant fits
    events = decline(state, 4)
    assert texts(events, 4) == ["You keep your character for later."] and not texts(events)
    assert public(state)["phase"] == "appoint"
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    assert state.waiting_for() == {4, 5}
    decline(state, 5)
    assert state.waiting_for() == {4} and state.view(5)["waiting"] == []
    decline(state, 4)
    assert public(state)["phase"] == "appoint"
    assert state.view(4)["private"]["character"] == "consultant"


def test_consultant_appoints_the_lieutenant_then_the_captain_the_navigator():
    state = game(consultant=4)
    use(state, 4, "consultant")
    assert state.waiting_for() == {4}
    with pytest.raises(IllegalAction, match="only the captain"):
        state.apply(0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    act(state, 4, {"type": "appoint", "lieutenant": 4})
    assert public(state)["lieutenant"] == 4 and state.waiting_for() == {0}
    assert {a["navigator"] for a in state.legal(0) if a["type"] == "appoint"} == {1, 2, 3, 5, 6}
    events = act(state, 0, {"type": "appoint", "navigator": 2})
    assert public(state)["navigator"] == 2 and public(state)["phase"] == "mutiny"
    # The log says who named whom, each once: the Consultant the lieutenant, the captain the
    # navigator.
    log = public(state)["log"]
    named = [e["text"] for e in log if e["kind"] in ("consultant", "appoint")]
    assert named == ["The Consultant {4} appoints {4} lieutenant.", "{0} appoints {2} navigator."]
    appointed = next(e for e in events if e["kind"] == "appoint")
    assert (appointed["lieutenant"], appointed["navigator"], appointed["consultant"]) == (4, 2, 4)


def test_without_a_consultant_the_captain_names_both_officers():
    state = game()
    events = act(state, 0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    appointed = next(e for e in events if e["kind"] == "appoint")
    assert appointed["text"] == "{0} appoints {1} lieutenant and {2} navigator."
    assert appointed["consultant"] is None


# -- after the team is appointed -------------------------------------------------------------
def test_minstrel_sits_two_players_out_of_the_mutiny():
    state = game(minstrel=3)
    appoint(state, 1, 2)
    assert public(state)["window"] == "after_appoint" and state.waiting_for() == {3}
    use(state, 3, "minstrel", targets=[1, 5])
    assert state.waiting_for() == {2, 3, 4, 6}
    assert public(state)["mutiny"]["mutineers"] == [2, 3, 4, 6]


def test_agitator_makes_two_players_raise_at_least_one_gun():
    state = game(agitator=3)
    appoint(state, 1, 2)
    use(state, 3, "agitator", targets=[4, 5])
    assert [a["guns"] for a in state.legal(4)] == [1, 2, 3]
    assert [a["guns"] for a in state.legal(6)] == [0, 1, 2, 3]
    with pytest.raises(IllegalAction, match="from 1 to 3"):
        state.apply(5, {"type": "mutiny", "guns": 0})


def test_chief_cook_passes_the_captaincy_and_a_new_team_is_appointed():
    state = game(chief_cook=3)
    appoint(state, 1, 2)
    events = use(state, 3, "chief_cook")
    assert "{3} reveals the Chief cook and serves the captain's dinner: {1} becomes captain." in (
        texts(events)
    )
    view = public(state)
    assert view["captain"] == 1 and view["phase"] == "appoint" and view["lieutenant"] is None
    appoint(state, 0, 2)


def test_debt_collector_makes_a_team_member_pay_the_others():
    state = game(debt_collector=5)
    appoint(state, 1, 2)
    use(state, 5, "debt_collector", target=2)
    assert public(state)["guns"][:3] == [4, 4, 1]


def test_equalizer_one_gun_needed_one_gun_each():
    state = game(equalizer=6)
    appoint(state, 1, 2)
    use(state, 6, "equalizer")
    assert public(state)["mutiny"]["threshold"] == 1
    assert [a["guns"] for a in state.legal(3)] == [0, 1]
    raise_guns(state, {3: 1})
    assert public(state)["captain"] == 3


# -- right after the guns are revealed -------------------------------------------------------
def test_a_character_used_on_its_own_user_says_themselves():
    state = game(troublemaker=3)
    appoint(state, 1, 2)
    raise_guns(state, {3: 1, 4: 1})
    events = use(state, 3, "troublemaker", target=3)
    assert "{3} reveals the Troublemaker and makes their own guns count double." in texts(events)
    state = game(instigator=3)
    appoint(state, 1, 2)
    raise_guns(state, {3: 1})
    events = use(state, 3, "instigator", target=3)
    assert "{3} reveals the Instigator and urges themselves to add all their guns." in texts(events)


def test_troublemaker_doubles_a_players_guns():
    state = game(troublemaker=6)
    appoint(state, 1, 2)
    raise_guns(state, {3: 1, 4: 1})
    assert public(state)["window"] == "after_reveal" and state.waiting_for() == {6}
    use(state, 6, "troublemaker", target=4)
    view = public(state)
    assert view["captain"] == 4 and view["guns"][3:5] == [2, 2]


def test_peacemaker_hands_raised_guns_back():
    state = game(peacemaker=6)
    appoint(state, 1, 2)
    raise_guns(state, {3: 2, 4: 1})
    use(state, 6, "peacemaker", target=3)
    view = public(state)
    assert view["captain"] == 0 and view["phase"] == "navigation" and view["guns"][3] == 3
    assert "The mutiny fails (1 of 3 guns); everyone keeps their guns." in texts(view["log"])


def test_master_strategist_keeps_raised_guns_without_the_captaincy():
    state = game(master_strategist=4)
    appoint(state, 1, 2)
    raise_guns(state, {3: 3, 4: 2})
    use(state, 4, "master_strategist")
    view = public(state)
    assert view["captain"] == 3 and view["guns"][3:5] == [0, 3]


def test_rabble_rouser_halves_the_guns_needed():
    state = game(rabble_rouser=6)
    appoint(state, 1, 2)
    raise_guns(state, {3: 2})
    use(state, 6, "rabble_rouser")
    assert public(state)["captain"] == 3


def test_instigator_and_the_player_who_adds_all_their_guns():
    state = game(instigator=6)
    appoint(state, 1, 2)
    raise_guns(state, {3: 1})
    use(state, 6, "instigator", target=3)
    assert public(state)["phase"] == "instigate" and state.waiting_for() == {3}
    assert state.legal(3) == [{"type": "mutiny", "guns": 3}, {"type": "decline"}]
    with pytest.raises(IllegalAction, match="add all your guns"):
        state.apply(3, {"type": "mutiny", "guns": 2})
    act(state, 3, {"type": "mutiny", "guns": 3})
    assert public(state)["captain"] == 3 and public(state)["guns"][3] == 0


def test_an_instigator_refused_turns_face_down_again():
    state = game(instigator=6)
    appoint(state, 1, 2)
    raise_guns(state, {3: 1})
    use(state, 6, "instigator", target=3)
    events = decline(state, 3)
    assert "{3} keeps their guns; the Instigator's card turns face down again." in texts(events)
    view = public(state)
    assert not view["characters_used"][6] and view["captain"] == 0
    assert view["phase"] == "navigation"


# -- before the navigation cards are drawn ---------------------------------------------------
def test_bosun_swaps_lieutenant_and_navigator():
    state = game(bosun=5)
    appoint(state, 1, 2)
    no_mutiny(state)
    assert public(state)["window"] == "before_draw"
    use(state, 5, "bosun")
    view = public(state)
    assert (view["lieutenant"], view["navigator"]) == (2, 1) and state.waiting_for() == {0, 2}


def test_smuggler_lets_the_captain_draw_three():
    state = game(deck=[*DECK, "red-telescope"], smuggler=5)
    appoint(state, 1, 2)
    no_mutiny(state)
    use(state, 5, "smuggler", target=0)
    assert private(state, 0)["drawn"] == ["blue-disarmed", "red-drunk", "red-drunk"]
    assert private(state, 1)["drawn"] == ["red-mermaid", "red-telescope"]
    keep(state, 0, "blue-disarmed")
    assert public(state)["discard_size"] == 2


def test_a_lieutenant_may_smuggle_or_archive_for_themselves_and_the_log_says_so():
    state = game(deck=[*DECK, "red-telescope"], smuggler=1)
    appoint(state, 1, 2)
    no_mutiny(state)
    events = use(state, 1, "smuggler", target=1)
    assert "{1} reveals the Smuggler and slips themselves a third navigation card." in texts(events)
    assert len(private(state, 1)["drawn"]) == 3
    state = game(deck=[*DECK, "red-telescope", "blue-drunk"], archivist=1)
    appoint(state, 1, 2)
    no_mutiny(state)
    events = use(state, 1, "archivist", target=1)
    assert "{1} reveals the Archivist and swaps their cards for two new ones." in texts(events)
    assert private(state, 1)["can_redraw"]


def test_archivist_lets_the_lieutenant_swap_their_cards_for_two_new_ones():
    state = game(deck=[*DECK, "red-telescope", "blue-drunk"], archivist=5)
    appoint(state, 1, 2)
    no_mutiny(state)
    use(state, 5, "archivist", target=1)
    assert private(state, 1)["can_redraw"] and {"type": "redraw"} in state.legal(1)
    assert {"type": "redraw"} not in state.legal(0)
    act(state, 1, {"type": "redraw"})
    assert private(state, 1)["drawn"] == ["red-telescope", "blue-drunk"]
    assert {"type": "redraw"} not in state.legal(1)
    keep(state, 1, "blue-drunk")
    assert public(state)["discard_size"] == 3


# -- in a round with a yellow card -----------------------------------------------------------
def test_spiritualist_has_two_players_give_a_gun_each():
    deck = ["yellow-uprising", "red-drunk", "red-drunk", "red-mermaid"]
    state = table(5, deck=deck, rituals=["cult_cabin_search"], dealt_characters=[
        "gunslinger", "kleptomaniac", "gunsmith", "look_out", "spiritualist"])  # fmt: skip
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    view = public(state)
    assert view["window"] == "yellow_round" and state.waiting_for() == {4}
    use(state, 4, "spiritualist", targets=[1, 3])
    assert public(state)["phase"] == "give" and state.waiting_for() == {4}
    assert private(state, 4)["giver"] == 1 and private(state, 1)["giver"] is None
    with pytest.raises(IllegalAction, match="another player"):
        state.apply(4, {"type": "pick", "target": 1})  # seat 1 gives first: not to themselves
    act(state, 4, {"type": "pick", "target": 4})
    assert private(state, 4)["giver"] == 3
    act(state, 4, {"type": "pick", "target": 0})
    assert public(state)["guns"] == [4, 2, 3, 2, 4]
    assert private(state, 4)["giver"] is None
    assert public(state)["phase"] == "appoint"


def test_characters_off_means_no_character_actions():
    state = table(7)
    with pytest.raises(IllegalAction, match="without characters"):
        state.apply(1, {"type": "character", "name": "gunslinger"})


def test_timed_characters_only_work_in_their_window():
    state = game(bosun=5, troublemaker=4)
    with pytest.raises(IllegalAction, match="only be used before the navigation cards are drawn"):
        state.apply(5, {"type": "character", "name": "bosun"})
    assert all(a["type"] != "character" for a in state.legal(5))
    appoint(state, 1, 2)
    raise_guns(state, {3: 1})
    assert state.waiting_for() == {4}  # right after the reveal: only the Troublemaker
    with pytest.raises(IllegalAction, match="only be used before the navigation"):
        state.apply(5, {"type": "character", "name": "bosun"})
    decline(state, 4)
    assert public(state)["window"] == "before_draw" and state.waiting_for() == {5}
    with pytest.raises(IllegalAction, match="right after the guns are revealed"):
        state.apply(4, {"type": "character", "name": "troublemaker", "target": 3})
    decline(state, 5)
    assert public(state)["phase"] == "navigation"
