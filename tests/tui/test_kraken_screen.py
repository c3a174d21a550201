"""Playing Feed the Kraken with keys and the mouse: every prompt, hand-offs, secrets kept."""

from __future__ import annotations

from typing import Any

import pytest

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.rules.kraken import KrakenState
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.dialogs import PickDialog
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.kraken import DecisionDialog, KrakenScreen
from tablegames.tui.screens.kraken_dialogs import PassOnNotice, VoyageOver

from .helpers import STILL, opened, press, press_on, screen_text, take_seat

#: Seat 0 (Sara) a sailor, seats 1 and 3 pirates, the cult leader last.
ROLES = ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"]
DECK = ["blue-drunk", "red-mermaid", "yellow-uprising", "red-drunk", "blue-disarmed"]


def kraken_table(
    humans: int = 1,
    captain: int = 0,
    roles: list[str] | None = None,
    deck: list[str] | None = None,
    names: tuple[str, ...] = ("Sara", "Tom", "Uma"),
    **options: Any,
) -> LocalClient:
    """A stacked 7-seat table whose bots never move by themselves; characters off unless dealt."""
    if "dealt_characters" not in options:
        options.setdefault("characters", False)
    return local_table(
        "kraken",
        len(roles or ROLES),
        humans=humans,
        seed=4,
        names=names[:humans],
        pace=STILL,
        roles=list(roles or ROLES),
        deck=list(deck or DECK),
        captain=captain,
        **options,
    )


def view(client: LocalClient, seat: int = 0) -> dict[str, Any]:
    return client.update(seat).view


def kraken_state(client: LocalClient) -> KrakenState:
    """The engine state behind a local table (to stack a position or read the phase)."""
    state = client.table.state
    assert isinstance(state, KrakenState)
    return state


def decision(app: TableGamesApp) -> DecisionDialog:
    """The decision dialog on top of the screen."""
    screen = app.screen
    assert isinstance(screen, DecisionDialog), type(screen).__name__
    return screen


def bots_act(client: LocalClient, skip: tuple[int, ...] = (), until: str = "") -> None:
    """Let the bots move until the table waits for a human (or a seat in `skip`, or the phase
    is `until`)."""
    table = client.table
    for _ in range(200):
        waiting = table.state.waiting_for()
        if table.over or any(s in client.seats or s in skip for s in waiting):
            return
        if kraken_state(client).phase == until:
            return
        move = table.bot_move()
        if move is None:
            return
        table.submit(*move)


def no_mutiny(client: LocalClient, but: tuple[int, ...] = ()) -> None:
    """Every mutineer (except seats in `but`) raises nothing."""
    table = client.table
    if kraken_state(client).phase == "mutiny":
        for seat in sorted(table.state.waiting_for()):
            if seat not in but:
                table.submit(seat, {"type": "mutiny", "guns": 0})


def sail(
    client: LocalClient, team: tuple[int, int, int], kept: tuple[str, str], course: str
) -> None:
    """One round of the (captain, lieutenant, navigator) `team`: nobody mutinies, the captain
    and the lieutenant keep `kept`, the navigator steers `course`."""
    captain, lieutenant, navigator = team
    table = client.table
    table.submit(captain, {"type": "appoint", "lieutenant": lieutenant, "navigator": navigator})
    no_mutiny(client)
    table.submit(captain, {"type": "keep", "card": kept[0]})
    table.submit(lieutenant, {"type": "keep", "card": kept[1]})
    table.submit(navigator, {"type": "steer", "card": course})


def status(app: TableGamesApp) -> str:
    return str(app.screen.query_one("#status").render())


def dialog_text(app: TableGamesApp) -> str:
    screen = app.screen
    assert isinstance(screen, PickDialog)
    return screen.title_text + "\n" + "\n".join(o.label for o in screen.options)


async def test_the_captain_appoints_with_two_questions() -> None:
    client = kraken_table()
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert isinstance(app.screen, DecisionDialog)  # it opened by itself
        assert "Appoint your lieutenant" in decision(app).title_text
        assert [o.key for o in decision(app).options] == ["1", "2", "3", "4", "5", "6"]
        await pilot.press("2")  # Bruno
        await pilot.pause()
        assert "Appoint your navigator" in decision(app).title_text
        assert "Bruno" not in dialog_text(app)  # already the lieutenant
        keys = {o.label.split(" (bot)")[0]: o.key for o in decision(app).options}
        assert keys["Ada"] == "1" and keys["Chidi"] == "3"  # numbers do not shift
        await pilot.press("1")  # Ada
        await pilot.pause()
        assert view(client)["lieutenant"] == 2
        assert view(client)["navigator"] == 1
        assert "Sara appoints Bruno (bot) lieutenant and Ada (bot)" in screen_text(app)


