"""A stand-in for the lobby app behind the SSH front door: says what it was given, echoes lines.

It prints who it runs for (from its environment), its TERM and terminal size, whether stdin is
a terminal and its controlling one, its pid, then READY. Each typed line comes back as
"YOU SAID: ..."; "exit N" exits with status N; "raw" reads one key in raw mode, as a full-screen
app would, and prints its byte ("GOT 03" for Ctrl-C); SIGWINCH prints the new size.
"fullscreen" turns on the alternate screen and mouse reporting, as Textual does (and leaves
them on); "hog" asks for 2 GB and, refused, exits as the party's session does when its memory
limit is reached.
"""

from __future__ import annotations

import os
import signal
import sys
import termios
import tty

EXIT_OUT_OF_MEMORY = 86  # tablegames.net.ssh_types.EXIT_OUT_OF_MEMORY


def size() -> str:
    columns, rows = os.get_terminal_size(0)
    return f"SIZE={columns}x{rows}"


def controlling_terminal() -> bool:
    """True if stdin is this process's controlling terminal (and its group is in front)."""
    try:
        tty = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        return False
    os.close(tty)
    return os.tcgetpgrp(0) == os.getpgrp()


def read_one_raw_key() -> None:
    saved = termios.tcgetattr(0)
    tty.setraw(0)
    try:
        print("RAW", end="\r\n", flush=True)
        key = os.read(0, 1)
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, saved)
    print(f"GOT {key.hex()}", flush=True)


def main() -> None:
    # (os.write, not print: a print of the handler's inside a print of main()'s raised
    # "reentrant call" and ended the program, 1 run in ~15 of the web door's resize test)
    signal.signal(signal.SIGWINCH, lambda *_: os.write(1, f"RESIZED {size()}\n".encode()))
    print(f"PLAYER={os.environ.get('PLAYER')} GUEST={os.environ.get('GUEST')}")
    print(f"KEY={os.environ.get('KEY')}")
    print(f"TERM={os.environ.get('TERM')} {size()}")
    print(f"TTY={'yes' if os.isatty(0) else 'no'} CTTY={'yes' if controlling_terminal() else 'no'}")
    print(f"ENV={','.join(sorted(os.environ))}")
    print(f"PID={os.getpid()}")
    print("READY", flush=True)
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("exit "):
            sys.exit(int(line.split()[1]))
        if line == "raw":
            read_one_raw_key()
            continue
        if line == "fullscreen":
            print("\x1b[?1049h\x1b[?1000h\x1b[?1006hFULL SCREEN", flush=True)
            continue
        if line == "hog":
            try:
                hoard = bytearray(2 * 2**30)
            except MemoryError:
                os._exit(EXIT_OUT_OF_MEMORY)
            print(f"GOT {len(hoard)} BYTES", flush=True)
            continue
        print(f"YOU SAID: {line}", flush=True)


if __name__ == "__main__":
    main()
