"""A turn opens with what the log cannot show of the moves since the last one: one line, in
order, never said twice (play-testers found it grouped by player, cut with a bare "…",
mixing rounds and repeating the lines just above it)."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from tablegames.tui.screens.recap import digest
from tablegames.tui.widgets.log import GameLog, event_line

from .helpers import four_player_table, opened, round_the_table, screen_text

NAMES = ["Sara", "Ada (bot)", "Bruno (bot)", "Chidi (bot)"]


def said(seat: int | None, text: str, **fields: Any) -> dict[str, Any]:
    return {"kind": "x", "text": text, "to": None, "seat": seat, **fields}


def one_row(line: str) -> int:
    return 1 + len(line) // 80


def test_moves_are_summed_up_in_the_order_they_happened() -> None:
    events = [
        said(1, "{1} plays 7S."),
        said(0, "You draw 4C."),
        said(2, "{2} draws 1 card."),
        said(2, "{2} plays 4S."),
        said(None, "Round 1 of 15 scores: Sara 0."),
        said(None, "Round 2 of 15: {3} deals 8 cards each."),
        said(3, "{3} plays 9D."),
        said(1, "{1} plays 2D."),
    ]
    line = lambda event: event_line(event, NAMES)  # noqa: E731
    summed, text = digest(events, NAMES, line, one_row, height=5)
    assert summed == 5  # the newest three are in sight in full below it
    assert text == (
        "» Since your last turn: Ada (bot) plays 7♠; you draw 4♣; Bruno (bot) draws 1 card, "
        "plays 4♠; round 1 of 15 scores: Sara 0."
    )


def test_no_summary_when_the_log_shows_every_move_and_none_repeats_the_lines_below() -> None:
    events = [said(1, "{1} plays 7S."), said(2, "{2} plays 4S."), said(3, "{3} is skipped.")]
    line = lambda event: event_line(event, NAMES)  # noqa: E731
    assert digest(events, NAMES, line, one_row, height=5) is None
    many = [said(1 + n % 3, f"{{{1 + n % 3}}} plays {n + 2}H.") for n in range(8)]
    summed, text = digest(many, NAMES, line, one_row, height=5)
    for event in many[summed:]:  # shown in full: not in the summary
        assert line(event).removesuffix(".") not in text


def test_the_same_move_twice_is_said_once_and_a_long_stretch_says_what_it_leaves_out() -> None:
    line = lambda event: event_line(event, NAMES)  # noqa: E731
    events = [said(2, "{2} draws 1 card."), said(2, "{2} draws 1 card."), said(1, "{1} plays 2D.")]
    _, text = digest(events * 1, NAMES, line, one_row, height=2)
    assert "Bruno (bot) draws 1 card (x2)" in text
    long = [said(1 + n % 3, f"{{{1 + n % 3}}} plays a card numbered {n}.") for n in range(30)]
    _, text = digest(long, NAMES, line, one_row, height=5)
    assert "…" not in text and "earlier lines: PgUp" in text
    assert one_row(text) <= 2


async def test_the_summary_sits_above_the_newest_moves_and_says_none_of_them_again() -> None:
    client = four_player_table()
    async with opened(client) as (app, pilot):
        await round_the_table(client, pilot)
        rows = [row.strip("│ ") for row in screen_text(app).splitlines()]
        top = next(n for n, row in enumerate(rows) if row.startswith("╭─ Log"))
        log_rows = rows[top + 1 : top + 1 + app.screen.query_one(GameLog).size.height - 2]
        assert log_rows[0].startswith("» Since your last turn"), log_rows
        ((where, summary),) = app.screen.logs.recaps[0]
        below = [
            event_line(event, client.names)
            for event in app.screen.logs.events[0][where:]
            if event.get("to") is None or event.get("to") == [0]
        ]
        assert below and not any(line.removesuffix(".") in summary for line in below)
        assert "Sara draws" not in summary  # her own draw is said once, in her words


async def test_the_log_writes_the_summary_in_among_lines_it_already_shows() -> None:
    class OneLog(App[None]):
        def compose(self) -> ComposeResult:
            yield GameLog(id="log")

    app = OneLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = app.query_one(GameLog)
        log.show(["Ada plays 7♠.", "Bruno plays 4♠.", "Chidi is skipped."], source=0)
        await pilot.pause()
        log.show(
            ["Ada plays 7♠.", "» Since your last turn: ...", "Bruno plays 4♠.",
             "Chidi is skipped.", "Dara plays 2♣."],
            source=0,
        )  # fmt: skip
        await pilot.pause()
        written = [strip.text.strip() for strip in log.lines]
        assert written == [
            "Ada plays 7♠.",
            "» Since your last turn: ...",
            "Bruno plays 4♠.",
            "Chidi is skipped.",
            "Dara plays 2♣.",
        ]


async def test_a_players_first_turn_is_not_said_to_follow_a_last_one() -> None:
    """Issue 48: "» Since your last turn" opened a player's first turn."""
    client = four_player_table(dealer=0)  # Ada (bot) plays first, then Bruno and Chidi
    async with opened(client, size=(80, 20)) as (app, pilot):
        table = client.table
        while 0 not in table.state.waiting_for():
            table.submit(*table.bot_move())
            await pilot.pause()
        await pilot.pause()
        summaries = [text for _, text in app.screen.logs.recaps.get(0, [])]
        assert summaries, "the log at 80x20 cannot show the whole deal and the first moves"
        assert summaries[0].startswith("» Before your first turn"), summaries


def test_a_whole_games_moves_since_a_reconnect_are_summed_up_in_a_few_measures() -> None:
    # (a player back after a long drop has thousands of moves since their last turn: measuring
    # the summary once per move left out, for each number of moves summed, held the screen
    # for minutes)
    events = [said(n % 4, f"{{{n % 4}}} plays {n % 9 + 2}S.") for n in range(3000)]
    measured = []

    def rows(line: str) -> int:
        measured.append(line)
        return 1 + len(line) // 80

    line = lambda event: event_line(event, NAMES)  # noqa: E731
    summed, text = digest(events, NAMES, line, rows, height=20)
    assert len(measured) - len(events) < 100  # (each event's own line is measured once)
    assert summed > len(events) - 20 and "earlier lines" in text and rows(text) <= 3