async def test_escape_puts_a_decision_aside_and_enter_brings_it_back() -> None:
    client = kraken_table()
    async with opened(client) as (app, pilot):
        await press(pilot, "escape")
        assert isinstance(app.screen, KrakenScreen)
        assert "press Enter" in status(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, DecisionDialog)


async def test_a_decision_that_opens_by_itself_does_not_take_the_enter_meant_to_open_it():
    client = kraken_table(captain=1)
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    async with opened(client) as (app, pilot):
        dialog = decision(app)
        assert dialog.highlighted is None  # nothing to choose by Enter alone
        table = next(s for s in app.screen_stack if isinstance(s, KrakenScreen))
        shown = str(table.query_one("#status").render())
        assert "press Enter to decide" not in shown  # the status line speaks of the dialog
        assert "Answer above, or t: say how many guns you will raise" in shown
        await press(pilot, "enter")  # meant to open the decision: it only points
        assert decision(app) is dialog and dialog.highlighted == 0
        assert view(client)["private"].get("mutiny_guns") is None
        await press(pilot, "down", "enter")
        assert view(client)["private"]["mutiny_guns"] == 1
        assert "Answer above" not in status(app)


def test_a_second_player_keeps_the_key_it_had_for_the_first() -> None:
    """The Minstrel names two players one at a time: the second list numbers them as the first."""
    from itertools import combinations

    from tablegames.tui.screens.kraken_choices import Chooser, Question, start

    legal = [
        {"type": "character", "name": "minstrel", "targets": [a, b]}
        for a, b in combinations(range(1, 7), 2)
    ]
    chooser = Chooser(view(kraken_table()), ["Sara", *"ABCDEF"])
    first = chooser.ask(start(legal))
    assert isinstance(first, Question)
    keys = {label.split(" (")[0]: key for key, label, _ in first.options}
    assert keys == {"A": "1", "B": "2", "C": "3", "D": "4", "E": "5", "F": "6"}
    second = chooser.ask(next(left for key, _, left in first.options if key == "2"))
    assert isinstance(second, Question)
    assert {label.split(" (")[0]: key for key, label, _ in second.options} == {
        name: key for name, key in keys.items() if name != "B"
    }


async def test_mutiny_guns_are_chosen_in_secret_by_number() -> None:
    client = kraken_table(captain=1)
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    async with opened(client) as (app, pilot):
        assert "Mutiny against captain Ada (bot)" in decision(app).title_text
        assert [o.key for o in decision(app).options] == ["0", "1", "2", "3"]
        await press(pilot, "2")
        assert view(client)["private"]["mutiny_guns"] == 2
        assert "You raise 2 guns." in screen_text(app)
        assert view(client)["guns"][0] == 3  # nobody sees the fist before the reveal


async def test_drawing_keeping_and_steering() -> None:
    client = kraken_table(deck=["blue-drunk", "red-mermaid", "yellow-uprising", "red-drunk"])
    client.table.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 4})
    no_mutiny(client)
    async with opened(client, size=(120, 40)) as (app, pilot):
        text = dialog_text(app)
        assert "You drew blue drunk, red mermaid" in text
        assert "blue drunk: east to 1,1; the captain is replaced" in text
        await press(pilot, "1")
        assert view(client)["private"]["kept"] == "blue-drunk"
        assert "In the logbook: blue drunk" in screen_text(app)


async def test_the_navigator_may_jump_overboard() -> None:
    client = kraken_table(captain=1)
    table = client.table
    table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 0})
    no_mutiny(client)
    bots_act(client)
    async with opened(client, size=(120, 40)) as (app, pilot):
        labels = [o.label for o in decision(app).options]
        assert any(label.startswith("Steer by") for label in labels)
        assert labels[-1].startswith("Jump overboard")
        jump = decision(app).options[-1].key
        await press(pilot, jump)  # it cannot be taken back: asked once more
        assert "Jump overboard? Both cards are discarded" in decision(app).title_text
        assert 0 not in view(client)["eliminated"]
        await press(pilot, "n")  # no: back to steering
        assert decision(app).options[-1].label.startswith("Jump overboard")
        await press(pilot, jump, "y")
        assert 0 in view(client)["eliminated"]


