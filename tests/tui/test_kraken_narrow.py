"""Feed the Kraken in 60 columns: whole games at one keyboard, every decision asked with the
facts it needs in sight (whose turn, who holds which office, everyone's guns, your faction, the
question), the chart and the log in turn, and status lines that are never cut."""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest
from textual.containers import Vertical
from textual.pilot import Pilot

from tablegames.drivers import LocalClient
from tablegames.local import local_table
from tablegames.testing.harness import until
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.handoff import Deliberate, HandoffScreen
from tablegames.tui.screens.kraken import DecisionDialog, KrakenScreen
from tablegames.tui.screens.kraken_dialogs import VoyageOver
from tablegames.tui.screens.kraken_view import FACTION_WORDS, SECRET_PHASES
from tablegames.tui.screens.size import TooSmall

from .helpers import STILL, opened, screen_text

NAMES = ("Player 1", "Player 2")
DRAWN_SECONDS = 10.0  # (the longest a loaded machine is given to draw what a screen was sent)
OFFICES = {"captain": "Cpt", "lieutenant": "Lt", "navigator": "Nav"}


def hot_seat(players: int, board: str, seed: int) -> LocalClient:
    """Two players at the keyboard, bots in the other seats (still until told to move)."""
    return local_table("kraken", players, humans=2, seed=seed, names=NAMES, pace=STILL, board=board)


def facts_missing(app: TableGamesApp, client: LocalClient, dialog: DecisionDialog) -> list[str]:
    """What a player deciding now cannot see on the whole screen: each player still aboard
    with their office and guns, the arrow at whoever is waited for, the asker's faction, and
    the question with its options."""
    table = next(s for s in app.screen_stack if isinstance(s, KrakenScreen))
    seat = table.active_seat
    view = client.update(seat).view
    text = screen_text(app)
    box = dialog.query_one(Vertical).region  # the question's box, read on its own
    inside = [line[box.x + 1 : box.right - 1] for line in text.splitlines()[box.y : box.bottom]]
    words = " ".join(" ".join(inside).split())
    missing = []
    for other, name in enumerate(client.names):
        if other in view["eliminated"]:
            continue
        shown = re.escape(name.removesuffix(" (bot)")) + (r"\*" if other == seat else "")
        office = next((OFFICES[job] for job in OFFICES if view[job] == other), "")
        raised = ((view["mutiny"] or {}).get("raised") or [None] * len(client.names))[other]
        guns = str(view["guns"][other]) + ("" if raised is None else f"+{raised}")
        job = rf"{office}\s+" if office else r"(off\s+)?"  # (no office: a blank or "off")
        row = rf"{shown}\s+{job}{re.escape(guns)}\b"
        if not re.search(row, text):
            missing.append(f"{name}: {office or 'no office'}, {guns} guns")
    if view["phase"] not in SECRET_PHASES and not re.search(
        rf"▶ {re.escape(client.names[seat])}\*", text
    ):
        missing.append("the arrow at the player deciding")
    if f"* you, a{'n' if view['faction'] == 'cult_leader' else ''} " not in text or (
        FACTION_WORDS[view["faction"]] not in text.splitlines()[table.query_one("#strip").region.y]
    ):
        missing.append("the decider's faction in the crew's title")
    if dialog.title_text.split("\n")[0][:40] not in words:
        missing.append(f"the question: {dialog.title_text!r}")
    for option in dialog.options:
        if f"[{option.key}] {option.label[:20]}" not in words:
            missing.append(f"the option [{option.key}] {option.label}")
    return missing


async def play_by_keys(
    app: TableGamesApp, pilot: Pilot[None], client: LocalClient, seed: int, steps: int = 4000
) -> list[str]:
    """Play a game through the screen (to its end, or `steps` steps): hand-offs by their keys,
    each decision by an option's key, the bots while no human is asked; the status lines are
    read whole at every step. Returns every fact a decision was asked without (none, for a
    game fully playable at this size)."""
    rng, table, missing, decisions = random.Random(seed), client.table, [], 0
    for _ in range(steps):
        top = app.screen
        assert not isinstance(top, TooSmall), "the table does not fit"
        if isinstance(top, VoyageOver):
            break
        if isinstance(top, HandoffScreen):
            await pilot.press(top.key)
        elif isinstance(top, DecisionDialog):
            decisions += 1
            asked = top.title_text[:30]
            shown = await facts_missing_once_drawn(app, pilot, client, top)
            missing += [f"{asked}...: {fact}" for fact in shown]
            await pilot.press(rng.choice(top.options).key)
        elif isinstance(top, Deliberate):  # a notice to pass the keyboard on
            await pilot.press("enter")
        elif isinstance(top, KrakenScreen) and top._my_move():
            await pilot.press("enter")  # (a character's moment keeps it; else the decision)
        elif isinstance(top, KrakenScreen):
            await check_status(app, pilot, top)
            for _ in range(50):  # the bots, until the table waits for a human
                move = table.bot_move()
                if move is None or table.over:
                    break
                table.submit(*move)
        else:
            await pilot.press("escape")
        await pilot.pause()
    assert isinstance(app.screen, VoyageOver) or steps < 4000, "the game did not end"
    assert decisions > 10
    return missing


