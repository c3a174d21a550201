"""Screens that a key of the player who just moved must not answer (issue 40): a hand-off opens
only on the named player's own key, a round's scores and the end of the game wait to be seen.

Keys are typed on a virtual clock the screens read (`hurried.Keyboard`): "Enter 1.3 s later" is
exactly that, however busy the machine.
"""

from __future__ import annotations

import pytest

from tablegames.local import local_table
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.crates_round import RoundSummary
from tablegames.tui.screens.game import table_screen
from tablegames.tui.screens.handoff import HANDOFF_LETTERS, HandoffScreen, handoff_keys
from tablegames.tui.screens.results import FinalStandings

from .helpers import STILL, screen_text, stacked
from .test_secrets_under_timing import at_the_table, sent

pytestmark = pytest.mark.real_time_keys


def test_each_player_at_the_keyboard_has_a_capital_of_their_own_name():
    assert handoff_keys(["Ann", "Bob", "Cy"]) == ["A", "B", "C"]
    # Two names with one first letter: neither gets it (each might press it as theirs).
    assert handoff_keys(["Ada", "Adam", "Bea"]) == ["D", "M", "B"]
    assert handoff_keys(["Zoë", "Émile"]) == ["Z", "E"]
    # I and O read as 1, l and 0 in many fonts: never a key.
    assert handoff_keys(["Ian", "Olga"]) == ["A", "L"]


def test_a_players_key_is_the_same_whatever_the_game_and_the_seats():
    """The keys come from the names alone (issue 48: crates asked `l` for Player 1 and roach
    `a`, from each game's own keys)."""
    names = [f"Player {n}" for n in range(1, 6)]
    keys = handoff_keys(names)
    assert len(set(keys)) == 5 and all(key in HANDOFF_LETTERS for key in keys)
    assert handoff_keys(names[::-1]) == keys[::-1]  # (whoever sits first)
    everything = handoff_keys(["🦀", "🦀🦀", "Q"])
    assert len(set(everything)) == 3 and set(everything) <= set(HANDOFF_LETTERS)
    for game in ("crates", "roach", "kraken", "sealedbids"):
        client = local_table(game, 5, humans=2, seed=1, names=("Ann", "Amy"), pace=STILL)
        keyboard = table_screen(client).keyboard
        assert [keyboard.key(0), keyboard.key(1)] == ["N", "M"], game


def three_at_crates():
    return stacked(
        [["QH", "JH"], ["2C", "3C", "9S"], ["4D", "5D"]],
        humans=3,
        names=("Ann", "Bob", "Cy"),
        draw=["7C", "8C"],
    )


async def test_a_relaxed_double_tap_never_opens_the_next_players_hand(monkeypatch):
    client = three_at_crates()
    async with at_the_table(client, monkeypatch) as (app, keys):
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        assert "Pass to Ann — press Shift+A when only Ann can see" in screen_text(app)
        await keys.type("A", after=1.5)  # Ann takes the keyboard
        assert "Ann's hand" in screen_text(app)
        await keys.type("enter", after=1.0)  # and plays her J♥ (Bob is next)...
        for _ in range(2):  # ...then, relaxed, Enter again 1.3 s later, and again
            await keys.type("enter", after=1.3)
            assert isinstance(app.screen, HandoffScreen) and app.screen.player == "Bob"
            assert "Bob's hand" not in screen_text(app) and "2♣" not in screen_text(app)
        assert sent(client, 1) == []  # nothing was played for Bob
        assert "Only Bob's own key opens it: Shift+B." in screen_text(app)


async def test_space_and_the_keys_of_a_move_never_open_a_hand_off_whatever_the_pause(monkeypatch):
    client = three_at_crates()
    async with at_the_table(client, monkeypatch) as (app, keys):
        for key in ("space", "enter", "1", "2", "right", "d", "c", "x", "escape", "B", "y"):
            await keys.type(key, after=3.0)
            assert isinstance(app.screen, HandoffScreen), key
        await keys.type("a", after=3.0)  # Ann's letter, without shift: a key of some game
        assert isinstance(app.screen, HandoffScreen)
        assert "Shift+A. (Shift too: a small a is a game's key.)" in screen_text(app)
        await keys.type("A", after=3.0)
        assert isinstance(app.screen, CratesScreen) and "Ann's hand" in screen_text(app)


