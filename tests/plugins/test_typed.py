"""A game's own package type-checks against tablegames: the guide's code and the bundled
examples pass `mypy --strict` outside the package, against tablegames installed from a wheel
(its `py.typed`), as an author's package would (`typed.py`, which `.ci/run` runs too)."""

from __future__ import annotations

from .typed import check


def test_the_guides_code_and_the_examples_pass_mypy_strict_as_an_authors_package(tmp_path):
    done = check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout
