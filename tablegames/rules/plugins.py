"""Games from elsewhere: found through the packaging standard, loaded once where a program starts.

A game is a package that declares its `Game` in the entry-point group ``tablegames.games``::

    [project.entry-points."tablegames.games"]
    mygame = "mygame.rules:GAME"

so that `pip install` of it makes it playable everywhere. For development, the environment
variable ``TABLEGAMES_GAMES`` names games the same way ("package.module:NAME", comma-separated)
without installing them.

Nothing here runs on import: a program calls `load_games()` once as it starts (the command line
does, before it builds its options from the registry), and every problem comes back as a
sentence naming the plugin and its real exception. The party server hands its sessions the
registry it built (`registry_environment`): ``TABLEGAMES_REGISTRY`` names exactly the games
they load, entry points left unread, so every door offers exactly the server's games.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .core import GAMES, load

#: The entry-point group a game's package declares its `Game` in.
GROUP = "tablegames.games"
#: Games from elsewhere for development: "package.module:NAME", comma-separated.
VARIABLE = "TABLEGAMES_GAMES"
#: Exactly the games from elsewhere to load, entry points left unread (a party's sessions).
REGISTRY = "TABLEGAMES_REGISTRY"


@dataclass(frozen=True)
class Plugin:
    """A game from elsewhere, as it was named: its import string and who named it."""

    reference: str  # "package.module:NAME"
    origin: str  # in words: "the package loveletter 1.0", "TABLEGAMES_GAMES"


#: The games from elsewhere loaded so far, in order (what a party hands its sessions).
LOADED: list[Plugin] = []
_loaded_once: list[str] | None = None  # the problems of the first `load_games`


def found(environ: Mapping[str, str]) -> list[Plugin]:
    """The games from elsewhere `environ` asks for: ``TABLEGAMES_REGISTRY`` alone when set,
    else every installed package's entry points, then ``TABLEGAMES_GAMES``."""
    if REGISTRY in environ:
        return [Plugin(ref, "the party server's registry") for ref in _split(environ[REGISTRY])]
    named = [Plugin(ref, VARIABLE) for ref in _split(environ.get(VARIABLE, ""))]
    return [*installed(), *named]


def installed() -> list[Plugin]:
    """The games installed packages declare in the ``tablegames.games`` entry-point group."""
    if not _any_declared():
        return []  # (importlib.metadata costs a fifth of `tablegames --help`: not for nothing)
    from importlib.metadata import entry_points

    plugins = []
    for point in entry_points(group=GROUP):
        package = point.dist
        origin = f"the package {package.name} {package.version}" if package else "a package"
        plugins.append(Plugin(point.value, f"{origin} (entry point {point.name!r})"))
    return plugins


def _any_declared() -> bool:
    """True if some package on the path may declare a game: a quick look at the packages'
    ``entry_points.txt`` before `importlib.metadata` reads them properly."""
    wanted = f"[{GROUP}]"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # not a directory (a zip), or gone
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    text = Path(entry or ".", name, "entry_points.txt").read_text("utf-8")
                except (OSError, UnicodeDecodeError):
                    continue
                if wanted in text:
                    return True
    return False


def _split(text: str) -> list[str]:
    return [reference.strip() for reference in text.split(",") if reference.strip()]


def load_games(environ: Mapping[str, str] | None = None) -> list[str]:
    """Register every game from elsewhere (`found`) beside the built-in ones, once per process;
    returns a sentence for each one that could not be loaded (the game is left out).

    Called where a program starts. Later calls return the first call's problems.
    """
    global _loaded_once
    if _loaded_once is not None:
        return list(_loaded_once)
    problems = []
    for plugin in found(os.environ if environ is None else environ):
        problem = load_plugin(plugin)
        if problem is not None:
            problems.append(problem)
    _loaded_once = problems
    return list(problems)


def load_plugin(plugin: Plugin) -> str | None:
    """Load one game from elsewhere: None once it is in the registry, else why not, in a
    sentence with the real exception."""
    if any(plugin.reference == done.reference for done in LOADED):
        return None
    try:
        game = load(plugin.reference)
    except Exception as problem:  # whatever its import raised: said, never hidden
        why = f"{type(problem).__name__}: {problem}"
        return (
            f"tablegames: the game {plugin.reference!r} (from {plugin.origin}) could not be "
            f"loaded ({why}); playing without it."
        )
    LOADED.append(plugin)
    assert GAMES[game.name] is game
    return None


def registry_environment() -> dict[str, str]:
    """The environment that makes another program of ours load exactly this one's games:
    ``TABLEGAMES_REGISTRY`` naming the games from elsewhere loaded here, and ``PYTHONPATH``
    with the folders those named by ``TABLEGAMES_GAMES`` were imported from (an installed
    package is found by the same interpreter anyway)."""
    env = {REGISTRY: ",".join(plugin.reference for plugin in LOADED)}
    roots = []
    for plugin in LOADED:
        if plugin.origin != VARIABLE:
            continue
        root = _import_root(plugin.reference)
        if root is not None and root not in roots:
            roots.append(root)
    if roots:
        env["PYTHONPATH"] = os.pathsep.join(roots)
    return env


def _import_root(reference: str) -> str | None:
    """The folder on the module path that the module `reference` names was imported from."""
    module_name = reference.partition(":")[0].strip()
    module = sys.modules.get(module_name)
    where = getattr(module, "__file__", None)
    if where is None:
        return None
    path = Path(where).resolve()
    depth = module_name.count(".") + 1
    if path.name == "__init__.py":
        path = path.parent
    return str(path.parents[depth - 1])
