"""Checking one game: the per-game tests every game of tablegames passes, for a game from
elsewhere to run on itself (`check_game`, and `tablegames check GAME`).

The matrix (`matrix/`, a pytest suite; tablegames' own test run plays it for every game) is:

| part        | what it proves                                                              |
|-------------|-----------------------------------------------------------------------------|
| contract    | the rules contract: metadata, replays, plain data, refusals that change     |
|             | nothing, views and events of the documented shape, options, sampling        |
| playouts    | random games end with winners; bots of every level play whole games         |
| network     | games over real sockets: no frame holds a secret of its moment, illegal     |
|             | actions change nothing, updates rebuild each seat's exact view              |
| server      | the server core under a stateful test (hypothesis): every promise kept      |
| screens     | the table screen at 60×20, 80×24 and 100×40, with the fewest and the most   |
|             | players, in ASCII too; help, leaving, refusals, replays                     |
| handoffs    | hot-seat: a hurried player sees only their own secrets                      |
| bots        | each bot level wins more than its fair share against the level below, on    |
|             | fixed seeds, in up to a minute of CPU a level, less once surely stronger    |
|             | (``--games N``: N games a matchup)                                          |

A failed check says where: its test, the game it played (players, seed, options, and a file
of its moves, which `Game.replay` takes back to the moment), the last frames of the game's
own code in the traceback, and the command that reruns that test alone (``--test``).

It needs the test extras (``pip install 'tablegames[test]'``: pytest, pytest-asyncio,
hypothesis). A plugin's own tests call it::

    from tablegames.testing import check_game

    def test_mygame_passes_every_check():
        check_game("mygame.rules:GAME")   # AssertionError listing what failed, in sentences
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .where import whereabouts

#: The matrix's parts, each a module of `matrix/`.
PARTS = ("contract", "playouts", "network", "server", "screens", "handoffs", "bots")
MATRIX = Path(__file__).resolve().parent / "matrix"
#: What the matrix's pytest run is configured by, whatever project it is run from.
INI = "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"


@dataclass
class Checked:
    """What `check_game` found: the tests that failed, each in a sentence, and the run's output."""

    game: str
    returncode: int
    failed: list[dict[str, str]] = field(default_factory=list)
    output: str = ""
    #: What the bots part measured, a line a matchup ("hard vs 3 normal: won 0.31 of ...").
    figures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.returncode == 0

    def sentences(self) -> list[str]:
        """Each failed test as its sentence and why ("... : AssertionError: ...")."""
        return [f"{found['sentence']} ({found['why']})" for found in self.failed]

    def summary(self) -> str:
        """A paragraph for people: that everything passed, or what failed and where: the
        test, the game (its seed, options and moves), the game's own code it failed in, and
        the command that runs that test alone."""
        measured = [f"  {line}" for line in self.figures]
        if self.passed:
            return "\n".join([f"{self.game} passes every check.", *measured])
        if not self.failed:
            tail = "\n".join(self.output.strip().splitlines()[-15:])
            return f"{self.game}: the checks could not run (exit {self.returncode}):\n{tail}"
        lines = [f"{self.game} fails {len(self.failed)} check(s):"]
        for sentence, found in zip(self.sentences(), self.failed, strict=True):
            lines.append(f"- {sentence}")
            lines += [f"    {line}" for line in whereabouts(found)]
            if found.get("rerun"):
                lines.append(f"    rerun it alone: {found['rerun']}")
        if measured:
            lines += ["The bots measured:", *measured]
        return "\n".join(lines)


