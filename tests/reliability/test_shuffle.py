"""Shuffling: live tables shuffle from the operating system's randomness (`secrets`), never a
guessable seed; the seed and the deck order are never sent before the game ends (the leak
scanner searches every frame's raw bytes for the seed; see test_leaks.py).
"""

from __future__ import annotations

import asyncio
import random
import time

from tablegames.net import hosting
from tablegames.net.server import Server, ServerConfig
from tablegames.table import Table
from tablegames.testing.harness import play_game, running_server
from tablegames.testing.scanner import Scanner


def started_seeds(count: int) -> list[int]:
    """The seeds of `count` tables started the way the server starts them (no seed given)."""
    server = Server(ServerConfig())
    seeds = []
    for _ in range(count):
        hosted = server.add_table("crates", 2, {"short": True}, fill_with_bots="random")
        hosted.start()
        assert hosted.table is not None
        seeds.append(hosted.table.seed)
    return seeds


def test_a_live_table_takes_its_seed_from_secrets(monkeypatch):
    drawn: list[int] = []

    def randbits(bits: int) -> int:
        drawn.append(bits)
        return 0x5EC2E7 << 20

    monkeypatch.setattr(hosting.secrets, "randbits", randbits)
    (seed,) = started_seeds(1)
    assert seed == 0x5EC2E7 << 20 and 63 in drawn


def test_seeds_ignore_the_random_module_and_the_clock(monkeypatch):
    random.seed(7)
    first = started_seeds(3)
    random.seed(7)
    monkeypatch.setattr(time, "time", lambda: 1_000_000.0)
    monkeypatch.setattr(time, "monotonic", lambda: 5.0)
    second = started_seeds(3)
    assert not set(first) & set(second)


def test_seeds_are_distinct_and_use_all_63_bits():
    seeds = started_seeds(400)
    assert len(set(seeds)) == len(seeds)
    for bit in range(63):
        share = sum(seed >> bit & 1 for seed in seeds) / len(seeds)
        assert 0.3 < share < 0.7, (bit, share)
    assert max(seeds) < 2**63
    # a table made without a seed (hot-seat play) also draws one from secrets
    assert len({Table(hosting.get_game("crates"), 2, ["a", "b"]).seed for _ in range(50)}) == 50


def test_no_frame_carries_the_seed_before_the_game_ends():
    """Every byte of a networked game searched for the seed in three encodings (positive
    control: the scanner does find it when planted, see test_leaks.py)."""

    async def run() -> None:
        async with running_server(bot_pace=0) as (server, port):
            played = await play_game(server, port, "roach", 3, 3, "normal", limit=30)
        table = played.hosted.table
        assert table is not None and table.seed >= 2**40  # a real, unguessable seed
        scanner = Scanner(played.truth(), played.tokens)
        assert scanner.seed_needles
        report = played.scan()
        assert not [f for f in report.findings if f.kind == "seed"]

    asyncio.run(run())
