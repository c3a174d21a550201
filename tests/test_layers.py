"""What each layer may import from outside the package, as an allow-list (the order of our own
layers is `.importlinter`'s layers contract): the rules import the standard library and
themselves only, and a new dependency is placed here on purpose, never by accident."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import tablegames

PACKAGE = Path(tablegames.__file__).parent

#: The packages from outside the standard library each top-level part of ours may import.
#: A part not named here may import the standard library and our own modules only.
ALLOWED: dict[str, frozenset[str]] = {
    "cli": frozenset({"rich", "typer"}),
    "names": frozenset({"confusable_homoglyphs"}),
    "net": frozenset({"aiohttp", "asyncssh", "cryptography", "msgspec"}),
    "paths": frozenset({"platformdirs"}),
    "ratings": frozenset({"openskill"}),
    "serve": frozenset({"typer"}),
    "testing": frozenset({"hypothesis", "msgpack", "msgspec", "pytest", "rich", "textual"}),
    "tui": frozenset({"msgspec", "rich", "textual", "typing_extensions"}),  # (TypeVar defaults)
}

#: Parts that do no I/O and keep no time of their own: the standard library's I/O is not theirs.
PURE = frozenset({"rules", "bots", "table", "talk", "bundled"})
IO = frozenset(
    {
        "asyncio",
        "http",
        "selectors",
        "socket",
        "sqlite3",
        "ssl",
        "subprocess",
        "threading",
        "urllib",
    }
)


def imported(source: str) -> set[str]:
    """The top-level names of the packages `source` imports absolutely (relative imports are
    our own)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.partition(".")[0])
    return found


def outside_the_allow_list(part: str, source: str) -> set[str]:
    """The packages `source`, a module of our top-level `part`, imports but may not."""
    allowed = sys.stdlib_module_names | {"__future__", "tablegames"} | ALLOWED.get(part, set())
    if part in PURE:
        allowed -= IO
    return imported(source) - allowed


def test_every_module_imports_only_what_its_layer_allows():
    found = {
        f"{path.relative_to(PACKAGE.parent)}: {sorted(extra)}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if (
            extra := outside_the_allow_list(
                path.relative_to(PACKAGE).parts[0].removesuffix(".py"),
                path.read_text(encoding="utf-8"),
            )
        )
    }
    assert not found, found


def test_an_import_outside_the_allow_list_is_caught():
    assert outside_the_allow_list("rules", "import aiohttp\nfrom openskill import x\n") == {
        "aiohttp",
        "openskill",
    }
    assert outside_the_allow_list("bots", "import textual.app\n") == {"textual"}
    assert outside_the_allow_list("table", "import sqlite3, asyncio\n") == {"sqlite3", "asyncio"}
    assert not outside_the_allow_list("rules", "import random\nfrom . import core\n")
    assert not outside_the_allow_list("net", "import msgspec\n")


def test_the_rules_load_nothing_but_the_standard_library_and_themselves():
    """Importing the rules and playing every built-in game's first moves, in a fresh
    interpreter, loads only the standard library, `tablegames.rules` and the games'
    declarations (`tablegames.bundled`: an import string or an `importlib` call would escape the
    static checks above)."""
    program = """
import json, random, sys
before = set(sys.modules)
from tablegames.rules import GAMES
for game in list(GAMES.values()):  # the built-in games: nothing else is loaded here
    state = game.new(players=game.min_players, seed=1)
    rng = random.Random(1)
    for _ in range(20):
        seats = sorted(state.waiting_for())
        if state.over or not seats:
            break
        state.apply(seats[0], rng.choice(state.legal(seats[0])))
        state.view(seats[0])
print(json.dumps(sorted(set(sys.modules) - before)))
"""
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(run.stdout)
    outside = [
        name
        for name in loaded
        if name.partition(".")[0] not in sys.stdlib_module_names
        and name != "tablegames"
        and not name.startswith(("tablegames.rules", "tablegames.bundled"))
    ]
    assert not outside, outside
    assert any(name.startswith("tablegames.rules.crates") for name in loaded)
