"""Styles live in .tcss files only, and every one of them parses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from textual.app import App
from textual.css.stylesheet import Stylesheet

import tablegames

from ..sources import found_in_modules

PACKAGE = Path(tablegames.__file__).parent
#: What Textual reads styles from in a class or module: none of them belongs in Python.
CSS_NAMES = {"CSS", "DEFAULT_CSS"}


def css_in_python(source: str) -> list[str]:
    """Where `source` assigns CSS to a name: `DEFAULT_CSS`, `CSS` or a `..._CSS` template."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name) and (
                target.id in CSS_NAMES or target.id.endswith("_CSS")
            ):
                found.append(f"line {node.lineno}: {target.id}")
    return found


def test_a_module_that_holds_css_is_named():
    assert css_in_python('class A:\n    DEFAULT_CSS = "A { height: 1; }"\n') == [
        "line 2: DEFAULT_CSS"
    ]
    assert css_in_python('FORM_CSS = "{name} {{ }}"\n') == ["line 1: FORM_CSS"]
    assert css_in_python('class A:\n    CSS_PATH = "a.tcss"\n') == []


def test_no_python_module_holds_css():
    assert found_in_modules(PACKAGE, css_in_python) == {}


@pytest.mark.parametrize(
    "sheet", sorted(PACKAGE.rglob("*.tcss")), ids=lambda path: str(path.relative_to(PACKAGE))
)
def test_every_style_sheet_parses(sheet):
    # (a sheet that does not parse would stop the app when its screen first opens)
    styles = Stylesheet(variables=App().get_css_variables())
    styles.read(sheet)
    styles.parse()
    assert styles.rules
