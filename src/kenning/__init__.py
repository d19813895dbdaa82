"""Kenning: local-first, self-learning memory for AI coding agents."""

from kenning.errors import KenningError, NotFoundError, StoreError, ValidationError
from kenning.facade import Kenning
from kenning.models import (
    Category,
    CreatedBy,
    Hit,
    Link,
    LinkType,
    Memory,
    MemoryType,
    OutcomeStatus,
    Scope,
)

__version__ = "0.1.0"

__all__ = [
    "Category",
    "CreatedBy",
    "Hit",
    "Kenning",
    "KenningError",
    "Link",
    "LinkType",
    "Memory",
    "MemoryType",
    "NotFoundError",
    "OutcomeStatus",
    "Scope",
    "StoreError",
    "ValidationError",
    "__version__",
]
