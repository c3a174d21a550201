"""What a hosted table sends each connection of its game: the view, with only the log entries
and the talk that connection has not had yet (the client puts them back together)."""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from ..rules import Event
from ..table import Update
from .messages import ViewUpdate
from .protocol import log_difference
from .seat_life import Peer


@dataclass
class Feed:
    """Per connection, what it was last sent of its view's log and talk (forgotten with it)."""

    _logs: WeakKeyDictionary[Peer, list[Event]] = field(default_factory=WeakKeyDictionary)
    _talk: WeakKeyDictionary[Peer, int] = field(default_factory=WeakKeyDictionary)

    def message(self, update: Update, peer: Peer) -> ViewUpdate:
        """`update` for `peer`: its view, with only the log entries `peer` has not been sent.

        A view's log grows within a round, and sending it whole after every action would make
        a round's traffic grow with its square; the client rebuilds the view's log.
        """
        view, drop = update.view, 0
        log = view.get("log")
        if isinstance(log, list):
            drop, added = log_difference(self._logs.get(peer, []), log)
            self._logs[peer] = list(log)  # a copy: a game may go on growing its list
            view = {**view, "log": added}
        talk = view.get("talk")
        if isinstance(talk, list):
            # Talk only grows: each record carries its place `n`, and a peer is sent only the
            # records it has not had on this connection (the client puts them back together).
            had = self._talk.get(peer, 0)
            view = {**view, "talk": talk[had:] if had <= len(talk) else talk}
            self._talk[peer] = len(talk)
        return ViewUpdate(
            version=update.version,
            view=view,
            log_drop=drop,
            events=update.events,
            over=update.over,
            legal=update.legal,
            waiting=update.waiting,
            asked=update.asked,
        )

    def forget(self, peer: Peer) -> None:
        """`peer` left: whatever connects next starts with nothing sent."""
        self._logs.pop(peer, None)
        self._talk.pop(peer, None)
