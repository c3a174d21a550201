"""A session's memory stays flat over a long game: nothing Textual drew and removed is kept."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tablegames.tui.leaks import release_footer_keys


class KeysApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "bell", "A"), Binding("b", "bell", "B")]

    def compose(self) -> ComposeResult:
        yield Footer()


def watchers(footer: Footer) -> int:
    return sum(len(entries) for entries in getattr(footer, "__watchers", {}).values())


async def test_the_footer_keeps_no_key_it_has_stopped_showing():
    app = KeysApp()
    async with app.run_test() as pilot:
        footer = app.query_one(Footer)
        for _ in range(20):  # a table's keys change after every move
            app.screen.refresh_bindings()
            await pilot.pause()
        kept = watchers(footer)
        released = release_footer_keys(app.screen_stack)
        left = getattr(footer, "__watchers", {}).get("compact", [])
        # Only the keys on screen are kept (Textual 8.2 kept one per redraw: 21 here).
        assert len(left) <= len(footer.query(FooterKey)) == 2
        assert all(key.is_attached and not key._closing for key, _ in left)
        assert released == kept - len(left)
        footer.compact = True  # the footer still works: the keys on screen follow it
        await pilot.pause()
        assert all(key.compact for key in footer.query(FooterKey))
