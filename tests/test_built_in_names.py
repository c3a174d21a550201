"""No framework module names a built-in game: each is registered as a game from elsewhere is
(its entry point in pyproject.toml), and only its own modules name it.

A module names a game when its code (comments and docstrings left out: an example there is
words, not wiring) holds the game's name as a word of a string (``"crates"``,
``"tablegames.bots.crates:BOTS"``), of a name (``CratesState``, ``crates_secrets``) or of a
module it imports. A game's own modules are named after it: ``crates.py``, ``crates_view.py``,
a ``kraken/`` package, in any folder (its rules, bots, screens, widgets, its declaration in
``tablegames/bundled/``).

Counting by hand: ``.venv/bin/python tests/test_built_in_names.py [FOLDER]`` lists each line
of the package in FOLDER (by default this one) that names a built-in game.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

import tablegames
from tablegames.rules.core import declared
from tablegames.rules.plugins import own

PACKAGE = Path(tablegames.__file__).parent
#: The built-in games, by name: those tablegames declares in its own entry points.
BUILT_IN = tuple(declared(plugin.reference).name for plugin in own())


def is_own(path: Path, name: str) -> bool:
    """True if the module at `path` (relative to the package) is one of game `name`'s own."""
    return any(part in (name, f"{name}.py") or part.startswith(f"{name}_") for part in path.parts)


def words(text: str) -> set[str]:
    """The words of a string or an identifier, lower case (``CratesState``: crates, state)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return {word.lower() for word in re.split(r"[^A-Za-z0-9]+", spaced) if word}


def docstrings(source: str) -> set[tuple[int, int]]:
    """Where each docstring of `source` starts (line, column)."""
    tree = ast.parse(source)
    return {
        (node.body[0].lineno, node.body[0].col_offset)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }


def naming_lines(path: Path, names: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, the game named) for each line of `path`'s code that names one of `names`."""
    source = path.read_text(encoding="utf-8")
    skip = docstrings(source)
    found: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.NAME, tokenize.STRING) or token.start in skip:
            continue
        named = words(token.string) & set(names)
        if named:
            found.setdefault(token.start[0], min(named))
    return sorted(found.items())


def framework_lines(package: Path, names: tuple[str, ...]) -> list[str]:
    """Each line of a framework module under `package` that names a built-in game."""
    lines = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        others = tuple(name for name in names if not is_own(relative, name))
        lines += [
            f"{package.name}/{relative}:{line}: {name}" for line, name in naming_lines(path, others)
        ]
    return lines


def test_no_framework_module_names_a_built_in_game():
    assert set(BUILT_IN) >= {"crates", "roach", "crabs", "kraken"}  # (read from pyproject)
    lines = framework_lines(PACKAGE, BUILT_IN)
    assert not lines, "\n".join(lines)


def test_a_framework_module_naming_one_is_found(tmp_path):
    package = tmp_path / "tablegames"
    (package / "rules").mkdir(parents=True)
    (package / "rules" / "crates.py").write_text('NAME = "crates"\n')  # the game's own
    (package / "talk.py").write_text(
        '"""Talk (kraken has some)."""\n'
        "# kraken: its vocabulary\n"
        'VOCABULARIES = {"kraken": "tablegames.rules.kraken.talk"}\n'
        "from .rules.crates import CratesState\n"
        "def secrets(state):\n"
        "    return crates_secrets(state)  # by its name\n"
    )
    assert framework_lines(package, BUILT_IN) == [
        "tablegames/talk.py:3: kraken",
        "tablegames/talk.py:4: crates",
        "tablegames/talk.py:6: crates",
    ]


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE
    found = framework_lines(folder, BUILT_IN)
    print("\n".join(found))
    print(f"{len(found)} lines in {len({line.partition(':')[0] for line in found})} files")
