"""How the seats of a table are said: for the host's terminal, the waiting room and the screens;
and how a player types their way back to a seat."""

from __future__ import annotations

import shlex


def address_text(host: str, port: int) -> str:
    """`host:port` as a person types it (IPv6 in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def join_line(host: str, port: int, name: str, table: str, code: str | None = None) -> str:
    """The command that takes `name`'s seat at `table` back: `tablegames join 127.0.0.1:4747
    --name Sara --table KXPF` (the join code too, on a LAN)."""
    words = ["tablegames", "join", address_text(host, port), "--name", name, "--table", table]
    if code:
        words += ["--code", code]
    return shlex.join(words)


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


def seats_since(seats: list[dict[str, object]], seconds: float) -> list[dict[str, object]]:
    """`seats` of a presence told `seconds` ago, as they are now: time away counted on."""
    return [
        {**seat, "away": int(away + seconds)} if isinstance(away := seat.get("away"), int) else seat
        for seat in seats
    ]


def away_words(seconds: int) -> str:
    """How long someone has been away, briefly: `40 s`, `3 min`, `2 h`."""
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"
