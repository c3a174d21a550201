"""Ratings where players see them: each player's change on the results screen (a game on this
machine and a party's), and the night's standings in the party's lobby, by key and by tap."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from tablegames.net.seat_tokens import load_client_key
from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store
from tablegames.testing.harness import until
from tablegames.tui.screens.crates_round import RoundSummary
from tablegames.tui.screens.lobby import LobbyScreen
from tablegames.tui.screens.results import FinalStandings, rating_line
from tablegames.tui.screens.standings import StandingsScreen

from .helpers import opened, press, screen_text, settle, stacked
from .served import QUICK_CRATES, played_out, sara_at, sit_down_and_start


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
    key = load_client_key(tmp_path / "sara.key")  # `join`'s: a name alone is rated for nobody
    server = Server(ServerConfig(port=0, bot_pace=0.0), store=store)
    hosted = server.add_table("crates", 2, QUICK_CRATES, fill_with_bots="normal", owner_seat=0)
    await server.start()
    try:
        async with sara_at(server, lobby=True, key=key) as (remote, app, pilot):
            await pilot.press("s")  # nothing finished yet tonight
            await until(lambda: isinstance(app.screen, StandingsScreen), pilot=pilot)
            assert "No game has finished since the server started" in screen_text(app)
            await pilot.press("escape")
            await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
            await sit_down_and_start(app, pilot)
            await played_out(hosted, app, pilot)
            text = " ".join(screen_text(app).split())
            changes = store.rating_changes(hosted.store_id)
            assert sorted(changes) == [0, 1]
            assert rating_line(changes, ["Sara", "Bot 2"]) in text
            await settle(pilot)
            await pilot.press("m")  # back to the lobby
            await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
            await until(lambda: bool(remote.standings), pilot=pilot)
            (key,) = [key for key in app.screen.query(FooterKey) if key.action == "standings"]
            await pilot.click(key)  # a tap, as on a phone
            await until(lambda: isinstance(app.screen, StandingsScreen), pilot=pilot)
            shown = screen_text(app)
            assert "Tonight's standings" in shown and "Crates" in shown
            assert "Sara" in shown and "normal bot" in shown
            rows = {row.name: row for row in remote.standings}
            assert rows["Sara"].played == rows["normal bot"].played == 1
            assert f"{rows['Sara'].rating:.1f}" in shown
            await pilot.press("escape")
            await until(lambda: isinstance(app.screen, LobbyScreen), pilot=pilot)
    finally:
        store.close()
