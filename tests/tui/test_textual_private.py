"""Textual's private API, where we use it (`tablegames/tui/textual_private.py`) and where we
must not: each private name we call or override exists with the signature we use, and no class
of ours takes a private name of Textual's by accident."""

from __future__ import annotations

import ast
import asyncio
import functools
import importlib
import inspect
import io
import pkgutil
import re
import time
from contextvars import ContextVar
from pathlib import Path
from typing import Any, ClassVar

import textual
from rich.console import Console
from textual import events
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Label

import tablegames.tui
from tablegames.tui import textual_private
from tablegames.tui.textual_private import (
    READ_FROM,
    CatchingApp,
    close_to_messages,
    forward_key,
    key_bindings,
    line_filters,
    press_binding,
    release_removed_watchers,
    rendered,
    running_pump,
)

TUI = Path(tablegames.tui.__file__).parent


def textual_bases(cls: type) -> list[type]:
    return [base for base in cls.__mro__[1:] if base.__module__.startswith("textual.")]


@functools.cache  # (each Textual base's source is read once, not once per class of ours)
def private_names(base: type) -> set[str]:
    """The private names a Textual class has: its class attributes, and those its methods set
    on an instance (`self._closed = False`)."""
    names = {name for name in vars(base) if name.startswith("_") and not name.startswith("__")}
    try:
        source = inspect.getsource(base)
    except (OSError, TypeError):
        return names
    return names | set(re.findall(r"self\.(_[A-Za-z]\w*)\s*(?::[^=\n]*)?=", source))


def names_taken(node: ast.ClassDef) -> set[str]:
    """The private names a class of ours defines: methods, class attributes, `self._x = ...`."""
    taken = set()
    for item in ast.walk(node):
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            taken.add(item.name)
        elif (
            isinstance(item, ast.Attribute)
            and isinstance(item.ctx, ast.Store)
            and isinstance(item.value, ast.Name)
            and item.value.id == "self"
        ):
            taken.add(item.attr)
    for item in node.body:
        targets = [item.target] if isinstance(item, ast.AnnAssign) else getattr(item, "targets", [])
        taken |= {target.id for target in targets if isinstance(target, ast.Name)}
    return {name for name in taken if name.startswith("_") and not name.startswith("__")}


def test_no_class_of_ours_takes_a_private_name_of_textuals_by_accident():
    """A screen's own `self._closed` was Textual's flag that ends its message loop: setting
    it as the player left the table stopped the screen handling anything more. Only
    `textual_private` overrides Textual's private names, on purpose."""
    modules = [
        module.name
        for module in pkgutil.walk_packages([str(TUI)], "tablegames.tui.")
        if module.name != textual_private.__name__
    ]
    clashes = []
    for name in modules:
        module = importlib.import_module(name)
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            cls = getattr(module, node.name, None) if isinstance(node, ast.ClassDef) else None
            if not isinstance(cls, type) or not textual_bases(cls):
                continue
            theirs = set().union(*(private_names(base) for base in textual_bases(cls)))
            clashes += [f"{name}.{node.name}.{taken}" for taken in names_taken(node) & theirs]
    assert not clashes, clashes


# -- what textual_private uses: each name, with the signature it is called with ---------------
def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_textual_installed_is_the_one_the_private_uses_were_read_from():
    """Moving the pin in pyproject: read each use in `textual_private` again, then READ_FROM."""
    assert tuple(int(part) for part in textual.__version__.split(".")[:2]) == READ_FROM


def test_each_private_name_exists_with_the_signature_we_call():
    assert isinstance(textual_private.active_message_pump, ContextVar)
    assert parameters(App._handle_exception) == ["self", "error"]
    assert inspect.iscoroutinefunction(App._check_bindings)
    assert parameters(App._check_bindings)[:2] == ["self", "key"]
    for forwarding in (Screen._forward_event, Widget._forward_event):
        assert parameters(forwarding) == ["self", "event"]
    assert {"full", "screen_stack"} <= set(parameters(Compositor.render_update))
    assert isinstance(App.__dict__["_background_screens"], property)
    # (instance attributes: `_bindings.key_to_bindings`, `_filters`, `_closing`, `__watchers`
    # are read in the app below)


