"""Pick the engine for a store location: a ``postgresql://`` DSN or a SQLite file path."""

from __future__ import annotations

import os

from kenning.store.base import Store

DSN_PREFIXES = ("postgresql://", "postgres://")


def is_dsn(target: object) -> bool:
    """True when ``target`` names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(DSN_PREFIXES)


def open_store(target: str | os.PathLike[str]) -> Store:
    """Open the store at ``target``: PostgreSQL for a DSN, SQLite for anything else."""
    if is_dsn(target):
        from kenning.store.postgres import PostgresStore

        return PostgresStore(str(target))
    from kenning.store.sqlite import SQLiteStore

    return SQLiteStore(target)