def check_game(
    game: str,
    parts: Sequence[str] = PARTS,
    jobs: int = 0,
    raise_on_failure: bool = True,
    test: str = "",
    bot_games: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Checked:
    """Run the whole per-game matrix (or its `parts`) on `game`: a registered game's name, or
    an import string ("package.module:NAME") for a game not loaded here. In a program of its
    own (a pytest run in this one would share its state), on `jobs` processes (0: one);
    `test`: only the test of that name (as a failure names it: ``test_x`` or ``test_x[...]``);
    `bot_games`: the games of each of the bots part's matchups (None: up to a minute of CPU
    each, less once the level is surely stronger);
    `progress(done, total)` is told as each test ends.

    Raises AssertionError listing what failed, in sentences and where (unless
    `raise_on_failure` is False); returns what it found.
    """
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"no such part(s): {', '.join(sorted(unknown))} (parts: {PARTS})")
    name, env = _environment(game)
    moves = tempfile.mkdtemp(prefix=f"tablegames-check-{name}-")  # (kept: failures' moves)
    with tempfile.TemporaryDirectory(prefix="tablegames-check-") as scratch:
        ini = Path(scratch, "pytest.ini")
        ini.write_text(INI, encoding="utf-8")
        said, told = Path(scratch, "failed.json"), Path(scratch, "progress")
        command = [
            sys.executable,
            "-m",
            "pytest",
            *(str(MATRIX / f"test_{part}.py") + (f"::{test}" if test else "") for part in parts),
            "-c",
            str(ini),
            "--rootdir",
            scratch,
            "-p",
            "tablegames.testing.plugin",
            "--game",
            name,
            "--sentences",
            str(said),
            "--moves-dir",
            moves,
            "--progress",
            str(told),
            *(["--bot-games", str(bot_games)] if bot_games else []),
            "-m",
            "not slow or strength",  # (the bots' strength is slow for the suite, not a check)
            "-q",
            "-p",
            "no:cacheprovider",
            *(["-n", str(jobs)] if jobs else []),
        ]
        output = Path(scratch, "output")
        with output.open("w+", encoding="utf-8") as out:
            running = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
            while running.poll() is None:
                if progress is not None:
                    progress(*_progress(told))
                try:
                    running.wait(timeout=0.25)
                except subprocess.TimeoutExpired:
                    continue
            if progress is not None:
                progress(*_progress(told))  # (the last tests, ended since the last look)
            out.seek(0)
            text = out.read()
        found = json.loads(said.read_text("utf-8")) if said.exists() else {}
    failed: list[dict[str, str]] = found.get("failed", [])
    for one in failed:
        one["rerun"] = rerun(game, one["test"])
    if not any("moves" in one for one in failed):
        shutil.rmtree(moves, ignore_errors=True)
    checked = Checked(name, running.returncode, failed, text, found.get("figures", []))
    if raise_on_failure and not checked.passed:
        raise AssertionError(checked.summary())
    return checked


def _progress(told: Path) -> tuple[int, int]:
    """(tests done, tests in all) as the run has said so far (0 in all: not known yet)."""
    try:
        lines = told.read_text("utf-8").splitlines()
    except OSError:
        return 0, 0
    total = next((int(line.split()[1]) for line in lines if line.startswith("total ")), 0)
    return sum(line == "done" for line in lines), total


def rerun(game: str, test: str) -> str:
    """The command that runs the failed `test` (its pytest node id) alone on `game`."""
    path, _, function = test.partition("::")
    part = Path(path).stem.removeprefix("test_")
    if part not in PARTS or not function:
        return ""
    function = function.removesuffix(f"[{_name_of(game)}]")  # (the game is named already)
    return f"tablegames check {shlex.quote(game)} --only {part} --test {shlex.quote(function)}"


def _name_of(game: str) -> str:
    """The name of the game `game` names (a name, or an import string)."""
    if ":" not in game:
        return game
    from ..rules.core import resolve

    return str(getattr(resolve(game), "name", game))


def _environment(game: str) -> tuple[str, dict[str, str]]:
    """The game's name and the environment the matrix runs in: this program's module path,
    and the game named in TABLEGAMES_GAMES when given as an import string."""
    from ..rules import GAMES, Game
    from ..rules.core import resolve
    from ..rules.plugins import VARIABLE

    path = [entry for entry in sys.path if entry and Path(entry).is_dir()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    if ":" in game:
        named_game = resolve(game)  # (to know its name: the checks register it, not this one)
        if not isinstance(named_game, Game):
            raise TypeError(f"{game} is a {type(named_game).__name__}, not a tablegames Game")
        name = named_game.name
        named = [*filter(None, env.get(VARIABLE, "").split(",")), game.strip()]
        env[VARIABLE] = ",".join(dict.fromkeys(named))
        return name, env
    if game not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"no game called {game!r} here (known: {known}); name its import string")
    return game, env
