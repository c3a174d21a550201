"""Ratings from results: who placed where, who played each seat (the majority of its moves),
bot seats as players of their own, the store's ratings, `stats` and `history`."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from itertools import pairwise
from typing import Any

import pytest
from typer.testing import CliRunner

from tablegames.cli import app
from tablegames.local import local_table
from tablegames.net.hosting import HostedTable
from tablegames.ratings import (
    UNPROVEN,
    Book,
    SeatRecord,
    Sitter,
    Standing,
    Unreadable,
    bot_mover,
    key_player,
    local_player,
    placings,
    sitters,
    who_played,
)
from tablegames.rules import get_game
from tablegames.simulate import play_bot_game
from tablegames.store import SavedSeat, Store
from tablegames.testing.matrix.test_network import Recorder

runner = CliRunner()


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "games.db")
    yield opened
    opened.close()


def finished(
    store: Store, game: str, seats: list[SavedSeat], result: dict[str, Any], players: int = 0
) -> int:
    """A finished game in the store, as a table's saver leaves it (not rated yet)."""
    table_id = store.create_table("TEST", game, players or len(seats), {}, "local")
    store.start_table(table_id, seed=1, seats=seats)
    store.finish_table(table_id, result)
    return table_id


def people(*names: str) -> list[SavedSeat]:
    return [SavedSeat(seat, name) for seat, name in enumerate(names)]


def ratings(store: Store, game: str) -> dict[str, float]:
    return {row["name"]: row["rating"] for row in store.stats(game)}


def everything(store: Store) -> tuple[list[Any], list[Any]]:
    """The stored ratings and every game's changes, exactly as stored."""
    rows = store.db.execute("SELECT * FROM ratings ORDER BY game, identity").fetchall()
    changes = store.db.execute("SELECT * FROM rating_changes ORDER BY table_id, seat").fetchall()
    return rows, changes


def assert_rebuilt_the_same(store: Store) -> None:
    """Rate what has not been rated yet, then rebuild every rating from the history: the
    ratings and the changes (some of each) come out exactly as they were."""
    store.update_ratings()
    before = everything(store)
    assert before[0] and before[1]
    store.rebuild_ratings()
    assert everything(store) == before


# -- reading a result ---------------------------------------------------------------------------
def test_crates_ranks_the_lowest_total_first_and_ties_share_a_place():
    result = {"winners": [2], "scores": [40, 95, 12, 40]}
    assert placings(result, 4) == [(0, [2]), (1, [0]), (2, [1]), (1, [3])]


def test_roach_puts_its_one_loser_last_and_everyone_else_first():
    result = {"winners": [0, 2], "scores": [0, 1, 0], "loser": 1}
    assert placings(result, 3) == [(0, [0]), (0, [2]), (1, [1])]


def test_teams_win_and_lose_together():
    crabs = {"winners": [2, 3], "scores": [4, 4, 9, 9, 1, 1], "teams": [[0, 1], [2, 3], [4, 5]]}
    assert placings(crabs, 6) == [(0, [2, 3]), (1, [0, 1]), (2, [4, 5])]
    kraken = {"winners": [1, 2], "scores": [0, 1, 1, 0, 0], "teams": [[0, 3], [1, 2], [4]]}
    assert placings(kraken, 5) == [(0, [1, 2]), (1, [0, 3]), (1, [4])]


def test_scores_that_are_not_numbers_leave_the_losers_tied():
    result = {"winners": [1], "scores": ["out", "in", "out"]}
    assert placings(result, 3) == [(0, [1]), (1, [0]), (1, [2])]


@pytest.mark.parametrize(
    ("result", "why"),
    [
        (None, "no result"),
        ({"scores": [1, 0]}, "winners"),
        ({"winners": [], "scores": [1, 0]}, "nobody won"),
        ({"winners": [0, 1], "scores": [1, 1]}, "nobody lost"),
        ({"winners": [5], "scores": [1, 0]}, "winners"),
        ({"winners": [0], "scores": [1]}, "score for each seat"),
        ({"winners": [0], "scores": [1, 0], "teams": [[0]]}, "every seat once"),
        ({"winners": [0], "scores": [1, 0], "teams": [[0, 1]]}, "both won and lost"),
        ({"winners": [True], "scores": [1, 0]}, "winners"),
    ],
)
def test_a_result_that_cannot_be_read_says_why(result, why):
    with pytest.raises(Unreadable, match=why):
        placings(result, 2)