async def facts_missing_once_drawn(
    app: TableGamesApp, pilot: Pilot[None], client: LocalClient, dialog: DecisionDialog
) -> list[str]:
    """`facts_missing`, once the screen has drawn what it was last sent (on a loaded machine,
    `pilot.pause` takes a starved process for an idle one and returns before it has: seen)."""
    deadline = asyncio.get_running_loop().time() + DRAWN_SECONDS
    while (missing := facts_missing(app, client, dialog)) and (
        asyncio.get_running_loop().time() < deadline
    ):
        await pilot.pause(0.05)
    return missing


async def check_status(app: TableGamesApp, pilot: Pilot[None], top: KrakenScreen) -> None:
    """The status lines show all they say, whole: no word is cut off or left out of sight
    (once drawn)."""
    table = next(s for s in app.screen_stack if isinstance(s, KrakenScreen))
    await until(
        lambda: status_shown(app, table) == status_said(table),
        DRAWN_SECONDS,
        "the status lines shown whole",
        pilot,
    )


def status_said(table: KrakenScreen) -> str:
    """Every word the status lines say."""
    return " ".join(str(table.query_one("#status").render()).split())


def status_shown(app: TableGamesApp, table: KrakenScreen) -> str:
    """The words the terminal shows where the status lines are."""
    box = table.query_one("#status").content_region
    rows = screen_text(app).splitlines()[box.y : box.bottom]
    return " ".join(" ".join(row[box.x : box.right] for row in rows).split())


@pytest.mark.parametrize(
    ("players", "board", "seed"),
    [
        pytest.param(7, "quick", 11, id="7-quick"),
        pytest.param(8, "long", 12, id="8-long", marks=pytest.mark.slow),  # (45 s)
    ],
)
async def test_a_whole_game_at_60_by_20_asks_every_decision_with_its_facts_in_sight(
    players: int, board: str, seed: int
) -> None:
    client = hot_seat(players, board, seed)
    async with opened(client, size=(60, 20)) as (app, pilot):
        missing = await play_by_keys(app, pilot, client, seed)
    assert missing == [], "\n".join(missing[:5])


@pytest.mark.slow  # (the default run reads them whole at every step of a game at 60x20, above)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_status_lines_are_never_cut(size: tuple[int, int]) -> None:
    client = hot_seat(7, "quick", 13)
    async with opened(client, size=size) as (app, pilot):
        await play_by_keys(app, pilot, client, 13, steps=80)


@pytest.mark.parametrize("size", [(60, 22), (80, 24), (120, 40)], ids=["60x22", "80x24", "120x40"])
async def test_a_mutiny_of_eleven_says_how_many_choose_rather_than_cut_their_names(
    size: tuple[int, int],
) -> None:
    names = ("Bartholomew Longname", "Wilhelmina Longname")
    client = local_table(
        "kraken", 11, humans=2, seed=3, names=names, pace=STILL, board="long", characters=False
    )
    table = client.table
    for _ in range(50):  # the team appointed (by the captain, bot or not): a mutiny is asked
        if table.state.view(None)["phase"] == "mutiny":
            break
        seat = min(table.state.waiting_for())
        table.submit(seat, table.state.legal(seat)[0])
    async with opened(client, size=size) as (app, pilot):
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        await pilot.press(handoff.key)
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        await pilot.press("escape")  # put aside: the table and its status lines
        await pilot.pause()
        top = app.screen
        assert isinstance(top, KrakenScreen)
        said = status_said(top)
        assert status_shown(app, top) == said
        waited = re.search(r"Still choosing guns in secret: (.+ and \d+ more|\d+ players)\.", said)
        assert waited, said
        assert "Decision put aside: press Enter to make it." in said


async def test_a_decision_stands_under_the_crew_while_a_notice_moves_it_down_and_back() -> None:
    client = local_table(
        "kraken", 8, humans=2, seed=12, names=NAMES, pace=STILL, board="long", characters=False
    )
    table = client.table
    for _ in range(50):  # the team appointed: a mutiny is asked of everyone
        if table.state.view(None)["phase"] == "mutiny":
            break
        seat = min(table.state.waiting_for())
        table.submit(seat, table.state.legal(seat)[0])
    async with opened(client, size=(60, 20)) as (app, pilot):
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        await pilot.press(handoff.key)
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        strip = next(s for s in app.screen_stack if isinstance(s, KrakenScreen)).query_one("#strip")
        top = dialog.query_one(Vertical).region.y
        assert top == strip.region.bottom
        app.notices.clock = time.monotonic  # (the notice goes after its second, as in play)
        app.tell(
            "A notice long enough to take two lines of a terminal sixty columns wide.", "game", 1
        )
        await until(lambda: strip.region.y == 2, what="the notice above the table")
        await until(lambda: dialog.query_one(Vertical).region.y == top + 2, what="the dialog down")
        assert facts_missing(app, client, dialog) == []
        await until(lambda: strip.region.y == 0, what="the notice gone")
        await until(lambda: dialog.query_one(Vertical).region.y == top, what="the dialog back up")
        assert facts_missing(app, client, dialog) == []
