"""Who watches a hosted table, and the spectators' view sent to them while anyone does."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..table import Table, Update
from .feed import Feed
from .seat_life import Peer


class Spectators:
    """The connections watching one table; the running table builds a spectators' view after
    each action only while this follows it (somebody watches)."""

    def __init__(self, feed: Feed) -> None:
        self._feed = feed  # the hosted table's: what each connection was sent of its view
        self._peers: list[Peer] = []
        self._stop: Callable[[], None] | None = None  # stops the feed, while it runs

    def __iter__(self) -> Iterator[Peer]:
        return iter(list(self._peers))

    def __len__(self) -> int:
        return len(self._peers)

    def add(self, peer: Peer) -> None:
        """`peer` watches from now on (it is sent the view once `follow` runs)."""
        self._peers.append(peer)

    def remove(self, peer: Peer) -> None:
        """`peer` watches no more; once nobody does, no spectators' view is built."""
        self._peers.remove(peer)
        if not self._peers and self._stop is not None:
            self._stop()
            self._stop = None

    def follow(self, table: Table, newcomer: Peer | None = None) -> None:
        """Everyone watching is sent the spectators' view of `table`, now and after each
        action; a `newcomer` to spectators already followed is sent it now."""
        if self._stop is None:
            if self._peers:
                self._stop = table.subscribe(None, self._deliver)
        elif newcomer is not None:
            newcomer.send(self._feed.message(table.update_for(None), newcomer))

    def _deliver(self, update: Update) -> None:
        for peer in self._peers:
            peer.send(self._feed.message(update, peer))
