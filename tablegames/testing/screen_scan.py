"""The screen scanner: the whole composited screen holds no player's private text but that of
the player at the keyboard, and nobody's while a hand-off is due or a summary is up.

What is read is what the terminal shows: Textual's compositor output for the screen on top and
every screen showing through it (`screens.screen_text`), so a dialog's box and whatever it dims
are read alike. What counts as a seat's private text comes from the game, never from the screen:

- the private parts of the seat's view (the keys where its view differs from a spectator's),
  each word as the screens write it (`prettify`: `10H` is `10♥`), left out when it is public
  (a word of the spectator's view, its log included) or the holder's own knowledge; on the
  generic screen also each such key as its panel line (`Sealed 4`);
- a game that declares its secrets (`State.secrets`) and declares none for the viewer now
  (the hands shown at the end) has no content to hide;
- the marks every table screen puts on a seat's private view: `Ann's hand` (not `Ann's hand
  (hidden)`), `Ann's secrets`, `Ann (you)`.

Who may see what: the holder (the player who last took the keyboard through a hand-off; the
only human, when there is one) sees their own; while a hand-off is up, or a round's scores or
the end of the game (read by everyone at the keyboard), nobody's private text may show at all.
Bots' secrets never show.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen, ScreenResultType

from ..drivers import LocalClient
from ..rules import SHARED_VIEW_KEYS, Action, State
from ..tui.app import TableGamesApp
from ..tui.screens.game import GameScreen
from ..tui.screens.generic import GenericScreen
from ..tui.screens.generic_view import Words
from ..tui.screens.handoff import Deliberate, HandoffScreen
from ..tui.screens.results import GameOver
from ..tui.screens.size import TooSmall
from ..tui.widgets.card import prettify
from .hurried import HotSeat
from .screens import STILL, screen_text

WORD = re.compile(r"[\w♠♥♦♣-]+")
BOT_MOVES = 50  # the most bot moves in a row between two steps


def shared(screen: Screen[ScreenResultType]) -> bool:
    """True if `screen` is read by everyone at the keyboard (a hand-off, a round's scores, the
    end of a game): nobody's private text may show with it up."""
    return isinstance(screen, HandoffScreen) or (
        isinstance(screen, Deliberate) and screen.READ_BY_ALL
    )


def closing_key(screen: Screen[ScreenResultType]) -> str:
    """The key that closes `screen`: its binding for `close` (a round's scores: "n"), else
    Enter."""
    closing = (b.key for b in screen.BINDINGS if isinstance(b, Binding) and b.action == "close")
    return next(closing, "enter")


@dataclass(frozen=True)
class Needle:
    """Text that betrays a seat's secret on screen, and what it betrays."""

    text: str
    why: str
    whole_word: bool = True


def _strings(value: object) -> Iterable[str]:
    """Every string inside a piece of a view."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _words(value: object) -> set[str]:
    """Every word inside a piece of a view, lower case, as written and as the screens write it."""
    found: set[str] = set()
    for text in _strings(value):
        for form in (text, prettify(text)):
            found.update(word.lower() for word in WORD.findall(form))
    return found


def _lines(text: str) -> str:
    """`text` with every run of spaces one space (a panel's label and value line up)."""
    return "\n".join(re.sub(r"\s+", " ", line) for line in text.splitlines())


def seat_needles(
    state: State, seat: int, viewer: int | None, names: list[str], said: object = ()
) -> list[Needle]:
    """What on screen would show `seat`'s private text to `viewer` (None: nobody's may show);
    `said`: what the players said in public (the table's talk: claims name factions)."""
    name = names[seat]
    needles = [
        Needle(f"{name}'s hand", f"{name}'s hand is drawn", whole_word=False),
        Needle(f"{name}'s secrets", f"{name}'s secrets are drawn", whole_word=False),
        Needle(f"{name} (you)", f"the table is drawn as {name} sees it", whole_word=False),
    ]
    if state.secrets(viewer) == {}:  # (declared: nothing is secret now, the hands are shown)
        return needles
    own, public = state.view(seat), state.view(None)
    private = {
        key: value
        for key, value in own.items()
        if key not in SHARED_VIEW_KEYS and value != public.get(key)
    }
    known = _words(public) | _words(said)
    if viewer is not None:
        known |= _words(state.view(viewer))
    for key, value in private.items():
        for text in _strings(value):
            word = prettify(text)
            # (a code or a name: a sentence of the view is words every seat's view has)
            if WORD.fullmatch(word) and len(word) > 1 and word.lower() not in known:
                needles.append(Needle(word, f"{name}'s {key} holds {word}"))
    return needles


def panel_needles(state: State, seat: int, viewer: int | None, names: list[str]) -> list[Needle]:
    """On the generic screen, each private key of `seat`'s view as its panel line."""
    words = Words(type(state), names)
    own, public = state.view(seat), state.view(None)
    mine = state.view(viewer) if viewer is not None else {}
    needles = []
    for key, value in own.items():
        if key in SHARED_VIEW_KEYS or key in state.per_seat or value == public.get(key):
            continue
        line = " ".join(f"{words.label(key)} {words.value(key, value)}".split())
        own_line = " ".join(f"{words.label(key)} {words.value(key, mine.get(key))}".split())
        if key in mine and own_line.startswith(line):
            continue  # (the viewer's own line reads the same, or so where it wraps: no tell)
        needles.append(Needle(line, f"{names[seat]}'s {key}: {line}"))
    return needles


@dataclass
class ScreenScan:
    """Checks the composited screen of one hot-seat table (`client`) step after step."""

    client: LocalClient
    holder: int | None = None  # who has the keyboard (took it through a hand-off)
    checked: int = 0
    shared_checked: int = 0  # frames checked with a hand-off or a summary up
    cramped: int = 0  # frames with the table covered: the terminal too small for it
    findings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.client.seats) == 1:
            self.holder = self.client.seats[0]

    def allowed(self, app: TableGamesApp) -> int | None:
        """The seat whose private text may show now (None: nobody's)."""
        if len(self.client.seats) == 1:
            return self.holder
        if any(map(shared, app.screen_stack)):
            return None
        return self.holder

    def check(self, app: TableGamesApp, step: str = "") -> None:
        """Read the whole screen now and note every private text it shows that it may not."""
        text = _lines(screen_text(app))
        viewer = self.allowed(app)
        self.checked += 1
        if any(map(shared, app.screen_stack)):
            self.shared_checked += 1
        if any(isinstance(screen, TooSmall) for screen in app.screen_stack):
            self.cramped += 1
        state, names = self.client.table.state, self.client.names
        generic = any(isinstance(screen, GenericScreen) for screen in app.screen_stack)
        top = type(app.screen).__name__
        for seat in range(state.players):
            if seat == viewer:
                continue
            needles = seat_needles(state, seat, viewer, names, self.client.table.talk)
            if generic:
                needles += panel_needles(state, seat, viewer, names)
            for needle in needles:
                if _shown(needle, text):
                    allowed = "nobody's" if viewer is None else f"{names[viewer]}'s only"
                    self.findings.append(
                        f"{needle.why} (seen {needle.text!r}) under {top} at {step}, "
                        f"private text {allowed}:\n{text}"
                    )


