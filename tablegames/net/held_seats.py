"""The seats a client holds on one server (`client.held`): each one's token by table, kept on
disk too with `SeatTokens`, which of them to take back on a new connection, and the proof each
gives there (its token never leaves us)."""

from __future__ import annotations

from typing import Protocol

from .proofs import seat_proof, token_key
from .seat_tokens import SeatTokens


class Holder(Protocol):
    """Who holds the seats (a `ClientProtocol`): where it is connected, as whom, and where it
    sits on this connection."""

    server_id: str
    reached: str  # the server's address as our socket says (tokens are kept under it)
    name: str
    nonce: str  # this connection's challenge
    spectate: bool
    table_code: str | None
    token: str | None


class HeldSeats:
    """`client`'s seats by table, on the server it is connected to; `store` keeps them across
    runs (under the server, the address we reached it at and our name)."""

    def __init__(self, client: Holder, store: SeatTokens | None) -> None:
        self._client = client
        self._store = store
        self._held: dict[str, str] = {}  # table code -> our seat's token, on this server

    def keep(self, table: str, token: str) -> None:
        """Hold `token` for our seat at `table` (on disk too, with a store)."""
        self._held[table] = token
        if self._store is not None:
            client = self._client
            self._store.put(client.server_id, client.reached, client.name, table, token)

    def forget(self, table: str) -> None:
        """The game at `table` is over, or its seat gone: its token is of no more use."""
        self._held.pop(table, None)
        if self._store is not None:
            client = self._client
            self._store.put(client.server_id, client.reached, client.name, table, None)

    def token_at(self, table: str) -> str | None:
        """The token of a seat we hold at `table`, if we know one."""
        if table in self._held:
            return self._held[table]
        return self._kept().get(table)

    def _kept(self) -> dict[str, str]:
        """The tokens kept on disk for this server at the address we reached it at."""
        if self._store is None:
            return {}
        client = self._client
        return self._store.get(client.server_id, client.reached, client.name)

    def proof(self, table: str, token: str) -> str:
        """What proves our seat at `table` on this connection (an answer to its challenge)."""
        client = self._client
        return seat_proof(token_key(token), client.nonce, client.server_id, client.reached, table)

    def to_try(self) -> list[tuple[str, str]]:
        """The seats we may take back here, as (table, token): this connection's seat first,
        then those kept for this server at this address (the table asked for only, when it
        has one)."""
        client = self._client
        if client.spectate:
            return []
        held = self._kept()
        if client.table_code in held:
            held = {client.table_code: held[client.table_code]}
        candidates: list[tuple[str, str]] = []
        if client.token and client.table_code is not None:
            candidates.append((client.table_code, client.token))
        return candidates + [(table, token) for table, token in reversed(held.items())]
