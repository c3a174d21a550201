"""Where a failed check went wrong: the game it was playing (seed, options, the moves so far),
the last frames of the game's own code in its traceback, and the command that reruns it.

While a per-game test runs, every game it starts (`Game.new`, hence `Game.replay`, a table,
the leak scanner's replay) is watched: its players, seed and options, and each move applied
to it. When the test fails, the game is the one whose code raised (the innermost frame whose
``self`` is a watched state), else the last one moved; its moves are written to a JSON file
that `Game.replay` takes back to the moment of the failure.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Any

from ..rules import Game, State, get_game
from ..rules.contract import Event
from ..words import plural

if TYPE_CHECKING:
    import pytest

#: How many of the game's own frames a failure shows (the innermost).
FRAMES = 3


@dataclass
class Played:
    """One game a test started: enough to replay it (`Game.replay`) to where it stood."""

    game: str
    players: int
    seed: int
    options: dict[str, object]
    moves: list[tuple[int, object, float]] = field(default_factory=list)
    #: The move being applied when the game's code raised, if it raised applying one.
    failed_move: tuple[int, object, float] | None = None

    def words(self) -> str:
        """The game in a line: "4 players, seed 42, options {'target': 10}, after 17 moves"."""
        options = f"options {self.options}" if self.options else "no options"
        moves = plural(len(self.moves), "move")
        said = f"{self.players} players, seed {self.seed}, {options}, after {moves}"
        if self.failed_move is not None:
            seat, action, _ = self.failed_move
            said += f", while seat {seat} played {json.dumps(action)}"
        return said

    def as_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "moves": self.moves,
            "failed_move": self.failed_move,
        }


class Watch:
    """The games started during one test, by state."""

    def __init__(self) -> None:
        self.states: dict[int, tuple[State, Played]] = {}
        self.last: Played | None = None

    def started(self, state: State, played: Played) -> None:
        self.states[id(state)] = (state, played)
        self.last = played

    def of(self, state: object) -> Played | None:
        found = self.states.get(id(state))
        return found[1] if found is not None and found[0] is state else None


def watch_games(monkeypatch: pytest.MonkeyPatch) -> Watch:
    """Watch every game started and moved until `monkeypatch` is undone (the test's end)."""
    watch = Watch()
    new, apply = Game.new, State.apply

    def watched_new(self: Game, players: int, seed: int, **options: object) -> State:
        state = new(self, players, seed, **options)
        watch.started(state, Played(self.name, players, seed, copy.deepcopy(options)))
        return state

    def watched_apply(
        self: State, seat: int, action: Any, now: float = 0.0
    ) -> list[Event]:  # (the contract's signature, as `State.apply`)
        played = watch.of(self)
        if played is None:  # a bot's imagined game, a copy: not one a test started
            return apply(self, seat, action, now)
        move = (seat, copy.deepcopy(action), now)
        try:
            events = apply(self, seat, action, now)
        except Exception as problem:
            if not _refusal(problem):
                played.failed_move = move  # the game's code broke on this move
            raise
        played.moves.append(move)
        watch.last = played
        return events

    monkeypatch.setattr(Game, "new", watched_new)
    monkeypatch.setattr(State, "apply", watched_apply)
    return watch


def _refusal(problem: Exception) -> bool:
    from ..rules import IllegalAction

    return isinstance(problem, IllegalAction)


def _frames(tb: TracebackType | None) -> Iterator[FrameType]:
    while tb is not None:
        yield tb.tb_frame
        tb = tb.tb_next


def game_of(watch: Watch, tb: TracebackType | None) -> Played | None:
    """The game a failure happened in: the innermost watched state in the traceback (as
    ``self``: the game's own code raised), then as any local (a test's), else the last game
    moved."""
    frames = list(_frames(tb))[::-1]
    for frame in frames:
        played = watch.of(frame.f_locals.get("self"))
        if played is not None:
            return played
    for frame in frames:
        for value in list(frame.f_locals.values()):
            played = watch.of(value) if isinstance(value, State) else None
            if played is not None:
                return played
    return watch.last


def own_files(game_name: str) -> list[Path]:
    """The files and folders of a game's own code: the packages (or the single modules) its
    rules, its bots and its screen come from."""
    game = get_game(game_name)
    modules = [game.make.__module__]
    modules += [name.partition(":")[0] for name in (game.bots, game.screen) if name]
    roots: list[Path] = []
    for module in modules:
        top = sys.modules.get(module.split(".")[0])
        where = getattr(top, "__file__", None)
        if where is None:
            continue
        path = Path(where).resolve()
        roots.append(path.parent if path.name == "__init__.py" else path)
    ours = Path(__file__).resolve().parents[1]  # tablegames itself is nobody's own code
    return [root for root in roots if root != ours and ours not in root.parents]


def own_frames(game_name: str, tb: TracebackType | None, count: int = FRAMES) -> list[str]:
    """The innermost `count` frames of `tb` in the game's own code, as a traceback shows them
    (the file, line and function, then the line of code)."""
    try:
        roots = own_files(game_name)
    except KeyError:
        return []
    summary = traceback.extract_tb(tb)
    mine: list[traceback.FrameSummary] = []
    for frame in summary:
        if not any(_within(Path(frame.filename), root) for root in roots):
            continue
        if mine and (mine[-1].filename, mine[-1].lineno) == (frame.filename, frame.lineno):
            continue  # (a comprehension is a frame of its own, on the same line)
        mine.append(frame)
    return [
        f'File "{frame.filename}", line {frame.lineno}, in {frame.name}\n'
        f"  {(frame.line or '').strip()}"
        for frame in mine[-count:]
    ]


def _within(path: Path, root: Path) -> bool:
    try:
        path = path.resolve()
    except OSError:
        return False
    return path == root or root in path.parents


def save_moves(played: Played, folder: Path, test: str) -> Path:
    """Write `played` to a JSON file named after `test` in `folder`; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test).strip("-") or "failure"
    path = folder / f"{name}.json"
    path.write_text(json.dumps(played.as_json(), indent=1, default=repr), encoding="utf-8")
    return path


def whereabouts(found: dict[str, str]) -> list[str]:
    """Where a failed test went wrong, in lines: its test, its game and the game's frames."""
    lines = [f"test: {found['test']}"]
    if "played" in found:
        lines.append(f"game: {found['played']}")
        lines.append(f"moves: {found['moves']}")
    if "frames" in found:
        lines.append("where, in the game's own code (innermost last):")
        lines += [f"  {line}" for line in found["frames"].splitlines()]
    return lines
