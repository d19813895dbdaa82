"""Stable, sortable ids: 48-bit millisecond time + 80 random bits, Crockford base32 (ULID form)."""

from __future__ import annotations

import os

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ID_LENGTH = 26


def new_id(ms: int) -> str:
    """Return a 26-character id that sorts by its creation time ``ms`` (Unix milliseconds)."""
    if not 0 <= ms < 1 << 48:
        raise ValueError(f"timestamp out of range for an id: {ms}")
    value = (ms << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(ID_LENGTH):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def looks_like_id(text: str) -> bool:
    """True when ``text`` is shaped like an id (used to tell ids from prefixes)."""
    return len(text) == ID_LENGTH and all(c in _ALPHABET for c in text.upper())
