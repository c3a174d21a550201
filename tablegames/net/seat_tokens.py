"""What `tablegames join` keeps on disk (owner-only): seat tokens, so a player whose terminal
closed can sit back down, join codes' passes, and the client's lasting key."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path

from ..names import name_key
from ..paths import data_dir, owner_only_dir, owner_only_draft, owner_only_file
from .proofs import ClientKey

KEY_NAME = "client_key"
KEY_BYTES = 32


class SeatTokens:
    """Seat tokens saved on disk (owner-only), so a player whose terminal closed can sit back down.

    Kept under the server's lasting identity (which its welcome names), the address it was
    reached at and the player's name: a server elsewhere that claims the same identity (a
    look-alike) is offered nothing; within that, one token per table. Beside them, the pass
    each server (by the address it was reached at) gave for its join code.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "seats.json"

    def _load(self) -> dict[str, object]:
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return saved if isinstance(saved, dict) else {}

    @staticmethod
    def _key(server_id: str, address: str, name: str) -> str:
        return f"{server_id}@{address}/{name_key(name)}"

    def get(self, server_id: str, address: str, name: str) -> dict[str, str]:
        """The tokens `name` holds on that server, reached at `address`: table code -> token,
        newest last."""
        tables = self._load().get(self._key(server_id, address, name))
        if not isinstance(tables, dict):
            return {}
        return {str(code): token for code, token in tables.items() if isinstance(token, str)}

    def get_pass(self, where: str) -> str | None:
        """The pass the server at `where` (host:port) gave for its join code, if kept."""
        kept = self._load().get(f"pass {where}")
        return kept if isinstance(kept, str) else None

    def put_pass(self, where: str, given: str) -> None:
        """Keep the pass the server at `where` gave: the next `join` there needs no code."""
        with self._locked():
            saved = self._load()
            saved[f"pass {where}"] = given
            self._replace(saved)

    def put(self, server_id: str, address: str, name: str, table: str, token: str | None) -> None:
        """Keep `token` for `table` (None: forget it, e.g. once that game is over).

        Several terminals of one user may sit down at once: each change is made under a lock
        and the file replaced whole, so none loses another's token or reads half a file.
        """
        with self._locked():
            saved = self._load()
            key = self._key(server_id, address, name)
            tables = saved.get(key)
            tables = dict(tables) if isinstance(tables, dict) else {}
            tables.pop(table, None)
            if token is not None:
                tables[table] = token
            if tables:
                saved[key] = tables
            else:
                saved.pop(key, None)
            self._replace(saved)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        lock = owner_only_file(self.path.with_name(self.path.name + ".lock"))
        with open(lock, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            yield

    def _replace(self, saved: dict[str, object]) -> None:
        """Write `saved` whole to a draft beside our file, then put it in our file's place."""
        draft = owner_only_draft(self.path)
        draft.write_text(json.dumps(saved), encoding="utf-8")
        os.replace(draft, self.path)


def load_client_key(path: Path | None = None) -> ClientKey:
    """`tablegames join`'s lasting key (owner-only at `path`, by default in the data
    directory), made on first use: it proves to each server that a name used over `join` is
    the same person's (`proofs.ClientKey`)."""
    path = path or data_dir() / KEY_NAME
    if path.exists() and path.stat().st_size == KEY_BYTES:
        owner_only_file(path)  # tightened if loose; refused if another user's
        return ClientKey(path.read_bytes())
    owner_only_dir(path.parent)
    draft = owner_only_draft(path)
    try:
        draft.write_bytes(os.urandom(KEY_BYTES))
        try:
            os.link(draft, path)
        except FileExistsError:
            # Another `join` made it first: use theirs (unlinking it, two terminals started
            # at once would each keep a key of their own); a short file left by an interrupted
            # run: ours replaces it whole.
            if path.stat().st_size != KEY_BYTES:
                os.replace(draft, path)
            return load_client_key(path)
    finally:
        draft.unlink(missing_ok=True)
    return ClientKey(path.read_bytes())
