"""Files holding game state, tokens or keys are owner-only, whatever the umask (issue 15)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tablegames.net import seat_tokens
from tablegames.net.client import SeatTokens
from tablegames.net.proofs import ClientKey
from tablegames.net.seat_tokens import load_client_key
from tablegames.paths import UnsafeFile, data_dir, owner_only_dir, owner_only_file
from tablegames.store import SavedSeat, Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def permissive_umask():
    old = os.umask(0)
    yield
    os.umask(old)


def test_the_store_and_its_wal_files_are_owner_only_under_a_permissive_umask(
    tmp_path, permissive_umask
):
    path = tmp_path / "lan.db"
    store = Store(path)
    table_id = store.create_table("ABCD", "crates", 2, {}, "server")
    store.start_table(table_id, 7, [SavedSeat(0, "a"), SavedSeat(1, "b")])
    store.append_action(table_id, 0, 0, {"type": "draw"}, 0.0)
    written = [Path(f"{path}{part}") for part in ("", "-wal", "-shm")]
    assert all(p.exists() for p in written)
    assert [mode(p) for p in written] == [0o600] * 3
    store.close()


def test_an_existing_store_readable_by_others_is_tightened(tmp_path):
    path = tmp_path / "old.db"
    Store(path).close()
    os.chmod(path, 0o644)
    Store(path).close()
    assert mode(path) == 0o600


def test_the_data_directory_and_seat_tokens_are_owner_only(tmp_path, monkeypatch, permissive_umask):
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    monkeypatch.setenv("TABLEGAMES_HOME", str(home))
    assert data_dir() == home and mode(home) == 0o700
    tokens = SeatTokens()
    tokens.put("server", "127.0.0.1:4747", "ben", "KXPF", "secret")
    assert mode(tokens.path) == 0o600
    os.chmod(tokens.path, 0o666)
    tokens.put("server", "127.0.0.1:4747", "ben", "KXPF", "another")
    kept = tokens.get("server", "127.0.0.1:4747", "BEN")
    assert mode(tokens.path) == 0o600 and kept == {"KXPF": "another"}
    assert tokens.get("server", "127.0.0.2:4747", "ben") == {}  # kept per address too


def test_joins_key_is_made_owner_only_once_and_kept(tmp_path, monkeypatch, permissive_umask):
    monkeypatch.setenv("TABLEGAMES_HOME", str(tmp_path))
    key = load_client_key()
    path = tmp_path / "client_key"
    assert mode(path) == 0o600 and load_client_key().fingerprint == key.fingerprint
    os.chmod(path, 0o644)
    assert load_client_key().fingerprint == key.fingerprint and mode(path) == 0o600


def test_two_joins_making_the_key_at_once_use_one_key(tmp_path, monkeypatch):
    # Another `join` makes and links its key just after this one found none (two terminals
    # started at once): this one uses theirs, and never unlinks it to put its own in its place.
    path = tmp_path / "client_key"
    theirs = bytes(range(32))
    real_draft = seat_tokens.owner_only_draft

    def draft_after_theirs(where: Path) -> Path:
        if not path.exists():
            path.write_bytes(theirs)
        return real_draft(where)

    monkeypatch.setattr(seat_tokens, "owner_only_draft", draft_after_theirs)
    assert load_client_key(path).fingerprint == ClientKey(theirs).fingerprint
    assert path.read_bytes() == theirs


def test_a_short_key_left_by_an_interrupted_run_is_replaced(tmp_path):
    path = tmp_path / "client_key"
    path.write_bytes(b"cut")
    key = load_client_key(path)
    assert len(path.read_bytes()) == 32 and load_client_key(path).fingerprint == key.fingerprint


def test_a_file_that_is_not_a_plain_file_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("")
    link = tmp_path / "games.db"
    link.symlink_to(target)
    with pytest.raises(UnsafeFile, match="not a file"):
        owner_only_file(link)
    with pytest.raises(UnsafeFile, match="not a directory"):
        owner_only_dir(target)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make a file another user owns")
def test_a_file_another_user_owns_is_refused_with_a_sentence(tmp_path):
    path = tmp_path / "theirs.db"
    path.write_text("")
    os.chown(path, 65534, 65534)
    with pytest.raises(UnsafeFile, match="belongs to another user"):
        Store(path)
