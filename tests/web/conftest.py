"""Fixtures for the browser tests: headless Chromium, an isolated data directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import CHROMIUM


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment for child processes: seat tokens and saves go to a fresh directory."""
    return {**os.environ, "TABLEGAMES_HOME": str(tmp_path), "TABLEGAMES_LOG": "info"}


@pytest.fixture
def chromium() -> Iterator[Any]:
    """Headless Chromium (the distribution's: Playwright's own download is not used)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()
