"""Bots matched against each other in batches: one bot of a level against a table of another,
its seat turning with the seed, batches split over processes and their tallies added up."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.figures import add_up


@dataclass
class BotTally:
    """What a batch of bot games measured, to add up across batches: each bench's own figures
    as fields of a subclass, and these two every bot bench keeps."""

    latencies: dict[str, list[float]] = field(default_factory=dict)  # per level
    seconds: float = 0.0

    def merge(self, other: BotTally) -> None:
        add_up(self, other)


def in_parallel(total: BotTally, jobs: int, task: Any, items: list[int], *args: Any) -> Any:
    """Run `task(*args, share)` over `items` split into `jobs` processes, each tally merged into
    `total` (returned)."""
    if jobs == 1:
        total.merge(task(*args, items))
        return total
    with ProcessPoolExecutor(jobs) as pool:
        for batch in [pool.submit(task, *args, items[job::jobs]) for job in range(jobs)]:
            total.merge(batch.result())
    return total


def hero_seat(hero: str, rival: str, players: int, seed: int) -> tuple[int, list[str]]:
    """Where `seed` seats the one `hero` bot among `rival` bots (the seat turns with the seed),
    and every seat's level."""
    seat = seed % players
    levels = [rival] * players
    levels[seat] = hero
    return seat, levels


def each_matchup(matchups: Sequence[Any], measure: Callable[[Any], Any], report: Any) -> list[Any]:
    """`measure` each matchup, printing its `report` as soon as it is measured; the figures."""
    results = []
    for matchup in matchups:
        figures = measure(matchup)
        results.append(figures)
        print(report(figures), flush=True)
    return results


def win_rate_words(figures: dict[str, Any]) -> str:
    """A matchup's win rate with its 95% interval: `win rate 31.4% (95% 28.5%–34.3%)`."""
    low, high = figures["win_rate_95"]
    return f"win rate {figures['win_rate']:.1%} (95% {low:.1%}–{high:.1%})"
