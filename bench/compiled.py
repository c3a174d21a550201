"""A throw-away copy of the crates engine (core, cards, crates), optionally built with mypyc.

`bench.engine` times the work tree's engine compiled against the same source pure (what
compiling alone would buy), and `bench.engine_ab --compiled` an earlier revision's, compiled,
against the work tree's.
mypyc comes with mypy (the `test` extra); the copies live in a temporary directory.
"""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = ("core.py", "contract.py", "games.py", "cards.py", "crates_types.py", "crates.py")


def crates_copy(
    package: str, where: Path, rules: Path = ROOT / "tablegames" / "rules", compiled: bool = False
) -> Any:
    """The crates `Game` from a copy named `package` under `where` of the engine in the folder
    `rules` (the work tree's, or a revision's checked out), built with mypyc when `compiled`."""
    folder = where / package
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for name in ENGINE_FILES:
        if not (rules / name).exists():  # (a file newer than that revision)
            continue
        source = (rules / name).read_text(encoding="utf-8")
        if compiled:
            # mypyc fails on `cls.__new__(cls)` (CratesState.from_view, which bots use and
            # playouts do not): the copy builds that state the long way. Nothing else changes.
            source = source.replace("cls.__new__(cls)", "CratesState(2, 0)")
        (folder / name).write_text(source, encoding="utf-8")
    if compiled:
        files = [f"{package}/{name}" for name in ENGINE_FILES if (folder / name).exists()]
        subprocess.run(
            [sys.executable, "-m", "mypyc", *files], cwd=where, capture_output=True, check=True
        )
    sys.path.insert(0, str(where))
    engine = importlib.import_module(f"{package}.crates")
    if hasattr(engine, "CRATES") and not (folder / "games.py").exists():
        return engine.CRATES  # (a revision that declared the game beside its engine)
    if (folder / "games.py").exists():  # (a revision that declared it in rules/games.py)
        declared = importlib.import_module(f"{package}.games").CRATES  # the copy's own `Game`
        return dataclasses.replace(declared, factory=engine.CratesState)
    # Declared in tablegames/bundled/ (above the rules, so not copied): the copy's own `Game`
    # class with the fields it knows, registered in the copy (its engine finds itself there).
    from tablegames.bundled.crates import GAME

    core = importlib.import_module(f"{package}.core")
    known = {field.name for field in dataclasses.fields(core.Game)}
    fields = {name: getattr(GAME, name) for name in known if hasattr(GAME, name)}
    game = core.Game(**{**fields, "factory": engine.CratesState})
    core.GAMES[game.name] = game
    return game


def compiled_crates() -> Any:
    """The work tree's crates `Game` built with mypyc; ImportError when mypyc is missing."""
    import mypyc  # noqa: F401  (the build needs it: say so before copying anything)

    where = Path(tempfile.mkdtemp(prefix="crates-compiled-"))  # kept while the process runs
    return crates_copy("crates_compiled", where, compiled=True)
