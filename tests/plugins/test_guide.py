"""The guide's template (docs/adding-a-game.md) is a game that works: copied out as a module,
it is loaded by its import string and passes the contract and whole games of the per-game
checks (the whole matrix runs on Love Letter installed as a package: `test_package.py`)."""

from __future__ import annotations

import re
from pathlib import Path

from tablegames.testing import check_game

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"


def test_the_guides_template_passes_the_contract_and_plays_whole_games(tmp_path, monkeypatch):
    template = re.search(r"## 1\. The module.*?```python\n(.*?)```", GUIDE.read_text(), re.S)
    assert template is not None, "the guide's template module is gone"
    (tmp_path / "showdown.py").write_text(template.group(1))
    monkeypatch.syspath_prepend(str(tmp_path))
    checked = check_game("showdown:GAME", parts=("contract", "playouts"))
    assert checked.passed and checked.game == "showdown"


def test_the_guide_names_every_view_key_shared_code_reads():
    from tablegames.rules import KNOWN_VIEW_KEYS

    guide = GUIDE.read_text()
    missing = [key for key in sorted(KNOWN_VIEW_KEYS) if f"`{key}`" not in guide]
    assert not missing, f"the guide does not say what these view keys mean: {missing}"
