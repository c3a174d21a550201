"""Names as players see them, for the network code: `tablegames/names.py` (hot-seat tables use
the same rules, so it lives below both)."""

from __future__ import annotations

from ..names import NAME_LIMIT, clean_name, clean_text, name_key

__all__ = ["NAME_LIMIT", "clean_name", "clean_text", "name_key"]
