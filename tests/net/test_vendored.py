"""The browser door's vendored files (`net/web_static/VENDORED.json`): each matches its recorded
sha256, each package's licence ships beside it, and nothing there is unrecorded."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import shutil
import tomllib
from pathlib import Path

import tablegames.net

STATIC = Path(tablegames.net.__file__).parent / "web_static"
RECORD = "VENDORED.json"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def problems(folder: Path) -> list[str]:
    """What in `folder` disagrees with its record, in sentences (nothing: all is as recorded)."""
    record = json.loads((folder / RECORD).read_text("utf-8"))
    known = {RECORD, *record["own"]}
    found = []
    for package in record["packages"]:
        which = f"{package['npm']} {package['version']}"
        if package["licence_file"] not in package["files"]:
            found.append(f"{which}: its licence file {package['licence_file']} is not recorded")
        for name, entry in package["files"].items():
            known.add(name)
            path = folder / name
            if not path.is_file():
                found.append(f"{name} ({which}) is missing")
                continue
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest != entry["sha256"]:
                found.append(f"{name} no longer matches {which}: sha256 {digest}")
    for path in sorted(folder.iterdir()):
        if path.name not in known:
            found.append(f"{path.name} is neither recorded in {RECORD} nor the page's own")
    return found


def test_every_vendored_file_matches_its_record():
    assert problems(STATIC) == []


def test_a_changed_missing_or_unrecorded_file_is_caught(tmp_path):
    folder = tmp_path / "web_static"
    shutil.copytree(STATIC, folder)
    with (folder / "xterm.js").open("ab") as script:
        script.write(b"\n")  # one byte more than the release
    (folder / "LICENSE-addon-fit.txt").unlink()
    (folder / "jquery.js").write_text("/* dropped in by hand */", "utf-8")

    found = problems(folder)

    assert len(found) == 3, found
    assert found[0].startswith("xterm.js no longer matches @xterm/xterm 5.5.0")
    assert found[1] == "LICENSE-addon-fit.txt (@xterm/addon-fit 0.10.0) is missing"
    assert found[2].startswith("jquery.js is neither recorded")


def test_the_licences_ship_in_the_package():
    globs = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    shipped = globs["tablegames.net"]
    record = json.loads((STATIC / RECORD).read_text("utf-8"))
    for package in record["packages"]:
        for name in (RECORD, package["licence_file"], *package["files"]):
            assert any(fnmatch.fnmatch(f"web_static/{name}", glob) for glob in shipped), name
