"""Playing roach by keys and mouse: offers, answers, peeks, lays, hand-offs, quitting, help."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.pilot import Pilot

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.net.server import Server, ServerConfig
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens import roach_view as show
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.roach import RoachScreen
from tablegames.tui.screens.roach_dialogs import PeekNotice, RoachResult
from tablegames.tui.widgets.log import GameLog
from tablegames.tui.widgets.roach_hand import RoachHand

from .helpers import STILL, opened, press, screen_text, settle, take_seat
from .served import sara_at

SARA = ["bat", "royal-fly", "mouse", "mouse"]
ADA = ["frog", "royal-bat", "joker", "scorpion"]
BRUNO = ["ladybug", "fly", "cockroach", "bat"]
CHIDI = ["cockroach", "frog", "mouse", "ladybug"]


def roach_table(
    hands: list[list[str]] | None = None,
    penalty: tuple[str, ...] = ("royal-mouse", "bat", "fly"),
    fronts: list[list[str]] | None = None,
    first: int = 0,
    humans: int = 1,
    names: tuple[str, ...] = ("Sara",),
    pace: float = STILL,
) -> LocalClient:
    """A stacked four-seat table; seat 0 (Sara) starts and the bots stay still unless told."""
    hands = hands or [SARA, ADA, BRUNO, CHIDI]
    options: dict[str, Any] = {"hands": hands, "penalty": list(penalty), "first": first}
    if fronts is not None:
        options["fronts"] = fronts
    return local_table(
        "roach", len(hands), humans=humans, seed=1, names=names, pace=pace, **options
    )


def view(client: LocalClient, seat: int = 0) -> dict[str, Any]:
    return client.update(seat).view


def status(app: TableGamesApp) -> str:
    return str(app.screen.query_one("#status").render())


def logged(app: TableGamesApp) -> str:
    """The log as one line of text (the screen wraps long sentences)."""
    log = app.screen.query_one("#log", GameLog)
    return " ".join(" ".join(strip.text.split()) for strip in log.lines)


def offer(card: str, to: int, claim: str) -> dict[str, Any]:
    return {"type": "offer", "card": card, "to": to, "claim": claim}


@asynccontextmanager
async def ada_offers(
    card: str, claim: str
) -> AsyncIterator[tuple[LocalClient, TableGamesApp, Pilot[None]]]:
    """Ada (seat 1) starts and slides Sara `card`, claiming `claim`: the table's client, and the
    app showing it and its pilot."""
    client = roach_table(first=1)
    async with opened(client) as (app, pilot):
        client.table.submit(1, offer(card, 0, claim))
        await pilot.pause()
        yield client, app, pilot


async def test_offering_picks_a_card_a_player_and_a_claim():
    client = roach_table()
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, RoachScreen)
        assert "press Enter to offer it" in status(app)
        await pilot.press("2", "enter")  # the royal fly
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        assert [option.value for option in dialog.options] == [1, 2, 3]
        await pilot.press("2")  # Bruno
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        labels = [option.label for option in dialog.options]
        assert labels[1] == "fly (true)" and labels[0] == "bat (a bluff)"
        assert labels[7] == "royal (true)"
        await pilot.press("1")  # claim: bat
        await pilot.pause()
        assert isinstance(app.screen, RoachScreen)
        flight = view(client)["flight"]
        assert (flight["from"], flight["to"], flight["claim"]) == (0, 2, "bat")
        assert flight["card"] == "royal-fly"
        text = screen_text(app)
        assert "You slide royal fly to Bruno (bot), claiming bat." in logged(app)
        assert "Sara slides" not in logged(app)  # her move, once, in her own words
        assert "you saw it: royal fly" in text
        assert 'you → Bruno: "bat"' in text


async def test_escape_keeps_the_card_in_hand():
    client = roach_table()
    async with opened(client) as (app, pilot):
        await press(pilot, "enter", "1", "escape")
        assert isinstance(app.screen, RoachScreen)
        assert view(client)["flight"] is None
        assert "stays in your hand" in status(app)


async def test_believing_a_true_claim_gives_the_card_back_to_its_sender():
    async with ada_offers("royal-bat", "bat") as (client, app, pilot):
        assert 'Ada (bot) slides you a card: "bat". t: true  f: false  p: pass on' in status(app)
        assert "Pass on (p)" in screen_text(app)
        await press(pilot, "t")
        assert view(client)["fronts"][1] == ["royal-bat", "royal-mouse"]  # and the penalty card
        assert "The card is royal bat: the claim was true." in logged(app)
        assert "Sara was right, so Ada (bot) takes it." in logged(app)


async def test_doubting_a_true_claim_takes_the_card():
    async with ada_offers("frog", "frog") as (client, app, pilot):
        await press(pilot, "f")
        assert view(client)["fronts"][0] == ["frog"]
        assert view(client)["turn"] == 0  # the taker starts the next round
        assert "Sara was wrong and takes it." in logged(app)
        assert "press Enter to offer it" in status(app)


async def test_peek_and_pass_shows_the_card_only_after_the_pass():
    async with ada_offers("scorpion", "bat") as (client, app, pilot):
        assert "scorpion" not in screen_text(app)
        await press(pilot, "p")
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        assert [option.value for option in dialog.options] == [True, False]  # look or not
        await press(pilot, "1")  # look at it first
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        assert [option.value for option in dialog.options] == [2, 3]  # not back to Ada
        await pilot.press("2")  # Chidi
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        assert dialog.options[0].label == "bat (a bluff)"  # seen: true or a bluff, as offers say
        assert dialog.options[5].label == "scorpion (true)"
        await pilot.press("6")  # scorpion
        await pilot.pause()
        flight = view(client)["flight"]
        assert (flight["from"], flight["to"], flight["claim"]) == (0, 3, "scorpion")
        assert status(app) == 'You peeked: it is a scorpion. It goes to Chidi (bot) as "scorpion".'
        text = screen_text(app)
        assert "you saw it: scorpion" in text
        assert "You peek: the card is scorpion." in logged(app)


async def test_a_card_passed_on_without_looking_shows_nothing_of_it():
    async with ada_offers("scorpion", "bat") as (client, app, pilot):
        await press(pilot, "p", "2")  # pass it on without looking
        dialog = app.screen
        assert isinstance(dialog, PickDialog) and dialog.title_text == "Pass it on unseen to whom?"
        assert [option.value for option in dialog.options] == [2, 3]
        await press(pilot, "2")  # Chidi
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        assert dialog.options[0].label == "bat"  # unseen: no "true" or "a bluff"
        await press(pilot, "1")
        flight = view(client)["flight"]
        assert (flight["from"], flight["to"], flight["claim"]) == (0, 3, "bat")
        assert flight["seen_by"] == [1] and "card" not in flight
        assert status(app) == 'You passed it on unseen: it goes to Chidi (bot) as "bat".'
        assert "scorpion" not in screen_text(app)
        assert "Sara passes the card to Chidi (bot) without looking, claiming bat." in logged(app)


async def test_escape_from_the_look_question_leaves_the_card_where_it_is():
    async with ada_offers("scorpion", "bat") as (client, app, pilot):
        await press(pilot, "p", "escape")
        assert isinstance(app.screen, RoachScreen)
        flight = view(client)["flight"]
        assert flight["to"] == 0 and flight["seen_by"] == [1]  # not looked at, still ours to judge


async def test_the_last_receiver_cannot_pass():
    client = roach_table(first=1)
    client.table.submit(1, offer("scorpion", 2, "bat"))
    client.table.submit(2, {"type": "pass", "to": 3, "claim": "bat"})
    client.table.submit(3, {"type": "pass", "to": 0, "claim": "fly"})
    async with opened(client) as (app, pilot):
        assert "It has been with everyone else: t true or f false?" in status(app)
        assert "Pass on" not in screen_text(app)
        await press(pilot, "p")
        assert isinstance(app.screen, RoachScreen)
        assert view(client)["flight"]["to"] == 0
        await pilot.press("f")  # "fly" about a scorpion is false: Chidi, who passed last, takes it
        await pilot.pause()
        assert view(client)["fronts"][3] == ["scorpion"]


async def test_taking_a_special_card_asks_to_lay_out_cards():
    async with ada_offers("joker", "royal") as (client, app, pilot):
        await pilot.press("t")  # "royal" about the joker is false: Sara takes it
        await pilot.pause()
        assert view(client)["phase"] == "lay"
        assert "You took the joker: lay out one royal card, or any two other cards." in status(app)
        hand = app.screen.query_one("#hand", RoachHand)
        assert [card for card, _ in hand.kinds] == ["bat", "royal-fly", "mouse", "joker"]
        await pilot.press("4", "enter")
        assert "You cannot lay out the joker you just took." in status(app)
        await pilot.press("1", "enter")
        assert "Marked: bat. Press l to lay it out" in status(app)
        await pilot.press("3", "enter")
        assert "Marked: bat and mouse. Press l to lay them out" in status(app)
        assert "✓ 1 bat" in screen_text(app)
        await press(pilot, "l")
        assert view(client)["fronts"][0] == ["bat", "mouse"]
        assert view(client)["hand"] == ["royal-fly", "mouse", "joker"]
        assert view(client)["phase"] == "offer"


async def test_one_royal_card_may_be_laid_out_for_a_royal_claim():
    async with ada_offers("joker", "royal") as (client, _app, pilot):
        await press(pilot, "t", "2", "enter", "l")
        assert view(client)["fronts"][0] == ["royal-fly", "royal-mouse"]  # pulls the penalty card


async def test_a_click_picks_a_card_and_a_second_click_offers_it():
    client = roach_table()
    async with opened(client) as (app, pilot):
        hand = app.screen.query_one("#hand", RoachHand)
        _, row, start, _ = next(span for span in hand._spans if span[0] == 2)
        await pilot.click("#hand", offset=(start + 1, row))
        assert hand.selected == 2
        await pilot.click("#hand", offset=(start + 1, row))
        await pilot.pause()
        assert isinstance(app.screen, PickDialog)
        assert app.screen.title_text == "Offer your mouse to whom?"


async def test_buttons_answer_a_claim_with_the_mouse():
    async with ada_offers("frog", "bat") as (client, _app, pilot):
        await pilot.click("#false")
        await pilot.pause()
        assert view(client)["fronts"][1] == ["frog"]  # Sara was right: Ada takes her frog


async def test_keys_that_do_nothing_now_stay_out_of_the_footer():
    client = roach_table(first=1)
    async with opened(client) as (app, pilot):
        footer = screen_text(app).splitlines()[-1]
        assert "Offer" not in footer and "True" not in footer and "Help" in footer
        client.table.submit(1, offer("frog", 0, "bat"))

        def footer_offers_the_answers() -> bool:  # (the footer redraws a moment after the keys)
            footer = screen_text(app).splitlines()[-1]
            return "t True" in footer and "f False" in footer and "p Pass on" in footer

        await until(footer_offers_the_answers, pilot=pilot)
        await pilot.press("enter", "l")  # not now: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, RoachScreen) and view(client)["phase"] == "respond"


# -- hot seat ------------------------------------------------------------------------------------
def two_humans(first: int = 0) -> LocalClient:
    return roach_table(first=first, humans=2, names=("Sara", "Tom"))


async def test_the_card_changing_hands_between_humans_hands_off_without_secrets():
    client = two_humans()
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, HandoffScreen)
        await take_seat(app, pilot)  # Sara takes the seat
        assert app.screen.query_one("#hand", RoachHand).kinds[0] == ("bat", 1)
        await pilot.press("2", "enter", "1", "1")  # royal fly to Tom, "bat"
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "Pass to Tom" in text
        assert "royal fly" not in text and "mouse" not in text
        table = app.screen_stack[-2]
        assert isinstance(table, RoachScreen)
        assert table.query_one("#hand", RoachHand).kinds == []  # blanked under the hand-off
        await take_seat(app, pilot)
        text = screen_text(app)
        assert "Tom's hand" in text
        assert "royal fly" not in text  # neither Sara's card in flight nor her private log line
        assert "you saw it" not in text
        assert 'Sara slides you a card: "bat"' in status(app)
        assert app.screen.query_one("#hand", RoachHand).kinds[0] == ("royal-bat", 1)


async def test_a_peeked_card_stays_secret_when_the_next_human_takes_the_seat():
    client = two_humans(first=2)
    client.table.submit(2, offer("cockroach", 1, "bat"))  # Bruno (bot) to Tom
    async with opened(client) as (app, pilot):
        await take_seat(app, pilot)  # Tom takes the seat
        assert "Tom's hand" in screen_text(app)
        await press(
            pilot, "p", "1", "1", "1"
        )  # look, pass to Sara (Sara and Chidi are left), "bat"
        assert isinstance(app.screen, PeekNotice)  # Tom sees what he passed on, then hands over
        assert "You peeked: it is a cockroach." in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, HandoffScreen)
        assert "cockroach" not in screen_text(app)
        await take_seat(app, pilot)
        text = screen_text(app)
        assert "Sara's hand" in text
        assert "You peek" not in text and "you saw it" not in text
        assert "Tom peeks at the card. Tom passes the card to Sara, claiming bat." in logged(app)


async def test_one_human_never_sees_a_hand_off():
    client = roach_table(first=1)
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, RoachScreen)
        client.table.submit(1, offer("frog", 0, "bat"))
        await pilot.pause()
        assert isinstance(app.screen, RoachScreen)


# -- leaving, help and the end -------------------------------------------------------------------


async def test_the_result_names_the_loser_and_leads_back_to_the_menu():
    client = roach_table(fronts=[[], ["bat", "bat", "bat"], [], []])
    async with opened(client) as (app, pilot):
        assert "bat 3!" in screen_text(app)  # one more bat and Ada loses
        await pilot.press("1", "enter", "1", "2")  # a bat to Ada, claiming fly
        await pilot.pause()
        client.table.submit(1, {"type": "challenge", "believe": True})
        await pilot.pause()
        assert isinstance(app.screen, RoachResult)
        headline = str(app.screen.query_one(".title").render())
        assert headline == (
            "Game over: Ada (bot) has 4 bats in front of them and loses! Everyone else wins."
        )
        assert "LOSES" in screen_text(app)
        await settle(pilot)
        await press(pilot, "m")
        assert "Cockroach Poker Royal" in screen_text(app)


# -- over the network ----------------------------------------------------------------------------
async def test_a_network_player_offers_through_the_server():
    server = Server(ServerConfig(port=0, bot_pace=STILL))
    deal = {"hands": [SARA, ADA], "penalty": ["frog"], "first": 0}
    server.add_table("roach", 2, options=deal, seed=1, fill_with_bots="normal", min_humans=1)
    await server.start()
    async with sara_at(server) as (remote, app, pilot):
        await until(lambda: "not ready" in screen_text(app), pilot=pilot)
        await pilot.press("r")
        await until(lambda: isinstance(app.screen, RoachScreen), pilot=pilot)
        assert app.screen.query_one("#hand", RoachHand).kinds[0] == ("bat", 1)
        await pilot.press("enter", "1")  # two players: no one to choose, straight to claims
        await until(lambda: remote.latest.view["flight"] is not None, pilot=pilot)
        await pilot.pause()
        assert remote.latest.view["flight"]["claim"] == "bat"
        assert "You slide bat to Bot 2, claiming bat." in logged(app)


# -- words on the screen --------------------------------------------------------------------------
def test_face_up_cards_are_grouped_by_animal_and_one_short_of_losing_is_marked():
    counts = {"bat": 1, "fly": 0, "cockroach": 3, "frog": 0, "mouse": 2, "scorpion": 0}
    counts["ladybug"] = 0
    text = show.display_text(counts, ["joker"], 4, 60, colour=False)
    assert text.plain == "cockroach 3!, mouse 2, bat 1 +joker"
    assert show.display_text(counts, [], 4, 22, colour=False).plain == "roach 3! mouse 2 bat 1"
    assert show.display_text({}, [], 4, 20, ascii=True).plain == "-"


def test_a_royal_card_face_up_shows_as_royal():
    counts = {"bat": 2, "fly": 1, "mouse": 1}
    front = ["bat", "royal-bat", "royal-fly", "mouse"]
    text = show.display_text(counts, front, 4, 60, colour=False).plain
    assert text == "bat 2 (1 royal), royal fly 1, mouse 1"
    assert show.display_text(counts, front, 4, 24, colour=False).plain == "bat 2+R fly 1+R mouse 1"


def test_the_claims_of_the_card_in_flight_are_quoted_not_read_as_the_card():
    view = {
        "penalty_top": None,
        "penalty_size": 3,
        "flight": {
            "from": 0, "to": 1, "claims": [{"from": 0, "to": 1, "claim": "fly"}], "seen_by": [0],
        },
        "log": [],
    }  # fmt: skip
    text = show.flight_lines(view, ["Ada", "Chidi"], you=None).plain
    assert 'Ada → Chidi: "fly"' in text


def test_card_codes_read_as_words_in_every_sentence():
    assert show.sentence("The card is royal-bat: the claim was true.") == (
        "The card is royal bat: the claim was true."
    )
    assert show.with_article("royal-frog") == "a royal frog"
    assert show.with_article("ladybug") == "a ladybug"
    event = {"text": "{1} slides a card to {0}, claiming royal.", "to": None}
    assert (
        show.log_line(event, ["Sara", "Ada (bot)"])
        == "Ada (bot) slides a card to Sara, claiming royal."
    )


def test_a_shown_card_takes_two_lines_only_when_one_is_too_narrow():
    reveal = {"sender": 1, "claim": "cockroach", "card": "royal-scorpion", "taker": 0}
    names = ["Sara", "Ada (bot)"]
    wide = show.reveal_lines(reveal, names, 0, False, 60)
    assert [line.plain for line in wide] == [' Ada: "cockroach" was royal scorpion → you']
    narrow = show.reveal_lines(reveal, names, 0, True, 32)
    assert [line.plain for line in narrow] == [' Ada: "cockroach"', "   was royal scorpion -> you"]


async def test_a_royal_marked_short_is_explained_under_the_players():
    """Issue 48: "+R" beside an animal was not explained."""
    front = ["frog", "royal-frog", "scorpion", "royal-scorpion", "mouse", "ladybug", "bat"]
    client = roach_table(fronts=[[], front, [], []])
    async with opened(client, size=(60, 20)) as (app, _pilot):
        text = screen_text(app)
        assert "+R" in text and "+R: one of them royal" in text


def test_cards_shown_lately_never_head_an_empty_list():
    """Issue 48: "Cards shown lately:" was sometimes the last line, with nothing under it (the
    lines above it wrapped, and took the room its cards were counted in)."""
    flight = {"from": 2, "to": 0, "seen_by": [1, 2],
              "claims": [{"from": 1, "to": 2, "claim": "cockroach"},
                         {"from": 2, "to": 0, "claim": "scorpion"}]}  # fmt: skip
    log = [
        {"kind": "offer", "sender": 1, "claim": "fly", "text": "", "to": None},
        {"kind": "reveal", "card": "bat", "truth": False, "taker": 1, "text": "", "to": None},
    ]
    view = {"penalty_top": "frog", "penalty_size": 5, "flight": flight, "log": log}
    names = ["Sara", "Alexandra the Great", "Bartholomew (bot)"]
    for height in range(3, 12):
        lines = show.flight_lines(view, names, 0, height=height, width=22).plain.splitlines()
        if "Cards shown lately:" in lines:
            wrapped = sum(max(1, -(-len(line) // 22)) for line in lines)
            assert lines[-1] != "Cards shown lately:" and wrapped <= height, (height, lines)
