"""No leaks: every byte each seat and spectator receives, scanned for what it must not know.

Games are played over real loopback sockets by recording clients (random players and bots) and
server-side bots; the scanner (`tablegames/testing/scanner.py`) replays the table's log to know,
for every frame, the true secrets of that moment. Every game's own test is in the per-game
matrix (`tablegames/testing/matrix/test_network.py`); here, planted leaks prove the scanner
finds what it looks for, and many games of every kind at once leak nothing (slow).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablegames.net.hosting import HostedTable
from tablegames.net.messages import Presence
from tablegames.rules import GAMES
from tablegames.rules.crabs import deal_with_fours
from tablegames.rules.kraken.roles import GROUP_WORDS
from tablegames.testing.cases import case
from tablegames.testing.harness import scan_games
from tablegames.testing.metrics import record
from tablegames.testing.scanner import _walk, declared_secrets

from ..rules.kraken.helpers import act, at, sail, table


# -- planted leaks ------------------------------------------------------------------------------
def _plant_view(monkeypatch: pytest.MonkeyPatch, name: str, extra: Any) -> None:
    """Make game `name`'s view carry `extra(state, seat)` under "debug" (a leak to plant)."""
    state_class = type(GAMES[name].new(GAMES[name].default_players, 1))
    original = state_class._view

    def leaky(self: Any, seat: int | None) -> dict[str, Any]:
        return {**original(self, seat), "debug": extra(self, seat)}

    monkeypatch.setattr(state_class, "_view", leaky)


PLANTS = {
    # (game, what the plant adds, finding kind expected)
    "crates: the next card to draw": (
        "crates",
        lambda m: _plant_view(m, "crates", lambda s, seat: s.draw_pile[-1:]),
        "leak",
    ),
    "roach: the card in flight, to all": (
        "roach",
        lambda m: _plant_view(m, "roach", lambda s, seat: {"card": s.flight and s.flight.card}),
        "leak",
    ),
    "crabs: the next seat's hand": (
        "crabs",
        lambda m: _plant_view(
            m, "crabs", lambda s, seat: list(s.hands[((seat or 0) + 1) % s.players])
        ),
        "leak",
    ),
    "crabs: every team's signal": (
        "crabs",
        lambda m: _plant_view(m, "crabs", lambda s, seat: [{"signal": x[0]} for x in s.signals]),
        "leak",
    ),
    "kraken: every faction": (
        "kraken",
        lambda m: _plant_view(
            m, "kraken", lambda s, seat: {str(i): f for i, f in enumerate(s.factions)}
        ),
        "leak",
    ),
    "loveletter: the next seat's hand": (
        "loveletter",
        lambda m: _plant_view(
            m, "loveletter", lambda s, seat: {"hand": s.hands[((seat or 0) + 1) % s.players]}
        ),
        "leak",
    ),
    "loveletter: every draw told to all": ("loveletter", lambda m: _tell_all(m, "draw"), "event"),
    "server: the seed in a presence line": (
        "crates",
        lambda m: m.setattr(
            HostedTable,
            "presence",
            _presence_with(lambda h: f"seed {h.table.seed}" if h.table else None),
        ),
        "seed",
    ),
    "server: another seat's token": (
        "roach",
        lambda m: m.setattr(HostedTable, "presence", _presence_with(_some_token)),
        "token",
    ),
    "server: events unfiltered": (
        "kraken",
        lambda m: m.setattr("tablegames.table.visible_to", lambda event, seat: True, raising=True),
        "event",
    ),
}

_TOKENS: dict[str, str] = {}


