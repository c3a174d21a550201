"""What a seat believes of what it could not see: states it could be in, carried from one of its
decisions to the next and kept as people would have made the moves it saw.

`from_view` deals what a seat cannot see at random; people choose much of it (the disc put down
first, the card kept), and their choices show in what they do next. `Beliefs` keeps a set of
states (particles). At each of the seat's decisions every one is carried on through the moves
made since the last: the seat's own as it made it, each other player's as `people` would make it
(a move of theirs the model would not have made, but one that looks the same to the seat, costs
the state most of its weight: `SLIP`). A state lives on only if every move tells the seat what
its log says it was told (the same events) and it ends at the very view the seat has now; the
survivors are drawn again in proportion to their weights. So a player who bid may be believed to
have flowers down, and a disc turned up is what it was in every state kept.

Nothing but the contract is read: `from_view` (the first states, and a fresh start), `apply`'s
events, `waiting_for` and `view`. When no state survives (chance dealt the seat something else,
a log cut short), the set starts afresh from the view; in a game where that happens at every
decision (a card drawn from a deck the states had in another order) the beliefs are left to
`from_view` after a few fresh starts (`GIVE_UP`), and so cost nothing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from ..rules import Action, Bot, Event, IllegalAction, State, View

BotMaker = Callable[[int, random.Random], Bot]

#: States carried between decisions.
PARTICLES = 32
#: The weight a state keeps when a player's move in it is one the model would not have made.
SLIP = 0.1
#: Moves a state is carried through between two decisions at most (a state that never gets
#: back to the seat is no state it is in).
MOST_MOVES = 200
#: Other moves tried for a player when the model's does not tell the seat what it was told.
OTHER_MOVES = 24
#: Draws of chance tried for the seat's own move when what chance dealt differs from what the
#: seat was told (a disc it lost taken at random).
CHANCE_TRIES = 6
#: Fresh starts in a row after which a game's states are left to `from_view`.
GIVE_UP = 2
#: View keys a state cannot reproduce: the log (matched event by event instead) and what the
#: table adds to a view.
UNCOMPARED = frozenset(("log", "talk", "now", "speed"))


def clone(world: State, chance: random.Random, quiet: bool = False, trusted: bool = False) -> State:
    """A copy of `world` drawing its chance from `chance` (copying a `random.Random` costs ten
    times the rest of a state), `quiet` (no events) and `trusted` (its moves taken from `legal`
    unchecked) as asked."""
    copied: State = copy.deepcopy(world, {id(world.rng): chance})
    copied.quiet, copied.trusted = quiet, trusted
    return copied


def plain(value: object) -> object:
    """`value` with its tuples as lists, as it crosses the network (events compare so)."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


