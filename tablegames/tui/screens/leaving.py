"""Leaving a table: the question asked first, and where an unfinished game went."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..client import saving, seat_presence
from .dialogs import QuitDialog

if TYPE_CHECKING:
    from ..client import TableClient


def quit_dialog(client: TableClient, watching: bool, party: bool, ascii: bool) -> QuitDialog:
    """The question before leaving `client`'s table (a spectator's, `watching`; in a `party`,
    back to its lobby): kept, saved, or left for good."""
    saved = saving(client)
    kept = saved is not None and saved.saved_game() is not None
    if kept:
        question = 'Leave this game? It is saved: "tablegames resume" brings it back.'
    elif watching:
        question = "Stop watching this table?"
    elif party or way_back(client):
        question = "Leave this table? Your seat is kept while the game goes on."
    else:
        question = "Leave this game?"
    return QuitDialog(
        question,
        ascii=ascii,
        saving=kept,
        menu="Lobby" if party else "Menu",
        stay="Keep watching" if watching else "Keep playing",
    )


def where_saved(client: TableClient, over: bool, hosted_on: int | None = None) -> str:
    """Where `client`'s unfinished game went, to say once the app has closed: where it is
    saved, or how to take a network seat back, and how to open again a table this app hosted
    (on port `hosted_on`, None: none); "" if nothing (or the game is `over`)."""
    if over:
        return ""
    kept = saving(client)
    saved = kept.saved_game() if kept is not None else None
    if saved is not None:
        table_id, path = saved
        return f"Game {table_id} is saved in {path}: `tablegames resume {table_id}` continues it."
    back = way_back(client)
    if back and hosted_on is not None:  # the table was hosted in this app: it stopped too
        again = f"tablegames host --restore --port {hosted_on}"
        return f"The table stopped with this app: `{again}` opens it again.\n{back}"
    return back


def way_back(client: TableClient) -> str:
    """How a player who leaves comes back to a network seat ("" when there is none)."""
    network = seat_presence(client)
    return network.way_back() if network is not None else ""