async def test_c_plays_an_any_time_character() -> None:
    client = kraken_table(
        captain=1,
        dealt_characters=[
            "gunslinger", "captain", "bosun", "mentor", "smuggler", "archivist", "equalizer",
        ],
    )  # fmt: skip
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert "Gunslinger (any time): take 2 guns" in screen_text(app)
        await press(pilot, "c")
        assert view(client)["guns"][0] == 5
        await press(pilot, "c")
        assert "already used your character" in status(app)


def asked_to_mutiny(*characters: str) -> LocalClient:
    """A table with `characters` dealt (the first ours) whose captain (seat 1) appointed seats 3
    and 2: the bots have acted, and the mutiny question is open."""
    client = kraken_table(captain=1, dealt_characters=list(characters))
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    bots_act(client, until="mutiny")
    return client


def at_a_character_window() -> Any:
    """A table at its first character window: characters dealt (the bosun ours), a team
    appointed, no mutiny called."""
    client = asked_to_mutiny(
        "bosun", "captain", "gunslinger", "mentor", "smuggler", "archivist", "equalizer"
    )
    no_mutiny(client)
    bots_act(client)
    return client


async def test_a_character_window_offers_use_or_keep() -> None:
    client = at_a_character_window()
    async with opened(client, size=(120, 40)) as (app, pilot):
        # Asked on the status line (a dialog once opened by itself after every appointment,
        # over the claims coming in); Enter opens the choice.
        assert isinstance(app.screen, KrakenScreen)
        assert "Bosun's moment: c uses, Enter keeps" in status(app)
        await press(pilot, "c")
        text = dialog_text(app)
        assert "Bosun (before the cards are drawn): swap lieutenant and navigator" in text
        assert "Keep your character for later" in text
        assert "Keep it, and do not ask again this game" in text
        await press(pilot, "1")
        assert view(client)["lieutenant"] == 2 and view(client)["navigator"] == 3


async def test_enter_at_a_character_moment_keeps_the_character_as_the_status_line_says() -> None:
    client = at_a_character_window()
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert "Bosun's moment: c uses, Enter keeps" in status(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, KrakenScreen)  # no dialog: kept
        assert 0 not in client.update(0).waiting
        assert not view(client)["characters_used"][0]
        assert "Bosun kept for later" in status(app)


def captain_sara_keeps_blue(ship: str, deck: list[str]) -> LocalClient:
    """Sara (seat 0) captains seats 2 and 4 with the ship at `ship`: nobody mutinies, she
    keeps blue drunk (the first of `deck`) and the bots play on."""
    client = kraken_table(deck=deck)
    kraken_state(client).ship = ship
    client.table.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 4})
    no_mutiny(client)
    client.table.submit(0, {"type": "keep", "card": "blue-drunk"})
    bots_act(client)
    return client


def at_a_cabin_search() -> LocalClient:
    """Sara (seat 0), captain, about to choose whose group a cabin search shows her."""
    deck = ["blue-drunk", "blue-disarmed", "yellow-uprising", "red-drunk"]
    return captain_sara_keeps_blue("0,2", deck)  # blue sails to 1,3: a cabin search


async def test_a_pick_names_the_map_action() -> None:
    client = at_a_cabin_search()
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert "Cabin search: whose group" in decision(app).title_text
        await pilot.press("3")  # Chidi, a pirate
        await pilot.pause()
        assert view(client)["known"]["3"] == "pirate"
        assert "Chidi (bot) is a pirate." in screen_text(app)


async def test_a_searched_cult_leader_reads_as_cult_not_as_cult_leader() -> None:
    client = at_a_cabin_search()
    async with opened(client, size=(120, 40)) as (app, pilot):
        title = decision(app).title_text
        assert "Cabin search: whose group do you secretly see (sailor, pirate or cult)?" in title
        await pilot.press("6")  # the cult leader, who shows only as "cult"
        await pilot.pause()
        assert view(client)["known"] == {"6": "cult"}
        text = screen_text(app)
        leader = client.table.names[6]
        assert f"{leader} is in the cult." in text  # the log line
        assert f"You know: {leader} cult" in text  # this seat's secrets
        assert "= cult" in text  # the crew panel
        assert "cult leader" not in text


