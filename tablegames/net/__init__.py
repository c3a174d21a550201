"""Playing over a network: the wire protocol, the asyncio server and the remote client."""
