"""Multi-agent findings: agents recording at once, de-duplicated by meaning
(cosine >= 0.85) and attributed to every source that found them. A lock makes "look for a
near-duplicate, then write" atomic: the server's own lock for a shared store (machines share no
files), else a lock file next to the store."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError
from kenning.paths import data_dir

SIMILAR = 0.85  # the same finding (a near-duplicate) at or above this cosine
MAX_SOURCES = 64
CORROBORATION = 0.05  # confidence gained per additional independent source
MAX_CORROBORATED = 0.95
_SOURCE = re.compile(r"^[A-Za-z][\w.-]*(:[\w.@/-]+)*$")


def source(value: object) -> str:
    """A finding's source: ``agent:<type>``, ``swarm:<id>:<agent>``, ``mcp``, ``user``..."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("source is empty: use agent:<type> or swarm:<id>:<agent>")
    s = value.strip()
    if len(s) > 200 or not _SOURCE.match(s):
        raise ValidationError(f"source {s[:40]!r} is not like agent:<type> or swarm:<id>:<agent>")
    if s.startswith("swarm:") and s.count(":") != 2:
        raise ValidationError("a swarm source is swarm:<id>:<agent>")
    return s


def lock_file(store_location: str) -> Path:
    """The lock for a store: beside its file when it is one, else in the data directory."""
    p = Path(store_location)
    if p.parent.is_dir() and not store_location.startswith(("postgres", ":memory:")):
        return p.with_name(p.name + ".findings.lock")
    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    return d / "findings.lock"


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive OS lock on ``path`` (blocks until free; released on exit or crash)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        os.close(fd)


def lock(store: Any) -> AbstractContextManager[None]:
    """The lock that serialises findings on ``store``: its ``exclusive("findings")`` when it
    has one (PostgreSQL: an advisory lock every machine sees), else the lock file beside it."""
    store_lock = getattr(store, "exclusive", None)
    if store_lock is not None:
        return store_lock("findings")
    return exclusive(lock_file(store.location))


def merged_sources(existing: object, new: str) -> list[str]:
    """The sources list with ``new`` added once (oldest first, bounded)."""
    out = [s for s in existing if isinstance(s, str)] if isinstance(existing, list) else []
    if new not in out:
        out.append(new)
    return out[-MAX_SOURCES:]


def corroborated(current: float, incoming: float, new_source: bool) -> float:
    """An independent source agreeing raises confidence a little (never past 0.95); the same
    source saying it again changes nothing but can still raise it to what it reported."""
    base = max(current, incoming)
    return max(base, min(MAX_CORROBORATED, base + CORROBORATION)) if new_source else base
