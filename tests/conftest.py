"""Every test runs with its own data directory: no test reads or writes the user's saves."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path_factory.mktemp("home")))