def _shown(needle: Needle, text: str) -> bool:
    if not needle.whole_word:
        # ("(hidden)" may be cut by a dialog over the panel's title: "(hid█▀▀")
        hidden = re.escape(needle.text) + r" \((h(i(d(d(en?)?)?)?)?)?(?=[█▀▄)]|$)"
        return needle.text in re.sub(hidden, "", text, flags=re.MULTILINE)
    pattern = r"(?<![\w♠♥♦♣])" + re.escape(needle.text) + r"(?![\w♠♥♦♣])"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


# -- hot-seat play, step by step ------------------------------------------------------------------
def _table_screen(app: TableGamesApp) -> GameScreen | None:
    tables = [screen for screen in app.screen_stack if isinstance(screen, GameScreen)]
    return tables[-1] if tables else None


async def play_scanned(
    table: HotSeat, seed: int, size: tuple[int, int], steps: int = 150, hurry: int = 4
) -> ScreenScan:
    """Play `table` hot-seat at a terminal of `size`, the humans' moves chosen at random and
    sent as the screen's own seat, the bots moving on their own meanwhile; after every step the
    whole screen is scanned. Hand-offs are taken by the named player's key, a round's scores
    closed by theirs; stops at the end of the game or after `steps` steps.

    Between two steps the bots move, and up to `hurry` more moves are made at the table itself
    for the humans it waits for (as if from elsewhere), so that a few minutes of play reach the
    ends of rounds and the game's: the screen is drawn from the updates they bring, as ever, and
    has caught up with them when it is read."""
    client = table.dealt(seed, STILL)  # (the bots move between the steps: `_table_moves`)
    scan, rng = ScreenScan(client), random.Random(seed)
    app = TableGamesApp(client)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for step in range(steps):
            scan.check(app, f"step {step}")
            if await _step(app, pilot, scan, rng, step):
                break
            _table_moves(client, rng, hurry)
            await pilot.pause()
    assert app.problems == [], app.problems
    return scan


async def _step(
    app: TableGamesApp, pilot: Pilot[None], scan: ScreenScan, rng: random.Random, step: int
) -> bool:
    """One step of play at whatever is on screen; True once the game is over and shown."""
    top: Screen[object] = app.screen
    if isinstance(top, GameOver):
        return True
    if isinstance(top, HandoffScreen):
        scan.holder = top.seat
        await pilot.press(top.key)
    elif isinstance(top, Deliberate):  # (a round's scores, or a notice for the player)
        await pilot.press(closing_key(top))
    elif not isinstance(top, GameScreen):  # a question over the table: answered below instead
        await pilot.press("escape")
    table = _table_screen(app)
    if table is not None and table.may_act and app.screen is table:
        _move(scan.client, table, rng)
    await pilot.pause(0.01)
    return False


def _move(client: LocalClient, table: GameScreen, rng: random.Random) -> None:
    """A random legal move of the seat the screen acts for, sent as the screen sends one."""
    seat = table.active_seat
    update = client.update(seat)
    turn = seat in client.waiting_for()
    legal: list[Action] = update.legal
    if legal and (turn or rng.random() < 0.2):
        client.submit(seat, rng.choice(legal), update.version)


def _table_moves(client: LocalClient, rng: random.Random, hurry: int) -> None:
    """The bots' moves, until a human is waited for (bounded), and up to `hurry` random moves of
    the humans the table waits for, made at the table itself."""
    table = client.table
    for _ in range(BOT_MOVES):
        move = table.bot_move()
        if table.over or move is None:
            break
        table.submit(*move)
    for _ in range(rng.randint(0, hurry)):
        waiting = sorted(table.state.waiting_for() & set(client.seats))
        if table.over or not waiting:
            return
        seat = rng.choice(waiting)
        table.submit(seat, rng.choice(table.state.legal(seat)))
