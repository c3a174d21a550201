"""The replay screen: the Crates table at each step, moved by keys, from one seat or every hand."""

from __future__ import annotations

import random

from textual.widgets import Label

from tablegames.bots import get_bot
from tablegames.local import local_table
from tablegames.replay import Replay
from tablegames.rules import get_game
from tablegames.store import Store
from tablegames.table import Table, VirtualClock
from tablegames.tui.app import ReplayApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.crates_round import RoundSummary
from tablegames.tui.screens.crates_view import sorted_hand
from tablegames.tui.screens.replay import GoToDialog, ReplayScreen
from tablegames.tui.widgets.card import prettify
from tablegames.tui.widgets.hand import Hand
from tablegames.tui.widgets.log import GameLog

from ..test_replay import record_scripted_game
from .helpers import press, screen_text


def viewer(app: ReplayApp) -> ReplayScreen:
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def table(app: ReplayApp) -> CratesScreen:
    """The game's own table screen, under the replay controls."""
    under = app.screen_stack[app.screen_stack.index(app.viewer) - 1]
    assert isinstance(under, CratesScreen)
    return under


def shown_hand(app: ReplayApp) -> list[str]:
    return table(app).query_one("#hand", Hand).cards


def bar(app: ReplayApp) -> str:
    return str(viewer(app).query_one("#replay-bar").render())


async def test_stepping_forward_and_back_moves_the_table(replay):
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert viewer(app).step == 0
        assert bar(app).startswith(f"Replay: step 0/{replay.last} · round 1 of 8 · as Sara")
        assert shown_hand(app) == sorted_hand(replay.view(0, 0)["hand"])
        first_table = table(app)

        await press(pilot, "n", "n", "full_stop")
        assert viewer(app).step == 3 and f"step 3/{replay.last}" in bar(app)
        assert table(app) is first_table  # forward: the same table plays on
        assert shown_hand(app) == sorted_hand(replay.view(3, 0)["hand"])
        top = prettify(replay.view(3, 0)["top"])
        assert top in screen_text(app)

        await press(pilot, "p")
        assert viewer(app).step == 2
        assert table(app) is not first_table  # back: a table dealt afresh at step 2
        assert shown_hand(app) == sorted_hand(replay.view(2, 0)["hand"])
        log = table(app).query_one(GameLog)
        assert log.scroll_y == log.max_scroll_y > 0  # its newest lines in sight
        await pilot.press("comma", "comma", "comma")  # the third press rings: already at the deal
        await pilot.pause()
        assert viewer(app).step == 0 and "the deal" in bar(app)


async def test_the_tables_own_keys_do_nothing_in_a_replay(replay):
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "d", "enter", "x", "2", "c")
        assert viewer(app).step == 0 and app.screen is app.viewer
        await press(pilot, "q")
    assert app.return_code == 0


async def test_jumping_by_round_and_going_to_a_round(replay):
    starts = replay.round_starts()
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "right_square_bracket")
        # Moving on past a round's end shows its scores, as during the game.
        assert isinstance(app.screen, RoundSummary)
        assert "Round 1 of 8" in screen_text(app)
        await press(pilot, "n")
        assert viewer(app).step == starts[2] and "round 2 of 8" in bar(app)
        assert shown_hand(app) == sorted_hand(replay.view(starts[2], 0)["hand"])

        await press(pilot, "g")
        assert isinstance(app.screen, GoToDialog)
        await pilot.press("9", "enter")  # there is no round 9: the dialog says so and stays
        await pilot.pause()
        assert isinstance(app.screen, GoToDialog) and "no round 9" in screen_text(app)
        await press(pilot, "backspace", "5", "enter")
        if isinstance(app.screen, RoundSummary):
            await press(pilot, "n")
        assert viewer(app).step == starts[5] and "round 5 of 8" in bar(app)

        await pilot.press("left_square_bracket")  # at a round's start: back to the one before
        await pilot.pause()
        assert viewer(app).step == starts[4]
        assert shown_hand(app) == sorted_hand(replay.view(starts[4], 0)["hand"])
        await press(pilot, "greater_than_sign")
        if isinstance(app.screen, RoundSummary):
            await press(pilot, "n")
        assert viewer(app).step == replay.last
        assert "game over" in bar(app) and app.screen is app.viewer  # no leaving dialog
        await pilot.press("g", *"r2", "enter")  # back to round 2: a table dealt afresh
        await pilot.pause()
        assert viewer(app).step == starts[2] and app.screen is app.viewer
        assert shown_hand(app) == sorted_hand(replay.view(starts[2], 0)["hand"])
        await press(pilot, "less_than_sign")
        assert viewer(app).step == 0
        assert shown_hand(app) == sorted_hand(replay.view(0, 0)["hand"])


async def test_as_a_seat_only_that_hand_shows(replay):
    step = replay.round_starts()[3] + 4
    app = ReplayApp(replay, seat=1, step=step)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert shown_hand(app) == sorted_hand(replay.view(step, 1)["hand"])
        assert not viewer(app).query("#replay-hands")
        text = screen_text(app)
        assert "as Ada (bot)" in text and "Every hand" not in text


async def test_all_shows_a_spectators_table_and_every_hand(replay):
    step = replay.round_starts()[3] + 4
    app = ReplayApp(replay, seat=None, step=step)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert table(app).watching and shown_hand(app) == []
        text = screen_text(app)
        assert "Every hand" in text and "every hand" in bar(app)
        for seat, name in enumerate(replay.names):
            hand = sorted_hand(replay.view(step, seat)["hand"])  # as the hand shows it
            cards = " ".join(prettify(card) for card in hand) if hand else "(no cards)"
            assert any(name in line and cards in line for line in text.splitlines())
        await press(pilot, "n")
        panel = str(viewer(app).query_one("#replay-hands").render())
        mover = replay.steps[step].seat
        moved = sorted_hand(replay.view(step + 1, mover)["hand"])
        assert " ".join(prettify(c) for c in moved) in panel