def _tell_all(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Make Love Letter's private events of `kind` public (the engine's mistake to plant)."""
    state_class = GAMES["loveletter"].state_class
    original = state_class.emit

    def aloud(self: Any, what: str, text: str, to: Any = None, **fields: Any) -> Any:
        return original(self, what, text, None if what == kind else to, **fields)

    monkeypatch.setattr(state_class, "emit", aloud)


def _some_token(hosted: HostedTable) -> str | None:
    return _TOKENS.get(hosted.code)


def _presence_with(text: Any) -> Any:
    original = HostedTable.presence

    def presence(self: HostedTable, said: str | None) -> Presence:
        message = original(self, said)
        message.text = text(self) or said
        return message

    return presence


def _remember_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the token plant know tokens as they are handed out."""
    original = HostedTable.claim

    def claim(self: HostedTable, peer: Any, *args: Any) -> tuple[int, str]:
        number, token = original(self, peer, *args)
        _TOKENS.setdefault(self.code, token)
        return number, token

    monkeypatch.setattr(HostedTable, "claim", claim)


#: How many actions into its game a plant is looked for: every plant shows within the first
#: few dozen (a whole random crabs game ran for minutes, to its time limit, and its scan with
#: it). The same tables played clean, whole, leak nothing: the per-game matrix's
#: `test_a_game_over_real_sockets_leaks_nothing` (tablegames/testing/matrix/test_network.py).
PLANTED_ACTIONS = 60


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_leak_is_found(plant, monkeypatch):
    name, apply, kind = PLANTS[plant]
    players, remote = case(name).leak_table
    game = [(name, players, remote, case(name).options(players, random.Random(7)), "random")]
    _remember_tokens(monkeypatch)
    apply(monkeypatch)
    planted = scan_games(game, limit=30, metric="planted", seed=7, actions=PLANTED_ACTIONS)
    kinds = {finding.kind for finding in planted.findings}
    record("plant", planted=1, found=int(kind in kinds))
    assert kind in kinds, f"the scanner missed the plant: {sorted(kinds)}"


def _searched_leader() -> Any:
    """A 7-player kraken table whose captain (seat 0) just searched the cult leader (seat 6)."""
    state = at(table(7, deck=["red-mermaid", "blue-drunk", "red-drunk", "blue-drunk"]), "0,2")
    sail(state, 1, 2, "red-mermaid", "red-drunk", "red-mermaid")
    act(state, 0, {"type": "pick", "target": 6})
    return state


def _named_secrets(state: Any, seat: int) -> list[str]:
    """The secrets `seat`'s view and its log's fields name (as the scanner matches them)."""
    secrets = declared_secrets(state, seat)
    events: list[Any] = []
    hits = _walk(state.view(seat), secrets, events=events)
    for event in events:
        hits += _walk(event, secrets)
    return hits


def test_a_searched_cult_member_keeps_their_rank_secret_from_the_searcher(monkeypatch):
    # The captain knows seat 6 is "cult", not which rank: the scanner still guards the rank.
    state = _searched_leader()
    secrets = declared_secrets(state, 0)
    assert ("6", "cult_leader") in secrets.pairs and ("group", "cult_leader") in secrets.pairs
    assert _named_secrets(state, 0) == []
    # A search that shows the rank (the engine before rules version 2) is a leak.
    monkeypatch.setattr("tablegames.rules.kraken.navigation.group", lambda faction: faction)
    monkeypatch.setitem(GROUP_WORDS, "cult_leader", "is a cult_leader")
    assert "seat 6 is a cult_leader" in _named_secrets(_searched_leader(), 0)


@pytest.mark.slow
def test_many_games_of_every_kind_leak_nothing():
    rng = random.Random()
    games: list[tuple[str, int, int, dict[str, Any], str]] = []
    for round_ in range(4):
        for players in (2, 3, 4, 5):
            games.append(("crates", players, rng.randint(1, players), {"short": True}, "normal"))
        for players in (2, 3, 5, 6):
            games.append(("roach", players, rng.randint(1, players), {}, "random"))
        for players in (4, 5, 6, 8):
            options = deal_with_fours(players, rng, pot=rng.randint(1, 2))
            games.append(("crabs", players, players, options, "random"))
        for players in (5, 7, 9, 11):
            options = {"characters": round_ != 1}
            games.append(("kraken", players, rng.randint(1, players), options, "random"))
        games.append(("crates", 4, 4, {}, "random"))
    report = scan_games(games, limit=120)
    assert report.frames > 10_000
    assert report.problems == [], "\n".join(map(str, report.problems[:20]))
