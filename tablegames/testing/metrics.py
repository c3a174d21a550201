"""Counts the reliability tests report to `bench/reliability.py` (a JSON line per record).

Tests call `record("leak", frames=..., leaks=...)`; when `TABLEGAMES_RELIABILITY_METRICS` names a
file, each record is appended to it as one JSON line, otherwise nothing happens. The bench adds
the counts up (and takes the largest of every `max_` figure) for its scoreboard.
"""

from __future__ import annotations

import json
import os
from typing import Any

ENV = "TABLEGAMES_RELIABILITY_METRICS"


def record(kind: str, **counts: object) -> None:
    """Append `counts` under `kind` to the metrics file, if the bench asked for one."""
    path = os.environ.get(ENV)
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({"kind": kind, **counts}) + "\n")


def combine(lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per kind: counts added up, `max_*` figures maximised, `classes` (lists) united."""
    totals: dict[str, dict[str, Any]] = {}
    for line in lines:
        kind = line["kind"]
        into = totals.setdefault(kind, {})
        for name, value in line.items():
            if name == "kind":
                continue
            if name.startswith("max_"):
                into[name] = max(into.get(name, value), value)
            elif isinstance(value, list):
                into[name] = sorted(set(into.get(name, [])) | set(value))
            else:
                into[name] = into.get(name, 0) + value
    return totals
