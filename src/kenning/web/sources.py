"""Facade methods the dashboard uses that a given Kenning version may not have yet (injection
log, confidence history, MEMORY.md preview): checked here, in one place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

OPTIONAL = {
    "injections": "the log of what Kenning injected into prompts",
    "confidence_history": "the confidence history of memories",
    "curate_preview": "the MEMORY.md preview",
}


def feature(k: Any, name: str) -> Callable[..., Any] | None:
    """The facade method ``name`` if this Kenning has it, else None."""
    if name not in OPTIONAL:
        raise KeyError(name)
    method = getattr(k, name, None) if hasattr(k, name) else None
    return method if callable(method) else None


def features(k: Any) -> dict[str, bool]:
    """Which optional data sources are available."""
    return {name: feature(k, name) is not None for name in OPTIONAL}


def unavailable(name: str) -> dict[str, Any]:
    """The answer for a data source this Kenning lacks: a clear note, not an error."""
    return {
        "available": False,
        "message": f"{OPTIONAL[name][0].upper()}{OPTIONAL[name][1:]} is not available yet in "
                   "this version of Kenning.",
    }
