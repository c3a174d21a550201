"""Fixtures of the OpenSSH door's tests: a home of the test's own, and OpenSSH clients in it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .ssh_harness import SshClients


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of this test's programs: its own tablegames home."""
    return {**os.environ, "TABLEGAMES_HOME": str(tmp_path)}


@pytest.fixture
def clients(env: dict[str, str]) -> Iterator[SshClients]:
    """OpenSSH clients started for the test, closed after it."""
    opened = SshClients(env)
    yield opened
    opened.close()
