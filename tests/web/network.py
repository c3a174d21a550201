"""A network between a page and the party that can go silent, as Wi-Fi does: a loopback TCP
relay whose traffic can be held (nothing passes, nothing closes) and let go again, when the
connections it held are dropped (they did not survive) and new ones pass."""

from __future__ import annotations

import select
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

CHUNK = 65536


class Network:
    """Relays 127.0.0.1:`port` (its own, free) to 127.0.0.1:`to`."""

    def __init__(self, to: int) -> None:
        self.to = to
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.silent = threading.Event()
        self.generation = 0  # connections of an older generation are dropped
        self.closed = threading.Event()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def go_silent(self) -> None:
        """Nothing passes any more, and nothing is closed: a page hears nothing."""
        self.silent.set()

    def come_back(self) -> None:
        """The network is back: the connections held are dropped, new ones pass."""
        with self._lock:
            self.generation += 1
        self.silent.clear()

    def close(self) -> None:
        self.closed.set()
        self.listener.close()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(near,), daemon=True).start()

    def _relay(self, near: socket.socket) -> None:
        with self._lock:
            generation = self.generation
        try:
            far = socket.create_connection(("127.0.0.1", self.to), timeout=5)
        except OSError:
            near.close()
            return
        with near, far:
            ends = {near: far, far: near}
            while not self.closed.is_set() and generation == self.generation:
                if self.silent.is_set():  # held: read nothing, send nothing
                    self.closed.wait(0.05)
                    continue
                ready, _, _ = select.select(list(ends), [], [], 0.05)
                for end in ready:
                    data = end.recv(CHUNK)
                    if not data:
                        return
                    ends[end].sendall(data)


@contextmanager
def network_to(port: int) -> Iterator[Network]:
    network = Network(port)
    try:
        yield network
    finally:
        network.close()
