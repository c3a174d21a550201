"""Every test runs with its own data directory: no test reads or writes the user's saves.

Screens under test take keys the moment they are shown, unless a test asks for real time.
A real player's keys typed just after a question changes are dropped for a moment (see
`tablegames/tui/screens/typeahead.py`); tests that press one key after another as soon as the
screen is drawn check what the keys do, not that moment. Keys typed *before* a question
changed are still dropped. Tests of the moment itself (hurried players, keys typed ahead) are
marked `real_time_keys` and run with the real settling times.
"""

from __future__ import annotations

import pytest

from tablegames.tui.screens import typeahead


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def instant_screens(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("real_time_keys") is None:
        monkeypatch.setattr(typeahead, "SETTLE_SCALE", 0.0)
