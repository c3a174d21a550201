"""Every registered game obeys the rules contract: random playouts, replay, illegal actions."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import msgpack
import pytest

from tablegames.rules import GAMES, IllegalAction, SetupError, State, get_game
from tablegames.rules.core import visible_to

from .scripts import settle_clock

GAME_NAMES = sorted(GAMES)


def random_playout(name: str, players: int, seed: int, limit: int = 20_000):
    """Play random legal actions (turn actions of waiting seats first) until the game ends.

    As at a table, the clock is settled first: a game that waits for nobody waits on its
    deadline, and the `time` action applied there is logged like any move.
    """
    game = get_game(name)
    options = game.quick_options()
    state = game.new(players, seed, **options)
    rng = random.Random(seed)
    log: list[tuple[int, dict, float]] = []
    for _ in range(limit):
        now, _ = settle_clock(state, float(len(log)), log)
        if state.over:
            return state, log, options
        seat = rng.choice(sorted(state.waiting_for()))
        action = rng.choice(state.legal(seat))
        state.apply(seat, action, now)
        log.append((seat, action, now))
    raise AssertionError(f"{name} seed {seed} did not end in {limit} actions")


def positions(name: str, seed: int, steps: int = 300) -> Iterator[State]:
    """A new game of `name` at each of its first `steps` positions (the clock settled first),
    moved on by a random legal action of a waiting seat after each; stops when it is over."""
    game = get_game(name)
    state = game.new(game.default_players, seed, **game.quick_options())
    rng = random.Random(seed)
    for _ in range(steps):
        settle_clock(state, 0.0)
        if state.over:
            return
        yield state
        seat = rng.choice(sorted(state.waiting_for()))
        state.apply(seat, rng.choice(state.legal(seat)))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_metadata_and_registry(name):
    game = get_game(name)
    assert game.name == name
    assert 1 <= game.min_players <= game.default_players <= game.max_players
    with pytest.raises(KeyError, match="no game called"):
        get_game("no-such-game")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_end_with_winners(name):
    game = get_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(5):
            state, _, _ = random_playout(name, players, seed)
            result = state.result()
            # Winners may be empty only where a game says so (kraken: a faction with no
            # members left can win nobody); every listed seat is a real seat.
            assert result["winners"] or name == "kraken"
            assert all(0 <= seat < players for seat in result["winners"])
            assert len(result["scores"]) == players
            assert state.legal(0) == [] and state.waiting_for() == frozenset()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_replay_reaches_the_same_state(name):
    game = get_game(name)
    for seed in range(3):
        players = game.default_players
        state, log, options = random_playout(name, players, seed)
        again = game.replay(players, seed, options, log)
        for seat in [None, *range(players)]:
            assert again.view(seat) == state.view(seat)
        assert again.result() == state.result()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_and_actions_are_plain_data(name):
    for state in positions(name, 11):
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            assert msgpack.unpackb(msgpack.packb(view), strict_map_key=False) == json.loads(
                json.dumps(view)
            )
            actions = state.legal(seat) if seat is not None else []
            assert msgpack.unpackb(msgpack.packb(actions)) == actions


BAD_ACTIONS = [
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


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bad_and_out_of_turn_actions_change_nothing(name):
    for step, state in enumerate(positions(name, 5, steps=200)):
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
        for bad_seat in (-1, players, "0", None, True):
            with pytest.raises(IllegalAction):
                state.apply(bad_seat, state.legal(min(waiting))[0])
        assert [state.view(seat) for seat in [None, *range(players)]] == before, step


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_waiting_list_a_seat_sees_never_names_more_than_the_game_waits_for(name):
    for state in positions(name, 3):
        for seat in [None, *range(state.players)]:
            assert set(state.visible_waiting(seat)) <= state.waiting_for()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_may_talk_is_none_or_a_sentence_and_only_kraken_imposes_silence(name):
    silenced = 0
    for seed in range(3):
        for state in positions(name, seed):
            for seat in range(state.players):
                why = state.may_talk(seat)
                assert why is None or (isinstance(why, str) and why.strip() == why and why)
                silenced += why is not None
    assert (silenced > 0) == (name == "kraken")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_same_seed_same_game(name):
    game = get_game(name)
    first = random_playout(name, game.default_players, 42)
    second = random_playout(name, game.default_players, 42)
    assert first[1] == second[1]
    assert first[0].view(0) == second[0].view(0)


#: The keys `State.view` puts in every view (see `rules/core.py`).
VIEW_KEYS = {"game", "seat", "players", "over", "result", "waiting", "log"}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_view_has_the_documented_keys_and_every_event_a_kind(name):
    events: list[dict] = []
    for state in positions(name, 7):
        events += state.log
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            assert set(view) >= VIEW_KEYS
            assert (view["game"], view["seat"], view["players"]) == (name, seat, state.players)
            assert view["over"] == state.over
            assert view["result"] == (state.result() if state.over else None)
            assert view["waiting"] == state.visible_waiting(seat)
            assert all(visible_to(event, seat) for event in view["log"])
            assert state.log_limit is None or len(view["log"]) <= state.log_limit
    state, _, _ = random_playout(name, get_game(name).default_players, 7)
    assert state.view(None)["result"] == state.result()
    for event in events + state.log:
        assert isinstance(event["kind"], str) and event["kind"], event
        assert isinstance(event["text"], str), event
        assert event["to"] is None or all(0 <= seat < state.players for seat in event["to"]), event


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_event_about_one_player_names_them_in_its_seat_field(name):
    """What a player did reads `seat` (a turn summary groups by it), never the sentence."""
    opens_with_a_seat = re.compile(r"\{(\d+)\} (?!and \{)")  # ("{1} and {2} draw": two)
    about_a_player = 0
    for seed in range(30):  # (games whose sentences seldom open with a player play more)
        if seed >= 3 and about_a_player > 20:
            break
        seen: set[int] = set()  # (ids of one game's events: another's may reuse them)
        for state in positions(name, seed, steps=1500):
            for event in state.log:
                if id(event) in seen:
                    continue
                seen.add(id(event))
                opening = opens_with_a_seat.match(event["text"])
                if opening:
                    about_a_player += 1
                    assert event.get("seat") == int(opening[1]), event
    assert about_a_player > 20


def makes_a_game(game, options) -> bool:
    """True if some table size takes `options` (a kraken board is for some counts only)."""
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.new(players, 1, **options)
        except SetupError:
            continue
        return True
    return False


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_option_says_what_it_is_and_every_value_offered_makes_a_game(name):
    game = get_game(name)
    for option in game.options:
        assert option.help and option.title and option.name in game.option_names
        assert option.default in option.values
        for value in option.values:
            assert makes_a_game(game, {option.name: value}), (option.name, value)
    assert makes_a_game(game, game.quick_options())
    with pytest.raises(SetupError, match="unknown option"):
        game.new(game.default_players, 1, no_such_option=True)


def test_option_values_are_checked_before_the_game_sees_them():
    short = get_game("crates").options[0]
    with pytest.raises(SetupError, match="short must be true or false, not 1"):
        get_game("crates").new(4, 1, short=1)
    assert short.values == (False, True)
    board = next(option for option in get_game("kraken").options if option.name == "board")
    assert board.values == (None, "quick", "long")  # None: the board for the player count
    with pytest.raises(SetupError, match="board must be quick or long"):
        get_game("kraken").new(5, 1, board="medium")


def rebuilt_from_views(name: str) -> bool:
    """True if `name`'s state implements the optional `from_view` (its bots sample states)."""
    factory = get_game(name).state_class
    return factory.from_view.__func__ is not State.from_view.__func__


@pytest.mark.parametrize("name", [name for name in GAME_NAMES if not rebuilt_from_views(name)])
def test_a_game_not_rebuilt_from_views_says_so_when_sampled(name):
    state = next(positions(name, 13))
    with pytest.raises(NotImplementedError, match="cannot be rebuilt from a view"):
        state.sample(0, random.Random(0))


@pytest.mark.parametrize("name", [name for name in GAME_NAMES if rebuilt_from_views(name)])
def test_a_state_sampled_from_a_seats_view_looks_the_same_to_that_seat(name):
    for step, state in enumerate(positions(name, 13, steps=200)):
        for seat in range(state.players):
            sampled = state.sample(seat, random.Random(step))
            assert sampled.quiet and sampled.legal(seat) == state.legal(seat)
            seen, again = state.view(seat), sampled.view(seat)
            assert {**again, "log": []} == {**seen, "log": []}, (step, seat)