def test_a_name_in_another_case_or_width_is_one_player_at_this_keyboard():
    assert local_player("Sara") == local_player("SARA") == local_player("Ｓａｒａ")
    seats = [SeatRecord(0, "Sara"), SeatRecord(1, "SARA")]  # (one name: refused at a table)
    assert sitters(seats, here=True) == []  # one player at two seats is rated at neither


# -- who played a seat ----------------------------------------------------------------------------
SARA, TOM = key_player("SHA256:sara"), key_player("SHA256:tom")
NORMAL, HARD = bot_mover("normal"), bot_mover("hard")


@pytest.mark.parametrize(
    ("moves", "bot_level", "player"),
    [
        pytest.param({SARA: 10}, None, SARA, id="every move hers"),
        pytest.param({SARA: 5, NORMAL: 5}, None, SARA, id="half is enough"),
        pytest.param({SARA: 4, NORMAL: 6}, None, NORMAL, id="a stand-in played most"),
        pytest.param({SARA: 6, NORMAL: 4}, "normal", SARA, id="the host's bot came late"),
        pytest.param({SARA: 1, NORMAL: 3, HARD: 5}, "hard", HARD, id="the bot with most moves"),
        pytest.param({SARA: 4, TOM: 3, NORMAL: 3}, None, None, id="nobody played half"),
        pytest.param({SARA: 5, TOM: 5}, None, None, id="two people, half each"),
        pytest.param({UNPROVEN: 9, NORMAL: 1}, None, None, id="nothing proves who"),
        pytest.param({}, None, None, id="a party guest who never moved"),
        pytest.param({}, "random", bot_mover("random"), id="a bot that never moved"),
        pytest.param({None: 3, NORMAL: 1}, None, None, id="saved before movers: a guest"),
        pytest.param({None: 3, SARA: 1}, "normal", NORMAL, id="saved before movers: a bot"),
    ],
)
def test_a_seat_is_rated_for_whoever_made_at_least_half_its_moves(moves, bot_level, player):
    assert who_played(SeatRecord(0, "Sara", bot_level, moves), here=False) == player


def test_at_this_keyboard_a_seat_without_movers_is_its_players():
    assert who_played(SeatRecord(0, "Sara", None, {None: 4}), here=True) == local_player("Sara")
    assert who_played(SeatRecord(0, "Sara"), here=True) == local_player("sara")


def test_each_bot_seat_is_a_player_of_its_own_named_by_level_and_seat():
    seats = [
        SeatRecord(0, "Ada (bot)", "normal"),
        SeatRecord(1, "Sara", None, {SARA: 3, NORMAL: 9}),  # a stand-in played most of hers
        SeatRecord(2, "Bot 3", "hard"),
        SeatRecord(3, "Tom", None, {TOM: 7}),
    ]
    assert sitters(seats, here=False) == [
        Sitter(0, "bot:normal", "normal bot"),
        Sitter(1, "bot:normal:2", "normal bot 2"),
        Sitter(2, "bot:hard", "hard bot"),
        Sitter(3, TOM, "Tom"),
    ]


def test_the_book_refuses_one_player_at_two_seats():
    book = Book()
    twice = [Sitter(0, SARA, "Sara"), Sitter(1, SARA, "Sara2"), Sitter(2, TOM, "Tom")]
    with pytest.raises(Unreadable, match="two seats"):
        book.add("crates", 3, twice, {"winners": [0], "scores": [1, 5, 9]})
    assert book.standings == {}