def test_snapshot_of_every_hand_at_80_by_24(snap_compare, tmp_path):
    scripted = record_scripted_game(tmp_path / "x.db")
    replay = Replay.load(scripted.store, scripted.table_id)
    app = ReplayApp(replay, seat=None, step=replay.round_starts()[2] + 6)
    assert snap_compare(app, terminal_size=(80, 24))


async def test_a_step_the_clock_decided_shows_what_it_did():
    """Crabs: the empty pot waited out a double-crab window; the `time` step reads as its event."""
    options = {
        "hands": [
            ["crabbi", "crabbi", "kebab", "diet"],
            ["king"] * 4,
            ["kebab", "kebab", "diet", "magic"],
            ["cabernet", "cabernet", "crabbi", "magic"],
        ],
        "ocean": ["jab", "taxi", "ab", "bunny"],
        "first_side": 0,
        "tokens": [2, 1, 2, 2],
        "pot": 1,
    }
    crabs = get_game("crabs")
    clock = VirtualClock()
    table = Table(crabs, 4, ["Sara", "Ada", "Bruno", "Chidi"], seed=1, options=options, clock=clock)
    clock.advance(5.0)
    table.submit(0, {"type": "accuse", "target": 1})  # the last token: the game waits a second
    clock.advance(1.5)
    assert table.settle_clock()  # 4 tokens each: a tie-break, so the game goes on
    clock.advance(1.0)
    table.submit(3, {"type": "accuse", "target": 0})  # wrong: a token for team 0, who win
    assert table.over and table.log[1] == (0, {"type": "time"}, 6.5)
    replay = Replay(crabs, 4, 1, options, table.log, names=table.names)
    assert replay.describe(2, None)[0] == (
        "Ada made no double-crab call on Sara within the second: the window closes."
    )
    app = ReplayApp(replay, seat=None, step=1)
    async with app.run_test(size=(110, 34)) as pilot:
        await press(pilot, "n")
        assert viewer(app).step == 2
        assert "Ada made no double-crab call on Sara" in bar(app)
        await press(pilot, "n")
        assert viewer(app).step == 3 and "game over" in bar(app)


async def test_every_seats_secrets_are_said_in_words():
    from tablegames.rules import get_game

    options = {
        "characters": False,
        "captain": 0,
        "roles": ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"],
        "deck": ["blue-disarmed", "red-drunk", "red-drunk", "red-mermaid"] * 2,
    }
    state = get_game("kraken").new(7, 3, **options)
    log = [(0, {"type": "appoint", "lieutenant": 1, "navigator": 2}, 0.0)]
    state.apply(*log[0])
    log.append((min(state.waiting_for()), {"type": "mutiny", "guns": 0}, 0.0))
    replay = Replay(get_game("kraken"), 7, 3, options, log)  # the game goes on: not its end
    app = ReplayApp(replay, seat=None, step=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        panel = str(viewer(app).query_one("#replay-hands").render())
        lines = panel.splitlines()
        assert lines[0].split()[-1] == "sailor" and lines[6].split()[-1] == "leader"
        assert "pirate; knows Player 4 pirate" in lines[1]
        assert "=" not in panel and "private" not in panel  # no dump of the view


async def test_a_replay_opened_at_a_step_shows_the_newest_lines_of_the_log(replay):
    app = ReplayApp(replay, seat=None, step=replay.round_starts()[2] + 6)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        log = table(app).query_one(GameLog)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y


async def test_the_logs_keys_scroll_the_log_as_at_the_table(replay):
    # Play-testers pressed PgUp to read back (nothing happened) and Home (it went to the deal).
    app = ReplayApp(replay, seat=0, step=replay.round_starts()[2] + 6)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        step = viewer(app).step
        log = table(app).query_one(GameLog)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        await press(pilot, "pageup")
        assert log.scroll_y < log.max_scroll_y and "End for the newest" in screen_text(app)
        await press(pilot, "home")
        assert log.scroll_y == 0 and viewer(app).step == step  # still at the same step
        await press(pilot, "end")
        assert log.scroll_y == log.max_scroll_y and viewer(app).step == step
        await press(pilot, "question_mark")
        assert "the deal / the end of the game" in screen_text(app)


async def test_go_to_explains_each_way_of_saying_where(replay):
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "g")
        assert isinstance(app.screen, GoToDialog)
        text = " ".join(str(label.render()) for label in app.screen.query(Label))
        assert "s and a step" in text and "(after the 12th move)" in text
        assert "like 50% (halfway)" in text


async def test_kraken_s_last_step_ends_its_log_with_how_the_voyage_ended(tmp_path):
    # Claims made along the way once came after the final line when a replay jumped to the end.
    store = Store(tmp_path / "x.db")
    client = local_table("kraken", 7, seed=7, store=store, names=("Sara",))
    client.table.bots[0] = get_bot("kraken", "normal", 0, random.Random(1))
    client.table.run_bots(1_000_000)
    assert client.table.over and client.saved_as is not None
    replay = Replay.load(store, client.saved_as[1])
    assert replay.talk, "the bots talked"
    app = ReplayApp(replay, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "greater_than_sign")
        under = viewer(app).table
        final = under.wording.line(replay.view(replay.last, 0)["log"][-1])
        last_line = under.query_one(GameLog)._given[-1]
        assert last_line == final
