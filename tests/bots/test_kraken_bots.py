"""Feed the Kraken bots: only legal moves, no peeking at hidden roles, and better than chance."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.bots.kraken import BOTS, NormalBot
from tablegames.bots.kraken.belief import GENERIC, SIDE_INDEX, Belief
from tablegames.bots.kraken.chart import SIDE_OF, best_colour, goal_odds
from tablegames.bots.kraken.hard import SAMPLES, HardJudge, pick_best
from tablegames.bots.kraken.history import Vote
from tablegames.bots.kraken.normal import Judge
from tablegames.rules import get_game
from tablegames.rules.kraken import KrakenState
from tablegames.testing.playing import bot_turns

from ..rules.kraken.helpers import sail

kraken = get_game("kraken")
ACTION_LIMIT = 3000


def play(
    players: int,
    seed: int,
    levels: list[str],
    **options: Any,
) -> KrakenState:
    """A bot-only game, every choice checked against the legal list; returns the final state."""
    state = kraken.new(players, seed, **options)
    assert isinstance(state, KrakenState)
    bots = [get_bot("kraken", level, seat, random.Random(seed * 31 + seat)) for seat, level in
            enumerate(levels)]  # fmt: skip
    for _ in range(ACTION_LIMIT):
        if state.over:
            return state
        waiting = state.waiting_for()
        for seat, legal in bot_turns(state):
            view = state.view(seat)
            action = bots[seat].choose(copy.deepcopy(view), copy.deepcopy(legal))
            if action is None:
                assert seat not in waiting, f"{levels[seat]} bot passed while the game waits"
                continue
            assert action in legal, (levels[seat], action, legal[:5])
            state.apply(seat, action)
            break
        else:
            raise AssertionError(f"nobody moved in phase {state.phase}")
    raise AssertionError("the game did not end")


# -- every level, every faction: only legal moves, and the games end ------------------------------


@pytest.mark.parametrize(
    ("players", "seeds", "options"),
    [
        (5, range(8), {}),
        (6, range(3), {"characters": False}),
        (7, range(8), {}),
        (7, range(3), {"board": "long"}),
        (9, range(2), {}),
        (11, range(2), {}),
    ],
)
def test_bots_make_only_legal_moves_and_finish(
    players: int, seeds: range, options: dict[str, Any]
) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        levels = [rng.choice(("random", "normal", "hard")) for _ in range(players)]
        state = play(players, seed, levels, **options)
        assert state.result()["winner"] in ("sailor", "pirate", "cult")


def test_every_level_is_there() -> None:
    for level in ("random", "normal", "hard"):
        bot = get_bot("kraken", level, 0, random.Random(0))
        assert callable(bot.choose)
    assert set(BOTS) == {"random", "normal", "hard"}


def test_a_bot_with_nothing_to_do_passes() -> None:
    state = kraken.new(5, 1, characters=False)
    idle = next(s for s in range(5) if not state.legal(s))
    for level in BOTS:
        bot = get_bot("kraken", level, idle, random.Random(0))
        assert bot.choose(state.view(idle), []) is None


# -- no cheating ----------------------------------------------------------------------------------

SAILOR_VIEW_ROLES = (
    ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"],
    ["sailor", "sailor", "cult_leader", "pirate", "sailor", "pirate", "sailor"],
    ["sailor", "cult_leader", "pirate", "sailor", "pirate", "sailor", "sailor"],
)


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("seed", [2, 5])
def test_a_sailor_decides_the_same_whoever_the_others_are(level: str, seed: int) -> None:
    """Seat 0 is a sailor in every deal below and learns nothing that tells them apart until
    someone's secret shows: its choices must be the same in all of them."""
    tables = [kraken.new(7, seed, roles=list(roles), captain=0) for roles in SAILOR_VIEW_ROLES]
    watched = [get_bot("kraken", level, 0, random.Random(7)) for _ in tables]
    drivers = [get_bot("kraken", "normal", s, random.Random(s)) for s in range(7)]
    compared = 0
    for _ in range(400):
        views = [t.view(0) for t in tables]
        if any(t.over for t in tables) or any(v != views[0] for v in views[1:]):
            break
        legal = [t.legal(0) for t in tables]
        assert all(options == legal[0] for options in legal)
        if legal[0]:
            choices = [b.choose(copy.deepcopy(views[0]), list(legal[0])) for b in watched]
            assert all(choice == choices[0] for choice in choices), choices
            compared += 1
        # Move every table on with the first table's moves, as long as they fit the others.
        state = tables[0]
        waiting = sorted(state.waiting_for())
        seat = waiting[0]
        action = drivers[seat].choose(state.view(seat), state.legal(seat))
        assert action is not None
        if any(action not in t.legal(seat) for t in tables):
            break
        for table in tables:
            table.apply(seat, copy.deepcopy(action))
    assert compared >= 3


