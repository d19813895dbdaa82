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
