"""The bench against a git revision (`bench/run.py --against REV`) and its cover of every game."""

from __future__ import annotations

from pathlib import Path

from bench import bot_levels, engine, engine_ab, run
from tablegames.rules import GAMES, get_game


def test_each_side_imports_its_own_package_and_the_checkout_goes_afterwards():
    with engine_ab.sides("HEAD") as (tree, old), engine_ab.workers(tree, old) as (ours, theirs):
        checkout = old.path.parent / "checkout"
        assert checkout.is_dir()
        mine = Path(ours.ask("package")["file"]).resolve()
        theirs_file = Path(theirs.ask("package")["file"]).resolve()
        assert mine == (engine_ab.ROOT / "tablegames" / "__init__.py").resolve()
        assert theirs_file == (checkout / "tablegames" / "__init__.py").resolve()
        assert set(ours.games) == set(theirs.games) == set(GAMES)
    assert not checkout.exists()
    assert str(checkout) not in engine_ab.git("worktree", "list")


def test_a_command_a_side_cannot_answer_comes_back_as_one_line():
    with engine_ab.sides("HEAD") as (tree, _), engine_ab.workers(tree) as (ours,):
        answer = ours.ask("engine", game="no-such-game", load="playouts", games=1)
        assert answer["error"].startswith("KeyError: ") and "\n" not in answer["error"]
        assert ours.ask("engine", game="crates", load="playouts", games=1)["rate"] > 0


def test_the_engines_are_compared_side_by_side_game_by_game():
    with engine_ab.sides("HEAD") as (tree, old):
        figures = engine_ab.compare(
            tree, old, rounds=1, budget=0.01, games=["crates", "roach"], fingerprints=3
        )
    figures_by_name = {line["figure"]: line for line in figures["lines"]}
    for game in ("crates", "roach"):
        for load in engine_ab.LOADS:
            line = next(
                v for k, v in figures_by_name.items() if k.startswith(f"engine {game} {load} (")
            )
            assert line["tree"] > 0 and line["rev"] > 0 and line["ratio"] > 0
    assert figures["same_games"]["crates"].startswith("the same 3 random games")
    printed = engine_ab.report(figures)[0]
    assert printed[1][3].startswith("tree ÷ ")


def test_every_bot_level_of_every_built_in_game_is_timed():
    # crabs, kraken and roach name no `Game.bots`: their own bots are found as `get_bot` finds
    # them, not reported as "no bots".
    figures = bot_levels.run(games=1, budget=0.2, only=["crabs", "roach"])
    for game in ("crabs", "roach"):
        entry = figures["games"][game]
        assert [m["status"] for m in entry["matchups"]] == ["ok", "ok"]
        assert {"random", "normal", "hard"} <= set(entry["latency"])


def test_a_game_a_section_lacks_is_named_with_the_section():
    figures = {"engine": engine.run(rounds=1, budget=0.01, games=["crates"], compiled=False)}
    figures["engine"]["games"].pop("crates_quiet")
    assert run.missing(figures, ["crates", "roach"]) == ["engine: roach (no figures)"]
    figures["bots"] = {"games": {"crates": {"matchups": [{"status": "error: boom"}]}}}
    assert run.missing(figures, ["crates"]) == ["bots: crates (error: boom)"]


def test_a_matchup_seats_its_hero_round_the_table():
    players = get_game("kraken").default_players
    seats = [
        bot_levels.seating("kraken", index, "hard", "normal").index("hard")
        for index in range(players)
    ]
    assert seats == list(range(players))
