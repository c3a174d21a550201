"""Leaving the terminal clean: nothing of the game stays on screen or in the scrollback."""

from __future__ import annotations

from textual.drivers.linux_driver import LinuxDriver

#: Default colours, the cursor home, the whole screen erased.
BLANK = "\x1b[0m\x1b[H\x1b[2J"


class CleanDriver(LinuxDriver):
    """Textual's terminal driver, which wipes the game off the alternate screen before it
    leaves it (on every way out: quitting, Ctrl-C, a crash, a suspend).

    A terminal keeps, in each row of the alternate screen, the cells a wider size drew there;
    tmux, on leaving that screen after a resize, reflows such rows into the scrollback of the
    shell it returns to (a hand among them). Rows erased first have nothing to reflow.
    """

    def stop_application_mode(self) -> None:
        if self._writer_thread is not None:
            self.write(BLANK)
        super().stop_application_mode()
