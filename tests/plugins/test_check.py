"""`tablegames check GAME`: one game's whole per-game matrix, what failed said in sentences."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tablegames.cli import app
from tablegames.testing import check_game

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

#: Sealed Bids with one mistake a player would never see at a table on this machine: a view
#: holding a set, which no wire carries (msgpack and JSON refuse it).
SLIPPED = """
from tests.plugins import sealedbids


class Slipped(sealedbids.SealedBidsState):
    def _view(self, seat):
        return {**super()._view(seat), "odd": {1, 2}}

    @classmethod
    def from_view(cls, view, rng):
        state = super().from_view(view, rng)
        state.__class__, state.game = cls, GAME
        return state


GAME = sealedbids.Game("slipped", "Slipped", 2, 10, 4, "A slip.", Slipped)
"""


#: Love Letter with the mistake a new author made in Skull: its view crashes once a player is
#: out of the round (nothing in the hand to show).
CRASHES_ONCE_OUT = """
from tests.plugins import loveletter


class Crashes(loveletter.LoveLetterState):
    def _view(self, seat):
        view = super()._view(seat)
        view["first_cards"] = [self.hands[other][0] for other in range(self.players)]
        return view


GAME = loveletter.Game("crashes", "Crashes", 2, 4, 4, "A crash.", Crashes, setups=("deck",))
"""


def check(tmp_path, module, source, *args):
    """`tablegames check` run as an author runs it, on the game `source` defines as `module`."""
    (tmp_path / f"{module}.py").write_text(source)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "tablegames", "check", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )


def test_a_failure_says_where_the_games_own_code_broke_and_how_to_rerun_it(tmp_path):
    done = check(tmp_path, "crashes", CRASHES_ONCE_OUT, "crashes:GAME", "--only", "playouts")
    assert done.returncode == 1, done.stdout + done.stderr
    said = done.stdout
    assert "- The same seed and the same moves make the same game. (IndexError" in said
    # the test, the game played (players, seed, options, moves) and a file of its moves
    assert "test: tablegames/testing/matrix/test_playouts.py::test_same_seed_same_game[" in said
    game = re.search(r"game: 4 players, seed 42, no options, after (\d+) moves", said)
    assert game is not None, said
    moves = Path(re.search(r"moves: (\S+\.json)", said).group(1))
    played = json.loads(moves.read_text())
    # the moves take the game back to where its view broke
    from tests.plugins.loveletter import LOVELETTER

    state = LOVELETTER.replay(played["players"], played["seed"], played["options"], played["moves"])
    assert len(played["moves"]) == int(game.group(1)) and any(state.out)
    # the game's own line, not ours nor pytest's
    assert f'File "{tmp_path / "crashes.py"}", line 8, in _view' in said
    assert 'view["first_cards"] = [self.hands[other][0]' in said
    assert "rules/core.py" not in said and "_pytest" not in said
    rerun = "tablegames check crashes:GAME --only playouts --test test_same_seed_same_game"
    assert f"rerun it alone: {rerun}" in said
    alone = check(tmp_path, "crashes", CRASHES_ONCE_OUT, *rerun.split()[2:])
    assert alone.returncode == 1 and "crashes fails 1 check(s):" in alone.stdout, alone.stdout


#: Love Letter whose own `hard` is a slip of its author's: a bot that plays at random, weaker
#: than its `normal` (the generic look-ahead), which nobody sees in a game or two.
WEAK_HARD = """
from tablegames.bots import AnyLegalAction
from tests.plugins import loveletter

GAME = loveletter.Game(
    "weakhard", "Weak hard", 2, 4, 4, "A weak hard.", loveletter.LoveLetterState,
    bots="weakhard:BOTS",
)
BOTS = {"hard": AnyLegalAction}
"""


@pytest.mark.slow  # (20 s of bots' games)
def test_the_bots_part_fails_a_level_no_stronger_than_the_one_below_with_the_figures(tmp_path):
    longer = ("--only", "bots", "--games", "24")
    done = check(tmp_path, "weakhard", WEAK_HARD, "weakhard:GAME", *longer)
    assert done.returncode == 1, done.stdout + done.stderr
    said = done.stdout
    assert "weakhard fails 1 check(s):" in said
    assert "- Each bot level wins more than its fair share against bots of the level below." in said
    verdict = re.search(
        r"hard is not stronger than normal: hard vs 3 normal: won (\d\.\d\d) of 24 games "
        r"\(95% (\d\.\d\d)-(\d\.\d\d); fair share 0\.25\)",
        said,
    )
    assert verdict is not None, said
    share, low, high = map(float, verdict.groups())
    assert share <= 0.25 and low <= share <= high
    # the level below it is stronger than random, and said so with its figures
    assert re.search(r"normal vs 3 random: won 0\.\d\d of 24 games \(95% ", said), said
    assert "rerun it alone: tablegames check weakhard:GAME --only bots --test" in said


def test_a_game_that_passes_is_said_to_pass():
    result = runner.invoke(app, ["check", "sealedbids", "--only", "contract"])
    assert result.exit_code == 0, result.output
    assert "Checking sealedbids: contract" in result.output
    assert "sealedbids passes every check." in result.output


def test_what_failed_is_said_in_a_sentence(tmp_path):
    (tmp_path / "slipped.py").write_text(SLIPPED)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "tablegames", "check", "slipped:GAME", "--only", "contract"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "slipped fails 1 check(s):" in done.stdout
    assert "- Its views and actions are plain data: msgpack and JSON carry them unchanged." in (
        done.stdout
    )
    assert "Traceback" not in done.stdout + done.stderr


def test_a_game_that_cannot_be_checked_is_a_sentence():
    result = runner.invoke(app, ["check", "nowhere.at:GAME"])
    assert result.exit_code == 2
    assert "Cannot check nowhere.at:GAME: ModuleNotFoundError: No module named 'nowhere'" in (
        result.output
    )
    result = runner.invoke(app, ["check", "crates", "--only", "vibes"])
    assert result.exit_code != 0 and "no part called 'vibes'" in result.output


def test_the_check_tells_how_far_it_is_as_each_test_ends():
    told: list[tuple[int, int]] = []
    checked = check_game("sealedbids", parts=("contract",), progress=lambda *at: told.append(at))
    assert checked.passed
    total = told[-1][1]
    assert total > 10 and told[-1] == (total, total)  # every test of the part, then done
    assert [done for done, _ in told] == sorted(done for done, _ in told)
