"""Proving a seat, or a key, without sending anything a listener or a look-alike server can
use: answers to the server's challenge (sans I/O).

Each `welcome` carries a fresh random `nonce`. A client that holds a seat token answers with
HMAC-SHA256, keyed by the token's SHA-256 (what the server keeps of it), of the challenge:
the nonce, the server's lasting id, the address the client reached it at (as the client's
socket sees it: `endpoint`) and the table. The server checks it against the address its own
socket was reached at. So the token itself never crosses the wire once issued; an answer
overheard is useless on any other connection (another nonce); and a look-alike server at
another address, even one relaying the real server's nonce, collects an answer made for its own
address, which the real server refuses.

`tablegames join` also keeps a lasting Ed25519 key (`ClientKey`, owner-only on disk): its
public half comes in the hello and it signs the same challenge (`Prove`), so a name used over
`join` is owned by a key as an SSH key owns one; its fingerprint is written as OpenSSH writes
one ("SHA256:..."). A key, unlike a token, is never sent in full to anyone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import secrets

from .words import address_text

NONCE_BYTES = 18


def new_nonce() -> str:
    """A fresh challenge for one connection."""
    return secrets.token_urlsafe(NONCE_BYTES)


def endpoint(sockname: object) -> str:
    """A socket address as both ends write it, `127.0.0.1:4747` or `[::1]:4747` (an IPv4
    address in an IPv6 socket as IPv4; "" for none)."""
    if not isinstance(sockname, tuple) or len(sockname) < 2:
        return ""
    host = str(sockname[0]).split("%")[0]
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return address_text(host, int(sockname[1]))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address_text(str(address), int(sockname[1]))


def typed_endpoint(text: str) -> str:
    """An address and port a host typed (`203.0.113.7:4747`, `[2001:db8::1]:4747`) as
    `endpoint` writes it; ValueError with a sentence if it is not an IP address and a port."""
    host, _, port = text.strip().rpartition(":")
    example = "an IP address and port such as 203.0.113.7:4747"
    try:
        address, number = ipaddress.ip_address(host.strip("[]")), int(port)
    except ValueError:
        raise ValueError(f"{text!r} is not {example}") from None
    if not 0 < number < 65536:
        raise ValueError(f"{text!r} is not {example}: a port is 1 to 65535")
    return endpoint((str(address), number))


def token_key(token: str) -> bytes:
    """What the server keeps of a seat token: its SHA-256 (the key its proofs are made with)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def challenge(kind: str, nonce: str, server_id: str, reached: str, table: str = "") -> bytes:
    """What a proof of `kind` ("seat" or "key") answers: this connection's nonce, the server's
    lasting id, the address the client reached, and the table (for a seat)."""
    parts = (f"tablegames {kind} proof", nonce, server_id, reached, table)
    return "\0".join(parts).encode("utf-8", "surrogatepass")


def _text(digest: bytes) -> str:
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def seat_proof(key: bytes, nonce: str, server_id: str, reached: str, table: str) -> str:
    """The answer that proves the seat whose token's key (`token_key`) is `key`."""
    made = hmac.new(key, challenge("seat", nonce, server_id, reached, table), hashlib.sha256)
    return _text(made.digest())


def proves_seat(
    key: bytes, proof: str, nonce: str, server_id: str, reached: str, table: str
) -> bool:
    """True if `proof` answers this connection's challenge for the seat of `key` (in constant
    time)."""
    expected = seat_proof(key, nonce, server_id, reached, table)
    return hmac.compare_digest(expected.encode(), proof.encode("utf-8", "surrogatepass"))


class ClientKey:
    """A client's lasting Ed25519 key: it signs challenges, never leaves its owner whole."""

    def __init__(self, private: bytes) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        self._key = Ed25519PrivateKey.from_private_bytes(private)
        raw = self._key.public_key().public_bytes_raw()
        self.public = _text(raw)  # as the hello carries it
        self.fingerprint = _fingerprint(raw)

    def sign(self, nonce: str, server_id: str, reached: str) -> str:
        """The signature that proves this key to the server that sent `nonce`."""
        return _text(self._key.sign(challenge("key", nonce, server_id, reached)))


def _fingerprint(raw: bytes) -> str:
    """An Ed25519 public key's fingerprint as OpenSSH prints it."""
    blob = b"".join(len(part).to_bytes(4, "big") + part for part in (b"ssh-ed25519", raw))
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).rstrip(b"=").decode()


def _raw(text: str) -> bytes | None:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw


def key_fingerprint(public: str) -> str | None:
    """The fingerprint of the Ed25519 public key `public` (as a hello carries it); None if it
    is no such key."""
    raw = _raw(public)
    return _fingerprint(raw) if raw is not None and len(raw) == 32 else None


def proves_key(public: str, signature: str, nonce: str, server_id: str, reached: str) -> bool:
    """True if `signature` is `public`'s answer to this connection's challenge."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    raw, signed = _raw(public), _raw(signature)
    if raw is None or signed is None or len(raw) != 32:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(raw).verify(
            signed, challenge("key", nonce, server_id, reached)
        )
    except (InvalidSignature, ValueError):
        return False
    return True
