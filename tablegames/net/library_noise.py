"""What a library says to its own developers stays out of the host's terminal and the guests'.

asyncssh still names DSA keys (it refuses to use them here), and cryptography warns that DSA is
deprecated at every import of asyncssh: five warnings at every `serve` start, in the fork
server that preloads the sessions' modules, and in every test run. Only those are silenced,
by their message and the module they come from: our own warnings, and any other library's,
still show.
"""

from __future__ import annotations

import warnings


def hush() -> None:
    """Silence the warnings listed here (before the library that causes them is imported)."""
    warnings.filterwarnings("ignore", message=r"DSA is deprecated", module=r"asyncssh(\.|$)")
