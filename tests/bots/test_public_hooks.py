"""Bots use the engines' public hooks only: they never set an engine state's attributes or read
its private ones (a state is built for them by `from_view`, `imagine` or `copy`)."""

from __future__ import annotations

import ast
from pathlib import Path

from ..sources import found_in_modules

BOTS = Path(__file__).resolve().parents[2] / "tablegames" / "bots"
#: Calls that hand a bot an engine state.
MAKERS = frozenset(("from_view", "imagine", "copy", "new", "sample"))


def engine_states(function: ast.AST) -> set[str]:
    """Names in `function` that hold an engine state: parameters annotated as a `...State`,
    or names bound to what a state maker returns."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.arg) and node.annotation is not None:
            if ast.unparse(node.annotation).endswith("State"):
                names.add(node.arg)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made = getattr(node.value.func, "attr", "")
            if made in MAKERS:
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def reaches_in(source: str) -> list[str]:
    """Where `source` sets an engine state's attribute or reads a private one."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef):
            continue
        states = engine_states(function)
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
                found.append(f"{node.lineno}: setattr")
            if not isinstance(node, ast.Attribute) or getattr(node.value, "id", "") not in states:
                continue
            if isinstance(node.ctx, ast.Store):
                found.append(f"{node.lineno}: sets {ast.unparse(node)}")
            elif node.attr.startswith("_") and not node.attr.startswith("__"):
                found.append(f"{node.lineno}: reads {ast.unparse(node)}")
    return sorted(set(found))


def test_the_checker_sees_a_bot_reaching_into_a_state():
    source = """
def roll(state: CratesState, notes: Notes) -> None:
    state.turn = 3
    setattr(state, "phase", "x")
    state._fitting()
    notes.seen = 1
    world = CratesState.from_view(view, rng)
    world.suit = "S"
"""
    assert reaches_in(source) == [
        "3: sets state.turn",
        "4: setattr",
        "5: reads state._fitting",
        "8: sets world.suit",
    ]


def test_no_bot_sets_or_reads_an_engines_internals():
    assert found_in_modules(BOTS, reaches_in) == {}
