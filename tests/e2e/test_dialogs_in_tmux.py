"""Every dialog with buttons, in a real terminal at 80x24: each button in sight, whole, with the
key that presses it (play-testers found the leave question's fourth button cut, key and all)."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from .terminal import Terminal

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []


@pytest.mark.parametrize(
    "size",
    [
        pytest.param((80, 24), id="80x24", marks=pytest.mark.slow),
        pytest.param((60, 20), id="60x20"),
    ],
)  # the default run the narrower (where buttons crowd), `-m slow` both
def test_every_dialog_shows_every_button_with_its_key(env, tmp_path, size):
    out = tmp_path / "shown.jsonl"
    command = ["env", f"PYTHONPATH={ROOT}", sys.executable, "-m", "tests.e2e.dialog_gallery"]
    term = Terminal([*command, str(out)], env, width=size[0], height=size[1])
    try:
        seen = 0
        deadline = time.monotonic() + 120
        while True:
            while len(lines(out)) <= seen:
                assert time.monotonic() < deadline, term.screen()
                time.sleep(0.05)
            shown = lines(out)[seen]
            if shown.get("done"):
                break
            assert shown["buttons"], f"{shown['name']}: no button in sight\n{term.screen()}"
            term.wait_for(*shown["buttons"], timeout=10)  # each whole, key and all
            for label in shown["buttons"]:
                assert re.search(r"\((Enter|Esc|[a-z]|Shift\+[A-Z])\)$", label), (
                    shown["name"],
                    label,
                )
            seen += 1
            term.keys("F9", after=0)
        assert seen >= 15
    finally:
        term.close()
