"""The Feed the Kraken screen's game flow, read from the table's updates alone: no app, no
terminal, no Pilot. A `Terminal` does what the screen does around the presenter: it keeps each
update's lines in the seat's log, acts for the seat the presenter chooses, and says who has the
keyboard."""

from __future__ import annotations

from tablegames.drivers import LocalClient
from tablegames.rules.kraken.types import TYPES, KrakenView
from tablegames.table import Update
from tablegames.tui.screens.kraken import KrakenWording
from tablegames.tui.screens.kraken_choices import Chooser, Question, start
from tablegames.tui.screens.kraken_presenter import (
    DECIDE,
    KEEP,
    NOT_AGAIN,
    KrakenPresenter,
    Prompt,
)
from tablegames.tui.screens.kraken_strip import Room

from .test_kraken_screen import (
    at_a_character_window,
    at_bluewater_bay,
    bots_act,
    kraken_state,
    kraken_table,
    no_mutiny,
    sail,
)

CONVERSION = ["gun_stash", "cult_cabin_search", "conversion"]  # the ritual deck, top card last
UPRISINGS = ["yellow-uprising", "yellow-uprising", "red-drunk", "red-drunk"]


class Terminal:
    """A hot-seat terminal over `client`'s seats, as `KrakenScreen` drives its presenter."""

    def __init__(self, client: LocalClient) -> None:
        self.client = client
        self.humans = sorted(client.seats)
        self.active = self.humans[0]
        self.shown: int | None = None  # the seat whose player has the keyboard
        self.logs = {seat: list(client.update(seat).view["log"]) for seat in self.humans}
        wording = KrakenWording(lambda: list(client.names))
        self.flow = KrakenPresenter(
            self.humans, lambda: list(client.names), client.update, self.logs, wording.line
        )
        client.listen(self.taken)

    def taken(self, seat: int, update: Update) -> None:
        self.logs.setdefault(seat, []).extend(update.events)  # (`SeatLogs.take`)
        self.flow.taken(seat, update)

    def choose(self) -> int:
        """The seat the screen acts for now."""
        self.active = self.flow.choose_seat(self.active, self.shown, self.client.waiting_for())
        return self.active

    def hand_over(self) -> None:
        """The keyboard goes to the active seat's player (the hand-off screen)."""
        if self.shown != self.active:
            self.flow.handed_off(self.shown)
        self.shown = self.active

    def my_move(self) -> bool:
        update = self.client.update(self.active)
        return self.active in update.waiting and bool(update.legal) and not update.over

    def prompt(self) -> Prompt | None:
        """Choose the seat, hand it the keyboard, and say what opens by itself for it."""
        self.choose()
        self.hand_over()
        return self.flow.prompt(self.active, self.my_move())

    def decision(self) -> Prompt | None:
        """What opens next once every notice on the way is read (each passed on at once)."""
        for _ in range(len(self.humans) * 4):
            prompt = self.prompt()
            if prompt is None or prompt.kind != "notice":
                return prompt
            self.flow.noticed(self.active)
        raise AssertionError("the notices never end")

    def view(self) -> KrakenView:
        return TYPES.view(self.client.update(self.active).view)

    def status(self, message: str = "", columns: int = 200, most: int = 3) -> str:
        update = self.client.update(self.active)
        view = TYPES.view(update.view)
        return self.flow.status(
            view,
            update.waiting,
            message,
            behind=False,
            room=(columns, most),
            private=self.shown == self.active,
            may_act=self.shown == self.active and not update.over,
            my_move=self.shown == self.active and self.my_move(),
        ).plain


def at_a_bot_conversion(humans: int = 2) -> LocalClient:
    """Farah (seat 6, a bot) leads the cult; the ship took the uprising: she is converting."""
    client = kraken_table(humans=humans, captain=3, deck=UPRISINGS)
    kraken_state(client).rituals = list(CONVERSION)
    client.table.submit(3, {"type": "appoint", "lieutenant": 4, "navigator": 5})
    no_mutiny(client)
    bots_act(client, until="convert")
    assert kraken_state(client).phase == "convert"
    return client


# -- whom the screen acts for -------------------------------------------------------------------
def test_an_eyes_closed_moment_goes_round_every_human_once_naming_nobody():
    client = at_a_bot_conversion()
    terminal = Terminal(client)
    assert 0 not in client.waiting_for() and 1 not in client.waiting_for()  # the bot converts
    first = terminal.prompt()
    assert first is not None and first.kind == "notice"
    assert terminal.active == 0 and terminal.flow.round_queue == [0, 1]
    assert "Everyone's eyes are closed" in first.text and "Farah" not in first.text
    assert first.text.endswith("Nothing (more) for you to do in this moment.")
    status = terminal.status()
    assert "A secret moment: your turn, then pass the keyboard on." in status
    assert "Farah" not in status
    terminal.flow.noticed(0)
    second = terminal.prompt()
    assert terminal.active == 1 and second is not None and second.text == first.text
    terminal.flow.noticed(1)
    assert terminal.flow.round_queue == []
    terminal.choose()
    assert terminal.flow.round_queue == []  # the moment has gone round: once
    assert terminal.prompt() is None


