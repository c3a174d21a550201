"""The package's own source read as text: what a check finds in each module, by its path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def found_in_modules(package: Path, find: Callable[[str], list[str]]) -> dict[str, list[str]]:
    """What `find` reports in the source of each Python module under `package`, by the
    module's path there; a module where it finds nothing is left out."""
    return {
        str(path.relative_to(package)): found
        for path in sorted(package.rglob("*.py"))
        if (found := find(path.read_text(encoding="utf-8")))
    }
