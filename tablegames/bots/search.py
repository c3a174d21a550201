"""The generic `hard`'s search where a game offers no model of its players: each player imagined
playing as the search itself plays, knowing only what it was told (Monte Carlo tree search over
what each player saw, one tree a player: "multiple-observer information set MCTS").

Every search starts from a state the seat may be in (`from_view`, or what it believes) and
walks down one tree per player: at a player's move, that player's tree picks among the moves
it may make (the most promising, by the wins they led to and how seldom they were tried); what
each player is told of a move (its events) leads it down its own tree. So a player's choices
depend on what it saw, never on another's hidden cards, and people who play to win replace the
players at random of a playout: the seat's own later moves too. Each tree grows by one node a
search, below which the game is played out at random, to its end or to where the game judges
how each seat stands (`State.evaluate`). The move played is the one the seat's tree tried most.

The states dealt from the seat's view all hold its own secrets as they are: the other players'
trees, learning from them, would learn its hand (in Love Letter they came to name its card with
every Guard). So every other search starts instead from a state as another player may believe
it (`from_view` of that player's view in a state dealt for the seat: the seat's secrets dealt
anew), and the other players' trees learn from those searches alone, the seat's from its own.

On Love Letter it is no stronger than the generic `normal` (players imagined at random, 96
playouts), nor at five times its time (`bench/bot_strength.py`, in docs/adding-a-game.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..rules import Action, Event, IllegalAction, State
from .beliefs import clone, plain

#: How much a search explores moves seldom tried against exploiting the best so far (UCB1's
#: constant, for wins between 0 and 1).
EXPLORE = 0.7
#: Moves a search makes at most before it is scored as it stands (a game that will not end).
MOST_MOVES = 400


class Node:
    """What one player knows after some moves: how often it came here, what it won from here,
    and how often it could have (`seen`: a move is legal in some states and not others)."""

    __slots__ = ("children", "seen", "visits", "won")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits, self.won, self.seen = 0, 0.0, 0

    def score(self) -> float:
        """UCB1 over the times this move could have been chosen (never learnt from: first)."""
        if not self.visits:
            return math.inf
        return self.won / self.visits + EXPLORE * math.sqrt(math.log(self.seen) / self.visits)


def move_key(action: Action) -> str:
    return "a" + repr(sorted(action.items()))


def told_key(events: list[Event], seat: int) -> str:
    """What `seat` was told of a move, as a key of its tree."""
    return "t" + repr([plain(e) for e in events if e["to"] is None or seat in e["to"]])


class Search:
    """One decision's search for `seat` among `legal` (the module docstring)."""

    def __init__(self, seat: int, players: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng
        self.trees = [Node() for _ in range(players)]
        self.searched = 0

    def run(self, world: State, learning: frozenset[int]) -> None:
        """One search from `world` (not changed): down the trees, a playout, and its result
        carried back up the trees of the players `learning`."""
        # (not quiet: what each player is told leads it down its tree; trusted: it plays
        # only what `legal` lists, no need to check)
        world = clone(world, random.Random(self.rng.getrandbits(64)), trusted=True)
        at: list[Node | None] = list(self.trees)
        paths: list[list[Node]] = [[] for _ in self.trees]
        try:
            won = self._play(world, at, paths)
        except IllegalAction:  # a state the game could not play on: no evidence
            return
        self.searched += 1
        for seat, path in enumerate(paths):
            if seat not in learning:
                continue
            for node in path:
                node.visits += 1
                node.won += won[seat]

    def best(self, legal: list[Action]) -> Action:
        """The move of `legal` the seat's tree tried most (the better won, of two as often)."""
        children = self.trees[self.seat].children

        def tried(action: Action) -> tuple[int, float]:
            node = children.get(move_key(action))
            return (node.visits, node.won / node.visits) if node and node.visits else (0, 0.0)

        return max(legal, key=tried)

    def shares(self, legal: list[Action]) -> list[float]:
        """The share of the searches each move of `legal` was tried in (for tests)."""
        children = self.trees[self.seat].children
        counts = [children[k].visits if (k := move_key(a)) in children else 0 for a in legal]
        return [count / max(1, sum(counts)) for count in counts]

    def _play(self, world: State, at: list[Node | None], paths: list[list[Node]]) -> list[float]:
        """Plays `world` on, each player by its tree while it has one here, and what each seat
        won: a share of the win, or the game's judgement where it judges."""
        players = len(at)
        for moved in range(MOST_MOVES):
            if world.over:
                winners = world.result()["winners"]
                return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
            if moved:
                judged = [world.evaluate(seat) for seat in range(players)]
                if judged[self.seat] is not None:
                    return [value or 0.0 for value in judged]
            waiting = world.waiting_for()
            if not waiting:
                break
            mover = self.seat if not moved else min(waiting)
            moves = world.legal(mover)
            node = at[mover]
            if node is None or len(moves) == 1:
                action, chosen = self.rng.choice(moves), None
            else:
                action, chosen = self._choose(node, moves)
                paths[mover].append(chosen)
            events = world.apply(mover, action)
            if all(node is None for node in at):
                continue
            for seat, node in enumerate(at):
                if node is None:
                    continue
                if seat == mover and node is not None and chosen is not None:
                    if chosen.visits == 0:  # (a node new in this search: the tree ends here)
                        at[seat] = None
                        continue
                    node = chosen
                key = told_key(events, seat)
                below = node.children.get(key)
                if below is None:
                    node.children[key] = Node()
                at[seat] = below
        return [0.0] * players

    def _choose(self, node: Node, moves: list[Action]) -> tuple[Action, Node]:
        """A move by the tree at `node`: one never tried here, else the best by UCB1."""
        children = node.children
        keyed = [(move_key(action), action) for action in moves]
        fresh = [(key, action) for key, action in keyed if key not in children]
        for key, _ in keyed:
            if key in children:
                children[key].seen += 1
        if fresh:
            key, action = self.rng.choice(fresh)
            child = children[key] = Node()
            child.seen = 1
            return action, child
        key, action = max(keyed, key=lambda pair: children[pair[0]].score())
        return action, children[key]


def search(
    seat: int,
    players: int,
    legal: list[Action],
    worlds: Callable[[], State],
    rng: random.Random,
    searches: int,
    out_of_time: Callable[[], bool],
) -> Search:
    """Up to `searches` searches from states `worlds` makes, as time allows (at least one)."""
    tree = Search(seat, players, rng)
    me, others = frozenset((seat,)), frozenset(range(players)) - {seat}
    for done in range(searches):
        if done and out_of_time():
            break
        world = worlds()
        if done % 2 == 0:
            tree.run(world, me)
        else:  # (a state as another player may believe it: the seat's own secrets dealt anew)
            other = rng.choice(sorted(others))
            tree.run(type(world).from_view(world.view(other), rng), others)
    return tree
