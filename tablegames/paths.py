"""Where tablegames keeps its files, and keeping them owner-only on a shared machine.

Saved games hold seeds and every move, seat tokens prove seats and a host key proves the server:
any of them readable by another user of the box would give away hands or seats. So every such
file is created 0600 (directories 0700) whatever the umask, and one found looser is tightened;
one owned by someone else is refused.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

OWNER_FILE = 0o600
OWNER_DIR = 0o700


class UnsafeFile(OSError):
    """A file or directory tablegames will not use: another user owns it, or it is not a file."""


def data_dir() -> Path:
    """The directory for saved games, seat tokens and keys (created owner-only if missing)."""
    override = os.environ.get("TABLEGAMES_HOME")
    if override:
        path = Path(override)
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("tablegames", appauthor=False))
    return owner_only_dir(path)


def owner_only_dir(path: Path) -> Path:
    """`path` as a directory only its owner may use: created 0700, or tightened to it."""
    try:
        path.mkdir(mode=OWNER_DIR, parents=True, exist_ok=True)
    except FileExistsError:  # something else by that name
        raise UnsafeFile(f"{path} is not a directory: tablegames will not use it") from None
    _tighten(path, OWNER_DIR, "directory")
    return path


def owner_only_file(path: Path) -> Path:
    """`path` as a file only its owner may read: created empty and 0600 if missing, else tightened.

    Created with O_EXCL and O_NOFOLLOW, so a link another user planted is never followed.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, OWNER_FILE)
    except FileExistsError:
        pass
    else:
        os.close(fd)
    _tighten(path, OWNER_FILE, "file")
    return path


def owner_only_draft(path: Path) -> Path:
    """A new, empty owner-only file beside `path`, named for this process alone: written whole,
    then moved or linked into `path`'s place, so that no reader ever sees half a file."""
    return owner_only_file(path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}"))


def _tighten(path: Path, mode: int, kind: str) -> None:
    """Refuse `path` unless it is ours and of the right kind; take others' access away."""
    info = path.lstat()
    wanted = stat.S_ISDIR if kind == "directory" else stat.S_ISREG
    if not wanted(info.st_mode):
        raise UnsafeFile(f"{path} is not a {kind}: tablegames will not use it")
    if info.st_uid != os.geteuid():
        raise UnsafeFile(
            f"{path} belongs to another user: tablegames keeps games and tokens only in "
            "files of your own (choose another path)"
        )
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, stat.S_IMODE(info.st_mode) & mode)


def readable_by_others(path: Path) -> bool:
    """True if users other than the owner may read (or enter) `path`."""
    return bool(path.stat().st_mode & 0o077)
