"""Playing Crates with keys and the mouse: cards, draws, suits, calls and the status line."""

from __future__ import annotations

from tablegames.testing.harness import until
from tablegames.testing.hurried import VirtualClock
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens import picking
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.widgets.hand import Hand

from .helpers import opened, press, screen_text, stacked


def view(client, seat=0):
    return client.update(seat).view


def shown_cards(app: TableGamesApp) -> list[str]:
    return app.screen.query_one("#hand", Hand).cards


def status(app: TableGamesApp) -> str:
    return str(app.screen.query_one("#status").render())


async def test_enter_plays_the_picked_card():
    client = stacked([["QS", "5H", "7C"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, CratesScreen)
        assert shown_cards(app) == ["QS", "5H", "7C"]
        await press(pilot, "2", "enter")
        assert view(client)["top"] == "5H"
        assert shown_cards(app) == ["QS", "7C"]
        assert "Sara" not in screen_text(app)  # no name given: Player 1
        assert "Player 1 plays 5♥." in screen_text(app)


async def test_arrows_move_the_pick_and_a_new_turn_picks_a_playable_card():
    client = stacked([["QS", "5H", "7C"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        hand = app.screen.query_one("#hand", Hand)
        assert hand.selected == 1  # 5♥, the only card that fits
        await pilot.press("right")
        assert hand.selected == 2
        await pilot.press("right", "right")
        assert hand.selected == 1


async def test_a_hand_of_ten_or_more_is_numbered_on_and_two_digits_pick_card_10_and_up(
    monkeypatch,
):
    clock = VirtualClock()  # (the digits are quick on any machine: no second passes between)
    monkeypatch.setattr(picking, "time", clock)
    hearts = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "9H", "10H", "JH", "QH", "KS"]
    client = stacked([hearts, ["2D", "9C", "JD"]], upcard="KH")  # every card fits
    async with opened(client, size=(100, 30)) as (app, pilot):
        hand = app.screen.query_one("#hand", Hand)
        shown = shown_cards(app)
        numbers = screen_text(app).split("Your hand")[1].splitlines()[1].strip("│ ").split()
        assert numbers == [str(n) for n in range(1, len(shown) + 1)]  # 10, 11, 12 too
        await press(pilot, "1", "2")  # quickly: card 12
        assert hand.selected == 11
        await press(pilot, "3")  # no card 30: card 3 at once
        assert hand.selected == 2
        await press(pilot, "1")
        clock.now += picking.SECOND_DIGIT  # a digit after a pause starts a number anew
        await press(pilot, "2")
        assert hand.selected == 1
        await press(pilot, "1", "0", "enter")
        assert view(client)["top"] == shown[9]


async def test_d_draws_when_nothing_fits():
    client = stacked([["QS", "7C"], ["2D", "9C", "JD"]], upcard="KH", draw=["4S", "6D"])
    async with opened(client) as (app, pilot):
        assert "Nothing fits: press d to draw a card." in status(app)
        await press(pilot, "d")
        assert view(client)["hand"] == ["QS", "7C", "4S"]
        assert shown_cards(app) == ["4S", "QS", "7C"]  # by suit, then rank
        assert "Player 1 draws 4♠." in screen_text(app)  # as every line names the player


async def test_drawing_when_a_card_fits_shows_the_refusal():
    client = stacked([["QS", "5H"], ["2D", "9C", "JD"]], upcard="KH", draw=["4S"])
    async with opened(client) as (app, pilot):
        await press(pilot, "d")
        assert "you may only draw when nothing fits" in status(app)
        assert view(client)["hand"] == ["QS", "5H"]


async def test_selecting_a_dimmed_card_says_why():
    client = stacked([["5H", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        assert app.screen.query_one("#hand", Hand).unplayable == {"QS"}
        await pilot.press("1")  # spades come first
        assert "✗ Q♠ does not fit: play a heart, a K, or an 8" in status(app)
        await press(pilot, "enter")
        assert view(client)["hand"] == ["5H", "QS"]  # nothing was played


async def test_a_nine_of_another_suit_is_dimmed_and_opens_no_suit_dialog():
    client = stacked([["9C", "QH"], ["2D", "9D", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        assert app.screen.query_one("#hand", Hand).unplayable == {"9C"}
        await pilot.press("2")  # hearts sort before clubs
        assert "✗ 9♣ does not fit: play a heart, a K, or an 8" in status(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, CratesScreen)  # no suit to name for a card that cannot go
        assert view(client)["hand"] == ["9C", "QH"]
        await pilot.press("1")
        assert "Enter plays Q♥; press c first and Crates! is said with it." in status(app)


async def test_picking_a_card_out_of_turn_says_whose_turn_it_is():
    client = stacked([["5H", "QS"], ["2D", "9C", "JD"]], upcard="KD", dealer=0)
    async with opened(client) as (app, pilot):
        await pilot.press("1")
        assert "It is Ada (bot)'s turn, not yours" in status(app)
        client.table.submit(1, {"type": "play", "card": "JD"})
        await pilot.pause()
        assert status(app) == "Nothing fits: press d to draw a card."  # Ada's turn is over


async def test_bots_play_by_themselves_after_a_pause():
    client = stacked([["QH", "7S", "4C"], ["JH", "10D", "2C"]], upcard="KH", pace=0.05)
    async with opened(client) as (_app, pilot):
        await pilot.press("enter")
        await until(lambda: view(client)["top"] != "QH", pilot=pilot)
        assert view(client)["top"] == "JH"  # the bot followed suit
        assert view(client)["turn"] == 0


async def suit_asked(app: TableGamesApp, pilot, said: str) -> PickDialog[str]:
    """Pick the second card (spades sort first), read `said` about it, and play it: the
    question of its suit."""
    await pilot.press("2")
    assert said in status(app)
    await press(pilot, "enter")
    dialog = app.screen
    assert isinstance(dialog, PickDialog)
    return dialog


async def test_an_eight_asks_for_any_suit_and_the_choice_becomes_the_suit():
    client = stacked([["8C", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        dialog = await suit_asked(app, pilot, "Enter plays 8♣ and lets you name any suit.")
        assert [option.value for option in dialog.options] == ["S", "H", "D", "C"]
        await press(pilot, "d")
        assert view(client)["top"] == "8C"
        assert view(client)["suit"] == "D"
        assert "♦ diamonds" in screen_text(app)
        assert "(named by the 8)" in screen_text(app)


async def test_a_nine_offers_only_its_colour_and_escape_keeps_the_card():
    client = stacked([["9H", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        said = "Enter plays 9♥ and lets you keep ♥ hearts or switch to ♦ diamonds."
        dialog = await suit_asked(app, pilot, said)
        assert [option.value for option in dialog.options] == ["H", "D"]
        await pilot.press("s")  # spades is not offered: nothing happens
        assert app.screen is dialog
        await press(pilot, "escape")
        assert isinstance(app.screen, CratesScreen)
        assert view(client)["hand"] == ["9H", "QS"]
        await pilot.press("enter", "down", "down", "enter")  # arrows and Enter: diamonds
        await pilot.pause()
        assert view(client)["suit"] == "D"


async def test_the_dealer_names_a_suit_for_a_turned_up_eight():
    client = stacked([["5H", "QS"], ["2D", "9C", "JD"]], upcard="8S", dealer=0)
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, PickDialog)
        await press(pilot, "h")
        assert view(client)["suit"] == "H"
        assert view(client)["turn"] == 1


async def test_c_with_two_cards_arms_the_announcement_for_the_next_play():
    client = stacked([["5H", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        await pilot.press("c")
        assert "Crates! armed" in screen_text(app)
        await press(pilot, "enter")
        assert view(client)["announced"] == [0]


async def test_c_with_one_unannounced_card_announces_at_once():
    client = stacked([["JH", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        await press(pilot, "enter")
        assert view(client)["exposed"] == [0]
        assert "say Crates! (c)" in screen_text(app)
        await press(pilot, "c")
        assert view(client)["announced"] == [0]


async def test_x_calls_dope_on_the_exposed_player():
    client = stacked([["QH", "QS", "7C"], ["JH", "JD"]], upcard="KH", draw=["2S", "3S"])
    async with opened(client) as (app, pilot):
        await pilot.press("x")
        assert "Nobody holds one card" in status(app)
        await press(pilot, "enter")
        assert client.waiting_for() == frozenset({1})  # not seat 0's turn now
        client.table.submit(1, {"type": "play", "card": "JH"})  # the bot forgets Crates!
        await pilot.pause()
        assert "Crates!" not in screen_text(app).split("Ada")[1].splitlines()[0]  # to notice
        assert app.screen.query_one("#dope").display  # one card held: Dope! may be called
        await press(pilot, "x")
        assert view(client)["hand_sizes"][1] == 3
        assert view(client)["lost_turn"] == [1]


async def test_x_with_two_exposed_players_asks_whom():
    client = stacked(
        [["QH", "QS", "7C"], ["JH", "JD"], ["3H", "4D"]], upcard="KH", draw=["2S", "3S", "4S"]
    )
    async with opened(client) as (app, pilot):
        await pilot.press("enter")
        client.table.submit(1, {"type": "play", "card": "JH"})
        client.table.submit(2, {"type": "play", "card": "3H"})
        await pilot.pause()
        await press(pilot, "x")
        chooser = app.screen
        assert isinstance(chooser, PickDialog)
        assert [option.value for option in chooser.options] == [1, 2]
        await press(pilot, "2")
        assert view(client)["lost_turn"] == [2]


async def test_clicking_a_card_selects_it_and_clicking_again_plays_it():
    client = stacked([["QS", "5H", "7C"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        hand = app.screen.query_one("#hand", Hand)
        await pilot.click(Hand, offset=(2, 3))  # on the first card's face
        assert hand.selected == 0
        await pilot.click(Hand, offset=(8, 3))
        assert hand.selected == 1
        await pilot.click(Hand, offset=(8, 2))  # the raised card
        await pilot.pause()
        assert view(client)["top"] == "5H"


async def test_the_draw_button_draws():
    client = stacked([["QS", "7C"], ["2D", "9C", "JD"]], upcard="KH", draw=["4S"])
    async with opened(client) as (_app, pilot):
        await pilot.click("#draw")
        await pilot.pause()
        assert view(client)["hand"] == ["QS", "7C", "4S"]


async def test_five_players_and_eight_cards_fit_at_80_by_24():
    hands = [
        ["5H", "QS", "7C", "8D", "JH", "3S", "10C", "9H"],
        ["2D", "4C", "6S", "KD", "AS", "5S", "7D", "QC"],
        ["3H", "4H", "6C", "9S", "10D", "JS", "AC", "2S"],
        ["7S", "8S", "QD", "KS", "AD", "3C", "5C", "JC"],
        ["2H", "6H", "7H", "4S", "10S", "9C", "2C", "KC"],
    ]
    client = stacked(hands, upcard="KH", draw=["4D"], names=("Sara",))
    async with opened(client) as (app, _pilot):
        text = screen_text(app)
        for name in ["Sara (you)", "Ada (bot)", "Bruno (bot)", "Chidi (bot)", "Dara (bot)"]:
            assert name in text
        for card in ["5♥", "Q♠", "7♣", "8♦", "J♥", "3♠", "10♣", "9♥"]:
            assert card in text
        for words in ["round 1 of 15", "Draw pile: 1", "Crank: none", "clockwise", "Score"]:
            assert words in text


async def test_ascii_style_draws_letters_not_suit_symbols():
    client = stacked([["QS", "5H", "10C"], ["2D", "9C", "JD"]], upcard="KH")
    app = TableGamesApp(client, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "10C" in text and "QS" in text and "5H" in text
        assert not set("♠♥♦♣╭╮╰╯┏┓") & set(text)


async def test_two_cards_in_hand_suggest_saying_crates_with_the_play():
    client = stacked([["5H", "QS"], ["2D", "9C", "JD"]], upcard="KH")
    async with opened(client) as (app, pilot):
        assert "c says Crates! with your play" in status(app)
        await press(pilot, "2")
        assert "press c first and Crates! is said with it" in status(app)
        await press(pilot, "c")
        assert "Crates! will be announced with your next play" in status(app)


async def test_at_60_by_20_the_log_shows_several_lines_and_no_number_is_cut():
    # Play-testers saw one line of log and the score cut to "…" at the smallest size.
    client = stacked(
        [["5H", "QS", "7C", "9H", "JH"], ["2D", "9C", "JD", "KD", "3D"], ["3H", "4H", "6C", "AS"]],
        upcard="KH",
        names=("Player with a long name",),
    )
    async with opened(client, size=(60, 20)) as (app, pilot):
        await press(pilot, "2")
        text = screen_text(app)
        assert app.screen.query_one("#log").size.height >= 4, text  # four lines, not one
        rows = text.splitlines()
        for row in rows[2:5]:  # each seat's line ends with its cards and score, whole
            cells = [cell for cell in row.split("││")[0].rstrip("│ ").split() if cell != "D"]
            assert cells[-2:] in (["5", "0"], ["4", "0"]), row
        assert "[5♥]" in text and "Q♠×" in text  # cards as words: the pick, what cannot go
        await press(pilot, "enter")
        assert view(client)["top"] == "5H"


async def test_at_60_by_20_who_said_crates_and_the_dealer_are_in_sight():
    """A Dope! call needs to know who said Crates! (issue 48: the narrow players panel dropped
    its notes, the dealer with them)."""
    client = stacked(
        [["QH", "QS", "7C"], ["JH", "JD"], ["3S", "4S", "6C", "AS"]],
        upcard="KH",
        draw=["2S", "3D"],
        names=("Player with a long name",),
    )
    client.table.submit(0, {"type": "play", "card": "QH"})
    client.table.submit(1, {"type": "play", "card": "JH"})
    client.table.submit(1, {"type": "announce"})
    async with opened(client, size=(60, 20)) as (app, pilot):
        await pilot.pause()
        rows = screen_text(app).splitlines()
        ada = next(row for row in rows if "Ada" in row).split("││")[0]
        bruno = next(row for row in rows if "Bruno" in row).split("││")[0]
        assert "C!" in ada and "D" in bruno.split()[-2:], (ada, bruno)
        legend = next(row for row in rows if "dealer" in row)
        assert "C! Crates!" in legend and "D dealer" in legend
