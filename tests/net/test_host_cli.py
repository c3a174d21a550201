"""`tablegames host` says in one sentence why it cannot start, and what to do instead."""

from __future__ import annotations

import socket

from typer.testing import CliRunner

from tablegames.cli import _say_where, app
from tablegames.net.server import Server, ServerConfig
from tablegames.store import SavedSeat, Store

runner = CliRunner()


def test_a_port_in_use_is_one_sentence_naming_the_option_to_pick_another():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["host", "crates", "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} is already in use" in result.output and "--port" in result.output
    assert "Traceback" not in result.output and len(result.output.splitlines()) <= 2


def test_a_file_holding_another_game_is_described_not_ignored(tmp_path):
    db = tmp_path / "lan.db"
    store = Store(db)
    table_id = store.create_table("KXPF", "crates", 3, {}, "server")
    store.start_table(table_id, 5, [SavedSeat(n, f"p{n}") for n in range(3)])
    store.close()
    result = runner.invoke(app, ["host", "roach", "--db", str(db), "--port", "0"])
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert "holds 1 unfinished game: Crates for 3 (table KXPF, 0 moves)" in said
    assert f"tablegames host --restore --db {db}" in said and "--db NEW.db" in said


def test_host_needs_a_game_or_restore():
    result = runner.invoke(app, ["host"])
    assert result.exit_code == 2 and "--restore" in result.output


def test_the_host_prints_the_join_line_for_each_forward_it_names(capsys):
    server = Server(ServerConfig(forwarded_at=("203.0.113.7:5000",)))
    _say_where(server, 4747, lan=False, code=None)
    printed = capsys.readouterr().out
    assert "On this machine:    tablegames join 127.0.0.1:4747" in printed
    assert "Through a forward:  tablegames join 203.0.113.7:5000" in printed
