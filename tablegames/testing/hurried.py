"""A hurried player: random keys at random moments, and a check of every frame they leave.

Keys are typed on a virtual clock that the screens read too (`typeahead.time`), so a run of
thousands of keys with gaps of up to 0.4 s takes seconds, not minutes, and is the same run
every time for a seed. Keys whose gap is short arrive together, before the app has handled
the one before them (a terminal sends them so): they race the updates, dialogs and hand-offs
those keys cause, as a real player's do.

After each burst of keys the frame is checked (`Watch`), with who holds the keyboard judged
by the hand-offs: a hand-off passes the keyboard only when a key dismisses it at least
`HANDING_OVER` seconds after it was drawn (no one hands a keyboard over and reads the next
screen quicker; the reported cases were Enters 0.3 and 0.6 s later), after a pause in the
typing of at least `HANDOVER_PAUSE` (a keyboard changes hands between keys, not in a stream of
them). The typist, seeing a hand-off, sometimes stops to pass the keyboard (`PASSES_KEYBOARD`)
and the next player then presses the key the hand-off names (theirs), and sometimes types on
regardless (Enter never opens a hand-off; a random key may be the named one). The same pause
reads the other screens that wait for a still keyboard (a round's scores, a notice). Then:
- a table shows a seat's secrets only while that seat's player holds the keyboard: the
  screen acts for that seat, no other player's hand or secrets panel is on screen, and a
  crates hand drawn is that seat's own;
- every action and claim the screen sends is for that seat;
- the hand-off names, as it is dismissed, the player it hands to.
Exceptions fail the run (the app raises them when the test ends), and `problems` counts any.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.pilot import Pilot
from textual.widgets import Label

from ..drivers import LocalClient
from ..local import local_table
from ..rules import Action
from ..tui.app import TableGamesApp
from ..tui.screens.game import GameScreen
from ..tui.screens.handoff import Deliberate, HandoffScreen
from ..tui.widgets.hand import Hand
from .screens import screen_text

#: Keys a hurried player presses at any table (leaving keys aside: see `LEAVING`).
COMMON_KEYS = (
    *(["enter"] * 8),
    *"1234567891234",
    "left", "right", "up", "down", "escape", "space", "question_mark", "q", "n",
)  # fmt: skip
#: The keys that would end the run by leaving the table (quit, discard, back to the menu).
LEAVING = frozenset({"y", "m", "ctrl+c"})
CHARACTERS = {"enter": "\r", "escape": "\x1b", "space": " ", "question_mark": "?"}
#: The longest gap between two keys, and the gap under which a key joins the burst before it.
MOST_GAP, BURST_GAP = 0.4, 0.15
#: The least time in which a keyboard can pass to another player and they press a key, and
#: the pause in the typing that handing it over takes at least.
HANDING_OVER, HANDOVER_PAUSE = 0.75, 0.45
#: How often the typist, seeing a hand-off, stops to pass the keyboard (seconds it takes).
PASSES_KEYBOARD, PASSING = 0.3, (1.0, 2.5)


class VirtualClock:
    """The keyboard's and the screens' clock: it moves only as keys are typed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@dataclass
class Tally:
    """What a run did: keys typed, frames checked, what was sent, and what went wrong."""

    keys: int = 0
    frames: int = 0
    handoffs: int = 0
    actions: int = 0
    sittings: int = 0  # apps the keys were typed into (a player who quit comes back)
    leaks: list[str] = field(default_factory=list)
    problems: int = 0