class Beliefs:
    """The states a seat may be in, kept as `people` would have played (the module docstring)."""

    def __init__(
        self,
        seat: int,
        state: type[State],
        people: BotMaker | None,
        rng: random.Random,
        size: int = PARTICLES,
    ) -> None:
        self.seat, self.state, self.people, self.rng, self.size = seat, state, people, rng, size
        self.worlds: list[State] = []  # at the seat's last decision, before its move
        self.seen: list[object] = []  # the log the seat saw then, plain
        self.moved: Action | None = None  # what it played then
        self.fresh_starts = 0  # in a row: see `GIVE_UP`
        self.survived = 0  # states carried to the last decision (for tests and benches)
        self._players: dict[int, Bot] = {}
        self._order: list[State] = []

    @property
    def following(self) -> bool:
        """False once states have not survived `GIVE_UP` decisions in a row: `world` deals
        from `from_view` alone."""
        return self.fresh_starts < GIVE_UP

    def update(self, view: View, out_of_time: Callable[[], bool]) -> None:
        """Carries the states to `view`, the seat's decision now, as far as time allows."""
        if not self.following:
            return
        log = [plain(event) for event in view["log"]]
        news = self._news(log)
        if news == [] and self.worlds:  # asked again with nothing new: the same decision
            self.moved = None
            return
        survivors: list[tuple[State, float]] = []
        if news is not None and self.moved is not None:
            for world in self.worlds:
                carried = self._carry(world, news, view)
                if carried is not None:
                    survivors.append(carried)
                if out_of_time():
                    break
        self.survived = len(survivors)
        if survivors:
            self.fresh_starts = 0
            self.worlds = self._drawn(survivors)
        else:
            self.fresh_starts += bool(self.worlds)
            self.worlds = [self._fresh(view) for _ in range(self.size)]
        self.seen, self.moved, self._order = log, None, []

    def world(self, view: View) -> State:
        """A state to play out from: each believed one in turn, in a random order, as a quiet
        copy; none carried here (a fresh start believes nothing yet): one `from_view` deals,
        as many as there are playouts, not the same few again."""
        if not self.survived or not self.following:
            return self.state.from_view(view, self.rng)
        if not self._order:
            self._order = list(self.worlds)
            self.rng.shuffle(self._order)
        return clone(self._order.pop(), self._chance(), quiet=True)

    # -- carrying a state on ---------------------------------------------------------------------
    def _news(self, log: list[object]) -> list[object] | None:
        """The events since the last decision, or None if the log cannot say (it was started
        afresh, or cut before what the seat saw last)."""
        seen = self.seen
        if log[: len(seen)] == seen:
            return log[len(seen) :]
        # (a log that drops its oldest events: what was seen last is still its front)
        for start in range(1, len(seen)):
            kept = seen[start:]
            if log[: len(kept)] == kept:
                return log[len(kept) :]
        return None

    def _carry(self, world: State, news: list[object], view: View) -> tuple[State, float] | None:
        """`world` carried through the moves since the last decision to `view`, with the weight
        its players' moves give it; None if it cannot have come to this view."""
        me, moved = self.seat, self.moved
        assert moved is not None
        stepped = self._step(world, me, [moved], news, 0, CHANCE_TRIES)
        if stepped is None:
            return None
        world, at, _ = stepped
        weight = 1.0
        wanted = view["waiting"]
        for _ in range(MOST_MOVES):
            waiting = world.waiting_for()
            told_all = at == len(news)
            if told_all and me in waiting and world.visible_waiting(me) == wanted:
                return (world, weight) if self._looks_alike(world, view) else None
            others = sorted(waiting - {me})
            if told_all:  # (only the moves the seat cannot see are left: sealed choices)
                others = [seat for seat in others if seat not in wanted]
            if not others:
                return None
            seat = others[0]
            stepped = self._step(world, seat, self._candidates(world, seat), news, at, 1)
            if stepped is None:
                return None
            world, at, slipped = stepped
            weight *= SLIP if slipped else 1.0
        return None

    def _step(
        self,
        world: State,
        seat: int,
        candidates: list[Action],
        news: list[object],
        at: int,
        tries: int,
    ) -> tuple[State, int, bool] | None:
        """The first of `candidates` that `seat` can play in a copy of `world` telling the seat
        the events next in `news`: the copy, where the news are read to, and whether it was
        not the first candidate (a slip from the model)."""
        me = self.seat
        for index, action in enumerate(candidates):
            for _ in range(tries):
                trial = clone(world, self._chance())
                try:
                    events: list[Event] = trial.apply(seat, action)
                except IllegalAction:
                    break
                told = [plain(e) for e in events if e["to"] is None or me in e["to"]]
                if news[at : at + len(told)] == told:
                    return trial, at + len(told), index > 0
        return None

    def _candidates(self, world: State, seat: int) -> list[Action]:
        """`seat`'s moves in `world` in the order to try them: the model's first, then the
        others at random (all at random without a model)."""
        legal = list(world.legal(seat))
        self.rng.shuffle(legal)
        if self.people is None:
            return legal[:OTHER_MOVES]
        player = self._players.get(seat)
        if player is None:
            player = self._players[seat] = self.people(seat, random.Random(self.rng.random()))
        wanted = player.choose(world.view(seat), world.legal(seat))
        if wanted is None or wanted not in legal:
            return legal[:OTHER_MOVES]
        return [wanted, *(action for action in legal if action != wanted)][: OTHER_MOVES + 1]

    def _looks_alike(self, world: State, view: View) -> bool:
        """True if `world` shows the seat what `view` shows (the log aside)."""
        theirs = world.view(self.seat)
        return all(
            plain(theirs.get(key)) == plain(value)
            for key, value in view.items()
            if key not in UNCOMPARED
        )

    def _drawn(self, weighted: list[tuple[State, float]]) -> list[State]:
        """`size` states drawn from `weighted` in proportion to their weights (systematic)."""
        total = sum(weight for _, weight in weighted)
        step = total / self.size
        mark = self.rng.random() * step
        drawn: list[State] = []
        reached = 0.0
        for world, weight in weighted:
            reached += weight
            while mark < reached and len(drawn) < self.size:
                drawn.append(world)
                mark += step
        while len(drawn) < self.size:  # (rounding)
            drawn.append(weighted[-1][0])
        return drawn

    def _fresh(self, view: View) -> State:
        """A state dealt by `from_view`, telling its events (what it is carried by)."""
        return clone(self.state.from_view(view, self._chance()), self._chance())

    def _chance(self) -> random.Random:
        return random.Random(self.rng.getrandbits(64))
