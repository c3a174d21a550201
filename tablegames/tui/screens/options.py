"""Game options a new table can be set up with; each game's screen module lists its `OPTIONS`."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SetupOption:
    """One option the setup screen offers: the keyword the game's `new` takes, and its values."""

    name: str
    label: str
    values: tuple[Any, ...]
    default: Any
    hint: str = ""


def game_options(game: str) -> list[SetupOption]:
    """The options `game`'s screen module (`screens/<game>.py`) offers in `OPTIONS`, if any."""
    try:
        module = importlib.import_module(f"{__package__}.{game}")
    except ModuleNotFoundError:
        return []
    return list(getattr(module, "OPTIONS", ()))
