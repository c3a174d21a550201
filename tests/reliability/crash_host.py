"""A server process for crash tests: several tables in one SQLite store, restored on restart.

`python -m tests.reliability.crash_host DB PORT SPEC` listens on 127.0.0.1:PORT; on its first
start it opens the tables SPEC (JSON: [[code, game, players, options, bots], ...]) lists, after
that it restores whatever the store holds. It prints `port N` once it listens.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from tablegames.net.server import Server, ServerConfig
from tablegames.store import Store


async def serve(db: str, port: int, spec: list[list[Any]]) -> None:
    store = Store(db)
    server = Server(ServerConfig(host="127.0.0.1", port=port, bot_pace=0.01), store=store)
    created = Path(db + ".created")
    if created.exists():
        server.restore_tables()
    else:
        for code, game, players, options, bots in spec:
            assert isinstance(options, dict) and isinstance(players, int)
            server.add_table(
                str(game),
                players,
                options,
                code=str(code),
                fill_with_bots=bots,
                min_humans=players - 1 if bots else None,
            )
        created.write_text("yes")
    bound = await server.start()
    print(f"port {bound}", flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])))