# -- the ratings --------------------------------------------------------------------------------
def test_one_player_always_beating_another_parts_their_ratings(store):
    gaps = []
    for _ in range(12):
        finished(store, "crates", people("Sara", "Tom"), {"winners": [0], "scores": [10, 50]})
        now = ratings(store, "crates")
        gaps.append(now["Sara"] - now["Tom"])
    assert now["Sara"] > 0 > now["Tom"]
    assert all(later > earlier for earlier, later in pairwise(gaps))
    (sara, tom) = store.stats("crates")
    assert (sara["played"], sara["won"], tom["played"], tom["won"]) == (12, 12, 12, 0)
    assert sara["change"] > 0 > tom["change"]


def test_a_renamed_case_or_width_plays_on_the_same_rating(store):
    finished(store, "roach", people("Sara", "Tom", "Ivo"), {"winners": [0, 2], "scores": [0, 1, 0]})
    finished(store, "roach", people("SARA", "Tom", "Ivo"), {"winners": [0, 2], "scores": [0, 1, 0]})
    finished(
        store, "roach", people("Ｓａｒａ", "Tom", "Ivo"), {"winners": [0, 1], "scores": [0, 0, 1]}
    )
    rows = store.stats("roach")
    assert len(rows) == 3
    sara = next(row for row in rows if row["identity"] == local_player("sara"))
    assert (sara["played"], sara["won"], sara["name"]) == (3, 3, "Ｓａｒａ")  # as last written


def test_each_bot_at_a_table_is_rated_as_a_player_of_its_own(store):
    seats = [SavedSeat(0, "Sara"), SavedSeat(1, "Ada (bot)", bot_level="normal")]
    seats.append(SavedSeat(2, "Bruno (bot)", bot_level="normal"))
    for _ in range(3):
        finished(store, "crates", seats, {"winners": [1], "scores": [90, 10, 50]})
    rows = store.stats("crates")
    assert [row["name"] for row in rows] == ["normal bot", "normal bot 2", "Sara"]
    assert [(row["played"], row["won"]) for row in rows] == [(3, 3), (3, 0), (3, 0)]


def real_result(game: str, players: int, seed: int) -> dict[str, Any]:
    """The result of a real bot-only game (its engine's own `_result`)."""
    table = play_bot_game(game, players, seed, "random")
    return table.state.result()


@pytest.mark.parametrize(("game", "players"), [("crabs", 6), ("kraken", 7)])
def test_every_member_of_a_team_moves_together(store, game, players):
    result = real_result(game, players, seed=4)
    assert len(result["teams"]) >= 2
    table_id = finished(store, game, people(*"ABCDEFG"[:players]), result)
    store.update_ratings()
    changes = store.rating_changes(table_id)
    assert sorted(changes) == list(range(players))
    moves = []
    for team in result["teams"]:
        moved = {changes[seat] for seat in team}
        assert len(moved) == 1, f"team {team} moved apart: {moved}"
        moves.append((team[0] in result["winners"], moved.pop()[1]))
    assert all(change > 0 for won, change in moves if won)
    assert min(change for won, change in moves if not won) < 0


def test_a_team_is_rated_as_one_side_whatever_its_members_ratings():
    from openskill.models import PlackettLuce

    skills = {"ann": (31.0, 4.0), "bob": (20.0, 7.0), "cy": (25.0, 6.0), "dee": (24.0, 8.0)}
    book = Book({("crabs", who): Standing(who, mu, sigma) for who, (mu, sigma) in skills.items()})
    seated = [Sitter(seat, name, name) for seat, name in enumerate(skills)]
    result = {"winners": [2, 3], "scores": [4, 4, 9, 9], "teams": [[0, 1], [2, 3]]}
    changes = book.add("crabs", 4, seated, result)
    model = PlackettLuce()
    ratings = {who: model.rating(mu, sigma) for who, (mu, sigma) in skills.items()}
    winners, losers = model.rate(
        [[ratings["cy"], ratings["dee"]], [ratings["ann"], ratings["bob"]]], ranks=[0.0, 1.0]
    )
    expected = dict(zip(["cy", "dee", "ann", "bob"], winners + losers, strict=True))
    for who, rating in expected.items():
        assert (book.standing("crabs", who).mu, book.standing("crabs", who).sigma) == (
            rating.mu,
            rating.sigma,
        )
    assert [change.after > change.before for change in changes] == [False, False, True, True]


