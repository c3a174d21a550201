"""Files holding game state, tokens or keys are owner-only, whatever the umask (issue 15)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tablegames.net.client import SeatTokens
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
