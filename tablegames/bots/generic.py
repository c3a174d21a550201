"""Bots for any game through the contract alone: random, by the game's heuristic, or by
determinized Monte Carlo look-ahead in states rebuilt from the bot's own view.

A game without bots of its own (`own.py`) gets its levels here, by what it offers:

| the game implements | random   | normal                       | hard                            |
|---------------------|----------|------------------------------|---------------------------------|
| `from_view`         | AnyLegal | look-ahead, 96 playouts      | look-ahead modelling people     |
| `heuristic` only    | AnyLegal | heuristic, a fifth at random | heuristic, always its best      |
| neither, real time  | AnyLegal | AnyLegal, and `level_note`   | AnyLegal, and `level_note`      |

Look-ahead (`LookAhead`): for each determinization (`from_view(view, rng)`: what the seat saw
as it was, the rest dealt anew) every legal action is tried once, each with the same chances
after it, and the game played out by random players; the action that won the largest share of
those games is played. That is `normal`. `hard` plays 480 playouts, or as many as 0.2 s
allow (its decision's p99 under 250 ms of CPU), and models people as far as the game lets it:
- its playouts' players play like the game's `normal` (`look_ahead`'s `people`: its own bots
  of that level, else its heuristic's best three moves in four);
- it believes what they did (`beliefs.py`): the states it plays out from are carried from one
  of its decisions to the next through the moves it saw, each player's as `people` would have
  made it, so the disc a Skull player put down is the one such a player puts down first;
- it keeps the move of the game's `normal` unless its playouts show another surely better
  (`surely_better`: the gain, state by state, two standard errors above nothing): a model of
  people that is wrong then costs little.
A game that reads more from a view than `from_view` deals at random may give a look-ahead its
own dealer (`look_ahead`'s `deals`): Sealed Bids' `hard` leaves the bids sealed before its own
for its playouts to make as their players bid (drawn at random, they made it no stronger than
`normal`).
A game with no model of its players (neither bots of its own nor a heuristic) has its players
imagined at random, as `normal` imagines them: `hard` then plays its own playouts' best, and
is no stronger than `normal` (Love Letter before it had a heuristic; players imagined as the
search itself, a tree each, were no stronger either). In Skull it beats the game's own
`normal`, and a trivial fixed policy no longer beats it (docs/adding-a-game.md has the
figures).

A game of many rounds says how a seat stands where a playout may stop short of the end
(`State.evaluate`: at the end of a round, by the scores): its playouts end there, judged by it,
so each move is weighed by what it changes in its round rather than drowned in the rounds after
(`bench/generic_bots.py --plugin tests.plugins.sealedbids:SEALED_BIDS` measures `hard` against
`normal` so). It stops after its playouts, or when a decision has taken `max_seconds` (at least
one determinization is always played), so one decision's time is bounded whatever the game:
`bench/bot_levels.py` prints its p99.

No level is silently random: where a game has neither hook, `level_note` says so in a sentence
that the command line, the setup screen and the network table form show beside the level.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from ..rules import Action, Bot, Game, IllegalAction, State, View
from ..rules.core import resolve
from .beliefs import Beliefs, BotMaker, clone
from .own import own_bots

#: Playouts per decision (shared among the legal actions), and the most a decision may take:
#: `hard` plays 480, or as many as 0.2 s allow (its p99 decision under 250 ms of CPU).
NORMAL_PLAYOUTS, HARD_PLAYOUTS = 96, 480
NORMAL_SECONDS, HARD_SECONDS = 0.25, 0.2
#: The share of a decision's time `hard` may spend carrying its beliefs to the decision.
BELIEVING = 0.3
#: How sure `hard` must be to overrule the move of the level it keeps (`keeps`): the best
#: action's gain over it, state by state, this many standard errors above nothing, over at
#: least so many states.
SURE, FEWEST_STATES = 2.0, 4
#: Mixed into a playout's luck for its players' moves (its chances use the luck as it is).
PEOPLES_LUCK = 0x5EED_0F_9E0913
#: Moves a playout makes at most before it is scored as it stands (a game that will not end).
PLAYOUT_MOVES = 400
#: How often the heuristic bot at `normal` plays at random instead of its best.
NORMAL_SLIPS = 0.2
#: How often the players of `hard`'s playouts slip from the game's heuristic (when it has one)
#: to a move at random: players who all play the heuristic's best are a model too predictable
#: to be right (in Sealed Bids they all bid alike, and cancel out), players who play at random
#: one too blind. On Sealed Bids, hard against two normal bots won 0.49 of 60 deals guided half
#: the time, 0.57 three times in four, 0.25 never; over 150 other deals 0.35 always guided,
#: 0.43 three in four.
GUIDED_SLIPS = 0.25
#: How the players of a look-ahead's playouts play: a bot maker, or None (at random).
People = BotMaker | None
#: How a look-ahead deals what its seat cannot see: `from_view`'s signature (a game's own reading
#: of the view, where it knows better than chance what each player holds).
Dealer = Callable[[View, random.Random], State]


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
    rebuilt from this seat's view, the players in them played as `people` play; with `beliefs`,
    the states are the ones what people did makes likely; with `keeps`, that bot's choice is
    played unless the playouts show another one surely better (see the module docstring)."""

    #: What a decision's `max_seconds` are counted on: the time a player waits; measures of
    #: strength count the thread's CPU time instead, so a busy machine plays the same bots.
    clock: ClassVar[Callable[[], float]] = time.monotonic

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        state: type[State],
        playouts: int,
        max_seconds: float,
        people: People = None,
        beliefs: Beliefs | None = None,
        keeps: Bot | None = None,
        sure: float = SURE,
        deals: Dealer | None = None,
    ) -> None:
        super().__init__(seat, rng)
        self.state, self.playouts, self.max_seconds = state, playouts, max_seconds
        #: How the players of a playout play (this seat's later moves too): a bot maker (the
        #: game's heuristic, its own `normal`...), or None: at random.
        self.people = people
        #: The states it believes it may be in (None: each dealt by `from_view` alone).
        self.beliefs = beliefs
        #: The bot whose choice it plays unless its playouts surely find better (None: none).
        self.keeps = keeps
        #: How many standard errors its best must gain over the kept move (`surely_better`).
        self.sure = sure
        #: How it deals the states it plays out from (None: the game's `from_view`).
        self.deals = deals or state.from_view
        self.played = 0  # playouts in the last decision (for the benches)

    def choose(self, view: View, legal: list[Action]) -> Action | None:
        if len(legal) <= 1 or view.get("seat") != self.seat:
            return legal[0] if legal else None
        waiting = view.get("waiting")
        if isinstance(waiting, list) and self.seat not in waiting:
            return super().choose(view, legal)  # optional moves: as the random bot
        clock = LookAhead.clock  # (read from the class: a function there binds no self)
        started = clock()
        give_up = started + self.max_seconds
        usual = self.keeps.choose(view, legal) if self.keeps is not None else None
        beliefs = self.beliefs
        if beliefs is not None:
            reading = started + BELIEVING * self.max_seconds
            beliefs.update(view, lambda: clock() > reading)
        # values[w][a]: what action a won in the playout of the w-th state
        values: list[list[float]] = []
        rounds = max(1, self.playouts // len(legal))
        for played in range(rounds):
            if played and clock() > give_up:
                break
            # (quiet states: no events are made)
            world = beliefs.world(view) if beliefs is not None else self.deals(view, self.rng)
            # Every action is played out with the same chances after it (common random
            # numbers), so the comparison between actions is not drowned in the playouts' luck.
            luck = self.rng.getrandbits(64)
            values.append([self._playout(world, action, luck) for action in legal])
        self.played = len(values) * len(legal)
        chosen = self._best(legal, values, usual)
        if beliefs is not None:
            beliefs.moved = chosen
        return chosen

    def _best(self, legal: list[Action], values: list[list[float]], usual: Action | None) -> Action:
        """The action that won most (ties at random), unless `usual` is one of `legal` and the
        playouts do not show the best surely better than it (`surely_better`)."""
        totals = [sum(won) for won in zip(*values, strict=True)]
        best = max(totals)
        pick = self.rng.choice([index for index, total in enumerate(totals) if total == best])
        if usual is None or usual not in legal:
            return legal[pick]
        kept = legal.index(usual)
        if pick != kept and surely_better([won[pick] - won[kept] for won in values], self.sure):
            return legal[pick]
        return usual

    def _playout(self, world: State, action: Action, luck: int) -> float:
        """This seat's share of the win after it plays `action` in a copy of `world`, every
        later move as `people` play, `luck` drawing the chances: 1 alone, 1/n among n winners,
        0 for a loss or an unfinished game; or, at the first position where the game judges how
        the seat stands (`evaluate`: the end of a round), that judgement."""
        world = clone(world, random.Random(luck), quiet=True, trusted=True)  # (from `legal`)
        players: dict[int, Bot] = {}
        judged: float | None = None
        moves_luck = random.Random(luck ^ PEOPLES_LUCK)
        try:
            world.apply(self.seat, action)
            for _ in range(PLAYOUT_MOVES):
                if world.over:
                    break
                judged = world.evaluate(self.seat)
                if judged is not None:
                    break
                waiting = sorted(world.waiting_for())
                if not waiting:
                    break
                seat = waiting[0]
                moves = world.legal(seat)
                world.apply(seat, self._move(world, seat, moves, moves_luck, players))
        except IllegalAction:  # a determinization the game could not play on: no evidence
            return 0.0
        if judged is not None:
            return judged
        if not world.over:
            return 0.0
        winners = world.result()["winners"]
        return 1.0 / len(winners) if self.seat in winners else 0.0

    def _move(
        self,
        world: State,
        seat: int,
        moves: list[Action],
        luck: random.Random,
        players: dict[int, Bot],
    ) -> Action:
        """What `seat` plays in a playout: as `people` play (a chance slip of theirs, an
        action not listed, or nothing: one at random)."""
        people = self.people
        if people is None or len(moves) == 1:
            return luck.choice(moves)
        player = players.get(seat)
        if player is None:
            player = players[seat] = people(seat, random.Random(luck.getrandbits(32)))
        chosen = player.choose(world.view(seat), moves)
        return chosen if chosen is not None and chosen in moves else luck.choice(moves)


def surely_better(gains: list[float], sure: float = SURE) -> bool:
    """True if `gains` (what one action won over another, state by state) are above nothing
    by more than `sure` standard errors, over at least `FEWEST_STATES` states."""
    count = len(gains)
    if count < FEWEST_STATES:
        return False
    mean = sum(gains) / count
    spread = math.sqrt(sum((gain - mean) ** 2 for gain in gains) / (count - 1))
    return mean > 0 and mean > sure * spread / math.sqrt(count)


def thinks(game: Game) -> bool:
    """True if the generic bots can do better than chance at `game`: a turn-based game with
    `from_view` (look-ahead) or a `heuristic`."""
    return not game.realtime and (game.implements("from_view") or game.implements("heuristic"))


@dataclass(frozen=True)
class LookAheadMaker:
    """Makes `game`'s generic look-ahead bots (`look_ahead`); a level's bot maker."""

    game: Game
    playouts: int
    seconds: float
    people: str | BotMaker | None
    reads: bool = False
    keeps: str | BotMaker | None = None
    sure: float = SURE
    deals: Dealer | None = None

    def __call__(self, seat: int, rng: random.Random) -> LookAhead:
        named = self.people
        people = people_like(self.game, named) if isinstance(named, str) else named
        state = self.game.state_class
        # (players imagined at random, as the generic `normal` imagines them: nothing to read
        # what they did by, and keeping `normal`'s move would keep a noisier copy of its own)
        reads, keeps = (self.reads, self.keeps) if people is not None else (False, None)
        beliefs = Beliefs(seat, state, people, random.Random(rng.random())) if reads else None
        if isinstance(keeps, str):
            keeps = {**levels(self.game), **own_levels(self.game)}[keeps]
        if isinstance(keeps, LookAheadMaker):  # (a look-ahead kept keeps nothing in turn)
            keeps = replace(keeps, keeps=None)
        usual = keeps(seat, random.Random(rng.random())) if keeps is not None else None
        return LookAhead(
            seat,
            rng,
            state,
            self.playouts,
            self.seconds,
            people,
            beliefs,
            usual,
            self.sure,
            self.deals,
        )


def look_ahead(
    game: Game,
    playouts: int = HARD_PLAYOUTS,
    seconds: float = HARD_SECONDS,
    people: str | BotMaker | None = "normal",
    reads: bool = True,
    keeps: str | BotMaker | None = "normal",
    sure: float = SURE,
    deals: Dealer | None = None,
) -> BotMaker:
    """The generic look-ahead for `game` (it needs `from_view`), as a level's bot maker: the
    generic `hard` as it is by default.

    It plays `playouts` playouts a decision, or as many as `seconds` allow, imagining the
    players in them as `people` play: like a level of the game (``"normal"``, the default: its
    own bots of that level, else its heuristic; see `people_like`), by the game's heuristic
    (``"heuristic"``), as a bot maker of one's own, or None: at random. `reads`: it believes
    the states what the players did makes likely, as `people` would have played (`Beliefs`),
    not only as `from_view` deals them. `keeps`: it plays that level's (or bot maker's) choice
    unless its playouts show another move surely better (None: always its playouts' best),
    its gain `sure` standard errors above nothing (the best of many moves is often two above
    one no worse by chance alone: Love Letter's `hard`, keeping a certain Guard, asks 3).
    `deals`: how it deals what its seat cannot see, `from_view`'s signature (None: the game's
    `from_view`, everything unseen at random), for a game that reads more from a view than
    chance (Love Letter's `hard` deals each hand by what the round's log says of it); with
    `reads` the beliefs deal their fresh states by `from_view` still.
    With players imagined at random (`people` None, or no model of them), it neither reads
    nor keeps: it would read nothing, and keep a noisier copy of its own choice."""
    return LookAheadMaker(game, playouts, seconds, people, reads, keeps, sure, deals)


def by_heuristic(game: Game, slips: float = 0.0) -> BotMaker:
    """The generic bot that plays `game`'s `heuristic` best, as a level's bot maker, but for
    a `slips` share of its decisions, played at random."""
    state = game.state_class
    return lambda seat, rng: ByHeuristic(seat, rng, state, slips)


def own_levels(game: Game) -> Mapping[str, BotMaker]:
    """The bots `game` declares of its own (`Game.bots`), by level: the others are generic."""
    where = own_bots(game)
    return resolve(where) if where else {}


def people_like(game: Game, level: str) -> People:
    """How a look-ahead imagines the players of `game` (`look_ahead`'s `people`): as
    ``"heuristic"``, players of the game's heuristic, its best three moves in four (at random
    in a game without one); as a level (``"normal"``), that level's own bots when the game has
    them (a look-ahead of its own excepted: too slow to play inside another's playouts), else
    as ``"heuristic"``."""
    own = own_levels(game).get(level)
    if own is not None and not isinstance(own, LookAheadMaker):
        return own
    return by_heuristic(game, GUIDED_SLIPS) if game.implements("heuristic") else None


def levels(game: Game) -> dict[str, BotMaker]:
    """The generic bots of each level for `game`, by what it implements (module docstring)."""
    if not thinks(game):
        return {level: AnyLegalAction for level in ("random", "normal", "hard")}
    if game.implements("from_view"):
        return {
            "random": AnyLegalAction,
            "normal": look_ahead(
                game, NORMAL_PLAYOUTS, NORMAL_SECONDS, people=None, reads=False, keeps=None
            ),
            "hard": look_ahead(game),
        }
    return {
        "random": AnyLegalAction,
        "normal": by_heuristic(game, NORMAL_SLIPS),
        "hard": by_heuristic(game),
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
