"""The browser sessions bench runs end to end with two browsers and reports every figure."""

from __future__ import annotations

import pytest

from bench import web_sessions

from .browser import why_no_browser

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser())),
]


def test_the_web_bench_runs_two_browsers_and_cleans_up(capsys):
    figures = web_sessions.main(["--sessions", "2", "--idle", "0.5", "--timeout", "30"])
    assert figures["programs"] == 2
    assert figures["lobby_alone_ms"] > 0 and figures["lobby_at_once_ms"]["median"] > 0
    assert figures["program_pss_kb"] > 0
    assert "page opened to lobby drawn, all at once" in capsys.readouterr().out
