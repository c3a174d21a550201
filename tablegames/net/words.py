"""How the seats of a table are said: for the host's terminal, the waiting room and the screens;
and how a player types their way back to a seat."""

from __future__ import annotations

import shlex

import msgspec

from .messages import SeatNews


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


def seat_words(seat: SeatNews) -> str:
    """One seat of a presence message in words: `Sara, away 3 min (a bot plays meanwhile)`."""
    if not seat.taken:
        level = seat.will_be_bot
        return f"free (a {level} bot if nobody comes)" if level else "free"
    if seat.bot:
        return f"{seat.name} (bot)"
    words = [seat.name]
    if seat.away is not None:
        words.append(f"away {away_words(seat.away)}")
    elif seat.ready:
        words.append("ready")
    if seat.standin:
        words.append("a bot plays meanwhile")
    return ", ".join(words)


def seats_since(seats: list[SeatNews], seconds: float) -> list[SeatNews]:
    """`seats` of a presence told `seconds` ago, as they are now: time away counted on."""
    return [
        seat if seat.away is None else msgspec.structs.replace(seat, away=int(seat.away + seconds))
        for seat in seats
    ]


def away_words(seconds: int) -> str:
    """How long someone has been away, briefly: `40 s`, `3 min`, `2 h`."""
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"
