"""The player-facing rules of each game, shared by `tablegames rules` and the in-app help."""

from __future__ import annotations

from importlib import resources


def rules_text(game: str) -> str:
    """The rules of `game` as Markdown; FileNotFoundError if it has none."""
    path = resources.files("tablegames.rules").joinpath("texts", f"{game}.md")
    if not path.is_file():
        raise FileNotFoundError(f"no rules text for {game!r}")
    return path.read_text(encoding="utf-8")
