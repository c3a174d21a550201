"""The footer draws its keys once, and again only when they change; each key is styled once."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.widgets._footer import FooterKey

from tablegames.tui.widgets.footer import Footer


class KeysApp(App[None]):
    """Two keys in a footer; `b` does nothing while `b_works` is False (its key greys out)."""

    ENABLE_COMMAND_PALETTE = False  # (as tablegames': its key would be a third)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "bell", "A"), Binding("b", "b", "B")]

    def __init__(self, compact: bool = False) -> None:
        super().__init__()
        self.compact = compact
        self.b_works = True
        self.restyled: list[DOMNode] = []  # the footer keys Textual styled again after mounting

    def compose(self) -> ComposeResult:
        yield Footer(compact=self.compact)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "b" and not self.b_works else True

    def action_b(self) -> None:
        self.bell()

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        if isinstance(node, FooterKey):
            self.restyled.append(node)
        super().update_styles(node, animate)


async def test_the_footer_draws_its_keys_again_only_when_they_change():
    app = KeysApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        drawn = list(app.query(FooterKey))
        assert [key.key for key in drawn] == ["a", "b"]
        for _ in range(5):  # a focus moved, a move made: the keys may have changed
            app.screen.refresh_bindings()
            await pilot.pause()
        assert list(app.query(FooterKey)) == drawn  # the same widgets: not drawn again

        app.b_works = False  # they did change
        app.screen.refresh_bindings()
        await pilot.pause()
        again = list(app.query(FooterKey))
        assert not set(again) & set(drawn)
        assert [(key.key, key.has_class("-disabled")) for key in again] == [
            ("a", False),
            ("b", True),
        ]


@pytest.mark.parametrize("compact", [False, True])
async def test_each_key_is_styled_once_as_it_appears(compact):
    app = KeysApp(compact)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.b_works = False  # the keys are drawn again
        app.screen.refresh_bindings()
        await pilot.pause()
        keys = list(app.query(FooterKey))
        assert [key.compact for key in keys] == [compact, compact]
        assert [key.has_class("-compact") for key in keys] == [compact, compact]
        assert app.restyled == []  # (Textual's footer: each key 2 more times in a wide footer)

        app.query_one(Footer).compact = not compact  # a change of width still restyles them
        await pilot.pause()
        assert [key.has_class("-compact") for key in keys] == [not compact, not compact]
        assert set(app.restyled) == set(keys)
