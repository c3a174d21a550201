"""What every game's table screen shares: following the table, hand-offs, dialogs, bots, leaving.

A game's screen subclasses `GameScreen` and draws its own table (`_draw`); the shell here keeps
it up to date. After every accepted action `_sync` brings the screen up to date in one order:
the screen the table waits behind comes first (a round's scores, the results, the hot-seat
hand-off before another player's secrets), then the table is drawn, then `_prompt` asks what
the game wants asked. The hooks a game may override are the methods marked "Games ..." below.

Keys and updates may come in any order (a hurried player, a bot moving, a slow network), and
the screen is built so that none can answer a question nobody saw (see `typeahead.py`):
whenever what the player at the keyboard is asked changes — another seat, a hand-off passed,
the table's question for the seat (`Update.asked`) — keys typed before it and in the moment
after it are dropped; screens the table opens by itself do the same; and every action names
the version of the view it was chosen on, so the table refuses one that answered an older
question.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.actions import parse
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static
from textual.worker import Worker, WorkerState

from ...net.words import seat_words, seats_since
from ...rules import GAMES
from ..asks import Farewell, Rematch, ShowMenu
from ..catalogue import screen_class
from ..client import pacing, saving, seat_presence
from ..textual_private import close_to_messages, key_bindings
from ..widgets.log import GameLog, event_line
from ..widgets.notices import NoticeLine
from .dialogs import PickDialog, QuitDialog
from .handoff import Aside, HandoffScreen, handoff_keys
from .help import HelpScreen
from .pacing import PACE_BINDINGS, PACE_KEYS, next_pace, pace_words
from .recap import digest
from .results import GameOver, rating_line
from .size import TooSmall, too_small
from .typeahead import TypeAhead

if TYPE_CHECKING:
    from ...table import Update
    from ..client import TableClient

#: A screen to put over the table, and what to do with its answer when it closes.
Overlay = tuple[Screen[Any], Callable[[Any], None]]

#: The keys every game screen ends with, in its footer and in its help.
SHARED_BINDINGS: list[BindingType] = [
    *PACE_BINDINGS,
    Binding("pageup", "scroll_log(-1)", "Log back", show=False),
    Binding("pagedown", "scroll_log(1)", "Log on", show=False),
    Binding("home", "log_end(False)", "Log start", show=False),
    Binding("end", "log_end(True)", "Log end", show=False),
    Binding("question_mark", "help", "Help", key_display="?"),
    Binding("q", "quit", "Quit"),
]
SHARED_KEYS = (
    ("PgUp PgDn", "scroll the log back and on"),
    ("Home End", "the log's oldest line, and back to its newest"),
    ("?", "this help"),
    ("q", "leave the game"),
)
BANNER_SHOWN = 8.0  # seconds a banner stays over the table
#: Said (for this long) when a key of the game came as its question changed, and was dropped.
EARLY_KEY = "A key pressed as the table changed was not taken: press it again now."
EARLY_KEY_SHOWN = 3.0
#: Terminals at least this wide show the action buttons beside the hand (the keys do it all).
BUTTONS_FROM = 80
#: The status line while a question waits in a dialog over the table.
DIALOG_WAITS = "Answer the question above (Back, or Esc, goes back)."


class ActionButton(Button, can_focus=False):
    """A button for the mouse that never takes the keyboard away from the table."""


class GameScreen(TypeAhead, Screen[None]):
    """One table seen from this terminal: hot-seat for several seats, watching for none.

    `humans` are the seats played here; `active_seat` is the one the screen acts for now and
    `shown_seat` the one whose player last took the keyboard: secrets show only when they agree.
    """

    DEFAULT_CSS = """
    GameScreen #away { dock: top; height: 1; padding: 0 1; display: none;
        background: $warning 30%; text-style: bold; }
    GameScreen > NoticeLine { dock: top; }
    """
    GAME: ClassVar[str]  # the game's name, for its rules in the help
    TURN_BASED: ClassVar[bool] = True  # turns to sum up, and bots to pace (not real time)
    GAME_ACTIONS: ClassVar[frozenset[str]] = frozenset()  # the game's own keys' actions
    KEYS: ClassVar[tuple[tuple[str, str], ...]]  # the game's own keys and what they mean, for help
    AUTO_FOCUS = None  # keys go to the table, never to a button or the log
    SHOWS_NOTICES = True  # news and chat show above the table (`NoticeLine`), never over it

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Help and quit come last in every footer: Textual lists a base class's bindings
        # first, so they are added to each game's own list rather than declared here.
        if "BINDINGS" in cls.__dict__:
            own = [binding for binding in cls.BINDINGS if isinstance(binding, Binding)]
            cls.GAME_ACTIONS = frozenset(parse(binding.action)[1] for binding in own)
            cls.BINDINGS = [*cls.BINDINGS, *SHARED_BINDINGS]
        super().__init_subclass__(**kwargs)

    def __init__(self, client: TableClient, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.client = client
        self.ascii = ascii
        self.dash = "-" if ascii else "—"
        self.humans = sorted(client.seats)
        self.watching = not self.humans  # a spectator: no hand, no actions
        self.active_seat = self.humans[0] if self.humans else 0  # the seat the screen acts for
        self.shown_seat: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.message = ""
        self.logs: dict[int, list[dict[str, Any]]] = {}  # each local seat's log lines
        self.turn_ended: dict[int, int] = {}  # each local seat's log length when its turn ended
        self.recaps: dict[int, list[tuple[int, str]]] = {}  # (where, summary) in its log
        self._waited_for: dict[int, bool] = {}  # whether the table waited for each local seat
        self.over = False
        self.covered = 0  # dialogs of ours on top of this screen
        self._sync_due = False
        self._by_itself = False  # screens opened now open by themselves (not at a key)
        self._asked: tuple[Any, ...] | None = None  # what the keyboard's player was last asked
        self.seen_version = 0  # the version of the table the player last saw uncovered
        self.handing: HandoffScreen | None = None  # the hand-off up now
        self._left = False  # the table is left: it follows and draws nothing more
        self._bot_worker: Worker[None] | None = None
        self.paused = False  # the player paused the bots (space)
        self._cramped = False  # `TooSmall` covers the table
        self._told_early = -1.0  # the question (`asked_at`) a dropped early key was told for

    # -- following the table --------------------------------------------------------------------
    def on_mount(self) -> None:
        if self.read_only:  # a replay: the buttons would only say what cannot be done
            for button in self.query(ActionButton):
                button.display = False
        for seat in self.humans or [self.active_seat]:
            self.logs[seat] = list(self._update(seat).view["log"])
            self.turn_ended[seat] = len(self.logs[seat])
            self._waited_for[seat] = self._waits_for(seat)
        self.over = self._update(self.active_seat).over
        self._fit_footer()
        self.client.listen(self._table_changed)
        self.client.listen_notices(self._notice)  # (a network client's refusals, seat news)
        self.mount(NoticeLine())  # news and chat, above the table: never over it
        self._fit_notices()
        if seat_presence(self.client) is not None:  # a network table: who is away shows over it
            self.mount(Static(id="away"))
            self._show_away()
            # Each second: an away time said in seconds must count (it once sat at "0 s").
            self.set_interval(1, self._show_away)
        self._begin()

    def _begin(self) -> None:
        """Start play once mounted and listening. Games name their panels here first."""
        self._start_bots()
        self._sync()
        self.check_size()

    def on_resize(self) -> None:
        if self.is_mounted and not self._left:
            self._fit_footer()
            self._fit_notices()
            self._draw()
            self.call_after_refresh(self._fit_titles)
            self.check_size()

    def _fit_titles(self) -> None:
        """In ASCII, cut border titles that do not fit with `~`: the border would cut them
        with `…`, which is no ASCII."""
        if not self.ascii or not self.is_mounted:
            return
        for widget in self.query(Widget):
            room = widget.outer_size.width - 6  # corners, a line and a space each side
            for side in ("border_title", "border_subtitle"):
                title = getattr(widget, side)
                if title and 1 < room < len(str(title)):
                    setattr(widget, side, str(title)[: room - 1] + "~")

    def _fit_notices(self) -> None:
        """As many notice lines as the terminal has rows to spare beyond the table's (one, at
        the table's smallest size: the newest)."""
        for line in self.query(NoticeLine):
            line.fit(self.app.size.height - self.min_size()[1])

    def _fit_footer(self) -> None:
        """Keys closer together in a narrow terminal: help and quit stay in sight."""
        for footer in self.query(Footer):
            footer.compact = self.app.size.width < BUTTONS_FROM

    def check_size(self) -> None:
        """Cover the table with `TooSmall` while the terminal is smaller than the game needs:
        a table drawn garbled must not take keys either."""
        if self._left or self.read_only or self._cramped:
            return
        needed = self.min_size()
        if too_small(self.app.size, needed):
            self._cramped = True
            self._open(TooSmall(needed, "x" if self.ascii else "×"), self._roomy)

    def min_size(self) -> tuple[int, int]:
        """The smallest terminal (columns, rows) the table fits in. Games with more to show
        override."""
        return (60, 20)

    def _roomy(self, choice: str | None) -> None:
        self._cramped = False
        if choice == "quit":
            self.call_later(self.action_quit)

    def on_unmount(self) -> None:
        self.close()
        close_to_messages(self)  # (its message loop has ended: a mistake may have ended it)

    def close(self) -> None:
        """Stop following the table and driving its bots (the screen is going away)."""
        self._left = True
        self._stop_bots()

    @property
    def names(self) -> list[str]:
        return list(self.client.names)

    def hidden_words(self, secrets: str) -> str:
        """What a watcher's panel says in place of `secrets` ("every hand"): hidden from them,
        or in a replay of every seat, listed in the replay's own panel below."""
        if self.read_only:
            return f"A replay of every seat: {secrets} is listed below."
        return f"You are watching: {secrets} stays hidden."

    @property
    def private(self) -> bool:
        """True when the player at the keyboard may see the active seat's secrets."""
        return not self.watching and self.shown_seat == self.active_seat

    def owned(self, thing: str) -> str:
        """`Your hand`; `Sara's hand` when several play at this keyboard, or in a replay (where
        nobody is "you": it is her hand, and her turn)."""
        if len(self.humans) == 1 and not self.read_only:
            return f"Your {thing}"
        return f"{self.names[self.active_seat]}'s {thing}"

    @property
    def addressed(self) -> int | None:
        """The seat told "your turn" (a replay tells nobody: it names whose turn it is)."""
        return None if self.read_only or not self.private else self.active_seat

    def _update(self, seat: int) -> Update:
        update = self.client.update(seat)
        assert update is not None, "the table screen opens after the first update"
        return update

    def _view(self) -> dict[str, Any]:
        return self._update(self.active_seat).view

    def log_line(self, event: dict[str, Any]) -> str:
        """An engine's sentence as this game writes it: names for seats, codes in words. The log,
        the refusals and a replay's bar all say things in these words. Games override."""
        return event_line(event, self.names, self.ascii)

    def secret_words(self, view: dict[str, Any]) -> str:
        """What the seat whose `view` it is knows and others do not, in a line of words (a
        replay of every hand lists each seat's). Games say it; "" leaves it to the replay."""
        return ""

    def _notice(self, kind: str, text: str) -> None:
        """A network client's refusal of our action, or news of the seats (chat and table news
        are app banners)."""
        if self._left:
            return
        if kind == "error":
            self._refused(text)
        elif kind == "seats":
            self._show_away()

    def _show_away(self) -> None:
        """Over the table, one line naming who is away, for how long, and who plays for them."""
        network = seat_presence(self.client)
        presence = network.presence if network is not None else None
        if network is None or not presence or not self.is_mounted or not self.query("#away"):
            return
        since = time.monotonic() - network.presence_at
        away = [
            seat_words(seat) for seat in seats_since(presence.seats, since) if seat.away is not None
        ]
        strip = self.query_one("#away", Static)
        strip.update(Text("Away: " + "; ".join(away)) if away else "")
        strip.display = bool(away)

    def _table_changed(self, seat: int | None, update: Update) -> None:
        """Called by the table for each local seat after every accepted action."""
        if self._left:
            return
        self._take(self.active_seat if seat is None else seat, update)
        if update.over:
            self.over = True
        if not self._sync_due:
            self._sync_due = True
            self.call_later(self._sync)

    def _take(self, seat: int, update: Update) -> None:
        """Keep what `update` tells `seat`: its new log lines. Games keep more."""
        self.logs.setdefault(seat, []).extend(update.events)

    def _sync(self) -> None:
        """Bring the screen up to date: what covers the table first, then the table, then any
        question for the player."""
        self._sync_due = False
        if self._left:
            return
        self._choose_seat()
        self._note_turns()
        if self.handing is not None and self.handing.seat != self.active_seat:
            seat = self.active_seat
            self.handing.hand_to(seat, self.names[seat], self.handoff_key(seat))
        overlay = None if self.covered else self._screen_due()
        self._draw()  # a hand is blanked before a hand-off covers the screen
        self._fit_titles()
        if not self.read_only:  # (a replay's keys are its controls': this footer is hidden)
            self.refresh_bindings()  # the footer shows the keys that do something now
        self._note_question()
        self._by_itself = True  # what opens now opens by itself
        try:
            if overlay is not None:
                self._open(*overlay)
            elif not self.covered and not self.read_only:
                self._prompt()
        finally:
            self._by_itself = False

    #: The actions of this table's keys that work while a question is open over it, typed in
    #: the question or tapped in this footer: help, leaving, the log. A game's own keys wait
    #: for the answer (a game adds any that make sense meanwhile: talk), and so does the bots'
    #: pace (space is no answer to a question, and must not stop the table behind it).
    OVER_QUESTIONS: ClassVar[frozenset[str]] = frozenset(("help", "quit", "scroll_log", "log_end"))

    def works_over_questions(self, key: str) -> str | None:
        """The action `key` runs on this table while a question is open over it (None: it
        waits for the answer)."""
        for binding in key_bindings(self).get(key, []):
            _, name, parameters = parse(binding.action)
            if name in self.OVER_QUESTIONS and self.check_action(name, parameters) is not False:
                return binding.action
        return None

    @property
    def question_open(self) -> bool:
        """True when the screen on top is a question of ours over this table."""
        return self.covered > 0 and isinstance(self.app.screen, PickDialog)

    def typed_in_time(self, event: Message) -> bool:
        """Keys that answer the game (its own keys: play, pick, decide...) are dropped while a
        new question settles; the others (help, leave, the log, the bots' pace) never are."""
        if super().typed_in_time(event) or not isinstance(event, events.Key):
            return True
        keys = key_bindings(self).get(event.key, [])
        return not any(parse(binding.action)[1] in self.GAME_ACTIONS for binding in keys)

    def dropped(self, event: events.Key) -> None:
        """A key of the game typed as its question changed was dropped: say so, once for the
        question and briefly (a banner), so a key that did nothing is not a mystery."""
        if self._told_early == self.asked_at or not self.may_act:
            return
        self._told_early = self.asked_at
        self._banner(EARLY_KEY, seconds=EARLY_KEY_SHOWN)

    def _note_question(self) -> None:
        """Note what the player at the keyboard is asked now; when it changed, keys typed
        before it and in the moment after it are dropped (`TypeAhead`)."""
        update = self._update(self.active_seat)
        asked = (self.active_seat, self.private, self.over, update.asked if self.private else 0)
        if asked != self._asked:
            self._asked = asked
            self.ask_anew()
        if not self.covered:
            self.seen_version = update.version

    # -- the log ----------------------------------------------------------------------------------
    def _loggable(self, event: dict[str, Any]) -> bool:
        """True if `event` goes in the log. Games leave out what their panels already show."""
        return True

    def _in_runs(self, event: dict[str, Any]) -> bool:
        """True if `event` is news that may come again and again (crabs: nobody swaps, the
        ocean is refilled): a run of it is one line with a count (`_run_line`), the lines
        between two of them that `_within_runs` allows going into it. None by default."""
        return False

    def _within_runs(self, event: dict[str, Any]) -> bool:
        """True if `event`, between two of a run, goes into the run's line (the moves that
        led to it again); anything else ends the run, so nothing that matters is hidden."""
        return False

    def _run_line(self, event: dict[str, Any], times: int) -> str:
        """The one line for a run of `times` (the latest `event`). Games with runs say it."""
        return self.log_line(event)

    def _shown(self, event: dict[str, Any], seat: int, private: bool) -> bool:
        """True if `event` is a line of `seat`'s log as its player reads it (`private`: with
        their own lines). A public line that the seat was also told in words of its own
        (`told`: "Sara draws 4♣" for "Sara draws 1 card") shows only in those words."""
        if not private and event.get("to") is not None:
            return False  # another player's private lines must not show before the hand-off
        return self._loggable(event) and not (private and seat in event.get("told", ()))

    def _show_log(self) -> None:
        """Bring the log up to date: the active seat's lines as the keyboard's player may read
        them, with the summaries that opened its turns."""
        seat, private = self.active_seat, self.private
        recaps = dict(self.recaps.get(seat, [])) if private else {}
        lines: list[str] = []
        run_at, times = None, 0  # the line saying a run of the same news, and its length
        for number, event in enumerate(self.logs.get(seat, [])):
            if number in recaps:
                lines.append(recaps[number])
                run_at = None
            if not self._shown(event, seat, private):
                continue
            if self._in_runs(event) and run_at is not None:  # the same again: one line says all
                times += 1
                del lines[run_at + 1 :]
                lines[run_at] = self._run_line(event, times)
                continue
            if self._in_runs(event):
                run_at, times = len(lines), 1
            elif run_at is not None and not self._within_runs(event):
                run_at = None
            lines.append(self.log_line(event))
        if len(self.logs.get(seat, [])) in recaps:
            lines.append(recaps[len(self.logs[seat])])
        self.query_one("#log", GameLog).show(lines, source=(seat, private))

    def _waits_for(self, seat: int) -> bool:
        update = self._update(seat)
        return seat in update.waiting and not update.over

    def _note_turns(self) -> None:
        """Open each local seat's turn with what happened since its last one that the log
        cannot show (see `recap.py`)."""
        if not self.TURN_BASED or self.read_only:
            return
        for seat in self.humans:
            waited, was = self._waits_for(seat), self._waited_for.get(seat, False)
            events = self.logs.get(seat, [])
            if waited and not was:
                start = self.turn_ended.get(seat, 0)
                since = [n for n in range(start, len(events)) if self._shown(events[n], seat, True)]
                opened = self._recap([events[n] for n in since])
                if opened is not None:
                    summed, text = opened
                    where = since[summed] if summed < len(since) else len(events)
                    self.recaps.setdefault(seat, []).append((where, text))
            elif was and not waited:
                self.turn_ended[seat] = len(events)
            self._waited_for[seat] = waited

    def _recap(self, events: list[dict[str, Any]]) -> tuple[int, str] | None:
        """How a turn opens after `events`: how many of the oldest are summed up, and the
        summary; None when the log shows them all."""
        log = self.query_one("#log", GameLog)
        region = log.scrollable_content_region
        height = region.height or 5  # (not laid out yet: the log's height at 80x24)
        width = max(10, (region.width or self.app.size.width - 4) - 1)  # (a scrollbar may come)
        console = self.app.console

        def rows(line: str) -> int:
            return len(Text(line).wrap(console, width))

        return digest(events, self.names, self.log_line, rows, height, self.ascii)

    def action_scroll_log(self, pages: int) -> None:
        self.query_one("#log", GameLog).page(pages)

    def action_log_end(self, newest: bool) -> None:
        self.query_one("#log", GameLog).to_end(newest)

    def _show_button(self, name: str, shown: bool) -> None:
        """Show or hide the action button `name`; none shows to a spectator, before a hand-off,
        once the game is over, or in a replay (nothing can be done)."""
        self.query_one(f"#{name}", ActionButton).display = shown and self.may_act

    @property
    def read_only(self) -> bool:
        """True when nobody plays through this screen (a replay): nothing is asked."""
        return self.client.read_only

    def _choose_seat(self) -> None:
        """Act for the first local seat the table waits for. Games with other turns override."""
        waiting = sorted(seat for seat in self.client.waiting_for() if seat in self.humans)
        if waiting:
            self.active_seat = waiting[0]

    def _screen_due(self) -> Overlay | None:
        """What the table waits behind: the results once the game is over, else a hand-off.
        Games add their own (a round's scores)."""
        if self.over:
            self._stop_bots()  # nothing is left for them to do
            results = self._results()
            if isinstance(results, GameOver):
                results.ratings = rating_line(self.client.rating_changes(), self.names)
            return results, self._end
        return self._handoff()

    def _handoff(self) -> Overlay | None:
        """The hand-off, when another local player's secrets come next (hot-seat). Games
        played by one player per terminal have none."""
        if self.active_seat == self.shown_seat or self.watching:
            return None
        if len(self.humans) == 1:
            self.shown_seat = self.active_seat
            return None
        seat = self.active_seat
        self.handing = HandoffScreen(
            seat, self.names[seat], self.handoff_key(seat), self.ascii, self._handoff_aside()
        )
        return self.handing, self._after_handoff

    def handoff_key(self, seat: int) -> str:
        """The key `seat`'s player opens their hand-off with: a letter of their name that no
        key of this table and no other player here uses (`handoff_keys`)."""
        taken = [*key_bindings(self), *key_bindings(self.app)]
        keys = handoff_keys([self.names[human] for human in self.humans], taken)
        return dict(zip(self.humans, keys, strict=True))[seat]

    def _handoff_aside(self) -> Aside | None:
        """What the player leaving the keyboard may still do on the hand-off. Games offer it."""
        return None

    def _after_handoff(self, seat: int | None) -> None:
        """The player the hand-off named last has the keyboard (None: they chose to quit). If
        the table has since moved on to another seat, the next sync hands it on again."""
        self.handing = None
        if seat is None:
            self.action_quit()
            return
        self.shown_seat = seat
        self.message = ""
        self._keyboard_passed()

    def _keyboard_passed(self) -> None:
        """The active seat's player has the keyboard. Games forget the last player's picks."""

    def _prompt(self) -> None:
        """Ask the player whatever the table, drawn and uncovered, waits for. Games override."""

    def _results(self) -> Screen[str]:
        """The screen that ends the game, answering "quit" or "menu". Games override."""
        raise NotImplementedError

    def _draw(self) -> None:
        """Draw the whole table as the active seat may see it. Games override."""
        raise NotImplementedError

    # -- saying things --------------------------------------------------------------------------
    def _say(self, message: str) -> None:
        """Put `message` on the status line. Games also note when it goes stale."""
        self.message = message
        self.query_one("#status", Static).update(Text(message))

    def _banner(self, message: str, seconds: float = BANNER_SHOWN) -> None:
        """Put `message` in the notice line above the table for a few seconds: news that must
        not go by as one more line of the log."""
        tell = getattr(self.app, "tell", None)  # (the app's notices: `TableGamesApp.tell`)
        if tell is not None:
            tell(message, "game", seconds)

    def _refused(self, reason: str) -> None:
        """Say why something was refused; over a dialog, in a banner (the status line is the
        dialog's then)."""
        self._say(self._refusal_mark + self.log_line({"text": reason, "to": None}))
        if self.covered:
            self._banner(self.message)

    @property
    def _refusal_mark(self) -> str:
        return "x " if self.ascii else "✗ "

    # -- dialogs --------------------------------------------------------------------------------
    def _open(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """Push `screen` over this one; `then(result)` runs when it closes, then a fresh sync.

        A screen that opens by itself (from `_sync`: the table's question, a hand-off, the
        results) drops keys typed before it and in the moment after (`TypeAhead.ask_anew`);
        one opened by the player's own key takes the keys they typed with it.
        """
        if isinstance(screen, PickDialog) and not screen.options:  # (the table moved on)
            self._say("There is nothing to choose from now.")
            if then is not None:
                then(None)
            return
        self.covered += 1
        if self._by_itself and isinstance(screen, TypeAhead):
            screen.ask_anew()
        if isinstance(screen, PickDialog):
            screen.set_class(isinstance(self, HandScreen), "-above-hand")  # the hand in sight
            if self.message.startswith(self._refusal_mark):  # why, kept in sight over it
                self._banner(self.message)
            self._say(DIALOG_WAITS)  # what the status line said to do is done or not to be done

        def closed(result: Any) -> None:
            self.covered -= 1
            if self.message == DIALOG_WAITS:
                self.message = ""
            if then is not None:
                then(result)
            self._sync()

        self.app.push_screen(screen, closed)

    def _end(self, choice: str | None) -> None:
        """Leave the table: quit the app, a rematch (a party game), or back to the menu."""
        self._left = True
        if choice == "quit":
            self.app.post_message(Farewell(self.where_saved()))
        elif choice == "rematch":
            self.app.post_message(Rematch())
        else:
            self.app.post_message(ShowMenu())

    # -- bots -----------------------------------------------------------------------------------
    def _start_bots(self) -> None:
        bots = pacing(self.client)
        if bots is None or self._left or self.over or self.paused:
            return
        if self._bot_worker is not None:
            return
        self._bot_worker = self.run_worker(
            bots.run_bots, name="bots", group="bots", exit_on_error=False
        )

    def _stop_bots(self) -> None:
        if self._bot_worker is not None:
            self._bot_worker.cancel()
            self._bot_worker = None

    @property
    def bots_paced_here(self) -> bool:
        """True when this terminal paces the table's bots (a turn-based game on this machine)."""
        bots = pacing(self.client)
        here = bots is not None and bots.paces_bots
        return self.TURN_BASED and here and not self.read_only and not self.over

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys only for a player who may act here (not a spectator, not before
        the hand-off, not once the game is over); they stay out of the footer otherwise."""
        if action == "pause_bots":
            return self.is_mounted and self.bots_paced_here
        if action == "pace":  # (it says what pace, or why there is none to set)
            return self.is_mounted and not self.read_only
        if action in self.GAME_ACTIONS:
            return self.may_act
        return True

    @property
    def may_act(self) -> bool:
        """True when the player at the keyboard may play the active seat now."""
        return self.private and not self.over and not self.read_only

    def action_pause_bots(self) -> None:
        if not self.bots_paced_here:
            return
        self.paused = not self.paused
        if self.paused:
            self._stop_bots()
            self._say("The bots are paused: space lets them play on.")
        else:
            self._start_bots()
            self._say(f"The bots play on{pace_words(self._pace)}.")

    def action_pace(self, step: int) -> None:
        """Bots slower (1) or faster (-1); faster lets paused bots go on. Says the pace, or why
        there is none to set here, on the status line (over a dialog, in a banner)."""
        bots = pacing(self.client)
        if self.bots_paced_here and bots is not None:
            bots.pace = next_pace(bots.pace, step)  # read when its bots start
            self.paused = False
            self._stop_bots()
            self._start_bots()
            said = f"The bots play{pace_words(bots.pace)} (- slower, + faster, space pauses)."
        elif self.over or self.read_only:
            return
        elif bots is None and seat_presence(self.client) is not None:
            said = "The bots play at the pace the host set: - and + pace bots on this machine."
        elif bots is None or not bots.paces_bots:
            said = "No bots play at this table: - and + pace bots."
        else:  # a game played in real time
            said = "The bots play in real time here: --speed sets how fast, as a game starts."
        self._say(said)
        if self.covered:
            self._banner(said)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "bots" and event.state == WorkerState.ERROR:
            self._bot_worker = None
            self._say(f"The bots stopped: {event.worker.error}")

    # -- player actions -------------------------------------------------------------------------
    def _submit(self, action: dict[str, Any]) -> bool:
        """Send `action` for the active seat; a refusal goes to the status line. True if taken."""
        if self.watching:
            self._say("You are watching: you cannot act.")
            return False
        refusal = self.client.submit(self.active_seat, action, self.seen_version)
        if refusal is not None:
            self._refused(refusal)
            return False
        self.message = ""
        # What the player goes on to choose (a peeked card's way on) is chosen on the view
        # their own move made: a table on this machine has it already, a server sends it.
        self.seen_version = self._update(self.active_seat).version
        return True

    def action_help(self) -> None:
        game = self.client.game
        title = game.title if game else self.GAME
        paced = PACE_KEYS if self.TURN_BASED else ()
        self._open(HelpScreen(self.GAME, title, [*self.KEYS, *paced, *SHARED_KEYS], self.ascii))

    def action_quit(self) -> None:
        saved = saving(self.client)
        kept = saved is not None and saved.saved_game() is not None
        party = bool(getattr(self.app, "in_party", False))
        if kept:
            question = 'Leave this game? It is saved: "tablegames resume" brings it back.'
        elif self.watching:
            question = "Stop watching this table?"
        elif party or self._way_back():
            question = "Leave this table? Your seat is kept while the game goes on."
        else:
            question = "Leave this game?"
        dialog = QuitDialog(
            question,
            ascii=self.ascii,
            saving=kept,
            menu="Lobby" if party else "Menu",
            stay="Keep watching" if self.watching else "Keep playing",
        )
        held = self.bots_paced_here and not self.paused  # nobody plays on behind the question
        if held:
            self._stop_bots()

        def answered(choice: str | None) -> None:
            if held and choice is None:
                self._start_bots()
            self._leave(choice)

        self._open(dialog, answered)

    def where_saved(self) -> str:
        """Where an unfinished game went, to say once the app has closed: where it is saved,
        or how to take a network seat back ("" if nothing)."""
        if self.over:
            return ""
        kept = saving(self.client)
        saved = kept.saved_game() if kept is not None else None
        if saved is not None:
            table_id, path = saved
            return (
                f"Game {table_id} is saved in {path}: `tablegames resume {table_id}` continues it."
            )
        way_back = self._way_back()
        server = getattr(self.app, "server", None)
        if way_back and server is not None:  # the table was hosted in this app: it stopped too
            again = f"tablegames host --restore --port {server.port}"
            return f"The table stopped with this app: `{again}` opens it again.\n{way_back}"
        return way_back

    def _way_back(self) -> str:
        network = seat_presence(self.client)
        return network.way_back() if network is not None else ""

    @property
    def _pace(self) -> float:
        bots = pacing(self.client)
        return bots.pace if bots is not None else 0.0

    def _leave(self, choice: str | None) -> None:
        saved = saving(self.client)
        if choice == "discard":
            if saved is not None:
                saved.discard_save()
            choice = "quit"
        if choice is not None:
            self._end(choice)


#: Picking a card from a hand (`HandScreen`): the help lines and the keys.
PICK_KEYS = (
    ("← →", "move the pick along your hand"),
    ("1-9", "pick a card by its number (1 2 for 12)"),
)
PICK_BINDINGS: list[BindingType] = [
    Binding("left", "select(-1)", "Pick", key_display="←→"),
    Binding("right", "select(1)", "Pick", show=False),
    *[Binding(str(n), f"pick({n})", f"Card {n}", show=False) for n in range(10)],
]
#: Seconds in which a second digit makes a two-digit card number (`1` then `2`: card 12).
SECOND_DIGIT = 1.0


class HandScreen(GameScreen):
    """A game played from a hand of cards: arrows move a pick along it, digits pick a card.

    A hand of ten or more is numbered on: `1` picks card 1 at once, and a digit typed within
    `SECOND_DIGIT` seconds after it moves the pick to card 10-19 (`1`, `2`: card 12).

    Games list `PICK_KEYS` and `PICK_BINDINGS` with their own keys (their order is the footer's),
    say how many places the pick can stand on, and show a new pick in `_select`.
    """

    selected: int | None
    _first_digit: tuple[int, float] | None = None  # (digit, when) that may start a number

    def _pickable(self) -> int:
        """How many places the pick can stand on now (0: no hand to pick from)."""
        raise NotImplementedError

    def _select(self, index: int) -> None:
        raise NotImplementedError

    def action_select(self, step: int) -> None:
        count = self._pickable()
        if count and not self.covered:
            start = self.selected if self.selected is not None else -step
            self._select((start + step) % count)

    def action_pick(self, digit: int) -> None:
        count = self._pickable()
        if self.covered or not count:
            return
        now, first = time.monotonic(), self._first_digit
        self._first_digit = None
        if first is not None and now - first[1] < SECOND_DIGIT and first[0] * 10 + digit <= count:
            self._select(first[0] * 10 + digit - 1)
            return
        if 1 <= digit <= count:
            self._select(digit - 1)
            if digit * 10 <= count:
                self._first_digit = (digit, now)


def table_screen(client: TableClient, ascii: bool = False) -> GameScreen:
    """The screen that plays `client`'s game; ValueError if there is none yet.

    A game names its screen (`Game.screen`); a game without one is drawn by
    `screens/generic.py`.
    """
    game = client.game
    if game is not None and game.name in GAMES:
        screen: GameScreen = screen_class(game.name)(client, ascii=ascii)
        return screen
    title = game.title if game is not None else "this game"
    raise ValueError(f"there is no screen for {title} yet")
