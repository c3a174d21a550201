"""What screens say and offer is true: grammar, hints, buttons and keys that fit the moment."""

from __future__ import annotations

from tablegames.drivers import LocalClient
from tablegames.tui.app import ReplayApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.game import GameScreen
from tablegames.tui.screens.kraken import DecisionDialog, KrakenScreen
from tablegames.tui.screens.kraken_choices import Chooser
from tablegames.tui.widgets.hand import Hand
from tablegames.words import plural, with_article

from ..rules.kraken.helpers import act, sail, table
from .helpers import opened, press, screen_text, stacked
from .test_kraken_screen import bots_act, kraken_state, kraken_table, no_mutiny, view


def test_counted_words_and_articles_agree() -> None:
    assert [plural(1, "card"), plural(2, "card"), plural(0, "move")] == [
        "1 card",
        "2 cards",
        "0 moves",
    ]
    assert [with_article(word) for word in ("8", "A", "K", "ace", "bat")] == [
        "an 8",
        "an A",
        "a K",
        "an ace",
        "a bat",
    ]


async def test_a_round_of_one_card_each_says_1_card() -> None:
    client = stacked([["5H"], ["QS"]], upcard="KH")
    client.table.state.hand_sizes_by_round = (1,)  # type: ignore[attr-defined]  # round 8's deal
    async with opened(client) as (app, _pilot):
        text = screen_text(app)
        assert "1 card each" in text and "1 cards" not in text


async def test_a_hand_is_sorted_by_suit_then_rank() -> None:
    client = stacked([["KD", "5H", "QS", "2H", "7C", "AS"], ["2D", "9C"]], upcard="KH")
    async with opened(client) as (app, _pilot):
        assert app.screen.query_one("#hand", Hand).cards == ["AS", "QS", "2H", "5H", "7C", "KD"]


async def test_a_spectator_sees_no_buttons_and_no_keys_to_play() -> None:
    client = stacked([["5H", "QS"], ["2D", "9C"]], upcard="KH")
    watcher = LocalClient(client.table, seats=[])
    async with opened(watcher) as (app, _pilot):
        table = app.screen
        assert isinstance(table, CratesScreen) and table.watching
        for button in ("#draw", "#announce", "#dope"):
            assert not table.query_one(button).display
        footer = screen_text(app).splitlines()[-1]
        for key in ("Pick", "Play", "Draw", "Crates!", "Dope!"):
            assert key not in footer
        assert "q Quit" in footer


async def test_a_game_without_characters_shows_no_character_button_nor_decide_when_over() -> None:
    client = kraken_table()  # characters off
    async with opened(client) as (app, pilot):
        await press(pilot, "escape")
        table = app.screen
        assert isinstance(table, KrakenScreen)
        assert table.query_one("#decide").display  # Sara appoints
        assert not table.query_one("#character").display
    client = kraken_table(deck=["blue-drunk", "blue-disarmed", "red-drunk", "red-drunk"])
    kraken_state(client).ship = "3,5"  # blue reaches Bluewater Bay: the voyage is over
    client.table.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 4})
    no_mutiny(client)
    client.table.submit(0, {"type": "keep", "card": "blue-drunk"})
    bots_act(client)
    async with opened(client) as (app, _pilot):
        table = next(s for s in app.screen_stack if isinstance(s, KrakenScreen))
        assert not table.query_one("#decide").display
        assert not table.query_one("#character").display


async def test_a_question_asked_again_when_guns_change_under_it() -> None:
    client = kraken_table(
        dealt_characters=[
            "bosun", "gunslinger", "captain", "mentor", "smuggler", "archivist", "equalizer",
        ],
    )  # fmt: skip
    async with opened(client) as (app, pilot):
        first = app.screen
        assert isinstance(first, DecisionDialog)
        assert "Ada (bot) (3 guns" in "\n".join(o.label for o in first.options)
        gunslinger = next(a for a in client.table.legal(1) if a["type"] == "character")
        client.table.submit(1, gunslinger)  # Ada takes 2 guns while Sara thinks
        await pilot.pause()
        await pilot.pause()
        again = app.screen
        assert isinstance(again, DecisionDialog) and again is not first
        assert "Ada (bot) (5 guns" in "\n".join(o.label for o in again.options)
        assert view(client)["guns"][1] == 5


def test_the_spiritualist_names_whose_gun_goes_next() -> None:
    deck = ["yellow-uprising", "red-drunk", "red-drunk", "red-mermaid"]
    state = table(5, deck=deck, rituals=["cult_cabin_search"], dealt_characters=[
        "gunslinger", "kleptomaniac", "gunsmith", "look_out", "spiritualist"])  # fmt: skip
    sail(state, 1, 2, "yellow-uprising", "red-drunk", "yellow-uprising")
    act(state, 4, {"type": "character", "name": "spiritualist", "targets": [1, 3]})
    names = ["Ada", "Ben", "Cy", "Dee", "Eve"]
    assert Chooser(state.view(4), names).title() == "The Spiritualist: who receives Ben's gun?"
    act(state, 4, {"type": "pick", "target": 4})
    assert Chooser(state.view(4), names).title() == "The Spiritualist: who receives Dee's gun?"


async def test_a_replay_never_says_your_turn(tmp_path) -> None:
    from tablegames.replay import Replay

    from ..test_replay import record_game

    recorded = record_game(tmp_path / "x.db")
    replay = Replay.load(recorded.store, recorded.table_id)
    step = next(n for n in range(replay.last) if 0 in replay.state(n).waiting_for())
    app = ReplayApp(replay, seat=0, step=step)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "your turn" not in text.lower() and "Your hand" not in text
        assert "Sara's hand — Sara to play" in text
        table = app.screen_stack[-2]
        assert isinstance(table, GameScreen)
