"""Friends in browsers at once: headless Chromium tabs joining `tablegames serve --web` on loopback.

    .venv/bin/python bench/web_sessions.py [--sessions 10] [--idle 5]

The server is the real party (`tablegames serve --web 0`, sessions forked by its fork server,
as over SSH); each browser is a context of its own in one headless Chromium (the distribution's,
through Playwright), 1000x600 CSS pixels. A friend opens the page, types a name, submits, and
waits for the lobby: the time counted is from opening the page to the lobby drawn in the page's
terminal (read from xterm.js's buffer). Printed figures, measured as `bench/ssh_sessions.py`
measures SSH sessions; nothing passes or fails:

- time from opening the page to the lobby drawn: one browser alone (median of three), then all
  browsers opened at once (median, p90, max);
- memory per browser session: the session programs' RSS and PSS (a program is a process on a
  terminal under the server; the fork server is counted apart), and how much the server's own
  RSS grew per session (the websocket, its buffers, the session's bookkeeping);
- the server's CPU (and the programs') while every session sits idle for `--idle` seconds.

Everything is bounded: each wait has a timeout, and every browser, program and the server are
ended before the script returns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tablegames` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import median, spread_ms
from bench.ssh_sessions import Footprint, cpu_seconds, descendants, ended, status_kb

CHROMIUM = "/usr/bin/chromium"
LOBBY = "n opens a new table"  # the lobby's hint line: the lobby is drawn
SERVER_START_TIMEOUT = 30.0
SERVE_ARGS = ("--ssh", "0", "--port", "0", "--web", "0")  # free loopback ports


def party_and_browser_cpu(server_pid: int) -> tuple[float, float]:
    """CPU seconds so far of the party (the server, its fork server and sessions) and of the
    browser (every other process below this one: Chromium and Playwright's driver)."""
    party = [server_pid, *descendants(server_pid)]
    browser = [pid for pid in descendants(os.getpid()) if pid not in party]
    return sum(map(cpu_seconds, party)), sum(map(cpu_seconds, browser))


def start_server(home: Path) -> tuple[subprocess.Popen[str], str]:
    """`tablegames serve --web 0` on free loopback ports; returns it and the page's address."""
    output = home / "serve.out"
    env = {**os.environ, "TABLEGAMES_HOME": str(home)}
    with output.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "tablegames", "serve", *SERVE_ARGS],
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        found = re.search(r"(http://127\.0\.0\.1:\d+)", output.read_text())
        if found:
            return server, found.group(1)
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise RuntimeError(f"the party server did not start: {output.read_text()}")


async def open_lobby(browser: Any, base: str, name: str, timeout: float) -> tuple[Any, float]:
    """A new browser opens the page, gives `name` and waits for the lobby; returns its context
    and the seconds from opening the page to the lobby drawn."""
    context = await browser.new_context(viewport={"width": 1000, "height": 600})
    page = await context.new_page()
    started = time.monotonic()
    await page.goto(base + "/")
    await page.fill("#name", name)
    await page.click("#join")
    deadline = started + timeout
    while time.monotonic() < deadline:
        screen = await page.evaluate("() => window.tablegames ? window.tablegames.screen() : ''")
        if LOBBY in screen:
            return context, time.monotonic() - started
        await asyncio.sleep(0.02)
    raise RuntimeError(f"{name}'s lobby was not drawn within {timeout:.0f} s")


async def measure_async(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory(prefix="tg-web-bench-") as folder:
        server, base = start_server(Path(folder))
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                try:
                    alone = []
                    for run in range(3):
                        context, took = await open_lobby(browser, base, f"alone{run}", args.timeout)
                        alone.append(took)
                        await context.close()
                    await asyncio.sleep(1.0)  # the lone programs hung up and reaped
                    server_before = status_kb(server.pid, "VmRSS")
                    cpu_before = party_and_browser_cpu(server.pid)
                    opened = await asyncio.gather(
                        *(
                            open_lobby(browser, base, f"friend{n}", args.timeout)
                            for n in range(args.sessions)
                        )
                    )
                    at_once = [took for _, took in opened]
                    cpu_after = party_and_browser_cpu(server.pid)
                    await asyncio.sleep(1.0)  # start-up output settles before measuring
                    seen = Footprint.now(server.pid)
                    busy = seen.cpu_seconds()
                    await asyncio.sleep(args.idle)
                    server_cpu, programs_cpu = seen.cpu_seconds_since(busy)
                    for context, _ in opened:
                        await context.close()
                finally:
                    await browser.close()
        finally:
            server.send_signal(signal.SIGINT)  # closes the doors, hangs up its programs
            ended(server, 30)
    return {
        "sessions": args.sessions,
        "lobby_alone_ms": round(1000 * median(alone), 1),
        "lobby_at_once_ms": spread_ms(at_once),
        **seen.figures(server_before, args.sessions),
        "cpu_s_opening_all": {
            "party": round(cpu_after[0] - cpu_before[0], 2),
            "browser": round(cpu_after[1] - cpu_before[1], 2),
        },
        "idle_s": args.idle,
        "server_cpu_percent": round(100 * server_cpu / args.idle, 2) if args.idle else 0.0,
        "programs_cpu_percent": round(100 * programs_cpu / args.idle, 2) if args.idle else 0.0,
    }


def report(figures: dict[str, Any]) -> None:
    at_once = figures["lobby_at_once_ms"]
    server = figures["server_rss_kb"]
    print(
        "\n".join(
            [
                f"browser sessions: {figures['sessions']} headless Chromium tabs on loopback "
                f"({figures['programs']} programs running, forked; fork server PSS "
                f"{figures['fork_server_pss_kb'] / 1024:.1f} MiB)",
                f"  page opened to lobby drawn, one alone: {figures['lobby_alone_ms']:.0f} ms "
                "(median of 3)",
                f"  page opened to lobby drawn, all at once: median {at_once['median']:.0f} ms, "
                f"p90 {at_once['p90']:.0f} ms, max {at_once['max']:.0f} ms",
                f"  CPU while they opened: the party {figures['cpu_s_opening_all']['party']} s, "
                f"the browser {figures['cpu_s_opening_all']['browser']} s "
                f"({os.cpu_count()} cores)",
                f"  memory per session: program RSS {figures['program_rss_kb'] / 1024:.1f} MiB "
                f"(PSS {figures['program_pss_kb'] / 1024:.1f} MiB), server growth "
                f"{figures['server_growth_per_session_kb']} KiB "
                f"(server RSS {server['before'] / 1024:.1f} -> {server['after'] / 1024:.1f} MiB)",
                f"  all idle for {figures['idle_s']:.0f} s: server CPU "
                f"{figures['server_cpu_percent']}% of a core, programs "
                f"{figures['programs_cpu_percent']}%",
            ]
        )
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10, help="browsers opened at once")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle to measure")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for a lobby")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if not 1 <= args.sessions <= 20:  # the party's default cap on sessions
        parser.error("--sessions must be between 1 and 20")
    figures = asyncio.run(measure_async(args))
    report(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


if __name__ == "__main__":
    main()
