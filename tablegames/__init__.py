"""tablegames: hidden-hand card and social-deduction games for the terminal.

Importing any part of it first registers the games tablegames declares in its own entry points
(pyproject.toml's group ``tablegames.games``, as any game's package declares its own): here,
before any of its modules, so that a declaration imported first (``tablegames.bundled.crates``,
which imports the rules) finds the rules whole. Declared apart from their engines, registering
imports none; the menus list them from the smallest table to the largest (entry points come
sorted by name).
"""

from .rules.core import declared, register
from .rules.plugins import own

for _game in sorted(
    (declared(plugin.reference) for plugin in own()),
    key=lambda game: (game.min_players, game.max_players),
):
    register(_game)
