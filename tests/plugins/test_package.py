"""Love Letter as a player gets it: a package, built and installed with pip into an environment
of its own, that declares its game in the `tablegames.games` entry-point group. Nothing names
it there (no TABLEGAMES_GAMES, no PYTHONPATH): every program finds it, `tablegames check`
passes it, and a party server offers it to an OpenSSH guest and to a browser guest.

The environment is made quickly: a venv without pip of its own that sees this one's packages
(a `.pth` line adds them), and pip installing the game with `--no-deps --no-build-isolation
--no-index`, so nothing is fetched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .typed import bare_venv

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "tablegames-loveletter"
version = "1.0"
description = "Love Letter for tablegames"
dependencies = ["tablegames"]

[project.entry-points."tablegames.games"]
loveletter = "tablegames_loveletter:LOVELETTER"

[tool.setuptools]
py-modules = ["tablegames_loveletter"]
"""
#: What this test run sets for its own processes, and an installed game must do without.
NAMING = ("TABLEGAMES_GAMES", "TABLEGAMES_REGISTRY", "PYTHONPATH")


@dataclass(frozen=True)
class Installed:
    """An environment with the Love Letter package installed: its interpreter, and an
    environment for its programs (their own data directory, nothing naming the game)."""

    python: str
    env: dict[str, str]

    def tablegames(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.python, "-m", "tablegames", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("package")
    source = base / "source"
    source.mkdir()
    (source / "pyproject.toml").write_text(PYPROJECT)
    shutil.copy(ROOT / "tests" / "plugins" / "loveletter.py", source / "tablegames_loveletter.py")
    python, site = bare_venv(base / "venv")
    ours = sysconfig.get_path("purelib")  # this venv's packages: tablegames, pip, setuptools
    Path(site, "_tablegames_dev.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    env = {k: v for k, v in os.environ.items() if k not in NAMING}
    (base / "home").mkdir()
    env["TABLEGAMES_HOME"] = str(base / "home")
    env["COLUMNS"] = "200"  # (`list` draws a table as wide as the terminal)
    pip = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    done = subprocess.run(
        [*pip, "--no-index", str(source)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    yield Installed(python, env)


def test_installed_it_is_every_programs_game_with_nothing_naming_it(installed):
    listed = installed.tablegames("list", timeout=60)
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    line = next(line for line in listed.stdout.splitlines() if "loveletter" in line)
    assert "(generic screen)" in line  # (its `hard` is its own, from `look_ahead`)
    where = subprocess.run(
        [installed.python, "-c", "import tablegames_loveletter as m; print(m.__file__)"],
        env=installed.env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "site-packages" in where.stdout and str(ROOT) not in where.stdout  # the package's
    simulated = installed.tablegames("simulate", "loveletter", "--games", "2", timeout=120)
    assert simulated.returncode == 0 and '"game": "loveletter"' in simulated.stdout


def test_installed_it_passes_a_check_of_its_contract(installed):
    checked = installed.tablegames("check", "loveletter", "--only", "contract", timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "loveletter passes every check." in checked.stdout


@pytest.mark.slow
def test_installed_it_passes_the_whole_check(installed):
    checked = installed.tablegames("check", "loveletter", "--jobs", "2", timeout=1800)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "loveletter passes every check." in checked.stdout


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
def test_installed_it_is_offered_to_an_openssh_guest_of_serve_who_plays_it(installed, tmp_path):
    from ..e2e.friends import SshParty, open_table

    with SshParty(installed.env, tmp_path, "--pace", "0.05", python=installed.python) as party:
        ann = party.login("ann")
        # after the four built in: the one installed
        open_table(ann, 4, "loveletter", timeout=60)
        ann.keys("s")
        screen = ann.wait_for("Love Letter", "ann (you)", "Your hand", "Your move", timeout=30)
        assert "not installed" not in screen


@pytest.mark.e2e
def test_installed_it_is_offered_to_a_browser_guest_who_plays_it(installed):
    from ..web.browser import PageTerminal, launch_chromium, start_party, stop_party, why_no_browser

    why = why_no_browser()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    serve, base, _ = start_party(installed.env, "--pace", "0.05", python=installed.python)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                page = browser.new_context(viewport={"width": 1000, "height": 600}).new_page()
                bea = PageTerminal(page, base)
                bea.join("bea")
                bea.keys("n")
                bea.wait_for("A new table")
                bea.keys("ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight")  # (the fifth)
                bea.wait_for("loveletter")
                bea.keys("Enter")
                bea.wait_for("or tap Start now")  # (a page is told taps)
                bea.keys("s")
                screen = bea.wait_for("Love Letter", "Your hand", "Your move")
                assert "not installed" not in screen
            finally:
                browser.close()
    finally:
        stop_party(serve)


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
def test_a_game_named_in_tablegames_games_reaches_an_openssh_guest_too(tmp_path):
    # Sessions were started with a stripped environment: a server given its games by
    # TABLEGAMES_GAMES offered them to nobody over SSH ("not installed here", the session
    # closed). They are handed the server's registry now.
    from ..e2e.friends import SshParty, open_table

    env = {**os.environ, "TABLEGAMES_HOME": str(tmp_path)}
    assert "tests.plugins.sealedbids:SEALED_BIDS" in env["TABLEGAMES_GAMES"]  # (conftest.py)
    with SshParty(env, tmp_path, "--pace", "0.05") as party:
        cy = party.login("cy")
        # crates, roach, crabs, kraken, loveletter, then Sealed Bids
        open_table(cy, 5, "sealedbids", timeout=60)
        cy.keys("s")
        cy.wait_for("Sealed Bids", "cy (you)", "Your move", "bid the 1", timeout=30)
