"""A party server that keeps every frame it sends, and the leak scanner run over them after.

    python -m tests.e2e.wiretap serve ARGS     (TABLEGAMES_WIRE names a folder)

runs `tablegames serve` with each connection's outgoing bytes also written to a file of its
own in that folder. Every SSH and browser guest's session program is such a connection (the
party's TCP protocol), so what a guest's screen can show came in these frames: once the night
is over, `leaks` cuts each connection's frames into its stays at tables (a `seated` message
begins one) and runs the leak scanner (`tablegames.testing.scanner`) over each stay against the
table's true history, replayed from the party's store (its seed and action log).
"""

from __future__ import annotations

import itertools
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENV = "TABLEGAMES_WIRE"


def tap(folder: Path) -> None:
    """Make every connection the party server accepts write what it sends to `folder` too."""
    from tablegames.net import server

    numbers = itertools.count()
    accepted = server.Client.__init__

    def init(self: server.Client, party: server.Server, writer: Any) -> None:
        accepted(self, party, writer)
        sink = (folder / f"{next(numbers):05d}.wire").open("wb", buffering=0)
        send = writer.write

        def write(data: bytes) -> None:
            sink.write(data)
            send(data)

        writer.write = write

    server.Client.__init__ = init  # type: ignore[method-assign]


# -- after the night ------------------------------------------------------------------------------
@dataclass
class Stay:
    """One connection's frames while it sat (or watched) at one table."""

    name: str
    table: str
    seat: int | None
    frames: list[bytes] = field(default_factory=list)


def stays(folder: Path) -> list[Stay]:
    """Every stay at a table, of every connection the server kept frames of."""
    from tablegames.testing.scanner import split_frames

    found: list[Stay] = []
    for path in sorted(folder.glob("*.wire")):
        name, stay = "?", None
        for raw, message in split_frames(path.read_bytes()):
            kind = message.get("t") if isinstance(message, dict) else None
            if kind == "welcome":
                name = str(message["name"])
            elif kind == "seated":
                stay = Stay(name, str(message["table"]), message["seat"])
                found.append(stay)
            elif kind == "lobby":
                continue  # (the list of every table: no table's secrets)
            if stay is not None:
                stay.frames.append(raw)
    return found


@dataclass
class Visit:
    """One connection of a person to the party: where it landed, and where it was at its end
    (a table's code; None: the lobby)."""

    name: str
    landed: str | None = None
    left_at: str | None = None
    removed: bool = False  # the host took its seat away (to a bot, or freed it): the lobby next


def visits(folder: Path) -> list[Visit]:
    """Every connection the server kept frames of, in the order they came."""
    from tablegames.testing.scanner import split_frames

    found = []
    for path in sorted(folder.glob("*.wire")):
        visit, first = Visit("?"), True
        for _, message in split_frames(path.read_bytes()):
            kind = message.get("t") if isinstance(message, dict) else None
            if kind == "welcome":
                visit.name = str(message["name"])
            elif kind == "seated":
                if first:
                    visit.landed = str(message["table"])
                visit.left_at, first = str(message["table"]), False
            elif kind == "lobby":
                visit.left_at, first = None, False
            elif kind == "bye" and message.get("code") == "removed":
                visit.removed = True
        found.append(visit)
    return found


def comebacks(folder: Path) -> list[tuple[str, str, str | None]]:
    """Each time a person came back after a connection that ended at a table: (who, the
    table it ended at, where the next connection landed). A connection whose seat the host took
    away is not one: its next lands in the lobby, as it should."""
    last: dict[str, Visit] = {}
    found = []
    for visit in visits(folder):
        before = last.get(visit.name)
        if before is not None and before.left_at is not None and not before.removed:
            found.append((visit.name, before.left_at, visit.landed))
        last[visit.name] = visit
    return found


def tokens(found: list[Stay]) -> dict[str, dict[int, str]]:
    """Each table's seat tokens, as their seats were told them."""
    from tablegames.testing.scanner import split_frames

    told: dict[str, dict[int, str]] = {}
    for stay in found:
        for _, message in split_frames(b"".join(stay.frames[:1])):
            if message.get("token") and stay.seat is not None:
                told.setdefault(stay.table, {})[stay.seat] = str(message["token"])
    return told


def leaks(folder: Path, store_path: Path) -> tuple[int, list[str]]:
    """The frames scanned, and every leak the scanner found in them (a line each)."""
    from tablegames.store import Store

    found = stays(folder)
    seat_tokens = tokens(found)
    store = Store(store_path)
    scanners: dict[str, Any] = {}
    frames, lines = 0, []
    try:
        for stay in found:
            if stay.table not in scanners:
                scanners[stay.table] = _scanner(store, stay.table, seat_tokens)
            scanner = scanners[stay.table]
            if scanner is None:  # a table that never dealt: nothing secret was ever there
                continue
            report = scanner.scan_stream(stay.seat, b"".join(stay.frames))
            frames += report.frames
            lines += [f"{stay.name} at {stay.table}: {finding}" for finding in report.leaks]
    finally:
        store.close()
    return frames, lines


def _scanner(store: Any, code: str, seat_tokens: dict[str, dict[int, str]]) -> Any:
    """The scanner of table `code`'s game (None: it never dealt)."""
    from tablegames.rules import get_game
    from tablegames.testing.scanner import Scanner, Truth

    row = store.db.execute(
        "SELECT id FROM game_tables WHERE code = ? ORDER BY id DESC", (code,)
    ).fetchone()
    if row is None:
        return None
    saved = store.load(row[0])
    if saved.seed is None:
        return None
    replayed = Truth(get_game(saved.game), saved.players, saved.options, saved.seed, saved.log)
    return Scanner(replayed, seat_tokens.get(code, {}))


if __name__ == "__main__":
    tap(Path(os.environ[ENV]))
    from tablegames.cli import main

    sys.argv[0] = "tablegames"
    main()
