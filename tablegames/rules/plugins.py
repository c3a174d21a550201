"""Games from elsewhere: found through the packaging standard, loaded once where a program starts.

A game is a package that declares its `Game` in the entry-point group ``tablegames.games``::

    [project.entry-points."tablegames.games"]
    mygame = "mygame.rules:GAME"

so that `pip install` of it makes it playable everywhere. tablegames declares its own games
so too (pyproject.toml); they are registered as the rules are imported (`own`). For
development, the environment variable ``TABLEGAMES_GAMES`` names games the same way
("package.module:NAME", comma-separated) without installing them.

Nothing here runs on import: a program calls `load_games()` once as it starts (the command line
does, before it builds its options from the registry), and every problem comes back as a
sentence naming the plugin and its real exception. The party server hands its sessions the
registry it built (`registry_environment`): ``TABLEGAMES_REGISTRY`` names exactly the games
they load, entry points left unread, so every door offers exactly the server's games.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .core import GAMES, load

#: The entry-point group a game's package declares its `Game` in.
GROUP = "tablegames.games"
#: This package, whose own games are declared in the group too (pyproject.toml).
OWN = "tablegames"
#: Games from elsewhere for development: "package.module:NAME", comma-separated.
VARIABLE = "TABLEGAMES_GAMES"
#: Exactly the games from elsewhere to load, entry points left unread (a party's sessions).
REGISTRY = "TABLEGAMES_REGISTRY"


@dataclass(frozen=True)
class Plugin:
    """A game from elsewhere, as it was named: its import string and who named it."""

    reference: str  # "package.module:NAME"
    origin: str  # in words: "the package loveletter 1.0", "TABLEGAMES_GAMES"


#: Said when tablegames declares no game here: its metadata (entry points) is not installed.
NOT_INSTALLED = (
    "tablegames: its own games are not declared here: install it (`pip install -e .` in a "
    "clone) so that its entry points are read."
)
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
    """The games installed packages other than tablegames declare in the ``tablegames.games``
    entry-point group (tablegames' own are registered as the rules are imported: `own`)."""
    return [plugin for name, plugin in declared() if name != OWN]


def own() -> list[Plugin]:
    """The games tablegames itself declares in its entry points (pyproject.toml), in order."""
    return [plugin for name, plugin in declared(OWN) if name == OWN]


def declared(only: str | None = None) -> list[tuple[str, Plugin]]:
    """(package, game) for every game an installed package declares in the entry-point group
    ``tablegames.games``, in the order of the module path, the first of a package counting
    (as `importlib.metadata` reads them); `only`: that package's alone.

    Read here rather than by `importlib.metadata`, whose import costs a fifth of `tablegames
    --help`: a package's metadata folder on the path, its ``entry_points.txt``, its name and
    version. Each is read once (`own` as tablegames is imported, then `installed` as the
    program starts), and again only for a changed module path."""
    found: list[tuple[str, Plugin]] = []
    read = _metadata()
    for package, folder in read.packages:
        if only is not None and package != only:
            continue
        if folder not in read.games:
            points = _entry_points(folder)
            origin = _origin(folder) if points else ""
            read.games[folder] = [
                (package, Plugin(value, f"{origin} (entry point {point!r})"))
                for point, value in points
            ]
        found += read.games[folder]
    return found


@dataclass
class _Read:
    """The packages on one module path: (package, its metadata folder) in order, the first of a
    name counting, and the games each folder declares once read."""

    path: tuple[str, ...]
    packages: list[tuple[str, str]]
    games: dict[str, list[tuple[str, Plugin]]] = field(default_factory=dict)


_read: _Read | None = None


def _metadata() -> _Read:
    """The packages on the module path, listed once (again only after the path changed)."""
    global _read
    path = tuple(sys.path)
    if _read is None or _read.path != path:
        packages: list[tuple[str, str]] = []
        seen: set[str] = set()
        for entry in path:
            try:
                names = os.listdir(entry or ".")
            except OSError:  # not a directory (a zip), or gone
                continue
            for name in names:
                if not name.endswith((".dist-info", ".egg-info")):
                    continue
                package = _normal(name.rpartition(".")[0].partition("-")[0])
                if package not in seen:
                    seen.add(package)
                    packages.append((package, os.path.join(entry or ".", name)))
        _read = _Read(path, packages)
    return _read


def _normal(name: str) -> str:
    """A package's name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _entry_points(folder: str) -> list[tuple[str, str]]:
    """(name, "package.module:NAME") of each game a package's ``entry_points.txt`` declares."""
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError):
        return []
    points, group = [], ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip()
        elif group == GROUP and "=" in line and not line.startswith(("#", ";")):
            point, _, value = line.partition("=")
            points.append((point.strip(), value.strip()))
    return points


def _origin(folder: str) -> str:
    """A package in words, from its metadata: "the package loveletter 1.0"."""
    fields: dict[str, str] = {}
    for metadata in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, metadata), encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            if not line:
                break  # the headers end at the first empty line
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
        break
    name = os.path.basename(folder)
    package = fields.get("Name") or name.rpartition(".")[0].partition("-")[0]
    version = fields.get("Version")
    return f"the package {package} {version}" if version else f"the package {package}"


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
    problems = [] if GAMES else [NOT_INSTALLED]
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
