"""How the seats of a table are said: for the host's terminal, the waiting room and the screens."""

from __future__ import annotations


def seat_words(seat: dict[str, object]) -> str:
    """One seat of a presence message in words: `Sara, away 3 min (a bot plays meanwhile)`."""
    name = str(seat.get("name") or "")
    if not seat.get("taken"):
        level = seat.get("will_be_bot")
        return f"free (a {level} bot if nobody comes)" if level else "free"
    if seat.get("bot"):
        return f"{name} (bot)"
    words = [name]
    away = seat.get("away")
    if isinstance(away, int):
        words.append(f"away {away_words(away)}")
    elif seat.get("ready"):
        words.append("ready")
    if seat.get("standin"):
        words.append("a bot plays meanwhile")
    return ", ".join(words)


def away_words(seconds: int) -> str:
    """How long someone has been away, briefly: `40 s`, `3 min`, `2 h`."""
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"
