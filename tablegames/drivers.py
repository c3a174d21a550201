"""Drivers of a table: what decides when bots move and the clock is settled. The table itself
(`table.py`) is pure; these run it for people (`LocalClient`, paced), for the server and the TUI
(`drive_bots`, asyncio) and for tests and `simulate` (`run_realtime` on a `VirtualClock`).

Turn-based bots think as `thinking.py` says (in a worker thread, during their pace, call-outs
after a fair moment), as a bot over the network does (`net.join_bot`); real-time bots are asked
on every change and at their wake-up times (`realtime_move`, `next_wake`), with their reaction
times divided by `speed`.

No driver answers a question it has answered: a bot is asked about the table as it is, each
answer is applied before anything else is asked, and a decision made while the table changed
is dropped. (A bot over the network waits for the server to have its answer before it answers
again: another seat's move may arrive first, still asking it.)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from .rules import Action, Game, IllegalAction, View
from .table import Subscriber, Table, Update, VirtualClock, is_realtime
from .thinking import CallOuts, think


class SavedIn(Protocol):
    """Where a local game is saved (the store), as the table needs it: to forget the game."""

    path: Path

    def delete_table(self, table_id: int) -> None: ...

    def rating_changes(self, table_id: int) -> dict[int, tuple[float, float]]: ...


class LocalClient:
    """The TUI's view of an in-process table: local seats, updates, and paced bots.

    Turn-based bots move `pace` seconds after the last change, so a human can follow them.
    Real-time bots keep their own reaction times, divided by `speed` (2.0: twice as quick).
    """

    def __init__(
        self, table: Table, seats: Sequence[int], pace: float = 0.5, speed: float = 1.0
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be more than 0")
        self.table = table
        self.seats = list(seats)
        self.pace = pace
        self.speed = speed  # real-time games run this much faster (or slower) than life
        self._listeners: list[Callable[[int, Update], None]] = []
        self._notices: list[Callable[[str, str], None]] = []
        self.saved_as: tuple[SavedIn, int] | None = None  # where the game is being saved
        self.read_only = False
        self.stop_saving: Callable[[], None] = lambda: None
        for seat in self.seats:
            table.subscribe(seat, self._relay(seat))

    @property
    def names(self) -> list[str]:
        return self.table.names

    @property
    def game(self) -> Game:
        return self.table.game

    def _relay(self, seat: int) -> Subscriber:
        def deliver(update: Update) -> None:
            for listener in self._listeners:
                listener(seat, update)

        return deliver

    def listen(self, listener: Callable[[int, Update], None]) -> None:
        """Call `listener(seat, update)` for every update to one of this client's seats."""
        self._listeners.append(listener)

    def update(self, seat: int) -> Update:
        """The current update for one of this client's seats."""
        return self.table.update_for(seat)

    def submit(self, seat: int, action: Action, seen: int | None = None) -> None:
        """Play `action` for `seat`, chosen on its view of version `seen` (None: the latest).
        A refusal comes to the notice listeners as an `error`, as from a server."""
        self._as(seat, lambda: self.table.submit(seat, action, seen=seen))

    def claim(self, seat: int, claim: dict[str, object]) -> None:
        """Make `seat`'s claim; a refusal comes as `submit`'s does."""
        self._as(seat, lambda: self.table.say(seat, claim))

    def _as(self, seat: int, act: Callable[[], object]) -> None:
        """Do `act` for one of this client's seats; tell the notice listeners why not."""
        if seat not in self.seats:
            self._notify("error", "that seat is not yours")
            return
        try:
            act()
        except IllegalAction as refusal:
            self._notify("error", str(refusal))

    def _notify(self, kind: str, text: str) -> None:
        for listener in list(self._notices):
            listener(kind, text)

    def waiting_for(self) -> frozenset[int]:
        return self.table.state.waiting_for()

    def discard_save(self) -> None:
        """Forget the saved copy of this game (the player chose not to keep it)."""
        if self.saved_as is not None:
            self.stop_saving()
            store, table_id = self.saved_as
            store.delete_table(table_id)
            self.saved_as = None

    def rating_changes(self) -> dict[int, tuple[float, float]]:
        """Each seat's rating after the game and its change, from the store it is saved in
        (rated as it ended); {} before the end, or for a game not saved."""
        if self.saved_as is None or not self.table.over:
            return {}
        store, table_id = self.saved_as
        return store.rating_changes(table_id)

    def saved_game(self) -> tuple[int, Path] | None:
        """The saved game's id and file while it is being saved, else None."""
        if self.saved_as is None:
            return None
        store, table_id = self.saved_as
        return table_id, store.path

    @property
    def paces_bots(self) -> bool:
        return bool(self.table.bots)

    def listen_notices(self, listener: Callable[[str, str], None]) -> None:
        """Call `listener(kind, text)` for news that is not an update: at a table on this
        machine, only why an action or claim of ours was refused (`error`)."""
        self._notices.append(listener)

    async def run_bots(self) -> None:
        """Drive this table's bots until the game ends: paced turns, or real time at `speed`."""
        await drive_bots(self.table, self.pace, self.speed)


