"""The player-facing rules of each game, shared by `tablegames rules` and the in-app help."""

from __future__ import annotations

from importlib import resources

from .rules import GAMES


def rules_text(game: str) -> str:
    """The rules of `game` as Markdown (`rules/texts/<game>.md`, else the game's own `rules`);
    FileNotFoundError if it has none."""
    path = resources.files("tablegames.rules").joinpath("texts", f"{game}.md")
    if path.is_file():
        return path.read_text(encoding="utf-8")
    written = GAMES[game].rules if game in GAMES else ""
    if not written:
        raise FileNotFoundError(f"no rules text for {game!r}")
    return written
