"""Every dialog of ours with buttons, one after another, for a real terminal to show (tmux).

`python -m tests.e2e.dialog_gallery OUT` shows the first dialog and writes a JSON line to OUT:
its name and the labels of the buttons it shows; F9 shows the next one. After the last one it
writes `{"done": true}` and quits. `test_dialogs_in_tmux.py` reads the terminal against OUT.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Button

from tablegames.bots import get_bot
from tablegames.rules import get_game
from tablegames.tui.screens.crabs_dialogs import CrabsOver
from tablegames.tui.screens.crates_round import RoundSummary
from tablegames.tui.screens.dialogs import QuitDialog
from tablegames.tui.screens.handoff import HandoffScreen
from tablegames.tui.screens.kraken_dialogs import PassOnNotice, VoyageOver
from tablegames.tui.screens.lobby import NewTableDialog
from tablegames.tui.screens.network import HostScreen, JoinScreen
from tablegames.tui.screens.results import FinalStandings
from tablegames.tui.screens.roach_dialogs import PeekNotice, RoachResult
from tablegames.tui.screens.setup import SetupScreen

NAMES = ["Sara", "Ada (bot)", "Bruno (bot)", "Chidi (bot)"]


def finished(game: str, players: int = 4) -> dict[str, Any]:
    """The last view of a bot game of `game` (seat 0's). When no bot moves, the clock runs on
    to the game's next deadline (crabs waits on its clock: without it, its game never ended
    and the loop spun its 100 000 turns, 13 s of CPU, for a view of a game still going)."""
    state = get_game(game).new(players, 3)
    bots = [get_bot(game, "normal", seat, random.Random(seat)) for seat in range(players)]
    now = 0.0
    for _ in range(100_000):
        if state.over:
            break
        for seat in sorted(state.waiting_for()):
            action = bots[seat].choose(state.view(seat), state.legal(seat))
            if action is not None:
                state.apply(seat, action, now)
                break
        else:
            due = state.deadline()
            assert due is not None, f"{game}: no bot moves and nothing is due"
            now = max(now, due)
            state.apply(0, {"type": "time"}, now)
        now += 1.0
    assert state.over, f"{game} did not end"
    return state.view(0)


def crates_round() -> dict[str, Any]:
    """Crates' view once its first round has been scored."""
    state = get_game("crates").new(4, 3, short=True)
    bots = [get_bot("crates", "normal", seat, random.Random(seat)) for seat in range(4)]
    while not state.view(0).get("last_round"):
        seat = min(state.waiting_for())
        state.apply(seat, bots[seat].choose(state.view(seat), state.legal(seat)) or {})
    return state.view(0)


def round_scores() -> RoundSummary:
    view = crates_round()
    return RoundSummary(view["last_round"], view["scores"], view["rounds"], NAMES)


def forgetting() -> QuitDialog:
    dialog = QuitDialog("Leave this game? It is saved.", saving=True)
    dialog.call_after_refresh(dialog._ask_to_forget, True)
    return dialog


#: (name, whether a party's game, the screen) for each dialog, in order.
DIALOGS: list[tuple[str, bool, Callable[[], Screen[Any]]]] = [
    ("leave, saved", False, lambda: QuitDialog("Leave this game? It is saved.", saving=True)),
    ("leave, forget?", False, forgetting),
    ("leave, unsaved", False, lambda: QuitDialog("Leave this game?")),
    ("leave a party table", True, lambda: QuitDialog("Leave this table?", menu="Lobby")),
    ("hand-off", False, lambda: HandoffScreen(1, "Bruno Bartholomew", "B")),
    ("round scores", False, round_scores),
    ("crates over", False, lambda: FinalStandings([30, 12, 55, 80], NAMES)),
    ("crates over, party", True, lambda: FinalStandings([30, 12, 55, 80], NAMES)),
    ("roach peek", False, lambda: PeekNotice("royal-bat", "Ada (bot)", "fly")),
    ("roach over", False, lambda: RoachResult(finished("roach"), NAMES)),
    ("crabs over", False, lambda: CrabsOver(finished("crabs"), NAMES)),
    ("kraken pass on", False, lambda: PassOnNotice("Everyone's eyes were closed.")),
    ("kraken over", True, lambda: VoyageOver(
        "The sailors win: the ship reached Bluewater Bay.",
        [(name, "sailor", True) for name in NAMES], ["Sara: sailor, won."])),
    ("new party table", True, NewTableDialog),
    ("set up crates", False, lambda: SetupScreen("crates")),
    ("join", False, JoinScreen),
    ("host", False, HostScreen),
]  # fmt: skip


class Gallery(App[None]):
    """Shows `DIALOGS` one by one; F9 goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f9", "next", "Next", priority=True)]

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out
        self.index = -1
        self.in_party = False

    def on_mount(self) -> None:
        self.action_next()

    def action_next(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.index += 1
        if self.index >= len(DIALOGS):
            self._say({"done": True})
            self.exit()
            return
        name, party, make = DIALOGS[self.index]
        self.in_party = party
        screen = make()
        self.push_screen(screen)
        self.set_timer(0.5, lambda: self._shown(name, screen))

    def _shown(self, name: str, screen: Screen[Any]) -> None:
        labels = [
            str(button.label)
            for button in screen.query(Button)
            if button.region.area  # in sight
        ]
        self._say({"name": name, "buttons": labels})

    def _say(self, line: dict[str, Any]) -> None:
        with self.out.open("a") as out:
            out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    Gallery(Path(sys.argv[1])).run()
