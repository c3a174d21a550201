"""How strong a game's bots are: each level against the level below, on fixed seeds.

One bot of a level sits at a table of bots of the level below, its seat turning with the seed,
for a number of games, or until its interval is above the fair share (surely stronger) or a
time budget is spent; its share of the wins (a game won with others counts as a share) is set
against the fair share (1 / players), with a 95% interval (Wilson's, honest for few games). The
per-game check's `bots` part (`matrix/test_bots.py`) fails a level whose share is not above the
fair share, and says whether it is surely stronger; `bench/bot_strength.py` prints the figures
for the bundled examples.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..bots import get_bot, level_note
from ..bots.generic import LookAhead
from ..rules import Bot, get_game
from ..table import Table, VirtualClock, is_realtime

#: Each level against the one below it.
MATCHUPS = (("normal", "random"), ("hard", "normal"))
#: The first seed of a check's games (each game the next).
SEED = 7000
#: A check's time budget for a matchup, in seconds of CPU, unless a number of games is given: a
#: matchup stops sooner once its level is surely stronger (`Matchup.sure`), as a level well
#: above the one below soon is (Love Letter's `normal` against `random`: in a few seconds), so
#: the next, closer one has about the whole minute.
BUDGET = 60.0
#: Games a matchup plays at least before its interval may end it (a handful of lucky games
#: would look sure).
FEWEST_GAMES = 20
#: The interval that ends a matchup early, looked at after every game: 99% (2.58 standard
#: errors), so that a level no stronger than the one below is wrongly found sure about one
#: minute in twenty (a 95% one, looked at so often, did one in seven).
STOPPING_Z = 2.58
#: The most actions a bot game may take before it is given up (a bot that never ends it).
MAX_ACTIONS = 100_000
#: Table time after which a real-time bot game is given up.
MAX_GAME_SECONDS = 6 * 3600.0

BotMaker = Callable[[int, random.Random], Bot]


@dataclass(frozen=True)
class Matchup:
    """What one bot of `level` won against bots of `below`: its share over `games` games."""

    game: str
    level: str
    below: str
    players: int
    games: int
    won: float  # games won, a shared win counting as its share
    seconds: float
    unfinished: int = 0

    @property
    def share(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def fair(self) -> float:
        """What a bot no stronger than the others wins: one game in `players`."""
        return 1 / self.players

    @property
    def interval(self) -> tuple[float, float]:
        """The share's 95% interval (Wilson score)."""
        return wilson(self.share, self.games)

    @property
    def stronger(self) -> bool:
        """True if the level won more than its fair share on these games."""
        return self.games > 0 and self.share > self.fair

    @property
    def sure(self) -> bool:
        """True if even the interval's low end is above the fair share."""
        return self.games > 0 and self.interval[0] > self.fair

    @property
    def verdict(self) -> str:
        """The figures' verdict in words: surely stronger (the interval above the fair share),
        stronger but not surely, surely weaker (the interval below it), or no stronger."""
        if self.sure:
            return "surely stronger"
        if self.stronger:
            return "stronger, not surely (its interval reaches the fair share)"
        return "surely weaker" if self.interval[1] < self.fair else "no stronger"

    def words(self) -> str:
        """The figures in a line: "hard vs 3 normal: won 0.31 of 80 games (95% 0.22-0.42;
        fair share 0.25): stronger, not surely (...), 30 s of CPU"."""
        low, high = self.interval
        others = f"{self.players - 1} {self.below}"
        cut = f", {self.unfinished} unfinished" if self.unfinished else ""
        return (
            f"{self.level} vs {others}: won {self.share:.2f} of {self.games} games "
            f"(95% {low:.2f}-{high:.2f}; fair share {self.fair:.2f}){cut}: {self.verdict}, "
            f"{self.seconds:.0f} s of CPU"
        )


