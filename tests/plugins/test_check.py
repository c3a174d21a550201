"""`tablegames check GAME`: one game's whole per-game matrix, what failed said in sentences."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tablegames.cli import app

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