def test_the_same_history_rebuilt_gives_the_same_numbers(store):
    rng = random.Random(7)
    names = ["Sara", "Tom", "Ivo", "Ada"]
    for index in range(30):
        game = ("crates", "roach", "crabs")[index % 3]
        seated = rng.sample(names, 4)
        winners = [0, 1] if game == "crabs" else [rng.randrange(4)]
        result: dict[str, Any] = {
            "winners": winners,
            "scores": [rng.randrange(50) for _ in range(4)],
        }
        if game == "crabs":
            result["teams"] = [[0, 1], [2, 3]]
            result["scores"] = [9, 9, 3, 3]
        if game == "crates":
            result["scores"][winners[0]] = -1
        finished(store, game, people(*seated), result)
        if index % 4 == 0:
            store.update_ratings()  # rated as games end, in several steps
    assert_rebuilt_the_same(store)


def test_a_game_that_finished_before_one_already_rated_rates_everything_again(store):
    first = finished(store, "crates", people("Sara", "Tom"), {"winners": [0], "scores": [1, 9]})
    store.update_ratings()
    second = finished(store, "crates", people("Sara", "Tom"), {"winners": [1], "scores": [9, 1]})
    # The second game's record says it finished first (two processes sharing a store).
    store.db.execute("UPDATE game_tables SET finished = finished - 100 WHERE id = ?", (second,))
    store.update_ratings()
    incremental = everything(store)
    store.rebuild_ratings()
    assert everything(store) == incremental
    assert store.stats("crates")[0]["name"] == "Sara"  # her win came last
    store.delete_table(first)  # a rated game is gone: the ratings follow the history
    store.update_ratings()
    assert {row["name"]: row["played"] for row in store.stats("crates")} == {"Tom": 1, "Sara": 1}


def test_unfinished_and_unreadable_games_do_not_count_and_say_so_once(store, caplog):
    unfinished = store.create_table("TEST", "crates", 2, {}, "local")
    store.start_table(unfinished, seed=1, seats=people("Sara", "Tom"))
    broken = finished(store, "crates", people("Sara", "Tom"), {"winners": [7], "scores": [1, 9]})
    store.db.execute("UPDATE game_tables SET result = 'not json' WHERE id = ?", (broken,))
    finished(store, "crates", people("Sara", "Tom"), {"winners": [0], "scores": [1, 9]})
    with caplog.at_level(logging.WARNING, logger="tablegames.ratings"):
        store.update_ratings()
        store.update_ratings()
    assert [r.getMessage() for r in caplog.records] == [
        f"game {broken} (crates) is not rated: it has no result"
    ]
    assert {row["name"]: row["played"] for row in store.stats("crates")} == {"Sara": 1, "Tom": 1}


def test_a_seat_nobody_holds_any_more_is_left_out(store):
    seats = [SavedSeat(0, "Sara"), SavedSeat(2, "Ivo")]  # seat 1 was freed and never taken
    table_id = finished(store, "crates", seats, {"winners": [1], "scores": [30, 10, 20]}, 3)
    store.update_ratings()
    assert sorted(store.rating_changes(table_id)) == [0, 2]
    assert ratings(store, "crates")["Ivo"] > ratings(store, "crates")["Sara"]


def test_a_game_is_rated_the_moment_it_ends(store):
    client = local_table("roach", 3, seed=2, store=store, names=("Sara",))
    table = client.table
    for _ in range(10_000):  # Sara's moves are hers (the first she may make), the bots' theirs
        if table.over:
            break
        table.submit(*(table.bot_move() or (0, table.legal(0)[0])))
    assert client.saved_as is not None
    changes = store.rating_changes(client.saved_as[1])  # read only: nothing rates it here
    assert sorted(changes) == [0, 1, 2]
    identities = store.db.execute("SELECT identity FROM rating_changes ORDER BY seat").fetchall()
    assert identities == [(local_player("Sara"),), ("bot:normal",), ("bot:normal:2",)]


