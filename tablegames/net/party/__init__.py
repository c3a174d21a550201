"""The party server's side of the protocol, free of sockets: who is who, the tables, the lobby
and its chat, the clock (`Party` and its parts)."""

from .members import Login, Member, PartyConfig, person
from .party import Party

__all__ = ["Login", "Member", "Party", "PartyConfig", "person"]
