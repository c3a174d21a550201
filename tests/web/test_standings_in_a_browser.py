"""The night's standings on a phone (issue 43): the lobby's footer key is a tap away, and the
standings close by a tap too. The real `tablegames serve --web`, headless Chromium, loopback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest

from .browser import why_no_browser
from .test_party_in_a_browser import Party

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(why_no_browser() is not None, reason=str(why_no_browser())),
]


@pytest.fixture
def party(env: dict[str, str], chromium: Any) -> Iterator[Party]:
    with closing(Party(env, chromium)) as running:
        yield running


def test_a_phone_taps_the_standings_open_and_closed(party):
    bea = party.browser(phone=True)
    bea.join("bea")
    bea.tap_until("Standings", "Tonight's standings")  # (a person taps again if one missed)
    bea.wait_for("Tonight's standings", "No game has finished since the server started")
    bea.tap_until("Back to the tables", "New table")
    screen = bea.wait_for("New table", "Sit down")
    assert "Tonight's standings" not in screen