def test_a_bot_reads_only_its_view() -> None:
    """The belief a bot builds is the same from a view with the hidden parts swapped out of
    the state it came from: it takes nothing but the view."""
    state = kraken.new(7, 3, roles=list(SAILOR_VIEW_ROLES[0]), captain=0, characters=False)
    view = state.view(0)
    bot = NormalBot(0, random.Random(1))
    mind = bot.think(copy.deepcopy(view))
    other = kraken.new(7, 3, roles=list(SAILOR_VIEW_ROLES[1]), captain=0, characters=False)
    assert other.view(0) == view
    again = NormalBot(0, random.Random(1)).think(other.view(0))
    assert [mind.side_odds(s) for s in range(7)] == [again.side_odds(s) for s in range(7)]


# -- the belief -----------------------------------------------------------------------------------


def test_a_pirate_knows_the_other_pirates_and_the_rest_is_spread() -> None:
    belief = Belief(
        7,
        1,
        "pirate",
        [frozenset({0, 2, 3}), frozenset({1}), frozenset({0, 2, 3}), frozenset({1})]
        + [frozenset({0, 2, 3})] * 3,
    )
    assert belief.role_odds(3)[1] == 1.0
    others = [belief.role_odds(s) for s in (0, 2, 4, 5, 6)]
    assert all(abs(odds[2] - 0.2) < 1e-9 for odds in others)  # one cult leader among five


def test_a_pirate_who_keeps_red_looks_like_a_pirate() -> None:
    """A bot that drew blue and yellow as lieutenant and saw red revealed knows the captain
    kept red: the captain (and a navigator who chose red over blue) look piratical."""
    state = kraken.new(
        7,
        1,
        roles=["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"],
        captain=1,
        characters=False,
        deck=["red-drunk", "red-mermaid", "blue-drunk", "yellow-uprising"],
    )
    sail(state, 0, 3, "red-drunk", "blue-drunk", "red-drunk")
    mind = NormalBot(0, random.Random(0)).think(state.view(0))
    pirate = [mind.side_odds(s)["pirate"] for s in range(7)]
    assert pirate[1] > 0.5 and pirate[3] > 0.5  # from a third before the card
    assert max(pirate[s] for s in (2, 4, 5, 6)) < 0.25


def test_evidence_weighed_together_gives_the_very_weights_of_one_piece_at_a_time() -> None:
    """Evidence waits until the belief is read and is then weighed several pieces per pass:
    the weights (and the deals left after pruning) must be the very floats that weighing one
    piece at a time gives, also when a piece rules out every deal (it is ignored) or the
    weights fall so low that they are scaled back up."""
    rng = random.Random(5)
    pieces = []
    for _ in range(60):
        draw = rng.random()
        if draw < 0.05:
            factor = [0.0] * 4  # evidence against every deal
        elif draw < 0.15:
            factor = [1e-40 * rng.random() for _ in range(4)]  # down towards a rescale
        else:
            factor = [rng.random() ** 6 for _ in range(4)]  # far apart: some deals pruned
        pieces.append((rng.randrange(11), factor))
    together, alone = Belief(11, 3, "sailor"), Belief(11, 3, "sailor")
    for seat, factor in pieces:
        together.role_factor(seat, factor)
        alone.role_factor(seat, factor)
        alone.role_chance(0, 0)  # reading weighs in what is pending: one piece
    assert together.role_odds(5) == alone.role_odds(5)
    assert list(together.weights) == list(alone.weights)
    assert list(together.deals) == list(alone.deals)
    assert len(together.deals) < 1500  # pruned on the way


