"""Bots for any game through the contract alone: random, by the game's heuristic, or by
determinized Monte Carlo look-ahead in states rebuilt from the bot's own view.

A game without bots of its own (`own.py`) gets its levels here, by what it offers:

| the game implements | random   | normal                       | hard                        |
|---------------------|----------|------------------------------|-----------------------------|
| `from_view`         | AnyLegal | look-ahead, 96 playouts      | look-ahead, 480 playouts    |
| `heuristic` only    | AnyLegal | heuristic, a fifth at random | heuristic, always its best  |
| neither, real time  | AnyLegal | AnyLegal, and `level_note`   | AnyLegal, and `level_note`  |

Look-ahead (`LookAhead`): for each determinization (`from_view(view, rng)`: what the seat saw
as it was, the rest dealt anew) every legal action is tried once and the game played out by
random players (in `hard`, when the game has a heuristic, its best in three moves of four: a
model of the others neither blind nor too predictable); the action that won the largest share of
those games is played. A game of many rounds says how a seat stands where a playout may stop
short of the end (`State.evaluate`: at the end of a round, by the scores): its playouts end
there, judged by it, so each move is weighed by what it changes in its round rather than
drowned in the rounds after (`bench/generic_bots.py --plugin tests.plugins.sealedbids:SEALED_BIDS`
measures `hard` against `normal` so). It stops after its playouts, or when a decision has taken
`max_seconds` (at least one determinization is always played), so one decision's time is
bounded whatever the game: `bench/generic_bots.py` prints its p99.

No level is silently random: where a game has neither hook, `level_note` says so in a sentence
that the command line, the setup screen and the network table form show beside the level.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable

from ..rules import Action, Bot, Game, IllegalAction, State, View
from .own import own_bots

BotMaker = Callable[[int, random.Random], Bot]

#: Playouts per decision (shared among the legal actions), and the most a decision may take.
NORMAL_PLAYOUTS, HARD_PLAYOUTS = 96, 480
NORMAL_SECONDS, HARD_SECONDS = 0.25, 1.0
#: Moves a playout makes at most before it is scored as it stands (a game that will not end).
PLAYOUT_MOVES = 400
#: How often the heuristic bot at `normal` plays at random instead of its best.
NORMAL_SLIPS = 0.2
#: How often a move in `hard`'s playouts is the heuristic's best (the rest by chance): players
#: who all play the heuristic's best are a model too predictable to be right (in Sealed Bids
#: they all bid alike, and cancel out), players who play at random one too blind. On Sealed
#: Bids, hard against two normal bots won 0.49 of 60 deals guided half the time, 0.57 three
#: times in four, 0.25 never; over 150 other deals 0.35 always guided, 0.43 three in four.
GUIDED_SHARE = 0.75


class AnyLegalAction:
    """Plays a uniformly random action among those the game waits for it to take.

    Works for every game through the contract alone (the view's `waiting`): the `random` level
    of every game without bots of its own, and a fuzzer's player in reliability tests.
    """

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        waiting = view.get("waiting")
        if isinstance(waiting, list) and self.seat not in waiting and self.rng.random() < 0.9:
            return None  # mostly leave optional moves alone, so games still end
        return self.rng.choice(legal) if legal else None


class ByHeuristic(AnyLegalAction):
    """Plays the action the game's `State.heuristic` rates best (ties at random), except a
    `slips` share of its decisions, played at random."""

    def __init__(self, seat: int, rng: random.Random, state: type[State], slips: float) -> None:
        super().__init__(seat, rng)
        self.state, self.slips = state, slips

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if not legal or self.rng.random() < self.slips:
            return super().choose(view, legal)
        return best_by(self.state, view, legal, self.rng)


def best_by(state: type[State], view: View, legal: list[Action], rng: random.Random) -> Action:
    """The action of `legal` the game's heuristic rates best for `view`'s seat (ties at random)."""
    rated = [
        (state.heuristic(view, action), rng.random(), index) for index, action in enumerate(legal)
    ]
    return legal[max(rated)[2]]


class LookAhead(AnyLegalAction):
    """Determinized Monte Carlo: the legal action that wins most often in playouts from states
    rebuilt from this seat's view (see the module docstring)."""

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        state: type[State],
        playouts: int,
        max_seconds: float,
        guided: bool = False,
    ) -> None:
        super().__init__(seat, rng)
        self.state, self.playouts, self.max_seconds = state, playouts, max_seconds
        self.guided = guided  # playouts mostly follow the heuristic's best (`GUIDED_SHARE`)

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if len(legal) <= 1 or view.get("seat") != self.seat:
            return legal[0] if legal else None
        waiting = view.get("waiting")
        if isinstance(waiting, list) and self.seat not in waiting:
            return super().choose(view, legal)  # optional moves: as the random bot
        wins = [0.0] * len(legal)
        rounds = max(1, self.playouts // len(legal))
        give_up = time.monotonic() + self.max_seconds
        for played in range(rounds):
            if played and time.monotonic() > give_up:
                break
            world = self.state.from_view(view, self.rng)  # quiet: no events are made
            # Every action is played out with the same chances after it (common random
            # numbers), so the comparison between actions is not drowned in the playouts' luck.
            luck = self.rng.getrandbits(64)
            for index, action in enumerate(legal):
                wins[index] += self._playout(copy.deepcopy(world), action, random.Random(luck))
        best = max(wins)
        return self.rng.choice([a for a, won in zip(legal, wins, strict=True) if won == best])

    def _playout(self, world: State, action: Action, luck: random.Random) -> float:
        """This seat's share of the win after it plays `action` in `world`, the rest by chance
        (or, mostly, the heuristic): 1 alone, 1/n among n winners, 0 for a loss or an
        unfinished game;
        or, at the first position where the game judges how the seat stands (`evaluate`: the
        end of a round), that judgement."""
        try:
            world.apply(self.seat, action)
            for _ in range(PLAYOUT_MOVES):
                if world.over:
                    break
                judged = world.evaluate(self.seat)
                if judged is not None:
                    return judged
                waiting = sorted(world.waiting_for())
                if not waiting:
                    return 0.0
                seat = waiting[0]
                moves = world.legal(seat)
                if self.guided and luck.random() < GUIDED_SHARE:
                    move = best_by(self.state, world.view(seat), moves, luck)
                else:
                    move = luck.choice(moves)
                world.apply(seat, move)
        except IllegalAction:  # a determinization the game could not play on: no evidence
            return 0.0
        if not world.over:
            return 0.0
        winners = world.result()["winners"]
        return 1.0 / len(winners) if self.seat in winners else 0.0


def thinks(game: Game) -> bool:
    """True if the generic bots can do better than chance at `game`: a turn-based game with
    `from_view` (look-ahead) or a `heuristic`."""
    return not game.realtime and (game.implements("from_view") or game.implements("heuristic"))


def levels(game: Game) -> dict[str, BotMaker]:
    """The generic bots of each level for `game`, by what it implements (module docstring)."""
    state = game.state_class
    if not thinks(game):
        return {level: AnyLegalAction for level in ("random", "normal", "hard")}
    if game.implements("from_view"):
        guided = game.implements("heuristic")
        return {
            "random": AnyLegalAction,
            "normal": lambda seat, rng: LookAhead(
                seat, rng, state, NORMAL_PLAYOUTS, NORMAL_SECONDS
            ),
            "hard": lambda seat, rng: LookAhead(
                seat, rng, state, HARD_PLAYOUTS, HARD_SECONDS, guided
            ),
        }
    return {
        "random": AnyLegalAction,
        "normal": lambda seat, rng: ByHeuristic(seat, rng, state, NORMAL_SLIPS),
        "hard": lambda seat, rng: ByHeuristic(seat, rng, state, 0.0),
    }


def level_note(game: Game, brief: bool = False) -> str | None:
    """A sentence for where a bot level is chosen when the levels of `game`'s bots do not
    differ ("Kuhn poker has no bots of its own..."), or what the game says of its levels
    (`Game.bots_note`: "normal and hard read signals"), else None; `brief`: a few words for a
    form's hint."""
    if game.bots_note:
        return game.bots_note if brief else f"{game.title} bots: {game.bots_note}."
    if own_bots(game) or thinks(game):
        return None
    if brief:
        return "every level plays at random here"
    return (
        f"{game.title} has no bots of its own, nor a heuristic or from_view for the generic "
        "ones to think with: every level plays at random."
    )
