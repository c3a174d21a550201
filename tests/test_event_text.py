"""Events' text is for people: nothing outside the engines reads meaning out of it.

Bots, screens and replays read an event's `kind` and fields. The first test fails if any module
outside `tablegames/rules/` tests, searches or splits an event's text, or holds a regular
expression for an engine's sentences; the others reword every sentence the engines say and
check that the bots still read (and decide) exactly the same.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from tablegames.bots import get_bot
from tablegames.bots.crates import read_round
from tablegames.bots.kraken.history import History
from tablegames.bots.roach import Record, read_log
from tablegames.drivers import run_realtime
from tablegames.rules import core, get_game
from tablegames.table import Table, VirtualClock, is_realtime

ROOT = Path(__file__).resolve().parent.parent
#: Methods that read meaning out of a string.
TEXT_TESTS = frozenset(
    ("startswith", "endswith", "find", "index", "count", "split", "partition", "rpartition")
)
REGEX_CALLS = frozenset(("match", "search", "fullmatch", "findall", "finditer"))
SEAT = r"\{(\d+)\}"  # how a regular expression finds a seat in an engine's sentence


def reads_text(node: ast.AST, names: set[str]) -> bool:
    """True if `node` is an event's text: `x["text"]`, `x.get("text", ...)`, `str(...)` of one,
    or a name bound to one."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "text"
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            first = node.args[0]
            return isinstance(first, ast.Constant) and first.value == "text"
        if isinstance(func, ast.Name) and func.id == "str" and node.args:
            return reads_text(node.args[0], names)
    return False


def text_parsing(source: str) -> list[int]:
    """Lines of `source` that test or search an event's text, or hold a seat pattern."""
    tree = ast.parse(source)
    found = [
        node.lineno
        for node in ast.walk(tree)  # a pattern for an engine's "{3}" seat
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SEAT in node.value
    ]
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names: set[str] = set()  # the function's names bound to an event's text
        for node in ast.walk(function):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if reads_text(node.value, set()):
                    names |= {t.id for t in targets if isinstance(t, ast.Name)}
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method, receiver = node.func.attr, node.func.value
                if method in TEXT_TESTS and reads_text(receiver, names):
                    found.append(node.lineno)
                if method in REGEX_CALLS and any(reads_text(a, names) for a in node.args):
                    found.append(node.lineno)
            elif isinstance(node, ast.Compare) and any(
                reads_text(side, names) for side in [node.left, *node.comparators]
            ):
                found.append(node.lineno)
    return sorted(set(found))


def test_the_checker_sees_text_being_parsed():
    caught = """
import re
SEAT = re.compile(r"^\\{(\\d+)\\} plays")
def read(event, log):
    text = str(event.get("text", ""))
    if text.startswith("The crank"):
        pass
    if "crank" in event["text"]:
        pass
    return [SEAT.match(e["text"]) for e in log]
"""
    assert text_parsing(caught) == [3, 6, 8, 10]
    shown = """
def line(event, names):
    return str(event.get("text", "")).format(*names)
"""
    assert text_parsing(shown) == []


def test_no_module_outside_the_engines_parses_event_text():
    offenders = []
    for path in sorted((ROOT / "tablegames").rglob("*.py")):
        if path.relative_to(ROOT / "tablegames").parts[0] in ("rules", "testing"):
            continue  # (the engines write the text; the per-game tests check it is consistent)
        for line in text_parsing(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert not offenders, "read the event's kind and fields instead: " + ", ".join(offenders)


# -- reworded sentences ---------------------------------------------------------------------------
def reword(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every event's text is reworded (the facts stay in the kind and fields)."""
    emit = core.State.emit

    def reworded(self: core.State, kind: str, text: str, to: Any = None, **fields: Any) -> Any:
        return emit(self, kind, "Something happens: " + text[::-1], to, **fields)

    monkeypatch.setattr(core.State, "emit", reworded)


@pytest.fixture
def reworded(monkeypatch: pytest.MonkeyPatch) -> None:
    reword(monkeypatch)


def bot_game(name: str, levels: tuple[str, ...], seed: int) -> list[Any]:
    """A seeded bot-only game's moves: (seat, action) in order."""
    game = get_game(name)
    bots = {
        seat: get_bot(name, level, seat, random.Random(seed * 10 + seat))
        for seat, level in enumerate(levels)
    }
    names = [f"bot {seat}" for seat in range(len(levels))]
    options = game.quick_options()
    if any(is_realtime(bot) for bot in bots.values()):
        clock = VirtualClock()
        table = Table(game, len(levels), names, seed=seed, options=options, bots=bots, clock=clock)
        run_realtime(table, clock, 20_000)
    else:
        table = Table(game, len(levels), names, seed=seed, options=options, bots=bots)
        table.run_bots(20_000)
    return [(seat, action) for seat, action, _ in table.log]


GAMES = {
    "roach": ("hard", "normal", "normal"),
    "kraken": ("normal",) * 5,
    "crabs": ("hard", "hard", "normal", "normal"),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bots_decide_the_same_whatever_the_sentences_say(name, monkeypatch):
    plain = bot_game(name, GAMES[name], 3)
    reword(monkeypatch)
    assert bot_game(name, GAMES[name], 3) == plain


def test_the_hard_crates_bot_sees_misses_in_reworded_logs(reworded):
    state = get_game("crates").new(
        2, 1, dealer=0, hands=[["2S", "5C", "6C"], ["KD", "4D", "QD"]], upcard="3H", draw=["9C"]
    )
    # The dealer's 3H asks seat 1 for a heart or a 3: it holds none and must draw (a miss).
    state.apply(1, {"type": "draw"})
    reading = read_round(state.view(0))
    assert reading.misses == {1: [("3", "H", 1)]}


def test_the_roach_bots_tally_claims_from_reworded_logs(reworded):
    state = get_game("roach").new(
        3, 1, first=0, hands=[["bat", "fly"], ["frog", "mouse"], ["joker", "bat"]]
    )
    state.apply(0, {"type": "offer", "card": "bat", "to": 1, "claim": "bat"})
    state.apply(1, {"type": "challenge", "believe": True})
    records = [Record() for _ in range(3)]
    read_log(state.view(2)["log"], records)
    assert (records[0].claims_shown, records[0].told_truth) == (1, 1)
    assert (records[1].challenges, records[1].said_true) == (1, 1)


def test_the_kraken_bots_follow_the_captaincy_in_reworded_logs(reworded):
    state = get_game("kraken").new(5, 2, characters=False, captain=3)
    history = History(seat=0)
    history.read(state.view(0)["log"], {})
    assert history.captain == 3 and history.first_faction == state.factions[0]
