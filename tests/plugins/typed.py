"""The games an author copies from, type-checked as an author's own package is: `mypy --strict`
run outside tablegames, against tablegames installed (not this source tree), which it reads
through its ``py.typed``.

The examples are the guide's code (``docs/adding-a-game.md``: the template and every other
Python block), Love Letter, Sealed Bids and Skull (``tests/plugins/``). They are copied into a
folder of their own, next to an environment where tablegames is installed from a wheel built
from this tree, and checked there::

    python -m tests.plugins.typed          # what .ci/run does; exit 1 with mypy's findings
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-game.md"
#: The bundled examples: modules, and packages (folders), copied as they are.
EXAMPLES = (
    ROOT / "tests" / "plugins" / "loveletter.py",
    ROOT / "tests" / "plugins" / "sealedbids.py",
    ROOT / "tests" / "plugins" / "skull",
)


def guide_blocks() -> list[str]:
    """Every Python block of the guide, in order (the template is the first)."""
    return re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


def installed_tablegames(where: Path) -> str:
    """An interpreter whose site-packages hold tablegames built from this tree as a wheel
    would install it (and nothing else): its path."""
    source = where / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "tablegames", source / "tablegames", ignore=shutil.ignore_patterns("__pycache__")
    )
    python, site = bare_venv(where / "venv")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    subprocess.run(
        [*pip, "--no-build-isolation", "--target", site, str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    return python


def bare_venv(venv: Path) -> tuple[str, str]:
    """A virtual environment without pip at `venv`: its interpreter and its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return python, site


def author_package(where: Path) -> Path:
    """The examples copied into a folder of their own, the guide's blocks as modules."""
    package = where / "author"
    package.mkdir()
    for number, block in enumerate(guide_blocks()):
        name = "showdown" if number == 0 else f"guide_{number}"
        (package / f"{name}.py").write_text(block, encoding="utf-8")
    for example in EXAMPLES:
        if example.is_dir():
            shutil.copytree(
                example, package / example.name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(example, package / example.name)
    return package


def check(where: Path) -> subprocess.CompletedProcess[str]:
    """`mypy --strict` on the examples, in `where`, against tablegames installed there."""
    python = installed_tablegames(where)
    package = author_package(where)
    mypy = Path(sysconfig.get_path("scripts")) / "mypy"
    files = sorted(str(path.relative_to(package)) for path in package.rglob("*.py"))
    return subprocess.run(
        [str(mypy), "--strict", "--python-executable", python, "--no-incremental", *files],
        cwd=package,
        capture_output=True,
        text=True,
        check=False,
    )


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="tablegames-typed-") as scratch:
        done = check(Path(scratch))
    print(done.stdout + done.stderr, end="")
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