async def test_mouse_clicks_an_option_and_the_decide_button() -> None:
    client = kraken_table()
    async with opened(client, size=(120, 40)) as (app, pilot):
        await press(pilot, "escape")
        await pilot.click("#decide")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        await pilot.click("#option-1")
        await pilot.pause()
        await pilot.click("#option-0")
        await pilot.pause()
        assert view(client)["lieutenant"] == 2 and view(client)["navigator"] == 1


# -- hot-seat: hand-offs and secrets ----------------------------------------------------------


async def test_the_hand_off_hides_the_next_players_secrets() -> None:
    roles = ["sailor", "pirate", "sailor", "pirate", "sailor", "sailor", "cult_leader"]
    client = kraken_table(humans=2, captain=2, roles=roles)
    client.table.submit(2, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    bots_act(client)
    async with opened(client) as (app, pilot):
        assert isinstance(app.screen, HandoffScreen)
        await take_seat(app, pilot)  # Sara
        await press(pilot, "0")
        assert isinstance(app.screen, HandoffScreen)  # now Tom, the pirate
        below = screen_text(app)
        assert "pirate" not in below.lower()
        app.pop_screen()  # peek under the hand-off: still nothing of Tom's
        await pilot.pause()
        hidden = screen_text(app)
        assert "Tom's secrets (hidden)" in hidden
        assert "You are a pirate" not in hidden and "fellow" not in hidden.lower()


async def test_a_turn_goes_to_each_human_and_shows_their_secrets_after_enter() -> None:
    client = kraken_table(humans=2, captain=2)
    client.table.submit(2, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    bots_act(client)
    async with opened(client, size=(120, 40)) as (app, pilot):
        await take_seat(app, pilot)
        assert "Sara's secrets" in screen_text(app)
        assert "You are a sailor" in screen_text(app)
        await press(pilot, "1")
        await take_seat(app, pilot)
        text = screen_text(app)
        assert "Tom's secrets" in text and "You are a pirate" in text
        assert "You raise 1 gun." not in text  # Sara's fist stays hers


async def test_eyes_closed_goes_round_every_human_whoever_the_leader_is() -> None:
    """A conversion by a bot leader: both humans are handed the keyboard and pass it on."""
    client = kraken_table(
        humans=2, captain=3, deck=["yellow-uprising", "yellow-uprising", "red-drunk", "red-drunk"]
    )
    table = client.table
    kraken_state(client).rituals = ["gun_stash", "cult_cabin_search", "conversion"]  # top card last
    table.submit(3, {"type": "appoint", "lieutenant": 4, "navigator": 5})
    no_mutiny(client)
    bots_act(client, until="convert")
    assert kraken_state(client).phase == "convert"
    seen: list[str] = []
    async with opened(client) as (app, pilot):
        for _ in range(12):
            screen = app.screen
            seen.append(type(screen).__name__)
            if isinstance(screen, HandoffScreen):
                seen.append(screen.player)
            if kraken_state(client).phase == "convert" and isinstance(screen, KrakenScreen):
                assert "Everyone's eyes are closed" in status(app)
                assert "Farah" not in status(app)  # the leader is never named
            if isinstance(screen, KrakenScreen) and kraken_state(client).phase == "convert":
                bots_act(client)
            await press_on(app, pilot)
        names = [s for s in seen if s in ("Sara", "Tom")]
        assert names[:2] == ["Sara", "Tom"], seen
        assert seen.count("PassOnNotice") >= 2


async def test_a_human_cult_leader_converts_on_their_turn_in_the_round() -> None:
    roles = ["sailor", "cult_leader", "sailor", "pirate", "sailor", "sailor", "pirate"]
    client = kraken_table(
        humans=2,
        captain=2,
        roles=roles,
        deck=["yellow-uprising", "yellow-uprising", "red-drunk", "red-drunk"],
    )
    table = client.table
    kraken_state(client).rituals = ["gun_stash", "cult_cabin_search", "conversion"]
    table.submit(2, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    no_mutiny(client)
    bots_act(client)
    assert kraken_state(client).phase == "convert"
    order: list[str] = []
    async with opened(client, size=(120, 40)) as (app, pilot):
        for _ in range(8):
            screen = app.screen
            if isinstance(screen, HandoffScreen):
                order.append(screen.player)
                await pilot.press(screen.key)
            elif isinstance(screen, DecisionDialog):
                assert "convert a player to the cult" in screen.title_text
                order.append("convert")
                await pilot.press("1")
            elif isinstance(screen, PassOnNotice):
                order.append("pass")
                await pilot.press("enter")
            else:
                break
            await pilot.pause()
        assert order[:5] == ["Sara", "pass", "Tom", "convert", "pass"], order
        assert kraken_state(client).phase != "convert"


def at_bluewater_bay() -> LocalClient:
    """A voyage the crew ends by steering blue into Bluewater Bay, the bots done."""
    deck = ["blue-drunk", "blue-disarmed", "red-drunk", "red-drunk"]
    return captain_sara_keeps_blue("3,5", deck)  # blue reaches Bluewater Bay


async def test_the_voyage_over_shows_every_role() -> None:
    client = at_bluewater_bay()
    async with opened(client) as (app, _pilot):
        assert isinstance(app.screen, VoyageOver)
        text = screen_text(app)
        assert "The sailors win: the ship" in text and "reached Bluewater Bay." in text
        assert "cult leader" in text and "Sara: sailor, won." in text


async def test_a_player_sent_to_the_mermaid_is_handed_the_keyboard_at_once() -> None:
    client = kraken_table(humans=2, deck=["red-drunk", "red-mermaid", "blue-drunk", "red-drunk"])
    sail(client, (0, 2, 3), ("red-mermaid", "red-drunk"), "red-mermaid")  # Sara sends someone
    async with opened(client, size=(120, 40)) as (app, pilot):
        await take_seat(app, pilot)  # Sara takes the keyboard
        tom = next(o.key for o in decision(app).options if o.label.startswith("Tom"))
        await press(pilot, tom)
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen) and handoff.player == "Tom"  # before Sara goes on
        await take_seat(app, pilot)
        notice = app.screen
        assert isinstance(notice, PassOnNotice)
        assert "Only you see this:" in notice.text and "The mermaid shows you" in notice.text
        await press(pilot, "enter")
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen) and handoff.player == "Sara"  # her appointment


async def test_a_choice_the_cards_leave_no_room_for_is_still_handed_over_and_shown() -> None:
    """Tom drew two alike: he is handed the keyboard and shown it, and answers (issue 48: it was
    taken for him unseen, and rounds passed in seconds)."""
    client = kraken_table(humans=2, deck=["blue-drunk", "red-mermaid", "red-drunk", "red-drunk"])
    client.table.submit(0, {"type": "appoint", "lieutenant": 1, "navigator": 2})
    no_mutiny(client)
    async with opened(client, size=(120, 40)) as (app, pilot):
        await take_seat(app, pilot)  # Sara keeps a card
        await press(pilot, "1")
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen) and handoff.player == "Tom"
        await take_seat(app, pilot)
        text = decision(app).title_text
        assert "You drew red drunk, red drunk" in text
        assert "No choice here: Your cards are alike" in text
        assert view(client, 1)["private"].get("kept") is None  # nothing taken unseen
        await press(pilot, decision(app).options[0].key)
        assert view(client, 1)["private"].get("kept") == "red-drunk"


