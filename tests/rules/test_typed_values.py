"""Game values cross layers typed (issue 50): the package holds few `Any`, and the table's plain
data becomes a game's own types in one place only, the adapter (`tablegames/rules/typed.py`).

Read from the source, as `tests/net/test_seat_owner.py` reads who changes a seat: a `cast` into
a game's view, action or event type anywhere else is a second adapter (a claim mypy cannot
check, made where nobody looks for it).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tablegames

PACKAGE = Path(tablegames.__file__).parent
ADAPTER = PACKAGE / "rules" / "typed.py"
#: The most `Any` the package may hold, counted as ``git grep -ow Any -- 'tablegames/*.py'``
#: counts them (docstrings too: a word is a word).
MOST_ANY = 200
#: The adapter's own type variables: a cast into one is a cast into whatever game's type.
TYPE_VARIABLES = frozenset(("ViewT", "ActionT", "EventT"))


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def game_type_names() -> frozenset[str]:
    """Every name a game's types module defines at its top level (`crates_types.py`,
    `kraken/types.py`...: its views, actions, events and the values in them)."""
    names: set[str] = set()
    for path in sources():
        if path.parent.is_relative_to(PACKAGE / "rules") and path.name.endswith("types.py"):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Assign | ast.AnnAssign):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(names)


def names_in(type_expression: ast.expr) -> set[str]:
    """The names a type expression mentions (in a string annotation too)."""
    if isinstance(type_expression, ast.Constant) and isinstance(type_expression.value, str):
        type_expression = ast.parse(type_expression.value, mode="eval").body
    found: set[str] = set()
    for node in ast.walk(type_expression):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found |= names_in(node)
    return found


def casts_into(path: Path, wanted: frozenset[str]) -> list[str]:
    """Where `path` casts into one of the `wanted` types: "path:line"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name == "cast" and names_in(node.args[0]) & wanted:
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_the_package_holds_at_most_200_any() -> None:
    word = re.compile(r"(?<![A-Za-z0-9_])Any(?![A-Za-z0-9_])")
    counts = {path: len(word.findall(path.read_text(encoding="utf-8"))) for path in sources()}
    most = sorted(counts.items(), key=lambda item: -item[1])[:5]
    assert sum(counts.values()) <= MOST_ANY, [(str(p.relative_to(PACKAGE)), n) for p, n in most]


def test_only_the_adapter_casts_into_a_games_types() -> None:
    wanted = game_type_names() | TYPE_VARIABLES
    assert {"CratesView", "KrakenAction", "RoachEvent", "CrabsView"} <= wanted
    elsewhere = [
        where for path in sources() if path != ADAPTER for where in casts_into(path, wanted)
    ]
    assert elsewhere == []


def test_the_adapter_is_where_the_casts_are() -> None:
    # (the test above would pass if its search found nothing: it finds the adapter's own)
    assert len(casts_into(ADAPTER, TYPE_VARIABLES)) >= 3