def test_at_one_keyboard_each_bot_seat_is_a_player_and_a_team_wins_or_loses_together(store):
    """Sara and three normal bots at crabs, two a side: each bot is a player of its own, and
    Sara's partner is never credited with the win of the bots across the table."""
    for seed in range(4):
        result = real_result("crabs", 4, seed)
        seats = [SavedSeat(0, "Sara")] + [
            SavedSeat(seat, f"Bot {seat + 1}", bot_level="normal") for seat in (1, 2, 3)
        ]
        table_id = finished(store, "crabs", seats, result)
        store.update_ratings()
        changes = store.rating_changes(table_id)
        identities = dict(
            store.db.execute(
                "SELECT seat, identity FROM rating_changes WHERE table_id = ?", (table_id,)
            ).fetchall()
        )
        assert len(set(identities.values())) == 4  # four players, none on two sides
        for team in result["teams"]:
            won = team[0] in result["winners"]
            assert all((changes[seat][1] > 0) == won for seat in team), (result, changes)
    rows = {row["name"]: row for row in store.stats("crabs")}
    assert sorted(rows) == ["Sara", "normal bot", "normal bot 2", "normal bot 3"]
    assert all(row["played"] == 4 for row in rows.values())


def crates_between(store: Store, *keys: str) -> tuple[HostedTable, list[Recorder]]:
    """A dealt crates table of the party's kind, each seat held by a guest proven by `key`."""
    hosted = HostedTable(code="T", game=get_game("crates"), players=len(keys), seed=4, store=store)
    peers = []
    for key in keys:
        peer = Recorder(key.capitalize())
        peer.key = f"SHA256:{key}"  # type: ignore[attr-defined]  # (a proven key, as a Member's)
        hosted.claim(peer, None)
        peers.append(peer)
    for peer in peers:  # (everyone ready: `start` deals now, a bot for whoever is not)
        hosted.set_ready(peer, True)
    hosted.start()
    return hosted, peers


def play_on(hosted: HostedTable, peers: list[Recorder], moves: int = 100_000) -> None:
    """`moves` moves more (or to the end): the bots', and each person's first legal one."""
    table = hosted.table
    assert table is not None
    for _ in range(moves):
        if table.over:
            return
        move = table.bot_move()
        if move is not None:
            table.submit(*move)
            continue
        seat = min(table.state.waiting_for())
        hosted.act(peers[seat], table.version, table.legal(seat)[0])


def test_a_seat_a_stand_in_played_most_of_is_the_bots_not_its_persons(store):
    hosted, (ann, ben) = crates_between(store, "ann", "ben")
    hosted.detach(ben, now=0.0)  # Ben walks away at the deal; a bot stands in at once
    hosted.take_over(now=0.0, after=0.0, level="normal")
    play_on(hosted, [ann, ben])
    assert hosted.store_id is not None
    rated = dict(
        store.db.execute(
            "SELECT seat, identity FROM rating_changes WHERE table_id = ?", (hosted.store_id,)
        ).fetchall()
    )
    assert rated == {0: key_player("SHA256:ann"), 1: "bot:normal"}
    assert {row["name"] for row in store.stats("crates")} == {"Ann", "normal bot"}
    assert sorted(hosted.results.ratings) == [
        0
    ]  # Ben's results show no rating as his: it is the bot's


def test_a_party_game_with_a_stand_in_is_rated_again_to_the_same_numbers(store):
    hosted, (ann, ben) = crates_between(store, "ann", "ben")
    play_on(hosted, [ann, ben], moves=6)
    hosted.detach(ben, now=0.0)
    hosted.take_over(now=0.0, after=0.0, level="random")
    play_on(hosted, [ann, ben])
    assert_rebuilt_the_same(store)