class Counter(Label):
    count: reactive[int] = reactive(0)


class Watcher(Label):
    def __init__(self, watched: Counter) -> None:
        super().__init__("watching")
        self.watched = watched

    def on_mount(self) -> None:
        self.watch(self.watched, "count", self.seen)

    def seen(self, count: int) -> None:
        self.update(f"seen {count}")


class Break(Message):
    """Raise, on purpose."""


class Broken(Label):
    def on_break(self) -> None:
        self.app.pumps.append(running_pump())  # type: ignore[attr-defined]
        raise ValueError("broken on purpose")


class Private(CatchingApp[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "cross", "Cross")]

    def __init__(self) -> None:
        super().__init__()
        self.crossed = 0
        self.caught_here: list[Exception] = []
        self.pumps: list[object] = []

    def compose(self) -> ComposeResult:
        yield Label("private parts", id="title")
        yield Counter(id="counter")
        yield Input(id="line")
        yield Broken("broken", id="broken")

    def action_cross(self) -> None:
        self.crossed += 1

    def caught(self, error: Exception) -> None:
        self.caught_here.append(error)


async def test_each_private_use_still_does_what_we_use_it_for():
    app = Private()
    async with app.run_test(size=(40, 8)) as pilot:
        # key_bindings: the app's own key, and a widget's from its class
        assert [binding.action for binding in key_bindings(app)["f2"]] == ["cross"]
        assert "backspace" in key_bindings(app.query_one(Input))
        # press_binding runs the key's binding now
        assert await press_binding(app, "f2") is True and app.crossed == 1
        assert await press_binding(app, "f3") is False
        # forward_key: a key sent on to a widget is typed there
        line = app.query_one(Input)
        line.focus()
        await pilot.pause()
        forward_key(line, events.Key("q", "q"))
        await pilot.pause()
        assert line.value == "q"

        # line_filters is the very list the app draws through
        class Marker(LineFilter):
            def apply(self, segments: Any, background: Any) -> Any:
                return segments

        marker = Marker()
        line_filters(app).append(marker)
        assert marker in app.get_line_filters()
        line_filters(app).remove(marker)
        # rendered: what the terminal shows
        console = Console(width=40, height=8, file=io.StringIO(), record=True)
        console.print(rendered(app))
        assert "private parts" in console.export_text()
        # release_removed_watchers: a watcher of a removed widget is let go, a live one kept
        counter = app.query_one(Counter)
        gone, kept = Watcher(counter), Watcher(counter)
        await app.mount(gone, kept)
        await pilot.pause()
        assert len(getattr(counter, "__watchers")["count"]) == 2
        await gone.remove()
        assert release_removed_watchers(counter) == 1
        counter.count = 3
        await pilot.pause()
        assert str(kept.render()) == "seen 3"


async def test_an_exception_in_a_handler_is_caught_and_says_where_it_was():
    """`CatchingApp.caught` hears it (Textual stops that widget's message loop), and
    `running_pump` is the widget whose handler raised it; `close_to_messages` shuts the
    stopped widget's queue, which Textual leaves open."""
    app = Private()
    async with app.run_test(size=(40, 8)):
        broken = app.query_one(Broken)
        broken.post_message(Break())
        deadline = time.monotonic() + 10
        while not app.caught_here and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert [str(error) for error in app.caught_here] == ["broken on purpose"]
        assert app.pumps == [broken] and app.is_running
        # Its loop has ended, yet it takes messages (nothing will handle them) until closed
        while broken.is_running and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert not broken.is_running and broken.post_message(Break())
        close_to_messages(broken)
        assert not broken.post_message(Break())
        app.exit()
