"""The test suite's time: a pytest run (the default run unless given other arguments) timed in
wall seconds and in the CPU seconds the whole machine was busy meanwhile (Linux's /proc/stat,
so the programs and terminals the tests start are counted too), and, with `--per-test N`, the
N tests and files that cost the most CPU: each test's worker and the programs it started and
waited for.

    .venv/bin/python -m bench.suite_time [--per-test N] [-- PYTEST ARGUMENTS]

A run that keeps every core busy most of its time is bound by CPU: less work shortens it,
more workers do not. Measure on a quiet machine; a second run in the same checkout finds the
byte-code the first one wrote.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from .figures import table

#: Where each test's CPU is written when `--per-test` asks for it (this module is then the
#: run's pytest plugin, in every worker).
PER_TEST_FILE = "TABLEGAMES_SUITE_CPU"
ROOT = Path(__file__).resolve().parent.parent


def machine_seconds() -> tuple[float, float]:
    """CPU seconds all cores have been busy and idle since the machine started."""
    first = Path("/proc/stat").read_text(encoding="ascii").split("\n", 1)[0].split()
    user, nice, system, idle, iowait, irq, softirq = (int(field) for field in first[1:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, (idle + iowait) / tick


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Write the CPU this test took: its process's, and its finished children's (a plugin only
    when `main` names it, which sets PER_TEST_FILE)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = time.process_time()
    yield
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    started_programs = (ended.ru_utime + ended.ru_stime) - (children.ru_utime + children.ru_stime)
    with open(os.environ[PER_TEST_FILE], "a", encoding="utf-8") as record:
        record.write(f"{item.nodeid}\t{time.process_time() - own + started_programs:.3f}\n")


def most(per_test: Path, count: int) -> list[str]:
    """The `count` tests and files that cost the most CPU, as tables."""
    tests: Counter[str] = Counter()
    for line in per_test.read_text(encoding="utf-8").splitlines():
        nodeid, seconds = line.rsplit("\t", 1)
        tests[nodeid] += float(seconds)
    files: Counter[str] = Counter()
    for nodeid, seconds in tests.items():
        files[nodeid.split("::", 1)[0]] += seconds
    return [
        table(f"the {title} that cost the most CPU", ["CPU s", title[:-1]], rows)
        for title, rows in (
            ("tests", [(round(s, 1), name) for name, s in tests.most_common(count)]),
            ("files", [(round(s, 1), name) for name, s in files.most_common(count)]),
        )
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-test", type=int, default=0, metavar="N")
    parser.add_argument("pytest_args", nargs="*", help="given to pytest (after --)")
    args = parser.parse_args(argv)
    paths = [str(ROOT), os.environ.get("PYTHONPATH")]  # (every worker loads the plugin)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, paths))}
    command = [sys.executable, "-m", "pytest", *args.pytest_args]
    with tempfile.TemporaryDirectory(prefix="tgbench-") as folder:
        per_test = Path(folder) / "per_test.tsv"
        if args.per_test:
            env[PER_TEST_FILE] = str(per_test)
            command[3:3] = ["-p", "bench.suite_time"]
        before, started = machine_seconds(), time.monotonic()
        code = subprocess.run(command, env=env, cwd=ROOT, check=False).returncode
        wall = time.monotonic() - started
        busy, idle = (now - then for now, then in zip(machine_seconds(), before, strict=True))
        cores = os.cpu_count() or 1
        print(
            table(
                "the test run",
                ["wall s", "CPU busy s", "CPU idle s", "cores", "busy share"],
                [(round(wall), round(busy), round(idle), cores, round(busy / (wall * cores), 2))],
            )
        )
        if args.per_test and per_test.exists():
            print("\n\n".join(most(per_test, args.per_test)))
    return code


if __name__ == "__main__":
    sys.exit(main())