def test_a_vote_weighs_each_deal_by_the_running_product_of_its_mutineers_chances() -> None:
    belief = Belief(11, 3, "sailor")
    raised = {seat: seat % 3 for seat in range(11) if seat != 6}
    vote = Vote(captain=6, lieutenant=7, navigator=8, raised=raised, ship="0,0")
    start = list(belief.weights)
    belief.see_vote(vote)
    belief.role_chance(0, 0)
    with_, against = GENERIC["raise_with"], GENERIC["raise_against"]
    expected = []
    for weight, deal in zip(start, belief.deals, strict=True):
        factor = 1.0
        for seat, guns in raised.items():
            if seat == 3:
                continue
            captain, mine = SIDE_INDEX[deal[6]], SIDE_INDEX[deal[seat]]
            chance = with_[mine] if mine == captain else against[mine]
            factor = factor * (chance if guns > 0 else 1 - chance)
        expected.append(weight * factor)
    assert list(belief.weights) == expected


def test_the_chart_points_each_side_home() -> None:
    odds = goal_odds("quick")
    assert odds["2,4"]["sailor"] > odds["-2,4"]["sailor"]
    assert best_colour("quick", "0,0", "sailor") == "blue"
    assert best_colour("quick", "0,0", "pirate") == "red"
    assert best_colour("quick", "0,8", "cult") == "yellow"


# -- the hard bot --------------------------------------------------------------------------------


def test_the_hard_look_ahead_keeps_the_normal_choice_unless_clearly_beaten() -> None:
    base = [0.0] * SAMPLES
    lucky = [1.0] + [0.0] * (SAMPLES - 1)  # one lucky world is not a reason to deviate
    assert pick_best([base, lucky]) == 0
    better = [0.3 if i % 4 else 0.0 for i in range(SAMPLES)]
    assert pick_best([base, lucky, better]) == 2


