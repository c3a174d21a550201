"""Nothing a library says to its developers reaches the host's terminal (issue 48, item 13):
asyncssh's import made cryptography warn five times that DSA is deprecated at every `serve`
start. Our own warnings still show."""

from __future__ import annotations

import subprocess
import sys

from .processes import serve_announced, stop


def test_serve_starts_without_a_librarys_warnings(env: dict[str, str]):
    serve, said = serve_announced(env)
    try:
        assert "Warning" not in said and "DSA" not in said, said
    finally:
        stop(serve)


def test_our_own_warnings_still_show_once_the_ssh_door_is_loaded():
    ours = "import tablegames.net.ssh, warnings; warnings.warn('a warning of ours')"
    done = subprocess.run(
        [sys.executable, "-c", ours], capture_output=True, text=True, timeout=60, check=True
    )
    assert "a warning of ours" in done.stderr
    assert "DSA" not in done.stderr, done.stderr