async def test_a_mutineer_without_guns_is_told_they_raise_none() -> None:
    """A seat with no guns is not asked (an empty hand has nothing to hide), and the log says
    so (issue 48: it settled without a word)."""
    client = kraken_table(captain=1)
    kraken_state(client).guns[0] = 0
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    async with opened(client) as (app, _pilot):
        assert 0 not in client.update(0).waiting
        assert "Sara has no guns: none raised." in screen_text(app).replace("\n", " ")


async def test_the_end_of_the_voyage_can_be_put_aside_to_read_the_log_and_brought_back() -> None:
    client = at_bluewater_bay()
    async with opened(client, size=(120, 40)) as (app, pilot):
        assert isinstance(app.screen, VoyageOver)
        assert "Esc: look at the table and its log" in screen_text(app)
        await press(pilot, "escape")
        assert isinstance(app.screen, KrakenScreen)
        assert "reaches Bluewater Bay" in screen_text(app) or "Bluewater" in screen_text(app)
        assert "Enter shows the results again" in screen_text(app)
        await press(pilot, "pageup")  # the log scrolls back, nothing else happens
        assert isinstance(app.screen, KrakenScreen)
        await press(pilot, "enter")
        assert isinstance(app.screen, VoyageOver)


@pytest.mark.parametrize(("converted", "other"), [("Tom", "Sara"), ("Sara", "Tom")])
async def test_a_conversion_reaches_its_player_in_a_round_that_names_nobody(
    converted: str, other: str
) -> None:
    """Farah (a bot) converts while the other human has the keyboard: Tom learns it on his
    turn, which is still to come; Sara, who has passed, in a second round Tom goes round too."""
    client = kraken_table(
        humans=2, captain=3, deck=["yellow-uprising", "yellow-uprising", "red-drunk", "red-drunk"]
    )
    table = client.table
    kraken_state(client).rituals = ["gun_stash", "cult_cabin_search", "conversion"]
    table.submit(3, {"type": "appoint", "lieutenant": 4, "navigator": 5})
    no_mutiny(client)
    bots_act(client, until="convert")
    told: dict[str, list[str]] = {"Sara": [], "Tom": []}
    async with opened(client) as (app, pilot):
        board = next(s for s in app.screen_stack if isinstance(s, KrakenScreen))
        for _ in range(16):
            screen = app.screen
            if isinstance(screen, PassOnNotice):
                holder = board.names[board.active_seat]
                told[holder].append(screen.text)
                if kraken_state(client).phase == "convert" and holder == other:
                    table.submit(6, {"type": "convert", "target": board.names.index(converted)})
            await press_on(app, pilot)
        assert any("You are converted" in text for text in told[converted]), told
        assert not any("converted" in text for text in told[other]), told
        assert len(told["Sara"]) == len(told["Tom"])  # as many turns each: nobody singled out