def wilson(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share of `games` (0-1 for no games)."""
    if games <= 0:
        return 0.0, 1.0
    middle = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    return max(0.0, middle - half), min(1.0, middle + half)


def levels_differ(game_name: str) -> bool:
    """False if every level of `game_name` plays at random (a game with neither bots of its
    own nor hooks for the generic ones says so where a level is chosen)."""
    game = get_game(game_name)
    return not (level_note(game) and not game.bots_note)


def play(game_name: str, makers: list[BotMaker], seed: int, options: dict[str, object]) -> Table:
    """One game between the bots `makers` make (one per seat), to its end if it ends."""
    game = get_game(game_name)
    rng = random.Random(seed)
    bots = {seat: make(seat, rng) for seat, make in enumerate(makers)}
    names = [f"bot {seat}" for seat in range(len(makers))]
    if any(is_realtime(bot) for bot in bots.values()):
        from ..drivers import run_realtime

        clock = VirtualClock()
        table = Table(game, len(makers), names, seed=seed, options=options, bots=bots, clock=clock)
        run_realtime(table, clock, MAX_ACTIONS, max_seconds=MAX_GAME_SECONDS)
    else:
        table = Table(game, len(makers), names, seed=seed, options=options, bots=bots)
        table.run_bots(MAX_ACTIONS)
    return table


def level(game_name: str, name: str) -> BotMaker:
    """The maker of `game_name`'s bots of level `name`."""
    return lambda seat, rng: get_bot(game_name, name, seat, rng)


@contextlib.contextmanager
def thinking_in_cpu_time() -> Iterator[None]:
    """While inside, the generic look-ahead's time budget counts its thread's CPU time, not the
    time on the wall: a busy machine measures the same bots as an idle one."""
    wall = LookAhead.clock
    LookAhead.clock = time.thread_time
    try:
        yield
    finally:
        LookAhead.clock = wall


@contextlib.contextmanager
def thinking_its_every_playout() -> Iterator[None]:
    """While inside, the generic look-ahead's clock stands still: it plays all its playouts, so
    a seed is one judgement on every machine (in CPU time, a slower processor thinks less: CI's
    judged Love Letter's `hard` weaker than this machine's did)."""
    clock = LookAhead.clock
    LookAhead.clock = lambda: 0.0
    try:
        yield
    finally:
        LookAhead.clock = clock


def matchup(
    game_name: str,
    hero: str,
    below: str,
    games: int | None = None,
    seconds: float = BUDGET,
    seed: int = SEED,
    players: int | None = None,
    hero_bot: BotMaker | None = None,
    progress: Callable[[int], None] | None = None,
) -> Matchup:
    """One bot of level `hero` (or made by `hero_bot`) against bots of level `below`: `games`
    games, or as many as `seconds` of CPU time allow (at least one) but no more once it is
    surely stronger (after `FEWEST_GAMES`, by a 99% interval: `STOPPING_Z`), seeds from
    `seed`."""
    game = get_game(game_name)
    players = players or game.default_players
    options = game.quick_options()
    fair = 1 / players
    # (the budget is the thread's CPU time, as the bots' own: a busy machine plays as many)
    started = time.thread_time()
    won, played, unfinished = 0.0, 0, 0
    for index in range(games if games is not None else 1_000_000):
        if games is None and index and time.thread_time() - started > seconds:
            break
        surely = played >= FEWEST_GAMES and wilson(won / played, played, STOPPING_Z)[0] > fair
        if games is None and surely:
            break  # (surely stronger: more games would say no more)
        seat = (seed + index) % players  # (the seat turns with the game's seed)
        makers = [level(game_name, below)] * players
        makers[seat] = hero_bot or level(game_name, hero)
        with thinking_in_cpu_time():
            table = play(game_name, makers, seed + index, options)
        if not table.over:
            unfinished += 1
            continue
        winners = table.state.result()["winners"]
        won += 1 / len(winners) if seat in winners else 0.0
        played += 1
        if progress is not None:
            progress(played)
    elapsed = time.thread_time() - started
    return Matchup(game_name, hero, below, players, played, won, elapsed, unfinished)