class Watch:
    """Follows who holds the keyboard (by the hand-offs dismissed) and checks each frame."""

    def __init__(self, client: LocalClient, clock: VirtualClock, patch: pytest.MonkeyPatch) -> None:
        self.client, self.clock = client, clock
        self.tally = Tally()
        self.app: TableGamesApp | None = None
        self.holder: int | None = None
        self.drawn: dict[int, float] = {}  # each hand-off seen on screen: when it was first seen
        self.key_time = 0.0  # when the key a hand-off is handling was typed
        self.typed: list[float] = []  # when each key was typed, in order
        self._spy_on_sends(patch)

    def sit_down(self, app: TableGamesApp) -> None:
        """A new app at the table: a lone human holds the keyboard, several wait for a hand-off."""
        humans = self.client.seats
        self.app = app
        self.holder = humans[0] if len(humans) == 1 else None
        self.tally.sittings += 1

    def _spy_on_sends(self, patch: pytest.MonkeyPatch) -> None:
        """Check every action and claim the screens send through the client (`patch` puts the
        checking methods in place of the client's own)."""
        client, tally = self.client, self.tally
        submit, claim = client.submit, client.claim

        def checked_submit(seat: int, action: Action, seen: int | None = None) -> str | None:
            self._acting_for(seat, f"action {action}")
            tally.actions += 1
            return submit(seat, action, seen)

        def checked_claim(seat: int, said: dict[str, object]) -> str | None:
            self._acting_for(seat, f"claim {said}")
            return claim(seat, said)

        patch.setattr(client, "submit", checked_submit)
        patch.setattr(client, "claim", checked_claim)

    def _acting_for(self, seat: int, what: str) -> None:
        table = self.table()
        forced = table is not None and not table.private  # (kraken's moves with no choice)
        if seat != self.holder and not forced:
            self.tally.leaks.append(f"{what} sent for seat {seat}, keyboard with {self.holder}")

    def handed(self, handoff: HandoffScreen) -> None:
        """`handoff` is being dismissed by the key of `key_time`: who takes the keyboard."""
        self.tally.handoffs += 1
        assert self.app is not None
        # (what the hand-off says, not the terminal's last frame: the keys here come faster
        # than frames, so the terminal may not have caught up with a renaming yet)
        if f"Pass to {handoff.player}" not in str(handoff.query_one("#asking", Label).render()):
            self.tally.leaks.append(f"a hand-off dismissed for {handoff.player} named another")
        drawn = self.drawn.get(id(handoff))
        if drawn is None or self.key_time - drawn < HANDING_OVER:
            self.tally.leaks.append(
                f"a hand-off to {handoff.player} was dismissed by a key typed "
                + ("before it was seen" if drawn is None else f"{self.key_time - drawn:.2f} s")
            )
        elif self.key_time - self._key_before(self.key_time) < HANDOVER_PAUSE:
            self.tally.leaks.append(
                f"a hand-off to {handoff.player} was dismissed mid-stream, "
                f"{self.key_time - self._key_before(self.key_time):.2f} s after the key before"
            )
        self.holder = handoff.seat

    def _key_before(self, moment: float) -> float:
        """When the last key before the one typed at `moment` was typed."""
        return self.typed[max(bisect.bisect_left(self.typed, moment) - 1, 0)]

    def table(self) -> GameScreen | None:
        """The table screen of the app now (None once it has gone)."""
        if self.app is None:
            return None
        tables = [s for s in self.app.screen_stack if isinstance(s, GameScreen)]
        return tables[-1] if tables else None

    async def check(self, pilot: Pilot[None]) -> None:
        """Check the frame on screen now (or, caught half laid out, a moment later)."""
        app = self.app
        assert app is not None
        self.tally.frames += 1
        table = self.table()
        if table is None or app.return_code is not None:
            return  # (closing: an exception fails the run as the app closes)
        if isinstance(app.screen, HandoffScreen):
            self.drawn.setdefault(id(app.screen), self.clock.now)
            return
        text = await frame_text(app, pilot)
        for seat, name in enumerate(self.client.names):
            for secret in (f"{name}'s hand", f"{name}'s secrets"):
                # ("(hidden)" may be cut by a dialog over the panel's title: "(hidden█▀▀")
                shown = text.replace(f"{secret} (hidden", "")
                if seat != self.holder and secret in shown:
                    self.tally.leaks.append(f"{secret} shown, keyboard with {self.holder}")
        if not table.private:
            return
        if table.active_seat != self.holder:
            self.tally.leaks.append(f"seat {table.active_seat} private, keyboard {self.holder}")
        hands = table.query(Hand)
        if hands and hands.first().cards:
            own = self.client.update(table.active_seat).view["hand"]
            assert isinstance(own, list), own  # (a game with a hand on screen has one in views)
            if sorted(hands.first().cards) != sorted(own):  # (in the game's own order)
                self.tally.leaks.append(f"a hand not seat {table.active_seat}'s was drawn")


async def hurry(
    pilot: Pilot[None], watch: Watch, keys: Sequence[str], count: int, rng: random.Random
) -> None:
    """Type keys drawn from `keys` at random moments until the tally counts `count`, checking
    every frame; stops early once the app is closing or the table is gone (the game over and
    left for the menu, or the player quit)."""
    app, tally = watch.app, watch.tally
    assert app is not None
    dismiss, on_key = HandoffScreen.dismiss, HandoffScreen.on_key

    def watched_dismiss(screen: HandoffScreen, result: object = None) -> AwaitComplete:
        if result is not None and screen.is_current:
            watch.handed(screen)
        return dismiss(screen, result)

    async def watched_key(screen: HandoffScreen, event: events.Key) -> None:
        watch.key_time = event.time
        await on_key(screen, event)

    # Every hand-off's dismissal and keys, watched while the keys are typed (put back after).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(HandoffScreen, "dismiss", watched_dismiss)
        patch.setattr(HandoffScreen, "on_key", watched_key)
        while tally.keys < count and watch.table() is not None and app.return_code is None:
            await _burst(app, pilot, rng, keys, watch.clock, tally, watch.typed)
            await watch.check(pilot)
            screen = app.screen
            paused = isinstance(screen, Deliberate) and rng.random() < PASSES_KEYBOARD
            if paused:
                watch.clock.now += rng.uniform(*PASSING)  # reading it, passing the keyboard
            if paused and isinstance(screen, HandoffScreen):  # the next player, with it now
                await _type(app, pilot, screen.key, watch.clock, tally, watch.typed)
                await watch.check(pilot)
                watch.clock.now += rng.uniform(0.0, MOST_GAP)
    tally.problems += len(app.problems)