def realtime_view(table: Table, seat: int, speed: float = 1.0) -> View:
    """What a real-time bot in `seat` is shown: its view, the table's time and the speed."""
    view = table.state.view(seat)
    view["now"] = table.now()
    view["speed"] = speed
    return view


def realtime_move(table: Table, speed: float = 1.0) -> tuple[int, Action] | None:
    """Ask every real-time bot once, at the table's time now; the first that acts wins.

    Bots are asked earliest wake-up first, so the one whose reaction time ran out first gets
    its action in first (a race for an ocean card goes to whoever arrives first). Every bot sees
    each change, even one that does nothing about it. None if no bot acts now.
    """
    for seat in realtime_order(table):
        legal = table.state.legal(seat)
        if not legal:
            continue
        action = table.bots[seat].choose(realtime_view(table, seat, speed), legal)
        if action is not None:
            return seat, action
    return None


def realtime_order(table: Table) -> list[int]:
    """The real-time bots' seats, the earliest wake-up first, then those with none, by seat."""

    realtime = {seat: bot for seat, bot in table.bots.items() if is_realtime(bot)}

    def due(seat: int) -> tuple[float, int]:
        wake = realtime[seat].wake_at()
        return (float("inf") if wake is None else float(wake), seat)

    return sorted(realtime, key=due)


def next_wake(table: Table) -> float | None:
    """The earliest table time a real-time bot wants to be asked again, or the game's deadline
    if that comes first; None if neither.

    A bot with nothing it may do is not asked (`realtime_move`), so its wish is left out: the
    driver would otherwise wake again and again for nothing (a change will ask it anyway).
    """
    times = [
        float(wake)
        for seat, bot in table.bots.items()
        if is_realtime(bot) and (wake := bot.wake_at()) is not None and table.state.legal(seat)
    ]
    due = table.state.deadline()
    if due is not None and not table.over:
        times.append(float(due))
    return min(times, default=None)


#: The least a virtual clock moves when a bot asks to wake at a moment already past.
MIN_STEP = 0.001


def run_realtime(
    table: Table,
    clock: VirtualClock,
    max_actions: int,
    speed: float = 1.0,
    max_seconds: float = float("inf"),
) -> int:
    """Play a real-time table's bots on `clock` (the table's clock) until the game ends.

    Between actions the clock jumps straight to the next bot's wake-up or the game's deadline
    (where the table applies `time`), so a game of many minutes plays in moments. Stops when
    nothing will happen again, after `max_actions` actions or past `max_seconds` of table time.
    Returns the number of actions taken, `time` ones included. A bot's illegal action raises: in
    a simulation that is a bug to see, not to hide.
    """
    taken = 0
    while not table.over and taken < max_actions:
        if table.settle_clock():
            taken += 1
            continue
        move = realtime_move(table, speed)
        if move is not None:
            table.submit(*move)
            taken += 1
            continue
        wake = next_wake(table)
        if wake is None or wake > max_seconds:
            break
        clock.advance(max(wake - table.now(), MIN_STEP))
    return taken