async def test_a_character_moment_can_be_kept_for_the_whole_game_and_c_asks_again() -> None:
    client = at_a_character_window()
    async with opened(client, size=(120, 40)) as (app, pilot):
        await press(pilot, "c")
        keys = {option.label: option.key for option in decision(app).options}
        never = next(key for label, key in keys.items() if "do not ask again" in label)
        await press(pilot, never)
        assert isinstance(app.screen, KrakenScreen)
        assert 0 not in client.update(0).waiting  # kept: the moment waits for others only
        assert "kept for later, as you asked" in status(app)
        screen = app.screen
        assert 0 in screen.flow.not_asked
        await press(pilot, "c")  # nothing to use now: the asking comes back
        assert 0 not in screen.flow.not_asked
        assert "asked at your character's moments again" in status(app)


async def test_a_key_that_is_no_option_says_so() -> None:
    client = kraken_table()
    async with opened(client, size=(120, 40)) as (app, pilot):
        dialog = decision(app)  # appoint a lieutenant
        keys = {option.key for option in dialog.options}
        wrong = next(key for key in "zyxw" if key not in keys)
        await press(pilot, wrong)
        assert app.screen is dialog
        assert f"There is no option {wrong}:" in str(dialog.query_one("#hint").render())


async def test_a_player_whose_voyage_is_over_is_not_offered_decide_character_talk() -> None:
    client = kraken_table(captain=1)
    kraken_state(client).eliminated.add(0)  # Sara went overboard
    async with opened(client) as (app, _pilot):
        footer = screen_text(app).splitlines()[-1]
        assert "Decide" not in footer and "Talk" not in footer and "Character" not in footer
        assert "q Quit" in footer


async def test_eleven_players_at_80_by_24_show_claims_beside_the_crew_in_a_few_words() -> None:
    client = local_table("kraken", 11, seed=4, names=("Sara",), pace=STILL)
    for seat, group in ((1, "sailor"), (2, "pirate"), (3, "cult")):
        client.table.say(seat, {"kind": "role", "target": seat if seat == 1 else 1, "group": group})
    client.table.say(4, {"kind": "guns", "guns": 2})
    async with opened(client, size=(80, 24)) as (app, pilot):
        await press(pilot, "escape")
        crew = [row for row in screen_text(app).splitlines() if "││" in row][1:12]
        text = "\n".join(crew)
        assert "me: sailor" in text and "Ada: pirate" in text and "2 guns" in text, text
        assert "= …" not in text
