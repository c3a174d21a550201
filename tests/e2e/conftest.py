"""Fixtures for end-to-end tests: an isolated data directory for every process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment for child processes: seat tokens and saves go to a fresh directory."""
    return {**os.environ, "TABLEGAMES_HOME": str(tmp_path), "TABLEGAMES_LOG": "info"}
