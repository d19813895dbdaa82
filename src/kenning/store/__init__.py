"""Store engines behind one contract (``kenning.store.base.Store``)."""

from kenning.store.base import SCHEMA_VERSION, Store

__all__ = ["SCHEMA_VERSION", "Store"]
