"""Ratings where players see them: each player's change on the results screen (a game on this
machine and a party's), and the night's standings in the party's lobby, by key and by tap."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from tablegames.net.client import RemoteClient
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.tui.app import TableGamesApp
from tablegames.tui.screens.crates import CratesScreen
from tablegames.tui.screens.lobby import LobbyScreen
from tablegames.tui.screens.results import FinalStandings, RoundSummary, rating_line
from tablegames.tui.screens.standings import StandingsScreen

from .helpers import opened, press, screen_text, settle, stacked
from .test_network import wait_for


def test_the_rating_line_says_each_players_rating_and_change():
    changes = {1: (-1.25, -1.25), 0: (2.04, 2.04)}
    assert (
        rating_line(changes, ["Sara", "Ada (bot)"])
        == "Ratings: Sara 2.0 (+2.0), Ada (bot) -1.2 (-1.2)"
    )
    assert rating_line({}, ["Sara"]) == ""


async def test_a_game_on_this_machine_ends_with_each_players_rating_change(tmp_path):
    store = Store(tmp_path / "games.db")
    client = stacked([["KS"], ["3S", "8D", "QC", "2H"]], names=("Sara",), short=True, store=store)
    async with opened(client) as (app, pilot):
        await press(pilot, "enter")  # Sara goes out: her first move, so the game is saved
        await press(pilot, "n")  # close the summary of round 1
        while not client.table.over:  # the bot plays out the other seven rounds for both
            move = client.table.bot_move() or (0, client.table.legal(0)[0])
            client.table.submit(*move)
        await pilot.pause()
        for _ in range(10):  # close each round's summary (n) until the game's end shows
            if not isinstance(app.screen, RoundSummary):
                break
            await press(pilot, "n")
        assert isinstance(app.screen, FinalStandings)
        text = screen_text(app)
    assert client.saved_as is not None
    changes = store.rating_changes(client.saved_as[1])
    assert rating_line(changes, ["Sara", "Ada (bot)"]) in " ".join(text.split())
    assert {row["name"] for row in store.stats()} == {"Sara", "normal bot"}


async def test_a_party_game_ends_with_ratings_and_the_lobby_shows_the_nights_standings(tmp_path):
    store = Store(tmp_path / "party.db")
    server = Server(ServerConfig(port=0, bot_pace=0.0), store=store)
    hosted = server.add_table(
        "crates",
        2,
        {"dealer": 1, "hands": [["QH"], ["JH", "10D"]], "upcard": "KH", "short": True},
        fill_with_bots="normal",
        owner_seat=0,
    )
    port = await server.start()
    remote = RemoteClient("127.0.0.1", port, "Sara")
    app = TableGamesApp(remote=remote, lobby=True)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("s")  # nothing finished yet tonight
            await wait_for(pilot, lambda: isinstance(app.screen, StandingsScreen))
            assert "No game has finished since the server started" in screen_text(app)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("enter")
            await wait_for(pilot, lambda: "or s to start now" in screen_text(app))
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, CratesScreen), seconds=10)
            hosted.table.bots.clear()
            while not hosted.table.over:  # the game played out here, fast
                seat = min(hosted.table.state.waiting_for())
                hosted.table.submit(seat, hosted.table.legal(seat)[0])
            for _ in range(40):  # close each round's summary (n) until the game's end shows
                if "Rematch (r)" in screen_text(app):
                    break
                await pilot.press("n")
                await pilot.pause(0.1)
            text = " ".join(screen_text(app).split())
            changes = store.rating_changes(hosted.store_id)
            assert sorted(changes) == [0, 1]
            assert rating_line(changes, ["Sara", "Bot 2"]) in text
            await settle(pilot)
            await pilot.press("m")  # back to the lobby
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await wait_for(pilot, lambda: bool(remote.standings))
            (key,) = [key for key in app.screen.query(FooterKey) if key.action == "standings"]
            await pilot.click(key)  # a tap, as on a phone
            await wait_for(pilot, lambda: isinstance(app.screen, StandingsScreen))
            shown = screen_text(app)
            assert "Tonight's standings" in shown and "Crates" in shown
            assert "Sara" in shown and "normal bot" in shown
            rows = {row.name: row for row in remote.standings}
            assert rows["Sara"].played == rows["normal bot"].played == 1
            assert f"{rows['Sara'].rating:.1f}" in shown
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
    finally:
        await remote.close()
        await server.close()
        store.close()
