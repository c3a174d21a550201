"""Keys in the words a player reads: `press r` at a keyboard, `tap Ready` on the party's web
page, where a phone has no keys but every key of the footer can be tapped (`PAGE_ENV`)."""

from __future__ import annotations

import os

from ..net.web_protocol import PAGE_ENV


def on_the_page() -> bool:
    """True in a session whose terminal is the party's web page (a phone, often)."""
    return os.environ.get(PAGE_ENV) == "1"


def press(key: str, label: str) -> str:
    """How to do what `key` does, whose footer label is `label`: `press r`, or on the page
    `tap Ready`."""
    return f"tap {label}" if on_the_page() else f"press {key}"
