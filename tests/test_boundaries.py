"""The package's boundaries where `lint-imports` cannot see them: import strings, and a cycle
added on purpose (the acyclic contract must catch it, a type-only one too)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tablegames

PACKAGE = Path(tablegames.__file__).parent
#: A string naming a module of ours ("tablegames.tui.screens.crates:SCREEN").
NAMED_MODULE = re.compile(r"^tablegames(\.[A-Za-z_]\w*)+(:[\w.]+)?$")


def named_modules(path: Path) -> list[tuple[int, str]]:
    """The strings in `path`'s code (docstrings left out) that name a module of ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and NAMED_MODULE.match(node.value)
        and is_ours(node.value.partition(":")[0])
    ]


def is_ours(module: str) -> bool:
    """True if `module` ("tablegames.tui.app") is a module or package of ours."""
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_the_rules_name_nothing_above_them_even_in_an_import_string():
    """The built-in games' screens and bots are registered from above (`tui/catalogue.py`,
    `bots/own.py`): a string in the rules naming a screen is an import the linter misses."""
    above = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
        for path in sorted((PACKAGE / "rules").rglob("*.py"))
        for line, text in named_modules(path)
        if not text.startswith("tablegames.rules")
    ]
    assert not above, above
