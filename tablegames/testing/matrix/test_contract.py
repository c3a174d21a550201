"""The rules contract (`rules/core.py`): replays, plain data, refusals that change nothing,
views and events of the documented shape, options, states sampled from a seat's view."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Mapping
from typing import Any

import msgpack
import pytest

from tablegames.rules import Event, Game, IllegalAction, SetupError, event_base, get_game, shared
from tablegames.rules.contract import ADDED_VIEW_KEYS
from tablegames.rules.core import visible_to

from ..playing import positions, random_playout, settle_clock
from ..scanner import _capturing_emits


def test_metadata_and_registry(game_name: str) -> None:
    """It is in the registry under its name, with sensible player counts."""
    game = get_game(game_name)
    assert game.name == game_name
    assert 1 <= game.min_players <= game.default_players <= game.max_players
    with pytest.raises(KeyError, match="no game called"):
        get_game("no-such-game")


def test_replay_reaches_the_same_state(game_name: str) -> None:
    """Replaying its action log from the same seed reaches the same state (every view, the
    result)."""
    game = get_game(game_name)
    for seed in range(3):
        players = game.default_players
        state, log, options = random_playout(game_name, players, seed)
        again = game.replay(players, seed, options, log)
        for seat in [None, *range(players)]:
            assert again.view(seat) == state.view(seat)
        assert again.result() == state.result()


def test_views_and_actions_are_plain_data(game_name: str) -> None:
    """Its views and actions are plain data: msgpack and JSON carry them unchanged."""
    for state in positions(game_name, 11):
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            assert msgpack.unpackb(msgpack.packb(view), strict_map_key=False) == json.loads(
                json.dumps(view)
            )
            actions = state.legal(seat) if seat is not None else []
            assert msgpack.unpackb(msgpack.packb(actions)) == actions


#: Junk a client may send as an action: values of any type, the types `apply` takes or not.
BAD_ACTIONS: list[Any] = [
    None,
    "play",
    [],
    {},
    {"type": None},
    {"type": "no-such-action"},
    {"type": 7},
    {"type": "play"},
    {"type": "play", "card": 123},
    {"type": "play", "card": {"nested": True}},
    {"type": "dope", "target": "everyone"},
    {"type": "dope", "target": 99},
    {"type": "suit", "suit": "Z"},
]


def test_bad_and_out_of_turn_actions_change_nothing(game_name: str) -> None:
    """Malformed, unknown and out-of-turn actions, and bad seats, raise IllegalAction and change
    nothing anyone can see."""
    for step, state in enumerate(positions(game_name, 5, steps=200)):
        players = state.players
        before = [state.view(seat) for seat in [None, *range(players)]]
        waiting = state.waiting_for()
        idle = [seat for seat in range(players) if seat not in waiting]
        for seat in range(players):
            for bad in BAD_ACTIONS:
                with pytest.raises(IllegalAction):
                    state.apply(seat, bad)
            if seat in idle:
                for action in state.legal(min(waiting)):
                    if action not in state.legal(seat):
                        with pytest.raises(IllegalAction):
                            state.apply(seat, action)
        bad_seats: tuple[Any, ...] = (-1, players, "0", None, True)  # (of any type, as above)
        for bad_seat in bad_seats:
            with pytest.raises(IllegalAction):
                state.apply(bad_seat, state.legal(min(waiting))[0])
        assert [state.view(seat) for seat in [None, *range(players)]] == before, step


def test_the_waiting_list_a_seat_sees_never_names_more_than_the_game_waits_for(
    game_name: str,
) -> None:
    """The seats a viewer sees the game wait for are among those it waits for."""
    for state in positions(game_name, 3):
        for seat in [None, *range(state.players)]:
            assert set(state.visible_waiting(seat)) <= state.waiting_for()


def test_may_talk_is_none_or_a_sentence(game_name: str) -> None:
    """Whether a seat may talk is None (it may) or a sentence saying why not."""
    for seed in range(3):
        for state in positions(game_name, seed):
            for seat in range(state.players):
                why = state.may_talk(seat)
                assert why is None or (isinstance(why, str) and why.strip() == why and why)


#: The keys `State.view` puts in every view (see `rules/core.py`).
VIEW_KEYS = {"game", "seat", "players", "over", "result", "waiting", "log"}


def test_every_view_has_the_documented_keys_and_every_event_a_kind(game_name: str) -> None:
    """Every view has the documented keys (game, seat, players, over, result, waiting, log) and
    every event a kind, a text and its recipients."""
    events: list[Event] = []
    for state in positions(game_name, 7):
        events += state.log
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            assert set(view) >= VIEW_KEYS
            assert (view["game"], view["seat"], view["players"]) == (game_name, seat, state.players)
            assert view["over"] == state.over
            assert view["result"] == (state.result() if state.over else None)
            assert view["waiting"] == state.visible_waiting(seat)
            log = shared(view)["log"]
            assert all(visible_to(event, seat) for event in log)
            assert state.log_limit is None or len(log) <= state.log_limit
    state, _, _ = random_playout(game_name, get_game(game_name).default_players, 7)
    assert state.view(None)["result"] == state.result()
    for event in events + state.log:
        assert isinstance(event["kind"], str) and event["kind"], event
        assert isinstance(event["text"], str), event
        to = event["to"]
        assert to is None or isinstance(to, list), event
        assert to is None or all(0 <= seat < state.players for seat in to), event


#: How many actions apart each viewer's views are built in the test below: after every one (as
#: at a table), now and then, and seldom (more actions apart than a log limit keeps).
VIEW_INTERVALS = (1, 3, 61, 2, 7, 1, 97, 5, 1, 4, 11, 1)


def test_a_views_log_is_every_event_its_viewer_may_see_however_seldom_it_is_built(
    game_name: str,
) -> None:
    """A view's log is the log's events its viewer may see, oldest first, whether views are built
    after every action or seldom (`visible_log` keeps each viewer's and follows the log on,
    events a log limit dropped from its front and a round's new log included)."""
    for step, state in enumerate(positions(game_name, 11, steps=400)):
        for index, seat in enumerate([None, *range(state.players)]):
            if step % VIEW_INTERVALS[index % len(VIEW_INTERVALS)] == 0:
                seen = [event for event in state.log if visible_to(event, seat)]
                log = state.view(seat)["log"]
                assert log == seen, (step, seat)
                assert all(shown is event for shown, event in zip(log, seen, strict=True))


def test_the_view_keys_shared_code_reads_mean_what_the_contract_says(game_name: str) -> None:
    """The view keys shared code reads (`contract.KnownViewKeys`) mean what the contract says
    where a game uses them: ``hand`` a list, ``round`` a whole number from 1; and a game's
    views hold none of the keys the table and drivers add (``talk``, ``now``, ``speed``)."""
    for state in positions(game_name, 5):
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            added = sorted(view.keys() & ADDED_VIEW_KEYS)
            assert not added, f"seat {seat}'s view holds {added}, which the table adds"
            if "hand" in view:
                assert isinstance(view["hand"], list), ("hand", view["hand"])
            if "round" in view:
                number = view["round"]
                assert type(number) is int and number >= 1, ("round", number)


def test_an_event_about_one_player_names_them_in_its_seat_field(game_name: str) -> None:
    """What a player did reads `seat` (a turn summary groups by it), never the sentence."""
    opens_with_a_seat = re.compile(r"\{(\d+)\} (?!and \{)")  # ("{1} and {2} draw": two)
    about_a_player = 0
    for seed in range(30):  # (games whose sentences seldom open with a player play more)
        if seed >= 3 and about_a_player > 20:
            break
        seen: set[int] = set()  # (ids of one game's events: another's may reuse them)
        for state in positions(game_name, seed, steps=1500):
            for event in state.log:
                if id(event) in seen:
                    continue
                seen.add(id(event))
                opening = opens_with_a_seat.match(event_base(event)["text"])
                if opening:
                    about_a_player += 1
                    assert event.get("seat") == int(opening[1]), event
    assert about_a_player > 20


def makes_a_game(game: Game, options: Mapping[str, object]) -> bool:
    """True if some table size takes `options` (a kraken board is for some counts only)."""
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.new(players, 1, **options)
        except SetupError:
            continue
        return True
    return False


def test_every_option_says_what_it_is_and_every_value_offered_makes_a_game(game_name: str) -> None:
    """Every option says what it is, and every value it offers makes a game; an unknown option is
    refused."""
    game = get_game(game_name)
    for option in game.options:
        assert option.help and option.title and option.name in game.option_names
        assert option.default in option.values
        for value in option.values:
            assert makes_a_game(game, {option.name: value}), (option.name, value)
    assert makes_a_game(game, game.quick_options())
    with pytest.raises(SetupError, match="unknown option"):
        game.new(game.default_players, 1, no_such_option=True)


def rebuilt_from_views(name: str) -> bool:
    """True if `name`'s state implements the optional `from_view` (its bots sample states)."""
    return get_game(name).implements("from_view")


def test_a_game_not_rebuilt_from_views_says_so_when_sampled(game_name: str) -> None:
    """Without `from_view`, sampling a state says it cannot be rebuilt from a view."""
    if rebuilt_from_views(game_name):
        pytest.skip("it is rebuilt from views (from_view)")
    state = next(positions(game_name, 13))
    with pytest.raises(NotImplementedError, match="cannot be rebuilt from a view"):
        state.sample(0, random.Random(0))


def test_a_state_sampled_from_a_seats_view_looks_the_same_to_that_seat(game_name: str) -> None:
    """A state rebuilt from a seat's view (`from_view`) looks the same to that seat: its view and
    legal actions."""
    if not rebuilt_from_views(game_name):
        pytest.skip("it has no from_view")
    for step, state in enumerate(positions(game_name, 13, steps=200)):
        for seat in range(state.players):
            sampled = state.sample(seat, random.Random(step))
            assert sampled.quiet and sampled.legal(seat) == state.legal(seat)
            seen, again = state.view(seat), sampled.view(seat)
            differs = sorted(
                k for k in {**seen, **again} if k != "log" and seen.get(k) != again.get(k)
            )
            assert not differs, (
                f"step {step}, seat {seat}: the sampled state shows {differs} unlike"
            )


def emitted_in_a_playout(name: str, seed: int) -> list[tuple[Event, Event]]:
    """A random playout's every emitted event, with a copy taken as it was emitted."""
    emitted: list[tuple[Event, Event]] = []
    game = get_game(name)
    rng = random.Random(seed)
    with _capturing_emits(lambda state, event: emitted.append((event, copy.deepcopy(event)))):
        state = game.new(game.default_players, seed, **game.quick_options())
        for _ in range(5000):
            now, _ = settle_clock(state, float(rng.random()))  # (crabs' double-crab window)
            if state.over:
                break
            seat = rng.choice(sorted(state.waiting_for()))
            state.apply(seat, rng.choice(state.legal(seat)), now)
    return emitted


def test_no_event_changes_after_it_was_emitted(game_name: str) -> None:
    """What an engine emitted stays as it was sent: later moves never rewrite an event.

    The leak scanner ties every event a seat receives to the moment it was emitted; an engine
    that hands out its own lists inside events (instead of copies) rewrites history a player
    was already told, so the same event later reads differently in the view's log.
    """
    for seed in range(30):
        emitted = emitted_in_a_playout(game_name, seed)
        changed = [(now, then) for now, then in emitted if now != then]
        assert not changed, f"seed {seed}: {changed[0][1]} became {changed[0][0]}"
