"""The benchmarks run end to end in a tiny mode and report every section (no timing asserted)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench import run
from tablegames.rules import GAMES


def test_the_bench_runs_in_tiny_mode_and_writes_every_section(tmp_path, capsys):
    out = tmp_path / "figures.json"
    figures = run.main(["--tiny", "--json", str(out)])
    printed = capsys.readouterr().out
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert {"engine", "bots", "server", "startup"} <= set(saved)
    assert saved["engine"]["crates"]["hands_per_s"] > 0
    assert saved["engine"]["games"]["crates"]["actions_per_s"] > 0
    for peer in saved["engine"]["peers"].values():  # measured, or said to be missing
        assert peer["status"] in ("ok", "not installed", "not built")
    assert saved["bots"]["games"]["crates"]["latency"]["normal"]["count"] > 0
    asyncio_server = saved["server"]["variants"]["asyncio"]
    assert asyncio_server["status"] == "ok", asyncio_server
    assert asyncio_server["connect"]["connections"] == 8
    assert saved["server"]["frames_lost"] == 0
    assert saved["startup"]["help"]["help_ms"] > 0
    assert all(heavy == [] for heavy in saved["startup"]["heavy_imports"].values())
    games = set(GAMES)  # every registered game in every section, none missing
    assert set(saved["engine"]["games"]) >= games and set(saved["bots"]["games"]) == games
    assert set(saved["server"]["games"]) == games == set(saved["startup"]["first_paint"])
    assert saved["missing"] == []
    assert figures["meta"]["mode"] == "tiny"
    for title in ("engine:", "bots:", "server:", "startup:", "targets"):
        assert title in printed


@pytest.mark.slow
def test_the_engine_bench_builds_crates_with_mypyc_and_measures_it():
    from bench import engine

    figures = engine.run(rounds=1, budget=0.05, games=["crates"])
    assert "crates_compiled" not in figures["peers"], figures["peers"]["crates_compiled"]
    assert figures["games"]["crates_compiled"]["hands_per_s"] > 0


def test_the_scripted_opponents_play_every_game_and_report_a_row_each(tmp_path, capsys):
    from bench import scripted

    out = tmp_path / "scripted.json"
    assert scripted.main(["--games", "2", "--seed", "5", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert {(row["game"], row["script"]) for row in rows} == {
        (game, script) for game, scripts in scripted.SCRIPTS.items() for script in scripts
    }
    for row in rows:
        assert row["games"] + row["unfinished"] == 2
        assert 0.0 <= row["win_rate"] <= 1.0
        assert row["fair_share"] == 1 / row["players"]
    assert "always-false" in printed and "accuse-at-random" in printed


def test_the_kraken_fingerprint_finds_the_same_games_again_and_names_a_changed_one(
    tmp_path, capsys
):
    from bench import kraken_same_games

    out = tmp_path / "fingerprint.json"
    tiny = ["--players", "5", "--games", "2"] + [
        f"--{kind}-games=1" for kind in ("hard", "talk", "long")
    ]
    assert kraken_same_games.main([*tiny, "--json", str(out)]) == 0
    assert kraken_same_games.main([*tiny, "--compare", str(out)]) == 0
    assert "same games" in capsys.readouterr().out
    hashes = json.loads(out.read_text())
    hashes["normal/5"][1] = "0" * 16
    out.write_text(json.dumps(hashes))
    assert kraken_same_games.main([*tiny, "--compare", str(out)]) == 1
    assert "normal/5: 1 games differ, seeds [2]" in capsys.readouterr().out


def test_the_kraken_oracle_knows_every_role_and_reports_its_seat():
    # A script of its own (it adds bot levels to the bench it wraps): run in its own process.
    bench = Path(__file__).resolve().parent.parent / "bench" / "kraken_oracle.py"
    args = ["--check", "--seed", "1", "--games", "3", "--matchup-players", "5"]
    done = subprocess.run(
        [sys.executable, str(bench), *args, "--skip", "balance", "--matchups", "oracle"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "one oracle seat against normal seats" in done.stdout
    checked = re.search(r"'checked decisions': (\d+)", done.stdout)
    assert checked and int(checked.group(1)) > 0, done.stdout


def test_the_crates_variants_play_the_same_seeds_and_compare_them(capsys):
    from bench import crates_variants

    # (one batch of deals a decision: the hard bot's own budget took 9 CPU-s for the game)
    args = ["--games", "1", "--variants", "hard", "normal", "--budget", "1600"]
    assert crates_variants.main(args) == 0
    printed = capsys.readouterr().out
    assert "1 games" in printed and "hard − normal, paired by seed" in printed
    assert "± inf" in printed  # one game gives no interval (and no crash)


def test_the_generic_bots_bench_reports_every_level_of_a_plugin_game(capsys):
    from bench import generic_bots

    figures = generic_bots.main(["--games", "3", "--seed", "7"])
    printed = capsys.readouterr().out
    assert figures["game"] == "loveletter" and "loveletter: one bot of each level" in printed
    for level in ("random", "normal", "hard"):
        assert figures[level]["cpu"]["count"] > 0 and f"{level:6}: won" in printed


def test_the_party_night_bench_measures_every_table_and_a_reconnect(capsys):
    from bench import party_night

    figures = party_night.main(["--seconds", "6", "--takeover", "0.5", "--pace", "0.05"])
    assert len(figures["tables"]) == 3 and len(figures["reconnect_to_seat_tcp_ms"]) == 1
    assert all(table["actions_per_minute"] > 0 for table in figures["tables"].values())
    assert "longest_wait_on_absent_s" in capsys.readouterr().out


def test_the_generic_bots_bench_measures_a_level_against_another_in_a_game_of_rounds(capsys):
    from bench import generic_bots

    plugin = "tests.plugins.sealedbids:SEALED_BIDS"
    args = ["--plugin", plugin, "--games", "1", "--levels", "hard", "--versus", "normal"]
    figures = generic_bots.main([*args, "--option", "target=10"])
    printed = capsys.readouterr().out
    assert figures["game"] == "sealedbids" and figures["options"] == {"target": 10}
    assert "against 2 normal bots" in printed and figures["hard"]["cpu"]["count"] > 0
    assert "normal" not in figures and figures["evaluate"] is True


def test_the_join_bot_bench_times_the_loop_over_a_whole_game(capsys):
    from bench import join_bot_lag

    figures = join_bot_lag.main(["--games", "1", "--level", "random"])
    assert figures["game"] == "loveletter" and figures["ticks"] > 0
    assert "the loop's lag p50" in capsys.readouterr().out


def test_the_start_up_bench_times_programs_that_write_their_byte_code(monkeypatch):
    # Under a shell's PYTHONDONTWRITEBYTECODE each timed `--help` compiled what had changed
    # since its byte-code was written (a new worktree of REV: its whole package, every run).
    from bench.startup import timed_env

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = timed_env("/nowhere/home")
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["TABLEGAMES_HOME"] == "/nowhere/home" and env["PATH"] == os.environ["PATH"]


def test_the_suite_timer_times_a_run_and_names_the_tests_that_cost_the_most(capfd):
    from bench import suite_time

    tests = ["-n", "0", "-q", "-p", "no:cacheprovider", "tests/test_event_text.py"]
    assert suite_time.main(["--per-test", "2", "--", *tests]) == 0
    printed = capfd.readouterr().out
    assert "passed" in printed  # (pytest's own report)
    run = printed[printed.index("the test run") :]
    assert "busy share" in run and "the tests that cost the most CPU" in run
    assert run.count("tests/test_event_text.py::") == 2  # the two that cost the most
    assert "the files that cost the most CPU" in run