def test_a_human_cult_leader_is_asked_on_their_turn_in_the_round_as_anyone_else_passes():
    roles = ["sailor", "cult_leader", "sailor", "pirate", "sailor", "sailor", "pirate"]
    client = kraken_table(humans=2, captain=2, roles=roles, deck=UPRISINGS)
    kraken_state(client).rituals = list(CONVERSION)
    client.table.submit(2, {"type": "appoint", "lieutenant": 3, "navigator": 4})
    no_mutiny(client)
    bots_act(client)
    terminal = Terminal(client)
    sara = terminal.prompt()
    assert (terminal.active, sara) == (0, Prompt("notice", sara.text if sara else ""))
    terminal.flow.noticed(0)
    assert terminal.prompt() == DECIDE and terminal.active == 1  # Tom leads the cult
    assert terminal.prompt() is None  # asked once: Escape puts it aside, Enter brings it back


def test_news_of_ones_own_is_handed_to_its_player_at_once_and_then_the_play_goes_on():
    client = kraken_table(humans=2, deck=["red-drunk", "red-mermaid", "blue-drunk", "red-drunk"])
    sail(client, (0, 2, 3), ("red-mermaid", "red-drunk"), "red-mermaid")  # Sara sends someone
    terminal = Terminal(client)
    assert terminal.prompt() == DECIDE and terminal.active == 0  # whom the mermaid shows
    client.submit(0, {"type": "pick", "target": 1})
    notice = terminal.prompt()
    assert terminal.active == 1 and notice is not None and notice.kind == "notice"
    assert notice.text.startswith("Only you see this:\n") and "The mermaid shows you" in notice.text
    terminal.flow.noticed(1)
    assert terminal.flow.news(1) == [] and terminal.flow.telling is None
    assert terminal.prompt() == DECIDE and terminal.active == 0  # Sara's next appointment


def test_news_that_came_with_everyones_eyes_closed_goes_round_every_human():
    client = at_a_bot_conversion()
    terminal = Terminal(client)
    terminal.prompt()
    terminal.flow.noticed(0)  # Sara has passed; Tom has the keyboard
    terminal.prompt()
    assert terminal.active == 1
    client.table.submit(6, {"type": "convert", "target": 0})  # Sara, who has passed
    terminal.flow.noticed(1)
    assert terminal.flow.secret_news == {0}
    told = terminal.prompt()
    assert terminal.flow.round_text == "Everyone's eyes were closed."
    assert terminal.active == 0 and terminal.flow.round_queue == [0, 1]
    assert told is not None and "You are converted" in told.text
    terminal.flow.noticed(0)
    tom = terminal.prompt()
    assert terminal.active == 1 and tom is not None and "converted" not in tom.text


def test_what_a_player_saw_with_the_keyboard_is_no_news_to_hand_them_later():
    client = kraken_table(humans=2)
    terminal = Terminal(client)
    assert terminal.prompt() == DECIDE and terminal.active == 0
    client.submit(0, {"type": "appoint", "lieutenant": 2, "navigator": 1})
    no_mutiny(client)
    assert terminal.decision() == DECIDE and terminal.active == 0  # Sara keeps a card she drew
    client.submit(0, client.update(0).legal[0])
    bots_act(client)  # the lieutenant keeps one: Tom is to steer
    assert terminal.flow.news(0)  # (what she kept and passed on: her own lines)
    assert terminal.decision() == DECIDE and terminal.active == 1
    assert terminal.flow.news(0) == []  # Sara saw hers: nobody hands it to her again
    assert terminal.flow.telling is None


# -- what opens, and what Enter and c do ---------------------------------------------------------
def test_a_decision_opens_by_itself_once_and_enter_asks_about_its_moves():
    client = kraken_table()
    terminal = Terminal(client)
    assert terminal.prompt() == DECIDE
    assert terminal.prompt() is None
    moves = terminal.flow.decision(0)
    assert isinstance(moves, list) and {move["type"] for move in moves} == {"appoint"}
    assert "Your move: press Enter to decide." in terminal.status()


def asked_to_mutiny() -> LocalClient:
    """Sara is asked whether to mutiny against captain Tom's team (seats 3 and 2)."""
    client = kraken_table(captain=1)
    client.table.submit(1, {"type": "appoint", "lieutenant": 3, "navigator": 2})
    return client


def test_enter_with_nothing_to_decide_says_whom_the_table_waits_for():
    client = asked_to_mutiny()
    terminal = Terminal(client)
    client.submit(0, {"type": "mutiny", "guns": 0})
    words = terminal.flow.decision(0)
    assert isinstance(words, str) and words.startswith("Nothing to decide now")
    assert "Sara" not in words


