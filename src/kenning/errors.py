"""Errors Kenning raises: one base class so callers can catch everything Kenning means."""

from __future__ import annotations


class KenningError(Exception):
    """Base class for every error Kenning raises on purpose."""


class ValidationError(KenningError, ValueError):
    """Bad input: nothing was written."""


class NotFoundError(KenningError, LookupError):
    """No memory or link with that id."""


class StoreError(KenningError):
    """The store could not be opened or is not a Kenning store."""
