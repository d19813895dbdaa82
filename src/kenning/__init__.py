"""Kenning: local-first, self-learning memory for AI coding agents."""

# typing is not imported: it costs a hook process several milliseconds.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from kenning.errors import KenningError, NotFoundError, StoreError, ValidationError
    from kenning.facade import Kenning
    from kenning.lifecycle import SessionReport
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

# Names resolve on first use (PEP 562) so a hook process that imports one small module of the
# package does not pay for the facade, numpy and the models.
_LAZY = {
    "Kenning": "kenning.facade",
    "KenningError": "kenning.errors",
    "NotFoundError": "kenning.errors",
    "StoreError": "kenning.errors",
    "ValidationError": "kenning.errors",
    "SessionReport": "kenning.lifecycle",
    **{
        name: "kenning.models"
        for name in ("Category", "CreatedBy", "Hit", "Link", "LinkType", "Memory", "MemoryType",
                     "OutcomeStatus", "Scope")
    },
}

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
    "SessionReport",
    "StoreError",
    "ValidationError",
    "__version__",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kenning' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
