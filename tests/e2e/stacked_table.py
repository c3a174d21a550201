"""A stacked Crates table in a real terminal, for tmux tests of moments a real deal reaches late.

`python -m tests.e2e.stacked_table going_out` runs `tablegames play` on a table where Sara
(alone against a bot) goes out with her one card: the round's scores come next.
"""

from __future__ import annotations

import sys

from tablegames.tui.app import run_table

from ..tui.helpers import stacked

TABLES = {
    "going_out": lambda: stacked([["KS"], ["3S", "8D", "QC", "2H"]], names=("Sara",), short=True),
}

if __name__ == "__main__":
    run_table(TABLES[sys.argv[1]]())