def test_a_character_moment_is_asked_on_the_status_line_and_enter_keeps():
    terminal = Terminal(at_a_character_window())
    assert terminal.prompt() is None  # no dialog: the status line asks
    assert "Bosun's moment: c uses, Enter keeps" in terminal.status()
    assert terminal.flow.decision(0) is KEEP
    uses = terminal.flow.character(0)
    assert isinstance(uses, list) and {move["type"] for move in uses} == {"character", "decline"}
    assert terminal.flow.kept(0, unasked=False) == (
        "Bosun kept for later (c at its next moment uses it)."
    )


def test_keep_and_do_not_ask_again_is_offered_at_a_moment_and_c_asks_again():
    client = at_a_character_window()
    terminal = Terminal(client)
    terminal.prompt()
    uses = terminal.flow.character(0)
    assert isinstance(uses, list)
    asked = Chooser(terminal.view(), client.names).ask(start(uses))
    assert isinstance(asked, Question)
    options = terminal.flow.options(asked, 0)
    assert options[-1].value is NOT_AGAIN
    assert options[-1].label == "Keep it, and do not ask again this game"
    terminal.flow.not_asked.add(0)
    terminal.flow.asked = None
    assert terminal.prompt() == KEEP  # kept without asking
    client.submit(0, {"type": "decline"})
    said = terminal.flow.character(0)
    assert said == "You will be asked at your character's moments again."
    assert 0 not in terminal.flow.not_asked


def test_c_without_a_character_card_says_so():
    terminal = Terminal(kraken_table())
    assert terminal.flow.character(0) == "You hold no character card."


def test_an_open_question_goes_stale_when_the_guns_change_under_it():
    client = asked_to_mutiny()
    terminal = Terminal(client)
    before = terminal.flow.facts(client.update(0))
    kraken_state(client).guns[5] -= 1  # (stolen meanwhile: Sara's moves stay the same)
    client.table.submit(4, {"type": "mutiny", "guns": 0})
    assert terminal.flow.facts(client.update(0)) != before


# -- words --------------------------------------------------------------------------------------
def test_claims_join_the_log_where_they_were_made():
    client = kraken_table()
    terminal = Terminal(client)
    public = sum(1 for event in terminal.logs[0] if event.get("to") is None)
    client.claim(0, {"kind": "role", "target": 2, "group": "pirate"})
    log = terminal.logs[0]
    claims = [n for n, event in enumerate(log) if event.get("kind") == "claim"]
    assert len(claims) == 1 and terminal.flow.talk_seen[0] == 1
    assert sum(1 for event in log[: claims[0]] if event.get("to") is None) == public


def test_a_claim_is_made_only_for_the_player_who_opened_the_menu():
    terminal = Terminal(kraken_table(humans=2))
    terminal.flow.talking_seat = 0
    assert terminal.flow.claims(0, may_act=True)
    assert not terminal.flow.claims(1, may_act=True)  # the keyboard passed on meanwhile
    assert not terminal.flow.claims(0, may_act=False)


def test_the_status_line_gives_up_the_invitation_first_when_rows_are_few():
    terminal = Terminal(asked_to_mutiny())  # before a mutiny: say how many guns you will raise
    terminal.prompt()
    beside = terminal.status("Told.", columns=80).split("\n")
    assert beside[1] == "Told.  Say how many guns you will raise: t"  # (it fits beside)
    roomy = terminal.status("Told.", columns=40, most=9).split("\n")
    tight = terminal.status("Told.", columns=40, most=2).split("\n")
    assert roomy[1:] == ["Told.", "Say how many guns you will raise: t"]
    assert tight == roomy[:2]


def test_the_end_names_each_player_here_and_how_they_fared():
    terminal = Terminal(at_bluewater_bay())
    assert terminal.flow.yours(terminal.view()) == ["Sara: sailor, won."]


# -- the room -----------------------------------------------------------------------------------
def test_a_table_stands_side_by_side_from_70_columns_with_rows_for_its_crew():
    assert Room(80, 24, 7, 10).side_by_side()
    assert not Room(69, 24, 7, 10).side_by_side()
    assert not Room(80, 24, 13, 10).side_by_side()  # a crew line each above a log of three
    assert Room(80, 24, 7, 10).status() == (80 - 2 - 17, 3)  # beside the buttons, three lines


def test_in_one_column_the_strip_takes_one_player_a_row_where_the_rows_allow():
    tall, low = Room(60, 40, 7, 10), Room(60, 18, 7, 10)
    assert tall.strip_columns() == 1 and low.strip_columns() == 2
    assert low.one_column_rows() == 1 + 4 + 10 + 2 + 1  # the strip's title, its rows, the bar
    assert low.status() == (60 - 2, 2)  # no row to spare: two lines
    assert Room(60, 19, 7, 10).status() == (60 - 2, 3)
