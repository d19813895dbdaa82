"""Errors Kenning raises: one base class so callers can catch everything Kenning means."""

from __future__ import annotations


class KenningError(Exception):
    """Base class for every error Kenning raises on purpose. Its message is redacted: an error
    often quotes the input it refuses, and it is printed, returned to agents and logged."""

    def __init__(self, *args: object) -> None:
        if any(isinstance(a, str) for a in args):
            from kenning.redact import redact

            args = tuple(redact(a).text if isinstance(a, str) else a for a in args)
        super().__init__(*args)


class ValidationError(KenningError, ValueError):
    """Bad input: nothing was written."""


class NotFoundError(KenningError, LookupError):
    """No memory or link with that id."""


class StoreError(KenningError):
    """The store could not be opened or is not a Kenning store."""


_FULL = ("database or disk is full", "no space left on device", "disk quota exceeded",
         "file too large")


def disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk (or the user's quota) is full: an ``OSError`` with ENOSPC,
    EDQUOT or EFBIG, SQLite's SQLITE_FULL, or a database server's "No space left on device".
    Nothing Kenning writes is half-written then (a transaction rolls back, a file is written
    atomically or appended whole), so the caller can say so plainly."""
    import errno

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:  # the causes too
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in (
                errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return True
        if getattr(current, "sqlite_errorcode", None) == 13:  # SQLITE_FULL
            return True
        if any(cue in str(current).lower() for cue in _FULL):
            return True
        current = current.__cause__ or current.__context__
    return False

