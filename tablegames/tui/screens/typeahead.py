"""Keys belong to the question they were typed at.

Two rules, for every screen of ours:

- **Typed ahead, kept in order.** A key that reaches a screen after another has opened over it,
  or after it closed, goes on to the screen now on top (`pass_on`), with the moment it was
  typed. Enter then `2` then `3` offers a card to the second player with the third claim: the
  dialogs the player's own Enter opens take the digits typed with it.
- **Never for a question nobody saw.** When what a screen asks changes by itself (a move
  applied, a hand-off, a dialog the table opened, a prompt), the screen notes when (`ask_anew`)
  and drops keys typed before that moment and for `settle` seconds after it: a key pressed for
  the last question, or in the instant the new one was drawn, answers nothing.

Textual hands each key to a screen's queue when it arrives, so both rules are checked when the
key is handled: a key knows when it was typed (`event.time`), and a screen when it last asked.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from typing import Any

from textual import events
from textual.actions import parse
from textual.await_complete import AwaitComplete
from textual.message import Message
from textual.screen import Screen, ScreenResultType
from textual.widgets import Input

from ..textual_private import forward_key, key_bindings, press_binding

#: Seconds after a question changes in which keys are still taken as meant for the last one.
SETTLE = 0.3
#: Every screen's settling time is multiplied by this. Tests of what keys do, not of when,
#: set it to 0: a key typed before a question is still dropped, one typed after it is taken.
SETTLE_SCALE = 1.0


def moment() -> float:
    """Now, on the clock keys are timed by (`time.monotonic`, as Textual's events)."""
    return time.monotonic()


def pass_on(screen: Screen[ScreenResultType], event: events.Key) -> bool:
    """Send `event` on to the screen on top when `screen` no longer is (another opened over
    it, or it has closed); True if it went on."""
    try:
        top = screen.app.screen
    except Exception:  # (no app left to take it: the app is closing)
        return False
    if top is screen:
        return False
    drop(event)
    forwarded = events.Key(event.key, event.character)
    forwarded.time = event.time  # typed when it was typed, wherever it goes
    forward_key(top.focused or top, forwarded)
    return True


def drop(event: events.Event) -> None:
    """Let `event` do nothing more (no binding, no default handling)."""
    event.stop()
    event.prevent_default()


async def press_now(screen: Screen[ScreenResultType], event: events.Key) -> None:
    """Run the binding for `event` while `screen` is still on top, and let the key go no
    further.

    Textual looks bindings up once a key has bubbled up to the app, behind the keys queued
    there, and by then a dialog this key opened would take the keys meant for this screen
    (even before the dialog is drawn). A key with no binding here means nothing, here or later.
    """
    if pass_on(screen, event):
        return
    drop(event)
    await press_binding(screen.app, event.key)


class TypeAhead:
    """For screens: keys go to the screen on top in the order typed, and a key typed before
    this screen last asked something new (or just after) is dropped."""

    #: When what this screen asks last changed by itself (`time.monotonic`); never at first.
    asked_at: float = -math.inf
    #: How long after asking anew a key is still taken as typed for the last question.
    settle: float = SETTLE
    #: The actions whose keys are dropped while a new question settles (None: every key's).
    #: Other keys (help, leave...) are never dropped, nor are clicks then.
    settling: frozenset[str] | None = None
    _undrawn = False  # asked anew, and not yet drawn on the terminal
    _question: Hashable = None  # what this screen last asked (`ask`)
    _dropped_at = -math.inf  # the question (`asked_at`) a key was last dropped at

    def ask(self, question: Hashable) -> None:
        """This screen asks `question` now (any value that names it): if it is not the one
        asked last, it asks anew (`ask_anew`)."""
        if question != self._question:
            self._question = question
            self.ask_anew()

    def ask_anew(self) -> None:
        """What this screen asks has changed: keys typed until `settle` after it is drawn (or,
        if it is never drawn, from now) are dropped.

        A busy machine may draw a question well after it was asked: a player cannot have seen
        it before then, so the moment to read it starts once it is on the terminal.
        """
        self.asked_at = moment()
        self._undrawn = SETTLE_SCALE > 0  # (tests of what keys do take them at once)
        if self._undrawn:
            # After the screen on top is next drawn: by then this one is pushed, if it is
            # being pushed (the app runs the callback after its refresh).
            screen: Screen[object] = self  # type: ignore[assignment]
            screen.app.call_after_refresh(self._asked_when_drawn)

    def _asked_when_drawn(self) -> None:
        """The question is on the terminal now: the moment to read it starts here."""
        if self._undrawn:
            self._undrawn = False
            self.asked_at = max(self.asked_at, moment())

    def seen_for(self, since: float, event: Message) -> bool:
        """True if `event` came `SETTLE` or more after the moment `since`: what changed on
        screen then had been seen when it was typed."""
        return event.time >= since + SETTLE * SETTLE_SCALE

    def typed_in_time(self, event: Message) -> bool:
        """True if `event` came after this screen's question (and the moment to read it), or
        if it is not one that waits for a question to settle (`settling`)."""
        if event.time >= self.asked_at + self.settle * SETTLE_SCALE:
            return True
        if self.settling is None:
            return False
        if not isinstance(event, events.Key):
            return True
        screen: Screen[object] = self  # type: ignore[assignment]
        keys = key_bindings(screen).get(event.key, [])
        return not any(parse(binding.action)[1] in self.settling for binding in keys)

    async def on_key(self, event: events.Key) -> None:
        screen: Screen[object] = self  # type: ignore[assignment]
        if pass_on(screen, event):
            return
        if not self.typed_in_time(event):
            drop(event)
            first, self._dropped_at = self._dropped_at != self.asked_at, self.asked_at
            self.dropped(event, first)
            return
        await press_now(screen, event)

    def dropped(self, event: events.Key, first: bool) -> None:
        """`event` came too soon after this screen asked anew and was dropped (`first`: the
        first key dropped since). Screens that say why override."""

    def dismiss(self, result: Any = None) -> AwaitComplete:
        """Close this screen with `result`, if it is still the one on top: a second Enter, or
        a key handled after another screen opened over it, must not close another screen."""
        screen: Screen[object] = self  # type: ignore[assignment]
        if not screen.is_current:
            return AwaitComplete.nothing()  # type: ignore[no-untyped-call, no-any-return]
        return super().dismiss(result)  # type: ignore[misc, no-any-return]


class LineInput(Input):
    """A line to type in, in a screen of ours: keys typed after its screen closed go on to the
    screen on top (the next dialog, or the table), in order, and are not typed here.

    Enter in the line does at once what Enter does on its screen (its binding: send the line),
    before the next key is handled: the keys typed after it are already on their way here (a
    paste, or `/ a Enter / b Enter` typed quickly), and must go on to the screen on top then,
    not into the line just sent. (Left to bubble up, Enter would reach the screen only behind
    them: "a/b" was once said for "a" and "b".)
    """

    async def on_key(self, event: events.Key) -> None:
        screen = self.screen
        if pass_on(screen, event):  # (and if it went on, the Input does nothing with it)
            return
        if event.key == "enter":
            drop(event)
            for binding in key_bindings(screen).get("enter", []):
                await screen.run_action(binding.action)
                return
