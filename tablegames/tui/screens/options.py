"""What a new table's form asks besides seats and bots: the game's options, and for a game played
in real time how quickly the bots react (a setting of this sitting, not of the rules)."""

from __future__ import annotations

from ...rules import Option, get_game

#: How quickly real-time bots react: `local_table`'s `speed`, not an option of the game.
BOT_SPEED = Option(
    "speed", float, 1.0, "how quickly the bots react", (0.5, 0.75, 1.0, 1.5, 2.0), "Bot speed"
)


def game_options(game: str) -> list[Option]:
    """The options `game` is set up with (`Game.options`), as a form offers them."""
    return list(get_game(game).options)


def sitting_options(game: str) -> list[Option]:
    """What a table played on this machine also asks for `game`: the bots' speed if real time."""
    return [BOT_SPEED] if get_game(game).realtime else []


def value_label(value: object) -> str:
    """A value as a form shows it: yes and no, auto for the game's own choice."""
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
