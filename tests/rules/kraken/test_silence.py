"""Who may talk at a Feed the Kraken table (`may_talk`): nobody during a navigation (emergency
appointments included) or with eyes closed, never a player without a tongue or off the ship;
claims at the table are refused with the same sentence."""

from __future__ import annotations

import random

import pytest

from tablegames.bots import get_bot
from tablegames.rules import IllegalAction, get_game
from tablegames.table import Table

from .helpers import ROLES, act, appoint, at, keep, no_mutiny, sail, steer, table

#: The phases the seed keeps silent, named here rather than read from the engine.
SILENT = {"navigation", "steer", "emergency", "convert", "stash"}
FILLER = ["red-drunk", "red-drunk"]
SAILOR = {"kind": "role", "target": 0, "group": "sailor"}
OFF_THE_SHIP = "you were fed to the Kraken or went overboard: you take no further part"


def pick(state, target):
    return act(state, state.captain, {"type": "pick", "target": target})


def talkers(state) -> dict[int, str | None]:
    return {seat: state.may_talk(seat) for seat in range(state.players)}


def test_everyone_may_talk_while_the_team_is_appointed_and_the_mutiny_is_called():
    state = table(7, deck=["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"])
    assert state.phase == "appoint" and set(talkers(state).values()) == {None}
    appoint(state, 1, 2)
    assert state.phase == "mutiny" and set(talkers(state).values()) == {None}


def test_nobody_talks_from_the_draw_to_the_reveal_emergency_appointment_included():
    deck = ["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"]
    state = table(7, deck=[*deck, "blue-disarmed", "red-drunk", "red-mermaid", "red-telescope"])
    appoint(state, 1, 2)
    no_mutiny(state)
    said = {
        "navigation": "nobody may talk or signal while the navigation cards go round",
        "steer": "nobody may talk or signal while the navigator chooses",
        "emergency": "nobody may talk or signal until the emergency navigation is revealed",
    }
    assert state.phase == "navigation"
    assert set(talkers(state).values()) == {said["navigation"]}
    keep(state, 0, "red-drunk")
    keep(state, 1, "red-mermaid")
    assert state.phase == "steer" and set(talkers(state).values()) == {said["steer"]}
    act(state, 2, {"type": "jump"})
    assert state.phase == "emergency"
    assert talkers(state)[0] == said["emergency"]  # the captain names the navigator in silence
    assert talkers(state)[2] == OFF_THE_SHIP
    act(state, 0, {"type": "appoint", "navigator": 5})
    keep(state, 0, "blue-disarmed")
    keep(state, 1, "red-telescope")
    steer(state, "blue-disarmed")
    silent = {seat: why for seat, why in talkers(state).items() if why}
    assert silent == {2: OFF_THE_SHIP}  # revealed: everyone else may talk about it


def test_claims_at_the_table_are_refused_with_the_reason_and_change_nothing():
    deck = ["red-drunk", "blue-drunk", "red-mermaid", "yellow-uprising"]
    options = {"characters": False, "roles": ROLES[7], "captain": 0, "deck": deck * 2}
    table_ = Table(get_game("kraken"), 7, [f"p{s}" for s in range(7)], seed=1, options=options)
    table_.submit(0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    for seat in sorted(table_.state.waiting_for()):
        table_.submit(seat, {"type": "mutiny", "guns": 0})
    table_.submit(0, {"type": "keep", "card": "red-drunk"})
    table_.submit(1, {"type": "keep", "card": "red-mermaid"})
    table_.submit(2, {"type": "jump"})
    assert table_.state.phase == "emergency"  # claims were accepted here before issue 29
    before = table_.view_for(3)
    with pytest.raises(IllegalAction, match="until the emergency navigation is revealed"):
        table_.say(3, SAILOR)
    assert table_.talk == [] and table_.view_for(3) == before


def test_eyes_closed_for_the_cult_leader_means_silence_for_everyone():
    uprising = ["yellow-uprising", "red-drunk", "red-drunk", "red-mermaid"]
    for ritual, phase in (("conversion", "convert"), ("gun_stash", "stash")):
        state = table(7, deck=uprising * 2, rituals=[ritual])
        sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
        assert state.phase == phase
        assert set(talkers(state).values()) == {"everyone's eyes are closed: nobody may talk"}
        assert state.view(3)["silence"] == "everyone's eyes are closed: nobody may talk"
        assert state.view(None)["silence"] is None


def test_a_tongueless_player_never_talks_and_everyone_talks_once_the_game_is_over():
    # Long journey: from -1,5 a blue card sails to 0,6, off with the tongue.
    state = at(table(7, board="long", deck=["blue-disarmed", *FILLER, "red-mermaid"]), "-1,5")
    sail(state, 1, 2, "blue-disarmed", "red-drunk", "blue-disarmed")
    pick(state, 3)
    assert state.phase == "appoint"
    assert {seat: why for seat, why in talkers(state).items() if why} == {
        3: "you have no tongue: you cannot talk, only gesture"
    }
    assert state.view(3)["silence"] == "you have no tongue: you cannot talk, only gesture"
    state.winner = "sailor"  # (the end, as a stacked fact)
    assert set(talkers(state).values()) == {None}


def playouts():
    """Bot games on both boards with and without characters: (table, a step's check) pairs."""
    kraken = get_game("kraken")
    for seed in range(16):
        players = 5 + seed % 7
        board = "long" if players >= 8 or (players == 7 and seed % 2) else "quick"
        options = {"board": board, "characters": seed % 3 != 0}
        level = ("random", "normal", "hard")[seed % 3] if players < 10 else "normal"
        rng = random.Random(seed)
        bots = {seat: get_bot("kraken", level, seat, rng) for seat in range(players)}
        names = [f"bot {seat}" for seat in range(players)]
        yield Table(kraken, players, names, seed=seed, options=options, bots=bots)


def test_may_talk_at_every_step_of_bot_playouts_for_every_silent_phase_and_tongueless_seat():
    seen_phases: set[str] = set()
    tongueless_seen = off_ship_seen = 0
    for table_ in playouts():
        for _ in range(3000):
            state = table_.state
            for seat in range(state.players):
                why = state.may_talk(seat)
                assert state.view(seat)["silence"] == why
                if state.over:
                    assert why is None
                elif seat in state.eliminated:
                    off_ship_seen += 1
                    assert why is not None and "fed to the Kraken" in why
                elif seat in state.tongueless:
                    tongueless_seen += 1
                    assert why is not None and "no tongue" in why
                elif state.phase in SILENT:
                    seen_phases.add(state.phase)
                    assert why is not None and "nobody may" in why
                else:
                    assert why is None, (state.phase, seat)
                if why is not None:  # the table refuses a claim with the same sentence
                    with pytest.raises(IllegalAction) as refused:
                        table_.say(seat, {"kind": "role", "target": seat, "group": "sailor"})
                    assert str(refused.value) == why
            move = table_.bot_move()
            if move is None:
                break
            table_.submit(*move)
        assert table_.over
    assert seen_phases == SILENT
    assert tongueless_seen and off_ship_seen
