"""Small statistics and printing helpers shared by the benchmark sections of `bench/run.py`."""

from __future__ import annotations

import dataclasses
import json
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any


def add_up(total: Any, part: Any) -> None:
    """Add the figures of dataclass `part` into `total` field by field: lists are extended,
    counters and numbers added, maps of lists (decision times per level) extended per key."""
    for item in dataclasses.fields(total):
        mine, theirs = getattr(total, item.name), getattr(part, item.name)
        if isinstance(mine, dict) and not isinstance(mine, Counter):
            for key, values in theirs.items():
                mine.setdefault(key, []).extend(values)
        else:
            setattr(total, item.name, mine + theirs)


def decision_line(level: str, times: dict[str, float | int], what: str = "decision") -> str:
    """One level's decision times (`latency_ms` figures) as a bench prints them."""
    return (
        f"  {level} {what}: p50 {times['p50_ms']:.2f} ms, p99 {times['p99_ms']:.2f} ms, "
        f"max {times['max_ms']:.1f} ms ({times['count']} decisions)"
    )


def save_json(path: str | None, figures: Any) -> None:
    """Write `figures` to `path` as JSON (nothing when no path was asked for)."""
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)


def median(values: Sequence[float]) -> float:
    """The median of `values` (0.0 when there are none)."""
    return float(statistics.median(values)) if values else 0.0


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of `values` fall (nearest rank; 0.0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))])


def latency_ms(seconds: Sequence[float]) -> dict[str, float | int]:
    """p50/p99/max of durations given in seconds, in milliseconds, with the sample count."""
    return {
        "count": len(seconds),
        "p50_ms": round(1000 * percentile(seconds, 0.50), 3),
        "p99_ms": round(1000 * percentile(seconds, 0.99), 3),
        "max_ms": round(1000 * max(seconds), 3) if seconds else 0.0,
    }


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """numerator / denominator, or None when either is missing or the denominator is 0."""
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def median_ratio(pairs: Sequence[tuple[float, float]]) -> float | None:
    """The median of a / b over runs measured side by side (None if no pair has b > 0)."""
    ratios = [a / b for a, b in pairs if b]
    return median(ratios) if ratios else None


def speed_line(
    figure: str,
    tree: float | None,
    rev: float | None,
    ratio: float | None = None,
    lower_is_faster: bool = False,
) -> dict[str, Any]:
    """One line of a comparison with a git revision (`bench/run.py --against`): the work tree's
    figure, the revision's, and the speed ratio tree ÷ REV, above 1 when the tree is faster
    (rates as they are, times turned over: `lower_is_faster`). `ratio`: one measured side by
    side (the median of per-round ratios), else the figures' own."""
    if ratio is None and tree and rev:
        ratio = rev / tree if lower_is_faster else tree / rev
    return {
        "figure": figure,
        "tree": tree,
        "rev": rev,
        "ratio": ratio,
        "met": None if ratio is None else ratio >= 1.0,
    }


def fmt(value: Any, digits: int = 3) -> str:
    """A number shortened for a table cell: 3 significant digits, thousands as 12.3k."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, int | float):
        return str(value)
    magnitude = abs(value)
    if magnitude >= 1e6:
        return f"{value / 1e6:.{max(digits - 2, 1)}f}M"
    if magnitude >= 1e4:
        return f"{value / 1e3:.{max(digits - 2, 0)}f}k"
    if magnitude >= 100 or isinstance(value, int):
        return f"{value:.0f}"
    return f"{value:.{digits - 1}f}" if magnitude >= 1 else f"{value:.{digits}f}"


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain-text table: a title line, a header and left-aligned columns."""
    cells = [[str(h) for h in header]] + [[fmt(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = [title]
    for index, row in enumerate(cells):
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
        if index == 0:
            lines.append("  " + "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def timed_rate(
    step: Callable[[], int], budget: float, clock: Callable[[], float]
) -> tuple[int, int, float]:
    """Call `step` (which returns a count of work done) until `budget` seconds pass on `clock`.

    Returns (calls, total count, seconds). At least one call is always made.
    """
    calls = total = 0
    started = clock()
    while True:
        total += step()
        calls += 1
        elapsed = clock() - started
        if elapsed >= budget:
            return calls, total, elapsed


def spread_ms(seconds: Sequence[float]) -> dict[str, float]:
    """Times (in seconds) as their median, 90th percentile and max, in milliseconds."""
    return {
        "median": round(1000 * median(seconds), 1),
        "p90": round(1000 * percentile(seconds, 0.9), 1),
        "max": round(1000 * max(seconds), 1),
    }
