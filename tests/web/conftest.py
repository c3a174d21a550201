"""Fixtures for the browser tests: headless Chromium, an isolated data directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import headless_chromium


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment for child processes: seat tokens and saves go to a fresh directory."""
    return {**os.environ, "TABLEGAMES_HOME": str(tmp_path), "TABLEGAMES_LOG": "info"}


@pytest.fixture
def chromium() -> Iterator[Any]:
    """Headless Chromium, which reaches the party by its name (`browser.PARTY_NAME`)."""
    with headless_chromium() as browser:
        yield browser