def test_an_older_stores_ratings_are_rated_afresh_under_these_rules(tmp_path):
    path = tmp_path / "old.db"
    old = Store.__new__(Store)
    old.path, old.db = path, sqlite3.connect(path, isolation_level=None)
    old.migrate(target=7)  # ratings by name, and one "normal bot" however many seats
    old.db.execute(
        "INSERT INTO game_tables (id, code, game, players, options, seed, kind, created, "
        "started, finished, result) VALUES (1, 'LOCAL', 'crates', 3, '{}', 9, 'local', 0, 1, 2, "
        '\'{"winners": [0], "scores": [1, 5, 9]}\')'
    )
    old.db.execute(
        "INSERT INTO seats (table_id, seat, name, bot_level) VALUES "
        "(1, 0, 'Sara', NULL), (1, 1, 'Ada (bot)', 'normal'), (1, 2, 'Bruno (bot)', 'normal')"
    )
    old.db.execute("INSERT INTO ratings VALUES ('crates', 'sara', 'Sara', 30, 2, 1, 1, 1)")
    old.db.execute("INSERT INTO rated VALUES (1, 2, 1)")
    old.close()
    store = Store(path)
    assert [(row["identity"], row["name"]) for row in store.stats("crates")] == [
        (local_player("Sara"), "Sara"),
        ("bot:normal", "normal bot"),
        ("bot:normal:2", "normal bot 2"),
    ]
    store.close()


def test_a_person_back_for_most_of_their_moves_is_rated_for_their_seat(store):
    hosted, (ann, ben) = crates_between(store, "ann", "ben")
    hosted.detach(ben, now=0.0)
    hosted.take_over(now=0.0, after=0.0, level="normal")
    play_on(hosted, [ann, ben], moves=3)  # the stand-in makes a move or so
    hosted.attach(hosted.seats[1], ben)  # and Ben is back for the rest
    play_on(hosted, [ann, ben])
    (moves,) = store.db.execute(
        "SELECT COUNT(*) FROM actions WHERE seat = 1 AND mover = 'bot:normal'"
    ).fetchone()
    assert moves <= 3
    assert {row["name"] for row in store.stats("crates")} == {"Ann", "Ben"}


def test_a_seat_the_host_freed_keeps_its_name_in_the_history(store):
    hosted, (ann, ben) = crates_between(store, "ann", "ben")
    hosted.free(1)  # Ben is sent to the lobby and a bot plays his seat until he is back
    play_on(hosted, [ann, ben])
    store.update_ratings()
    (entry,) = store.history()
    assert entry["players"] == ["Ann", "Ben"]
    assert [seat["rated_as"] for seat in entry["seats"]] == ["Ann", "normal bot"]


# -- the command --------------------------------------------------------------------------------
def test_stats_prints_ratings_per_game_and_json(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    store = Store()
    for _ in range(3):
        finished(store, "crates", people("Sara", "Tom"), {"winners": [0], "scores": [1, 9]})
    finished(store, "roach", people("Sara", "Tom", "Ivo"), {"winners": [0, 2], "scores": [0, 1, 0]})
    shown = runner.invoke(app, ["stats"], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    crates, roach = shown.output.index("Crates: ratings"), shown.output.index("Cockroach")
    assert crates < roach
    assert shown.output.index("Sara") < shown.output.index("Tom") < roach
    only = runner.invoke(app, ["stats", "roach", "--json"])
    assert only.exit_code == 0, only.output
    table = json.loads(only.output)["games"]
    assert list(table) == ["roach"]
    assert [row["name"] for row in table["roach"]][-1] == "Tom"
    assert set(table["roach"][0]) >= {"name", "played", "won", "rating"}
    rebuilt = runner.invoke(app, ["stats", "--json", "--rebuild"])
    everything_json = json.loads(runner.invoke(app, ["stats", "--json"]).output)
    assert json.loads(rebuilt.output) == everything_json
    assert "Crates" not in runner.invoke(app, ["stats", "kraken"]).output
    refused = runner.invoke(app, ["stats", "chess"])
    assert refused.exit_code != 0 and "no game called 'chess'" in refused.output


def test_the_bench_rates_bot_levels_from_mixed_tables(tmp_path, capsys):
    from bench import ratings as bench

    assert sorted(bench.seat_levels(3, seed=5)) == ["hard", "normal", "random"]
    out = tmp_path / "ratings.json"
    assert bench.main(["--games", "3", "--game", "roach", "--json", str(out)]) == 0
    rated = json.loads(out.read_text(encoding="utf-8"))["roach"]
    assert {level: row["games"] for level, row in rated["levels"].items()} == {
        "random": 3,
        "normal": 3,
        "hard": 3,
    }
    assert "seat win share" in capsys.readouterr().out
