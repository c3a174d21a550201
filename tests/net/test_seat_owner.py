"""A seat's life has one owner: who holds a seat, who plays it at the running table and what
the store keeps of it never drift apart, whatever people do (issue 50).

A hypothesis state machine drives one hosted table through joins, leaves, returns, readiness,
the deal, the host's frees and bots, kicks and takeovers, and checks after every step that the
running table's bots are exactly the seats a bot plays (`Seat.bot`) and the store holds exactly
the seats someone holds. And nothing outside the one place that applies a transition's effects
changes a seat or the table's bots: seats are frozen values, and the code says so.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import tablegames.net
from tablegames.names import name_key
from tablegames.net.hosting import HostedTable
from tablegames.net.messages import Farewell, ServerMessage
from tablegames.net.party import Party, PartyConfig
from tablegames.net.seat_life import (
    BotPlays,
    BotStops,
    Forgotten,
    Kept,
    Life,
    Seat,
    SentAway,
    Told,
)
from tablegames.rules import IllegalAction
from tablegames.store import Store
from tablegames.table import VirtualClock

PEOPLE = ["ann", "ben", "cat", "dan"]
TAKEOVER = 10.0


class Person:
    """A connection as the party sees it (what `send_away` and `goodbye` read)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.address = "127.0.0.1"
        self.key: str | None = None
        self.identity: str | None = None
        self.table: HostedTable | None = None
        self.closed = False
        self.farewells: list[Farewell] = []

    def send(self, message: ServerMessage) -> None:
        if isinstance(message, Farewell):
            self.farewells.append(message)

    def close(self) -> None:
        self.closed = True


