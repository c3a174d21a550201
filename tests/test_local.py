"""Games on this machine: saved from the first move of a human here, described in words."""

from __future__ import annotations

import pytest

from tablegames.local import describe_saved, local_table, resume_local, saved_label
from tablegames.store import Store


def first_human_move(client) -> None:
    """Let the bots play until seat 0 may move, then make its first legal move."""
    table = client.table
    while 0 not in table.state.waiting_for():
        table.submit(*table.bot_move())
    table.submit(0, table.legal(0)[0])


def test_a_game_nobody_here_moved_in_is_not_saved(tmp_path):
    store = Store(tmp_path / "x.db")
    client = local_table("crates", 4, seed=3, store=store, names=("Sara",))
    assert client.saved_as is None and store.open_tables("local") == []
    table = client.table
    while 0 not in table.state.waiting_for():  # the bots' moves alone keep nothing
        table.submit(*table.bot_move())
    assert store.open_tables("local") == []
    first_human_move(client)
    (saved,) = store.open_tables("local")
    assert client.saved_as == (store, saved.id)
    assert len(saved.log) == len(table.log)  # the bots' moves before it too
    table.submit(*table.bot_move())
    resumed = resume_local(store, saved.id)
    assert resumed.table.state.view(0) == table.state.view(0)


def test_saved_games_are_described_with_their_players_and_counted_moves(tmp_path):
    store = Store(tmp_path / "x.db")
    client = local_table("crates", 4, humans=2, seed=3, store=store, names=("Sara", "Tom"))
    table = client.table
    seat = min(table.state.waiting_for())
    while seat not in client.seats:
        table.submit(*table.bot_move())
        seat = min(table.state.waiting_for())
    table.submit(seat, table.legal(seat)[0])
    (saved,) = store.open_tables("local")
    moves = len(saved.log)
    label = saved_label(saved)
    assert label.startswith(f"Crates #{saved.id}: Sara and Tom with 2 bots, ")
    assert f"{moves} move{'s' if moves != 1 else ''}," in label
    assert "1 moves" not in describe_saved(saved)


def test_hot_seat_names_are_one_name_as_at_a_network_table():
    with pytest.raises(ValueError, match="Ada and ａｄａ are one name at a table"):
        local_table("crates", 3, humans=2, names=("Ada", "ａｄａ"))
    with pytest.raises(ValueError, match="two players would be called Player 2"):
        local_table("crates", 3, humans=2, names=("Player 2",))
    client = local_table("crates", 3, humans=2, names=("Ada\x1b[31m", "  Bea "))
    assert client.names[:2] == ["Ada31m", "Bea"]  # cleaned as network names are
