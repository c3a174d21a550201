"""How many random games a playout test plays: a quick share in the default run, all of them
in the slow run (`pytest -m slow -n 0`), where their full strength is kept."""

from __future__ import annotations

from typing import Any

import pytest


def playout_counts(full: int, quick: int) -> Any:
    """Parametrize a test's `games`: `quick` by default, `full` marked slow."""
    return pytest.mark.parametrize(
        "games",
        [pytest.param(quick, id="quick"), pytest.param(full, id="full", marks=pytest.mark.slow)],
    )