async def _type(
    app: App[None],
    pilot: Pilot[None],
    key: str,
    clock: VirtualClock,
    tally: Tally,
    typed: list[float],
) -> None:
    """Type `key` alone, now, and let the app handle it."""
    event = events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None))
    event.time = clock.now
    app.post_message(event)
    tally.keys += 1
    typed.append(clock.now)
    await pilot.pause()


async def _burst(
    app: App[None],
    pilot: Pilot[None],
    rng: random.Random,
    keys: Sequence[str],
    clock: VirtualClock,
    tally: Tally,
    typed: list[float],
) -> None:
    """Type one burst: a key, and each next key that follows within `BURST_GAP`, all sent
    before the app handles any; then let the app catch up (at the last key's moment), and
    let the gap to the next burst pass."""
    while True:
        key = rng.choice(keys)
        event = events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None))
        event.time = clock.now
        app.post_message(event)
        tally.keys += 1
        typed.append(clock.now)
        gap = rng.uniform(0.0, MOST_GAP)
        if gap >= BURST_GAP:
            break
        clock.now += gap
    await pilot.pause()
    clock.now += gap


async def frame_text(app: App[None], pilot: Pilot[None]) -> str:
    """What the terminal shows; a screen caught half laid out is read again once it is."""
    for _ in range(20):
        try:
            return screen_text(app)
        except TypeError:  # (a strip not yet rendered)
            await pilot.pause()
    return screen_text(app)


def key_set(*own: str) -> list[str]:
    """A game's keys for a hurried player: the common ones and the game's own."""
    return [key for key in (*COMMON_KEYS, *own) if key not in LEAVING]


class Keyboard:
    """Keys typed at chosen moments of a virtual clock the screens read too, for scenarios:
    `await keys.type("enter", after=0.3)` types Enter 0.3 s after the last keys."""

    def __init__(self, app: App[None], pilot: Pilot[None], clock: VirtualClock) -> None:
        self.app, self.pilot, self.clock = app, pilot, clock

    async def type(self, *keys: str, after: float = 0.0) -> None:
        """Wait `after` seconds, then type `keys` all at once; let the app handle them."""
        self.clock.now += after
        for key in keys:
            event = events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None))
            event.time = self.clock.now
            self.app.post_message(event)
        for _ in range(3):
            await self.pilot.pause()

    async def wait(self, seconds: float) -> None:
        """Let `seconds` pass on the clock (and the app catch up)."""
        self.clock.now += seconds
        await self.pilot.pause()


#: Keys a hurried player types at a table in the default run and in `tablegames check` (the
#: slow run: 1000 over five more seeds, to go deeper). 100 take every table through hand-offs
#: and moves (`check_hurried`); 150 took the default run's CPU 15 s further.
DEFAULT_KEYS = 100
#: The hurried players' names, seat by seat.
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


@dataclass(frozen=True)
class HotSeat:
    """A hot-seat table: its game, players, humans at the keyboard (Ann, Bob, ...), options."""

    game: str
    players: int
    humans: int
    options: dict[str, Any]  # (as `local_table` takes them, beside its own keywords)

    def dealt(self, seed: int, pace: float) -> LocalClient:
        """The table dealt with `seed`, its bots paced `pace`."""
        names = NAMES[: self.humans]
        return local_table(
            self.game, self.players, self.humans, seed=seed, names=names, pace=pace, **self.options
        )


@dataclass(frozen=True)
class HurriedTable(HotSeat):
    """A table to hurry at: a hot-seat table, the game's own keys and its bots' pace."""

    own_keys: list[str]
    pace: float = 0.0


async def play_hurried(
    table: HurriedTable, seed: int, keys: int, monkeypatch: pytest.MonkeyPatch
) -> Tally:
    """Hurry through `keys` keys at `table`; a player who quits (q, q) comes back to the same
    table in a new app, as `tablegames resume` brings them, and hurries on."""
    from ..tui.screens import typeahead

    clock = VirtualClock()
    monkeypatch.setattr(typeahead, "time", clock)
    client = table.dealt(seed, table.pace)
    watch, rng = Watch(client, clock, monkeypatch), random.Random(seed)
    while watch.tally.keys < keys and not client.table.over:
        app = TableGamesApp(client)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            watch.sit_down(app)
            await hurry(pilot, watch, table.own_keys, keys, rng)
    return watch.tally


def check_hurried(tally: Tally, keys: int) -> None:
    """No leak, no screen problem, and the keys got the game somewhere."""
    assert tally.leaks == []
    assert tally.problems == 0
    assert tally.keys >= keys or tally.actions > 0  # (a game over early ends the run)
    moved = tally.actions + tally.handoffs  # moves made, and keyboards passed on
    assert moved >= keys // 30, f"the keys got the game nowhere: {tally}"
