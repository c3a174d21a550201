"""Talking at the Feed the Kraken table: the invitation, the claim menu, claims in the log and
beside each player, and only the seat at the keyboard claiming."""

from __future__ import annotations

from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.kraken import KrakenScreen

from .helpers import opened, press, screen_text, take_seat
from .test_kraken_screen import kraken_table, no_mutiny, sail, status

DECK = ["blue-drunk", "red-mermaid", "yellow-uprising", "red-drunk", "blue-disarmed"]


def navigated():
    """Sara (captain) passed the blue drunk; it was revealed."""
    client = kraken_table(deck=DECK)
    sail(client, (0, 2, 4), ("blue-drunk", "yellow-uprising"), "blue-drunk")
    return client


def menu(app) -> PickDialog:
    assert isinstance(app.screen, PickDialog), type(app.screen).__name__
    return app.screen


async def test_after_a_navigation_one_key_claims_what_you_passed() -> None:
    client = navigated()
    async with opened(client, size=(120, 40)) as (app, pilot):
        if isinstance(app.screen, PickDialog):  # a decision that opened by itself
            await press(pilot, "escape")
        assert "Claim what you drew and passed: t" in status(app)
        await press(pilot, "t")
        first = menu(app).options[0]
        assert first.label == "Say: passed blue, of blue and red (navigation 1)"
        assert first.key == "s"
        await press(pilot, "s")
        mine = [said for said in client.table.talk if said["seat"] == 0]
        assert [said["claim"]["passed"] for said in mine] == ["blue"]
        assert "Sara claims:" in screen_text(app)
        assert "Claim what you drew and passed" not in status(app)


async def test_the_claim_menu_names_anyone_and_the_crew_shows_the_last_claim() -> None:
    client = kraken_table()
    async with opened(client, size=(120, 40)) as (app, pilot):
        await press(pilot, "escape")  # the appointment can wait
        await press(pilot, "t")
        kinds = {option.label: option.key for option in menu(app).options}
        assert list(kinds) == ["who is what (me or another)", "how many guns I will raise"]
        await press(pilot, kinds["who is what (me or another)"])
        whom = {option.label: option.key for option in menu(app).options}
        assert list(whom)[:2] == ["me", "Ada (bot)"] and len(whom) == 7
        await press(pilot, whom["Ada (bot)"])
        labels = {option.label: option.key for option in menu(app).options}
        assert list(labels) == [
            '"Ada (bot) is a sailor"',
            '"Ada (bot) is a pirate"',
            '"Ada (bot) is in the cult"',
        ]
        await press(pilot, labels['"Ada (bot) is a pirate"'])
        assert client.table.talk[-1]["claim"] == {"kind": "role", "target": 1, "group": "pirate"}
        client.table.say(1, {"kind": "role", "target": 1, "group": "sailor"})  # Ada answers
        await pilot.pause()
        shown = screen_text(app)
        assert 'Sara claims: "Ada (bot) is a pirate"' in shown
        assert 'Ada (bot) claims: "I am a sailor"' in shown
        crew = str(app.screen.query_one("#crew").render())
        assert '"I am a sailor"' in crew and '"Ada (bot) is a pirate"' in crew


async def test_in_hot_seat_only_the_player_holding_the_keyboard_claims() -> None:
    client = kraken_table(humans=2, captain=2)
    client.table.submit(2, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, HandoffScreen)  # Sara's turn to raise guns comes first
        await press(pilot, "t")  # nobody holds the keyboard yet: nothing is said
        assert client.table.talk == [] or all(s["seat"] not in (0, 1) for s in client.table.talk)
        table = next(s for s in app.screen_stack if isinstance(s, KrakenScreen))
        assert not table.check_action("talk", ())
        await take_seat(app, pilot)  # Sara takes the keyboard: her mutiny question opens
        await press(pilot, "escape")
        assert table.check_action("talk", ())
        assert "Say how many guns you will raise: t" in status(app)


async def test_a_claim_chosen_as_the_table_fell_silent_says_why_it_was_not_made() -> None:
    client = kraken_table()
    async with opened(client, size=(120, 40)) as (app, pilot):
        await press(pilot, "escape")  # the appointment can wait
        await press(pilot, "t", "6")  # who is what...
        await press(pilot, "2")  # ...about Ada
        assert isinstance(app.screen, PickDialog)
        client.table.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 4})
        no_mutiny(client)  # the navigation begins meanwhile: nobody may talk
        await pilot.pause()
        talk = list(client.table.talk)
        await press(pilot, "2")  # "Ada is a pirate", too late
        assert client.table.talk == talk
        banner = str(app.screen_stack[1].query_one("#notices").render())
        assert banner.startswith("✗ nobody may talk") and "navigation" in banner, banner


async def test_the_claim_menu_keys_stay_put_and_guns_go_by_their_number() -> None:
    # A claim made once disappeared and the rest moved up; guns claims started at [1] for 0
    # guns while the mutiny's [1] is 1 gun.
    client = navigated()
    async with opened(client, size=(120, 40)) as (app, pilot):
        if isinstance(app.screen, PickDialog):
            await press(pilot, "escape")
        await press(pilot, "t")
        before = {option.value: option.key for option in menu(app).options}
        await press(pilot, "s")  # the moment's own claim: said
        await press(pilot, "t")
        after = {option.value: option.key for option in menu(app).options}
        assert "invited" in before and "invited" not in after
        assert {kind: key for kind, key in before.items() if kind != "invited"} == after
        await press(pilot, after["guns"])
        guns = {option.value["guns"]: option.key for option in menu(app).options}
        assert guns[0] == "0" and guns[1] == "1" and guns[2] == "2"


async def test_who_is_what_offers_the_truth_first() -> None:
    client = kraken_table()  # Sara is a sailor; Ada (seat 1) a pirate she does not know of
    async with opened(client, size=(120, 40)) as (app, pilot):
        await press(pilot, "escape")
        await press(pilot, "t", "6", "1")  # who is what, about me
        labels = [option.label for option in menu(app).options]
        assert labels[0] == '"I am a sailor"'
    pirate = kraken_table(roles=["pirate", "pirate", "sailor", "sailor", "sailor", "sailor",
                                 "cult_leader"])  # fmt: skip
    async with opened(pirate, size=(120, 40)) as (app, pilot):
        await press(pilot, "escape")
        await press(pilot, "t", "6", "1")
        assert menu(app).options[0].label == '"I am a pirate"'
        await press(pilot, "escape", "t", "6", "2")  # about Ada, a fellow pirate she knows
        assert menu(app).options[0].label == '"Ada (bot) is a pirate"'