async def drive_bots(table: Table, pace: float, speed: float = 1.0) -> None:
    """Let `table`'s bots play until the game ends, re-deciding whenever the table changes.

    The driver listens to the table (`Table.on_change`: an action, a seat changing hands), so
    whoever seats a bot, it moves without waiting for anyone else's move. Turn-based
    bots move one at a time, `pace` seconds after the last change; they think in a worker
    thread on their own view, so other work goes on, and a decision made while the table
    changed is dropped and made again on the new state. A bot thinks during its `pace`, so a
    slow decision shows only when it takes longer than the pause. Real-time bots (`RealtimeBot`) are
    asked on every change and at their wake-up times instead, with their reaction times divided
    by `speed`; `pace` does not slow them. Whoever sits at the table, even humans alone, the
    driver also wakes at the game's deadline and settles the clock (`Table.settle_clock`). A
    call-out on another player's slip waits a fair moment first (`CallOuts`).
    """
    call_outs = CallOuts(pace, table.state.call_outs)
    changed = asyncio.Event()
    stop_listening = table.on_change(changed.set)
    try:
        while not table.over:
            if table.settle_clock():
                await asyncio.sleep(0)  # let the screen or the server see the change
                continue
            if any(is_realtime(bot) for bot in table.bots.values()):
                await _realtime_round(table, changed, speed)
            else:
                await _paced_round(table, pace, changed, call_outs)
    finally:
        stop_listening()


async def _realtime_round(table: Table, changed: asyncio.Event, speed: float) -> None:
    """Submit the real-time bots' actions due now, then sleep until a change or a wake-up."""
    changed.clear()
    move = realtime_move(table, speed)  # real-time bots decide in well under a millisecond
    if move is not None:
        try:
            table.submit(*move)
        except IllegalAction:  # a bot's mistake must never stop the table
            await asyncio.sleep(0.05)
        await asyncio.sleep(0)  # let the screen or the server see the change before the next
        return
    await _wait_for_change(table, changed, next_wake(table))


async def _wait_for_change(table: Table, changed: asyncio.Event, wake: float | None) -> None:
    """Sleep until `changed` is set, or until table time `wake` or the game's deadline."""
    moments = [moment for moment in (wake, table.state.deadline()) if moment is not None]
    timeout = max(min(moments) - table.now(), MIN_STEP) if moments else None
    with contextlib.suppress(TimeoutError):  # (not wait_for: it may swallow a cancel)
        async with asyncio.timeout(timeout):
            await changed.wait()


async def _paced_round(
    table: Table, pace: float, changed: asyncio.Event, call_outs: CallOuts | None = None
) -> None:
    """One paced move of a turn-based table's bots, or a wait for the next change."""
    changed.clear()
    if not table.bots:  # all humans: nothing to pace until a bot takes a seat over (or time)
        await _wait_for_change(table, changed, None)
        return
    loop = asyncio.get_running_loop()
    call_outs = call_outs or CallOuts(pace, table.state.call_outs)
    offers = [(seat, table.state.legal(seat)) for seat in table.bots] if call_outs.kinds else []
    call_outs.note(offers, loop.time())
    ready_at = loop.time() + pace  # a bot thinks during its pause, not after it
    version, moved = table.version, False
    for seat, view, legal in table.bot_turns():
        bot = table.bots.get(seat)
        if bot is None:
            continue
        action = await think(bot, seat, view, legal, call_outs, ready_at)
        await asyncio.sleep(max(ready_at - loop.time(), 0.0))
        if table.version != version or table.over:
            moved = True  # someone acted meanwhile: decide again on the new state
            break
        if action is not None:
            try:
                table.submit(seat, action)
            except IllegalAction:  # a bot's mistake must never stop the table
                await asyncio.sleep(max(pace, 0.05))
            moved = True
            break
    if not moved:
        due = call_outs.due()
        wake = None if due is None else table.now() + max(due - loop.time(), MIN_STEP)
        await _wait_for_change(table, changed, wake)