class SeatLives(RuleBasedStateMachine):
    """One table of three at a party, and four people coming and going."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.clock = VirtualClock(100.0)
        self.store = Store(Path(self.folder.name) / "party.db")
        self.party = Party(
            PartyConfig(takeover_after=TAKEOVER),
            self.store,
            started=lambda hosted: None,
            clock=self.clock,
        )
        self.hosted = self.party.tables.open("crates", 3, {"short": True}, seed=4)
        self.connections: dict[str, Person] = {}

    def teardown(self) -> None:
        self.store.close()
        self.folder.cleanup()

    def _connected(self, name: str) -> Person:
        person = self.connections.get(name)
        if person is None or person.closed:
            person = self.connections[name] = Person(name)
        return person

    def _held(self, name: str) -> Seat | None:
        return next((s for s in self.hosted.seats if s.human and s.name == name), None)

    @rule(name=st.sampled_from(PEOPLE))
    def sits_down(self, name: str) -> None:
        person = self._connected(name)
        if person.table is not None:
            return
        try:
            self.hosted.claim(person, None)
        except IllegalAction:
            return
        person.table = self.hosted
        self.party.members.add(person)  # type: ignore[arg-type]

    @rule(name=st.sampled_from(PEOPLE))
    def leaves(self, name: str) -> None:
        person = self.connections.get(name)
        if person is not None and person.table is not None:
            self.party.seating.goodbye(person)  # type: ignore[arg-type]

    @rule(name=st.sampled_from(PEOPLE))
    def comes_back(self, name: str) -> None:
        seat = self._held(name)
        if seat is None:
            return
        person = Person(name)  # a new connection, with the seat's token
        self.connections[name] = person
        self.hosted.attach(seat, person)
        person.table = self.hosted
        self.party.members.add(person)  # type: ignore[arg-type]

    @rule(name=st.sampled_from(PEOPLE), ready=st.booleans())
    def says_ready(self, name: str, ready: bool) -> None:
        person = self.connections.get(name)
        if person is None or self.hosted.seats.of(person) is None:  # type: ignore[arg-type]
            return
        if ready and self.hosted.play_own_seat(person):
            return
        self.hosted.set_ready(person, ready)

    @rule()
    def deals(self) -> None:
        if self.hosted.why_not_start() is None:
            self.hosted.start()

    @rule(number=st.integers(0, 2), to=st.sampled_from(["free", "random", "normal"]))
    def the_host_changes_a_seat(self, number: int, to: str) -> None:
        with contextlib.suppress(IllegalAction):
            self.party.tables.give_seat(self.hosted.code, number, to)

    @rule(name=st.sampled_from(PEOPLE))
    def the_host_kicks(self, name: str) -> None:
        self.party.send_away(name_key(name), "the host sent you away")

    @rule(seconds=st.sampled_from([1.0, TAKEOVER]))
    def time_passes(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.hosted.take_over(self.clock(), TAKEOVER, "normal")

    @invariant()
    def the_bots_are_the_seats_a_bot_plays(self) -> None:
        table = self.hosted.table
        if table is not None:
            assert set(table.bots) == {s.number for s in self.hosted.seats if s.bot is not None}
            assert all(s.claimed for s in self.hosted.seats), "a seat open mid-game"

    @invariant()
    def the_store_keeps_the_seats_someone_holds(self) -> None:
        if self.hosted.store_id is None:
            return
        kept = {
            (row.seat, row.name, row.token_key, row.bot_level, row.identity)
            for saved in self.store.open_tables("server")
            if saved.id == self.hosted.store_id
            for row in saved.seats
        }
        held = {
            (s.number, s.name, s.token_key, s.bot_level, s.identity)
            for s in self.hosted.seats
            if s.claimed
        }
        assert kept == held

    @invariant()
    def nobody_sent_away_holds_a_seat(self) -> None:
        for seat in self.hosted.seats:
            assert seat.peer is None or not getattr(seat.peer, "closed", False)


SeatLives.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
test_a_seats_holder_its_bot_and_the_store_agree = SeatLives.TestCase


def test_a_seat_cannot_be_written_but_only_changed_by_a_transition():
    seat = Seat(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.ready = True  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.bot_level = "normal"  # type: ignore[misc]


def calls_in(tree: ast.AST, names: set[str]) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in names
    ]


def test_only_the_one_place_seats_a_bot_or_replaces_a_seat():
    """`Table.seat_bot`/`unseat_bot` and writes of a hosted table's seats appear in the net
    package only inside `HostedTable._apply` and `Seats.put` (and the seats' creation), and
    only `HostedTable._apply` puts a seat back."""
    found, puts = [], []
    for path in sorted(Path(tablegames.net.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            bots = calls_in(function, {"seat_bot", "unseat_bot"})
            writes = [
                node
                for node in ast.walk(function)
                if isinstance(node, ast.Assign | ast.AugAssign)
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Attribute)
                and target.value.attr in ("_seats", "seats", "bots")
            ]
            if bots or writes:
                found.append(f"{path.name}:{function.name}")
            seats_put = [
                call
                for call in calls_in(function, {"put"})
                if isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Attribute)
                and call.func.value.attr == "seats"
            ]
            if seats_put:
                puts.append(f"{path.name}:{function.name}")
    assert found == ["hosting.py:_apply", "seats.py:put"]
    assert puts == ["hosting.py:_apply"]


def test_each_transition_says_what_goes_with_it():
    """A seat's move returns the seat and its effects, in order; nothing is done until the
    hosted table applies them."""
    ann = Person("ann")
    seat = Seat(1)
    sat = seat.sit(ann, b"k" * 32, None)
    assert sat.seat.life is Life.SEATED and sat.effects == (Kept(), Told("ann sits down."))
    assert seat.life is Life.OPEN  # the old value is as it was
    away = sat.seat.leave(5.0, dealt=True, over=False, gone="dropped out")
    assert away.seat.life is Life.AWAY and away.effects == (
        Told("ann dropped out; their seat is held."),
    )
    stood_in = away.seat.stand_in("normal")
    assert stood_in.seat.bot == "normal" and stood_in.effects[0] == BotPlays("normal")
    back = stood_in.seat.back(Person("ann"), "replaced")
    assert back.seat.life is Life.SEATED and back.effects == (BotStops(), Told("ann is back."))
    gone = back.seat.to_bot("hard", dealt=True)
    assert gone.seat.life is Life.BOT and gone.seat.bot == "hard"
    assert [type(effect) for effect in gone.effects] == [SentAway, Kept, BotPlays, Told]
    freed = sat.seat.leave(5.0, dealt=False, over=False, gone="dropped out")
    assert freed.seat == Seat(1) and freed.effects[0] == Forgotten()