def mutiny_table(space: str = "0,0") -> KrakenState:
    """7 players, seat 0 captain with seats 1 and 2 as officers, the fists about to close and
    the ship at `space`; every seat has its 3 guns."""
    state = kraken.new(7, 1, roles=list(SAILOR_VIEW_ROLES[0]), captain=0, characters=False)
    state.ship = space  # a stacked position: nothing has been revealed yet
    state.apply(0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    assert state.phase == "mutiny"
    return state


def raised(state: KrakenState, judge_class: type[Judge], seat: int) -> int:
    view = state.view(seat)
    judge = judge_class(NormalBot(seat, random.Random(0)).think(view), view, random.Random(0))
    return int(judge.mutiny(state.legal(seat))["guns"])


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_only_the_cult_leader_raises_every_gun_in_the_first_mutiny(level: str) -> None:
    """At the start nothing is known and nothing is at stake yet: sailors and pirates keep their
    guns for later. The cult leader (seat 6), alone and able to take the ship alone, makes a
    grab for the captaincy."""
    state = mutiny_table()
    raised = {}
    for seat in sorted(state.waiting_for()):
        action = get_bot("kraken", level, seat, random.Random(seat)).choose(
            state.view(seat), state.legal(seat)
        )
        assert action is not None
        raised[seat] = action["guns"]
    assert raised[6] == 3
    assert all(guns < 3 for seat, guns in raised.items() if seat != 6), raised


def test_guns_are_kept_for_the_mutiny_that_matters(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutiny worth having, early in the voyage: one gun, two kept. The same mutiny when the
    next card could sail into Crimson Cove: everything."""
    monkeypatch.setattr(Judge, "mutiny_want", lambda self: 0.35)
    assert raised(mutiny_table(), Judge, 4) == 1
    assert raised(mutiny_table("-2,6"), Judge, 4) == 3


@pytest.mark.parametrize(("want", "normal", "hard"), [(0.1, 0, 0), (0.2, 2, 0), (0.4, 3, 2)])
def test_the_hard_bot_mutinies_more_warily(
    monkeypatch: pytest.MonkeyPatch, want: float, normal: int, hard: int
) -> None:
    monkeypatch.setattr(Judge, "mutiny_want", lambda self: want)
    state = mutiny_table("-2,6")  # a red card ends the game: no reason to keep guns back
    for judge_class, guns in ((Judge, normal), (HardJudge, hard)):
        assert raised(state, judge_class, 4) == guns


# -- better than chance ---------------------------------------------------------------------------


def faction_wins(side: str, strong: str, players: int, seeds: range) -> int:
    wins = 0
    for seed in seeds:
        state = kraken.new(players, seed)
        roles = [state.view(s)["faction"] for s in range(players)]
        levels = [strong if SIDE_OF[f] == side else "random" for f in roles]
        wins += play(players, seed, levels).result()["winner"] == side
    return wins


@pytest.mark.parametrize(
    ("side", "players"),
    [
        pytest.param("sailor", 7, marks=pytest.mark.slow),  # (the slow run: each over 10 s)
        ("cult", 7),
        pytest.param("pirate", 7, marks=pytest.mark.slow),
        ("sailor", 5),
    ],
)
def test_normal_and_hard_beat_random_for_their_faction(side: str, players: int) -> None:
    seeds = range(100, 124)  # a dozen games was a coin toss for pirates (9 against 9)
    random_wins = faction_wins(side, "random", players, seeds)
    normal_wins = faction_wins(side, "normal", players, seeds)
    hard_wins = faction_wins(side, "hard", players, seeds)
    assert normal_wins > random_wins, (normal_wins, random_wins)
    assert hard_wins > random_wins, (hard_wins, random_wins)


# -- a search shows a group: "cult" is the leader or a cultist ------------------------------------

ELEVEN = ["sailor", "pirate", "sailor", "pirate", "sailor", "pirate", "sailor", "pirate", "sailor",
          "cultist", "cult_leader"]  # fmt: skip
TO_UPRISING = ["yellow-uprising", "red-drunk", "red-drunk", "blue-drunk"]  # 0,0 to 0,2
TO_SEARCH = ["red-mermaid", "blue-drunk", "red-drunk", "blue-drunk"]  # 0,2 to -1,3: a search


def converted_then_searched(
    players: int, roles: list[str], leader: int, convert: int, captain: int, searched: int
) -> KrakenState:
    """The leader converts `convert` after the first navigation; in the second the captain
    searches `searched` (the map's cabin search at -1,3), then must pick for the mermaid."""
    state = kraken.new(
        players, 1, roles=roles, captain=captain, characters=False,
        deck=TO_UPRISING + TO_SEARCH, rituals=["conversion"],
    )  # fmt: skip
    assert isinstance(state, KrakenState)
    others = [s for s in range(players) if s not in (captain, leader, convert, searched)]
    for (lieutenant, navigator), card in zip(
        (others[:2], others[2:4]), ("yellow-uprising", "red-mermaid"), strict=True
    ):
        sail(state, lieutenant, navigator, card, "red-drunk", card)
        if state.phase == "convert":
            state.apply(leader, {"type": "convert", "target": convert})
    state.apply(captain, {"type": "pick", "target": searched})
    assert state.view(captain)["known"].get(str(searched)) in ("cult", "cult_leader")
    return state


def test_a_sailor_who_found_cult_weighs_leader_against_convert() -> None:
    """Seat 0 searched seat 5 after a conversion: the cult leader, or the player the leader
    converted. Both deals look the same to seat 0, and so does its belief."""
    swapped = list(SAILOR_VIEW_ROLES[0])
    swapped[5], swapped[6] = "cult_leader", "sailor"
    minds = []
    for roles, leader, convert in ((SAILOR_VIEW_ROLES[0], 6, 5), (swapped, 5, 6)):
        state = converted_then_searched(7, list(roles), leader, convert, captain=0, searched=5)
        assert state.view(0)["known"] == {"5": "cult"}
        minds.append(NormalBot(0, random.Random(1)).think(state.view(0)))
    first, second = minds
    assert [first.side_odds(s) for s in range(7)] == [second.side_odds(s) for s in range(7)]
    assert first.side_odds(5)["cult"] == 1.0
    assert 0.0 < first.leader_odds(5) < 1.0  # not the leader for sure: maybe the convert
    assert first.leader_odds(6) > 0.0  # ...and then the leader is someone else


def test_with_nobody_converted_cult_can_only_be_the_leader() -> None:
    state = kraken.new(7, 1, roles=list(SAILOR_VIEW_ROLES[0]), captain=0, characters=False,
                       deck=["yellow-uprising", *TO_SEARCH], rituals=["gun_stash"])  # fmt: skip
    state.ship = "0,2"  # no uprising yet: nobody can have been converted
    sail(state, 1, 2, "red-mermaid", "blue-drunk", "red-mermaid")
    state.apply(0, {"type": "pick", "target": 6})
    assert state.view(0)["known"] == {"6": "cult"}
    mind = NormalBot(0, random.Random(1)).think(state.view(0))
    assert mind.leader_odds(6) == 1.0  # a deduction, not something the search said


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_cultist_does_not_feed_a_mere_cult_to_the_kraken(level: str) -> None:
    """The starting cultist (seat 9, captain) searched seat 10 after a conversion: the leader,
    or the leader's convert. Feeding the leader would win, feeding a convert loses a cultist;
    the bot cannot tell which, so it chooses the same in both deals (and the normal bot does
    not gamble on a 'cult' it cannot tell from a cultist)."""
    swapped = list(ELEVEN)
    swapped[0], swapped[10] = "cult_leader", "sailor"
    choices = []
    for roles, leader, convert in ((ELEVEN, 10, 0), (swapped, 0, 10)):
        state = converted_then_searched(11, roles, leader, convert, captain=9, searched=10)
        assert state.view(9)["known"] == {"10": "cult"}
        state.pick_reason = "feed_the_kraken"  # stacked: the mermaid's pick becomes a feeding
        bot = get_bot("kraken", level, 9, random.Random(3))
        choices.append(bot.choose(state.view(9), state.legal(9)))
    assert choices[0] == choices[1]
    if level == "normal":
        assert choices[0] != {"type": "pick", "target": 10}


def test_the_leader_counts_a_cult_found_by_its_search_as_a_cultist() -> None:
    state = kraken.new(11, 1, roles=list(ELEVEN), captain=0, characters=False,
                       deck=TO_UPRISING * 2,
                       rituals=["cult_cabin_search", "gun_stash"])  # fmt: skip
    for lieutenant, navigator in ((1, 9), (3, 4)):
        sail(state, lieutenant, navigator, "yellow-uprising", "red-drunk", "yellow-uprising")
    assert state.view(10)["known"] == {"0": "sailor", "1": "pirate", "9": "cult"}
    state.apply(0, {"type": "pick", "target": 5})  # 0,2 yellow to -1,3: the map's search first
    assert state.phase == "stash"
    action = NormalBot(10, random.Random(1)).choose(state.view(10), state.legal(10))
    assert action == {"type": "stash", "recipients": [9, 10, 10]}
