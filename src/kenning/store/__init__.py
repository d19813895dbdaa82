"""Store engines behind one contract (``kenning.store.base.Store``).

``Store`` and ``SCHEMA_VERSION`` are read from ``kenning.store.base`` on first use, so that a
light module of this package (``pgrank``, which the prompt hook's PostgreSQL fallback reads) is
imported without the contract and the models (about 35 ms)."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kenning.store.base import SCHEMA_VERSION, Store

__all__ = ["SCHEMA_VERSION", "Store"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from kenning.store import base

        return getattr(base, name)
    raise AttributeError(f"module 'kenning.store' has no attribute {name!r}")
