"""Where tablegames keeps its files: the user's data directory, or $TABLEGAMES_HOME."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The directory for saved games and seat tokens (created if missing)."""
    override = os.environ.get("TABLEGAMES_HOME")
    if override:
        path = Path(override)
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("tablegames", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
