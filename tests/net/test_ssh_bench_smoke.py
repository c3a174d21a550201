"""The SSH sessions bench runs end to end with two sessions and reports every figure."""

from __future__ import annotations

import pytest

from bench import ssh_sessions

from .ssh_harness import needs_ssh_and_tmux

pytestmark = [pytest.mark.e2e, needs_ssh_and_tmux]


def test_the_ssh_bench_runs_two_sessions_and_cleans_up(capsys):
    figures = ssh_sessions.main(["--sessions", "2", "--idle", "0.5", "--timeout", "30"])
    assert figures["programs"] == 2
    assert figures["ready_at_once_ms"]["median"] > 0
    assert figures["program_rss_kb"] > 0
    assert figures["lobby_pss_kb"] > 0
    assert "ready, all started at once" in capsys.readouterr().out
