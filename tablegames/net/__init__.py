"""Playing over a network: the wire protocol, the asyncio server and the remote client."""

from .library_noise import hush

# Before any module here imports asyncssh (the party server, its fork server, the sessions
# forked from it: each imports this package first).
hush()
