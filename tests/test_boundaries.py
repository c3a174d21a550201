"""The package's boundaries where `lint-imports` cannot see them: import strings, and a cycle
added on purpose (the acyclic contract must catch it, a type-only one too)."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
from pathlib import Path

import grimp
from importlinter.api import read_configuration
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract

import tablegames
from tablegames.bots import get_bot
from tablegames.bots.own import own_bots
from tablegames.rules import GAMES
from tablegames.tui import catalogue

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
    """The bundled games' screens and bots are named by their declarations, above the rules
    (`tablegames/bundled/`): a string in the rules naming a screen is an import the linter
    misses."""
    above = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
        for path in sorted((PACKAGE / "rules").rglob("*.py"))
        for line, text in named_modules(path)
        if not text.startswith("tablegames.rules")
    ]
    assert not above, above


def test_built_in_games_have_their_own_screens_and_bots_and_a_game_from_elsewhere_names_its_own(
    monkeypatch,
):
    from tablegames.bots.crates import BOTS
    from tablegames.tui.screens.crates import SCREEN

    assert catalogue.screen_class("crates") is SCREEN
    assert get_bot("crates", "normal", 0, random.Random(1)).__class__ is BOTS["normal"]
    # (Sealed Bids names bots of its own: here it is a game that names none, then both)
    plugin = dataclasses.replace(GAMES["sealedbids"], screen="", bots="")
    monkeypatch.setitem(GAMES, "sealedbids", plugin)
    assert not catalogue.own_screen(plugin) and not own_bots(plugin)
    (listing,) = [entry for entry in catalogue.listings() if entry.name == "sealedbids"]
    assert not listing.own_screen and not listing.own_bots
    named = dataclasses.replace(
        plugin, screen="tablegames.tui.screens.crates:SCREEN", bots="tablegames.bots.crates:BOTS"
    )
    monkeypatch.setitem(GAMES, "sealedbids", named)
    assert catalogue.screen_class("sealedbids") is SCREEN
    assert own_bots(named) == "tablegames.bots.crates:BOTS"
    (listing,) = [entry for entry in catalogue.listings() if entry.name == "sealedbids"]
    assert listing.own_screen and listing.own_bots


# -- the acyclic contract (.importlinter) ------------------------------------------------------
def acyclic_contract(ancestor: str = "tablegames") -> tuple[AcyclicSiblingsContract, bool]:
    """The `.importlinter` contract that forbids cycles, for the package `ancestor`, and
    whether the configuration leaves imports under TYPE_CHECKING out of the graph."""
    config = read_configuration(str(PACKAGE.parent / ".importlinter"))
    (options,) = (o for o in config["contracts_options"] if o["type"] == "acyclic_siblings")
    options = {**options, "ancestors": [ancestor]}
    contract = AcyclicSiblingsContract(options["name"], config["session_options"], options)
    type_only_left_out = config["session_options"]["exclude_type_checking_imports"] == "True"
    return contract, type_only_left_out


def test_the_package_has_no_import_cycle_and_one_added_on_purpose_is_caught():
    contract, type_only_left_out = acyclic_contract()
    graph = grimp.build_graph(
        "tablegames", exclude_type_checking_imports=type_only_left_out, cache_dir=None
    )
    assert contract.check(graph, verbose=False).kept
    # The app importing the session that runs it (the cycle there was): a cycle in tui/.
    graph.add_import(importer="tablegames.tui.session", imported="tablegames.tui.app")
    graph.add_import(importer="tablegames.tui.app", imported="tablegames.tui.session")
    assert not contract.check(graph, verbose=False).kept
    graph.remove_import(importer="tablegames.tui.app", imported="tablegames.tui.session")
    assert contract.check(graph, verbose=False).kept
    # The rules importing a screen: a cycle between packages (the tui imports the rules).
    graph.add_import(importer="tablegames.rules.core", imported="tablegames.tui.app")
    check = contract.check(graph, verbose=False)
    assert not check.kept
    assert check.metadata["cycle_breakers_by_package"].keys() == {"tablegames"}


def test_a_cycle_through_an_import_for_types_only_is_caught_too(tmp_path, monkeypatch):
    """A package whose two modules import each other, one only under TYPE_CHECKING."""
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text('"""A cycle on purpose."""\n')
    (package / "door.py").write_text("from . import session\n")
    (package / "session.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from . import door\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    contract, type_only_left_out = acyclic_contract("loop")
    assert not type_only_left_out
    graph = grimp.build_graph("loop", exclude_type_checking_imports=False, cache_dir=None)
    check = contract.check(graph, verbose=False)
    assert not check.kept
    assert check.metadata["cycle_breakers_by_package"]["loop"]
