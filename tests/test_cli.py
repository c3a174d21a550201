"""The command line: help for every command, list, rules, simulate and friendly errors."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import pty
import select
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from tablegames.cli import app
from tablegames.rulebook import rules_text
from tablegames.rules import GAMES

from .test_local import first_human_move

runner = CliRunner()


COMMANDS = [[], ["list"], ["rules"], ["play"], ["simulate"], ["resume"], ["history"], ["stats"]]
COMMANDS += [["replay"], ["host"], ["join"]]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output
    # A flag is not shown as taking a value (typer 0.29 labels every flag, --help too, <bool>).
    assert "<bool>" not in result.output


def test_the_commands_signatures_are_read_without_evaluating_text():
    # Typer reads every command's signature each time the program starts, and evaluated each
    # annotation written as text twice there: a fifth of `tablegames --help`'s time.
    callbacks = [command.callback for command in app.registered_commands]
    assert app.registered_callback is not None
    callbacks.append(app.registered_callback.callback)
    for callback in callbacks:
        assert callback is not None
        signature = inspect.signature(callback)
        hints = [*callback.__annotations__.values(), signature.return_annotation]
        hints += [parameter.annotation for parameter in signature.parameters.values()]
        assert not [hint for hint in hints if isinstance(hint, str)], callback.__name__


def test_options_only_some_games_take_name_their_game():
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    lines = {line.split()[0]: line for line in result.output.splitlines() if "--" in line}
    assert "crates:" not in lines["--players"] and "kraken:" not in lines["--players"]
    for option, game in (("--short", "crates"), ("--board", "kraken"), ("--speed", "crabs")):
        assert f"{game}:" in lines[option]


@pytest.fixture
def only_crates_built(monkeypatch):
    """Pretend the other games have no screens or bots of their own yet."""
    for name, game in GAMES.items():
        if name != "crates":
            monkeypatch.setitem(GAMES, name, dataclasses.replace(game, screen="", bots=""))


def test_list_shows_every_game_and_what_plays_it(only_crates_built):
    result = runner.invoke(app, ["list"], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    for name in ("crates", "roach", "crabs", "kraken"):
        assert name in result.output
    crates, roach = (
        line for line in result.output.splitlines() if "crates" in line or "roach" in line
    )
    assert "playable" in crates and "generic" not in crates
    assert "playable (generic screen, generic bots)" in roach


def test_rules_prints_the_same_text_as_the_in_app_help():
    result = runner.invoke(app, ["rules", "crates"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    assert "Crates" in result.output and "The crank" in result.output
    assert "crank" in rules_text("crates")


def test_unknown_games_are_refused_with_a_reason():
    assert "no game called" in runner.invoke(app, ["rules", "chess"]).output
    assert "no game called" in runner.invoke(app, ["play", "chess"]).output


def test_play_rejects_impossible_tables_before_opening_a_screen():
    result = runner.invoke(app, ["play", "crates", "--players", "7"])
    assert result.exit_code != 0 and "2–5 players" in result.output
    result = runner.invoke(app, ["play", "crates", "--players", "3", "--humans", "4"])
    assert result.exit_code != 0 and "humans" in result.output
    result = runner.invoke(app, ["play", "crates", "--bots", "genius"])
    assert result.exit_code != 0 and "random, normal, hard" in result.output


def test_simulate_prints_a_json_summary():
    result = runner.invoke(
        app, ["simulate", "crates", "--games", "4", "--players", "3", "--short", "--seed", "7"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 4 and summary["players"] == 3
    assert summary["mean_rounds"] == 8
    assert sum(summary["wins_per_seat"]) == pytest.approx(4)
    assert summary["mean_turns"] > 8 and summary["games_per_s"] > 0 and summary["hands_per_s"] > 0
    again = json.loads(
        runner.invoke(
            app, ["simulate", "crates", "--games", "4", "--players", "3", "--short", "--seed", "7"]
        ).output
    )
    assert again["wins_per_seat"] == summary["wins_per_seat"]


def test_simulate_shows_its_progress_and_the_time_left_on_a_terminal_alone():
    # stderr a terminal, stdout a pipe (a script reading the summary): the bar goes to the
    # terminal, the JSON alone to the pipe. (Captured, as above, no bar shows at all.)
    terminal, child_end = pty.openpty()
    command = [sys.executable, "-m", "tablegames", "simulate", "crates", "--games", "3"]
    done = subprocess.Popen(
        [*command, "--players", "3", "--short"],
        stdout=subprocess.PIPE,
        stderr=child_end,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(child_end)
    shown = b""
    while True:  # until the program closes its end (bounded by the timeout below)
        ready, _, _ = select.select([terminal], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # (the other end closed)
            break
        if not chunk:
            break
        shown += chunk
    out, _ = done.communicate(timeout=120)
    os.close(terminal)
    assert done.returncode == 0
    assert json.loads(out)["games"] == 3  # the summary, nothing else
    text = shown.decode(errors="replace")
    assert "crates: normal bots, games" in text and "3/3" in text and "left" in text


def test_play_saves_the_game_as_it_goes_unless_told_not_to(monkeypatch):
    started, notes = [], []
    monkeypatch.setattr(
        "tablegames.tui.app.run_table",
        lambda client, ascii, note="": (started.append(client), notes.append(note)),
    )
    played = runner.invoke(app, ["play", "crabs", "--seed", "3", "--speed", "2"])
    assert played.exit_code == 0
    # What crabs' bots do is said over the table, never left on the terminal after the game.
    assert "read signals" not in played.output
    assert notes[0] == "You've Got Crabs bots: normal and hard read signals."
    assert runner.invoke(app, ["play", "crabs", "--no-save"]).exit_code == 0
    saved, unsaved = started
    for client in started:  # a game is saved from its first move at this keyboard
        first_human_move(client)
    assert saved.saved_as is not None and unsaved.saved_as is None
    assert saved.speed == 2
    listed = runner.invoke(app, ["resume"])  # one saved game: listed, not entered unasked
    assert listed.exit_code == 0 and len(started) == 2, listed.output
    game_id = saved.saved_as[1]
    assert f"continue one with `tablegames resume {game_id}`" in listed.output
    assert all(len(line) <= 80 for line in listed.output.splitlines()), listed.output
    assert runner.invoke(app, ["resume", str(game_id)]).exit_code == 0
    resumed = started[-1]
    assert resumed.saved_as[1] == saved.saved_as[1]
    assert resumed.table.state.view(0) == saved.table.state.view(0)
    assert resumed.speed == 1  # how fast a sitting plays is not saved: it is asked again
    assert runner.invoke(app, ["resume", str(game_id), "--speed", "2"]).exit_code == 0
    assert started[-1].speed == 2


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "kraken", "--players", "5", "--board", "long"], "with 5 players the board is"),
        (["simulate", "kraken", "--players", "5", "--board", "long"], "the board is quick"),
        (["play", "crates", "--humans", "6"], "Invalid value for --humans"),
        (["play", "crates", "--speed", "2"], "only crabs is played in real time"),
        (["play", "crates", "--humans", "2", "--name", "a", "--name", "b", "--name", "c"],
         "3 names for 2 humans"),
        (["play", "crates", "--humans", "2", "--name", "Ada", "--name", "ada"],
         "Invalid value for --name: Ada and ada are one name at a table"),
        (["play", "crates", "--humans", "2", "--name", "Player 2"],
         "two players would be called Player 2"),
        (["play", "kraken", "--board", "huge"],
         "Invalid value for --board: board must be quick or long, not 'huge'"),
        (["host", "crates", "--forwarded-at", "party.lan:4747"],
         "'party.lan:4747' is not an IP address and port such as 203.0.113.7:4747"),
        (["serve", "--forwarded-at", "10.0.0.2:70000"], "a port is 1 to 65535"),
    ],
)  # fmt: skip
def test_option_combinations_a_game_refuses_are_one_sentence(args, said):
    result = runner.invoke(app, args, env={"COLUMNS": "100"})
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split()).replace("│", "")
    assert "Traceback" not in result.output and len(result.output.splitlines()) <= 8


@pytest.mark.parametrize("command", ["play", "simulate", "host"])
def test_every_option_a_game_declares_is_a_flag_of_the_commands_that_start_games(command):
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    lines = {line.split()[0]: line for line in result.output.splitlines() if "--" in line}
    for game in GAMES.values():
        for option in game.options:
            assert f"{game.name}:" in lines[f"--{option.name.replace('_', '-')}"]


def test_a_game_from_elsewhere_that_does_not_load_is_a_sentence_and_the_rest_play(tmp_path):
    env = {
        **os.environ,
        "TABLEGAMES_GAMES": "nowhere.at_all:GAME",
        "TABLEGAMES_HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "tablegames", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    said = "the game 'nowhere.at_all:GAME' (from TABLEGAMES_GAMES) could not be loaded"
    assert said in done.stderr
    assert "ModuleNotFoundError: No module named 'nowhere'" in done.stderr
    assert "crates" in done.stdout


def test_roachs_loser_option_reaches_the_table_and_a_wrong_value_is_refused(monkeypatch):
    started = []
    monkeypatch.setattr(
        "tablegames.tui.app.run_table", lambda client, ascii, note="": started.append(client)
    )
    result = runner.invoke(app, ["play", "roach", "--loser", "most", "--no-save"])
    assert result.exit_code == 0, result.output
    assert started[0].table.options["loser"] == "most"
    assert started[0].update(0).view["loser_rule"] == "most"
    result = runner.invoke(app, ["play", "roach", "--loser", "least"])
    assert result.exit_code != 0 and "loser must be four or most" in result.output
    result = runner.invoke(app, ["play", "crates", "--loser", "most"])
    assert result.exit_code != 0 and "crates has no loser option" in result.output


@pytest.mark.parametrize(
    "command",
    [["resume", "1"], ["play", "kuhn"], ["play", "crates", "--seed", "2"], [], ["replay", "1"]],
    ids=["resume", "generic", "play", "menu", "replay"],
)
def test_without_a_terminal_the_screens_refuse_in_a_sentence(command):
    # Play-testers ran `tablegames resume` with no terminal: the bots played the saved game to
    # its end and the app then spun a core for ten minutes (the generic screen spun at once).
    from tablegames.local import local_table
    from tablegames.store import Store

    from .test_replay import record_game

    env = dict(os.environ)  # (its own data directory: see conftest.py)
    if command == ["resume", "1"]:
        first_human_move(local_table("crates", 3, seed=4, store=Store()))  # one saved game
    if command == ["play", "kuhn"]:  # the fifth game, drawn by the generic screen
        env["TABLEGAMES_GAMES"] = "tests.test_fifth_game:KUHN"
    if command[:1] == ["replay"]:
        record_game(Store().path)
    done = subprocess.run(
        [sys.executable, "-m", "tablegames", *command],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "needs a terminal" in done.stderr and "Traceback" not in done.stderr
    if command == ["resume", "1"]:
        assert len(Store().open_tables("local")) == 1, "the bots must not play it on"