async def test_the_hand_off_key_still_waits_for_a_still_keyboard(monkeypatch):
    client = three_at_crates()
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("A", after=0.5)  # too soon after it opened
        assert "Too soon: Shift+A counts once this has been up a moment" in screen_text(app)
        await keys.type("A", after=0.3)  # and mid-stream
        assert isinstance(app.screen, HandoffScreen)
        await keys.type("A", after=0.6)
        assert isinstance(app.screen, CratesScreen)


def going_out():
    """Sara (alone against a bot) goes out with her last card: round 1 of 8 is over."""
    return stacked([["KS"], ["3S", "8D", "QC", "2H"]], names=("Sara",), short=True)


async def test_a_second_enter_after_the_winning_play_leaves_the_round_summary_up(monkeypatch):
    client = going_out()
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("enter", after=1.0)  # Sara plays her last card
        summary = app.screen
        assert isinstance(summary, RoundSummary)
        for gap in (0.4, 1.3, 1.3):  # Enter again, soon and then relaxed
            await keys.type("enter", after=gap)
            await keys.type("space", after=gap)
            assert app.screen is summary
        assert "Next round (n)" in screen_text(app)
        await keys.type("n", after=1.0)
        assert isinstance(app.screen, CratesScreen) and client.update(0).view["round"] == 2


async def test_the_round_summary_waits_for_a_still_keyboard(monkeypatch):
    client = going_out()
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("enter", "n", after=1.0)  # the winning play and an `n` with it
        await keys.type("n", after=0.6)  # still too soon after it opened
        assert "Too soon: that key counts once this has been up a moment." in screen_text(app)
        assert isinstance(app.screen, RoundSummary)
        await keys.type("n", after=0.6)
        assert isinstance(app.screen, CratesScreen)


@pytest.mark.parametrize(
    "key", ["enter", *(pytest.param(key, marks=pytest.mark.slow) for key in ("space", "m", "q"))]
)
async def test_keys_typed_on_do_not_close_the_final_standings(monkeypatch, key):
    client = going_out()
    async with at_the_table(client, monkeypatch) as (app, keys):
        await keys.type("enter", after=1.0)  # Sara goes out of round 1
        while not client.table.over:  # the other seven rounds, played for both
            move = client.table.bot_move() or (0, client.table.legal(0)[0])
            client.table.submit(*move)
        await keys.wait(0.0)
        for _ in range(8):  # the summaries of rounds 1 to 8, read
            if isinstance(app.screen, RoundSummary):
                await keys.type("n", after=1.5)
        standings = app.screen
        assert isinstance(standings, FinalStandings)
        await keys.type(key, after=0.4)
        await keys.type(key, key, after=0.3)
        assert app.screen is standings and app.return_code is None
        await keys.type(key, after=1.5)
        if key in ("enter", "space"):  # no button takes them, however long after
            assert app.screen is standings
        else:
            assert app.screen is not standings


@pytest.mark.parametrize(
    ("game", "words"), [("crates", "show my cards"), ("kraken", "show my role and cards"),
                        ("sealedbids", "show my bid")],
)  # fmt: skip
async def test_the_hand_off_says_what_it_shows_in_the_games_own_words(monkeypatch, game, words):
    """A game without cards is not told "show my cards" (issue 48)."""
    client = local_table(game, 5, humans=2, seed=1, names=("Ann", "Bob"), pace=STILL)
    async with at_the_table(client, monkeypatch) as (app, _keys):
        assert isinstance(app.screen, HandoffScreen)
        assert f"I am {app.screen.player}: {words} (Shift+" in screen_text(app)
