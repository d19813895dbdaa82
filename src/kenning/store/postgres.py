"""The team engine: PostgreSQL with pgvector, shared by many processes and machines.

psycopg 3 with a connection pool; ``tsvector`` full-text search weighted like the SQLite FTS
columns; pgvector HNSW (cosine) indexes, one per vector dimension; rows scoped by organisation and
workspace as well as project. Every contract method is one transaction, retried on deadlock.
"""

from __future__ import annotations

import builtins
import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

from kenning.errors import NotFoundError, StoreError, ValidationError
from kenning.learning import ACCESS_BOOST, CEILING, DECAY_PER_HOUR, FLOOR, HOUR_MS, STANDING
from kenning.models import Anchor, CreatedBy, Filters, Link, LinkType, Memory, SessionEvent
from kenning.places.lean import mark_written, version_file
from kenning.store import guard
from kenning.store.base import (
    PENDING_LINKS,
    SCHEMA_VERSION,
    UPDATABLE,
    drift_of,
    reject_cycles,
    validity,
)
from kenning.store.keywordplan import RANK_BUDGET, KeywordPlan, plan
from kenning.store.pgrank import POSTGRES_RANK as _RANK
from kenning.store.sqlite import (
    _CATEGORIES,
    _CREATED_BY,
    _LINK_TYPES,
    _OUTCOMES,
    _SCOPES,
    _TYPES,
    CO_ACCESS_TOP,
    _ordered_pairs,
    _row_to_memory,
)
from kenning.text import embedding_text, keyword_terms

if TYPE_CHECKING:
    import numpy as np
    import psycopg

R = TypeVar("R")

HNSW_MAX_DIM = 2000  # pgvector's limit for an HNSW index on the vector type
EF_SEARCH = int(os.environ.get("KENNING_PG_EF_SEARCH", "100"))
# The HNSW graph's links per node and build-time candidate list (pgvector's defaults: 16, 64).
HNSW_M = int(os.environ.get("KENNING_PG_HNSW_M", "16"))
HNSW_EF_CONSTRUCTION = int(os.environ.get("KENNING_PG_HNSW_EF_CONSTRUCTION", "64"))
POOL_MAX = int(os.environ.get("KENNING_PG_POOL_MAX", "8"))
RETRIES = 6  # deadlocks and serialisation failures are retried this often
# Bounds on waiting for the server. A connection attempt (and the wait for a pooled one) gives
# up after CONNECT_TIMEOUT_S; one statement after STATEMENT_TIMEOUT_MS (index builds and
# ANALYZE lift it); a call whose connection was lost (the server restarted, the network went
# away) tries again, backing off from 0.1 s to 1 s, for up to RECONNECT_S before its error.
CONNECT_TIMEOUT_S = max(2, int(os.environ.get("KENNING_PG_CONNECT_TIMEOUT", "5")))
STATEMENT_TIMEOUT_MS = int(os.environ.get("KENNING_PG_STATEMENT_TIMEOUT_MS", "60000"))
RECONNECT_S = float(os.environ.get("KENNING_PG_RECONNECT_S", "15"))
_BACKOFF_FIRST, _BACKOFF_MAX = 0.1, 1.0
# A dead server that sends no reset is noticed by the kernel's keepalives within about 25 s.
_KEEPALIVES = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
               "keepalives_count": 3}
# SQLSTATEs that mean the connection or the server went away, not that the query was wrong:
# class 08 (connection exception), an administrator's or a crash's shutdown, a server still
# starting up or recovering.
_LOST_STATES = ("57P01", "57P02", "57P03")
CHANGES_KEPT = 10_000
# Rows written through one handle between ANALYZE runs: after a bulk load, stale statistics make
# the planner join before it orders by distance instead of walking the HNSW index.
ANALYZE_EVERY = 5_000
STATS_CHECK_S = 30.0
_MIGRATION_LOCK = 0x4B454E4E  # advisory lock key held while migrating ("KENN")
SELECTIVE_FROM = 20_000  # memories from which the rarest words choose what keyword search ranks
FTS_STATISTICS = 1_000  # ANALYZE's target for the words column: its 10,000 commonest lexemes
_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.:@-]{0,100}$")
GLOBAL_META = frozenset({"link_generation"})  # counters kept for the whole database


def redact_dsn(dsn: str) -> str:
    """The DSN with any password replaced by ``***`` (for doctor, logs and errors)."""
    out = re.sub(r"(://[^:/@?#]*):[^@/?#]*@", r"\1:***@", dsn)
    return re.sub(r"(?i)(password=)[^&\s]*", r"\1***", out)


MIGRATIONS: list[str] = [
    f"""
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE TABLE meta (
        organisation TEXT NOT NULL DEFAULT '',
        workspace TEXT NOT NULL DEFAULT '',
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (organisation, workspace, key)
    );
    CREATE TABLE memories (
        seq BIGSERIAL PRIMARY KEY,
        id TEXT COLLATE "C" NOT NULL UNIQUE,
        organisation TEXT NOT NULL DEFAULT '',
        workspace TEXT NOT NULL DEFAULT '',
        type TEXT NOT NULL CHECK (type IN {_TYPES}),
        topic TEXT COLLATE "C",
        summary TEXT NOT NULL CHECK (length(summary) > 0),
        content TEXT NOT NULL CHECK (length(content) > 0),
        category TEXT NOT NULL CHECK (category IN {_CATEGORIES}),
        tags JSONB NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
        source TEXT,
        confidence DOUBLE PRECISION NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
        outcome TEXT CHECK (outcome IS NULL OR outcome IN {_OUTCOMES}),
        outcome_reason TEXT,
        project TEXT COLLATE "C" NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN {_SCOPES}),
        agent TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_accessed_at BIGINT,
        access_count BIGINT NOT NULL DEFAULT 0 CHECK (access_count >= 0),
        content_hash TEXT NOT NULL,
        metadata JSONB NOT NULL DEFAULT '{{}}' CHECK (jsonb_typeof(metadata) = 'object'),
        fts TSVECTOR GENERATED ALWAYS AS (
            setweight(to_tsvector('english'::regconfig, coalesce(topic, '')), 'A')
            || setweight(to_tsvector('english'::regconfig, summary), 'B')
            || setweight(to_tsvector('english'::regconfig, content), 'C')
            || setweight(jsonb_to_tsvector('english'::regconfig, tags, '["string"]'), 'D')
        ) STORED,
        UNIQUE (organisation, workspace, project, scope, agent, content_hash)
    );
    CREATE INDEX idx_memories_scope_project_created
        ON memories(organisation, workspace, project, created_at);
    CREATE INDEX idx_memories_type_created ON memories(type, created_at);
    CREATE INDEX idx_memories_topic_created ON memories(topic, created_at);
    CREATE INDEX idx_memories_created ON memories(created_at);
    CREATE INDEX idx_memories_fts ON memories USING gin (fts);

    CREATE TABLE memory_vectors (
        seq BIGSERIAL PRIMARY KEY,
        memory_id TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        embedder TEXT NOT NULL,
        dim INTEGER NOT NULL CHECK (dim > 0),
        vector VECTOR NOT NULL CHECK (vector_dims(vector) = dim),
        UNIQUE (memory_id, embedder)
    );
    CREATE INDEX idx_vectors_embedder ON memory_vectors(embedder, dim);

    CREATE TABLE memory_links (
        id TEXT COLLATE "C" PRIMARY KEY,
        from_id TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        to_id TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        link_type TEXT NOT NULL CHECK (link_type IN {_LINK_TYPES}),
        confidence DOUBLE PRECISION NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
        created_by TEXT NOT NULL CHECK (created_by IN {_CREATED_BY}),
        metadata JSONB NOT NULL DEFAULT '{{}}',
        relationship TEXT COLLATE "C" NOT NULL,
        created_at BIGINT NOT NULL,
        CHECK (from_id <> to_id),
        UNIQUE (from_id, to_id, link_type, relationship)
    );
    CREATE INDEX idx_links_from ON memory_links(from_id);
    CREATE INDEX idx_links_to ON memory_links(to_id);
    CREATE INDEX idx_links_type ON memory_links(link_type);
    CREATE INDEX idx_links_confidence ON memory_links(confidence);
    CREATE INDEX idx_links_relationship ON memory_links(relationship);

    CREATE TABLE memory_changes (
        seq BIGSERIAL PRIMARY KEY,
        memory_id TEXT NOT NULL
    );
    INSERT INTO meta(key, value) VALUES ('redactions', '0');
    """,
    """
    CREATE TABLE graph_scores (
        memory_id TEXT COLLATE "C" PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
        pagerank DOUBLE PRECISION NOT NULL CHECK (pagerank >= 0.0),
        pagerank_norm DOUBLE PRECISION NOT NULL
            CHECK (pagerank_norm >= 0.0 AND pagerank_norm <= 1.0),
        community INTEGER NOT NULL,
        computed_at BIGINT NOT NULL
    );
    CREATE INDEX idx_graph_scores_community ON graph_scores(community);
    CREATE TABLE co_access (
        a TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        b TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        count BIGINT NOT NULL CHECK (count > 0),
        last_at BIGINT NOT NULL,
        PRIMARY KEY (a, b),
        CHECK (a < b)
    );
    CREATE INDEX idx_links_created ON memory_links(created_at);
    INSERT INTO meta(key, value) VALUES ('link_generation', '0');
    -- One bump per statement (not per row), so caches of traversals hear of any link change.
    CREATE FUNCTION kenning_bump_link_generation() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE meta SET value = (value::bigint + 1)::text
        WHERE organisation = '' AND workspace = '' AND key = 'link_generation';
        RETURN NULL;
    END $$;
    CREATE TRIGGER memory_links_changed AFTER INSERT OR UPDATE OR DELETE ON memory_links
        FOR EACH STATEMENT EXECUTE FUNCTION kenning_bump_link_generation();
    """,
    """
    CREATE TABLE session_events (
        id TEXT COLLATE "C" PRIMARY KEY,
        organisation TEXT NOT NULL DEFAULT '',
        workspace TEXT NOT NULL DEFAULT '',
        session_id TEXT NOT NULL,
        project TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        kind TEXT NOT NULL,
        data JSONB NOT NULL DEFAULT '{}'
    );
    CREATE INDEX idx_session_events_session ON session_events(session_id, at_ms);
    CREATE INDEX idx_session_events_kind ON session_events(kind, at_ms);
    CREATE TABLE confidence_log (
        seq BIGSERIAL PRIMARY KEY,
        memory_id TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        at_ms BIGINT NOT NULL,
        confidence DOUBLE PRECISION NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX idx_confidence_log_memory ON confidence_log(memory_id, at_ms);
    """,
    """
    -- Validity (as the SQLite engine): valid_from NULL means since created_at; valid_to and
    -- superseded_by are read from the stored supersedes links right after this step.
    ALTER TABLE memories ADD COLUMN valid_from BIGINT, ADD COLUMN valid_to BIGINT,
        ADD COLUMN superseded_by TEXT COLLATE "C";
    """,
    """
    -- Code drift (as the SQLite engine): the places in the code a memory describes, their
    -- fingerprints and what the last check found; a memory's drift is its anchors' worst state.
    ALTER TABLE memories ADD COLUMN drift TEXT CHECK (drift IN ('stale', 'obsolete')),
        ADD COLUMN drift_reason TEXT;
    CREATE TABLE memory_anchors (
        memory_id TEXT COLLATE "C" NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        path TEXT COLLATE "C" NOT NULL,
        symbol TEXT COLLATE "C" NOT NULL DEFAULT '',
        fingerprint TEXT NOT NULL,
        commit_id TEXT,
        stat TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL DEFAULT 'fresh' CHECK (state IN ('fresh', 'stale', 'obsolete')),
        reason TEXT,
        anchored_at BIGINT NOT NULL,
        checked_at BIGINT NOT NULL,
        PRIMARY KEY (memory_id, path, symbol)
    );
    CREATE INDEX idx_anchors_path ON memory_anchors(path);
    """,
]
assert len(MIGRATIONS) == SCHEMA_VERSION
VALIDITY_FROM = 4  # the schema version whose upgrade fills validity from the stored links
# A link that says its source supersedes its target (as kenning.store.base.is_supersedes).
_SUPERSEDES_SQL = (
    "l.link_type = 'evolution' AND coalesce(l.metadata->>'canonical', l.relationship) = "
    "'supersedes'"
)

# The confidence rule of kenning.learning (+0.03 per use up to 1.0; for episodic kinds
# -0.005 per hour without use down to 0.1, standing kinds in learning.STANDING do not decay)
# as SQL over the row's own type and timestamps, evaluated under the row lock of the UPDATE:
# concurrent processes never lose a use or a feedback.
_ANCHOR_SQL = "GREATEST(created_at, updated_at, coalesce(last_accessed_at, 0))"
_STANDING_SQL = "(" + ", ".join(f"'{t}'" for t in sorted(STANDING)) + ")"
_DECAYED_SQL = (
    f"CASE WHEN type IN {_STANDING_SQL} THEN confidence ELSE "
    f"GREATEST(LEAST(confidence, {FLOOR}), confidence - {DECAY_PER_HOUR} * "
    f"GREATEST(0, %(at)s - {_ANCHOR_SQL}) / {HOUR_MS}.0) END"
)
_ACCESSED_SQL = f"LEAST({CEILING}, {_DECAYED_SQL} + {ACCESS_BOOST} * %(n)s)"
_ADJUSTED_SQL = f"LEAST({CEILING}, GREATEST(0.0, {_DECAYED_SQL} + %(delta)s))"

_MEMORY_COLUMNS = (
    "id, type, topic, summary, content, category, tags, source, confidence, outcome, "
    "outcome_reason, project, scope, agent, created_at, updated_at, last_accessed_at, "
    "access_count, content_hash, metadata, valid_from, valid_to, superseded_by, drift, "
    "drift_reason"
)
_M_COLUMNS = ", ".join(f"m.{c.strip()}" for c in _MEMORY_COLUMNS.split(","))
_LINK_COLUMNS = "id, from_id, to_id, link_type, confidence, created_by, metadata, created_at"
_L_COLUMNS = ", ".join(f"l.{c.strip()}" for c in _LINK_COLUMNS.split(","))


def _memory_row(row: Sequence[Any], is_new: bool = False) -> Memory:
    """A memories row (JSONB already decoded by psycopg) as a Memory."""
    r = list(row)
    r[6] = json.dumps(r[6])
    r[19] = json.dumps(r[19])
    return _row_to_memory(r, is_new=is_new)


def _link_row(row: Sequence[Any]) -> Link:
    return Link(
        id=row[0], from_id=row[1], to_id=row[2], link_type=LinkType(row[3]),
        confidence=float(row[4]), created_by=CreatedBy(row[5]), metadata=dict(row[6]),
        created_at=int(row[7]),
    )


def _where(filters: Filters, alias: str = "m") -> tuple[str, list[Any]]:
    """SQL conditions (joined with AND, leading AND) for ``filters``, like the SQLite engine."""
    p = f"{alias}."
    clauses: list[str] = []
    params: list[Any] = []
    if filters.project is not None:
        clauses.append(f"({p}project = %s OR {p}scope = 'user')")
        params.append(filters.project)
    if filters.types:
        clauses.append(f"{p}type = ANY(%s)")
        params.append([t.value for t in filters.types])
    if filters.topic is not None:
        clauses.append(f"{p}topic = %s")
        params.append(filters.topic)
    if filters.since is not None:
        clauses.append(f"{p}created_at >= %s")
        params.append(filters.since)
    if filters.until is not None:
        clauses.append(f"{p}created_at < %s")
        params.append(filters.until)
    if filters.scopes:
        clauses.append(f"{p}scope = ANY(%s)")
        params.append([s.value for s in filters.scopes])
    if filters.agent is not None:
        clauses.append(f"{p}agent = %s")
        params.append(filters.agent)
    return "".join(f" AND {c}" for c in clauses), params


def _import_driver() -> Any:
    from kenning.extras import require

    require("postgres")  # an optional part: say which extra to install when it is missing
    try:
        import psycopg
        import psycopg_pool  # noqa: F401
        from pgvector.psycopg import register_vector  # noqa: F401
    except ImportError as exc:  # pragma: no cover - installed, yet broken
        raise StoreError(
            f"the PostgreSQL engine needs psycopg, psycopg-pool and pgvector: {exc}"
        ) from exc
    return psycopg



# A memory's vector from one embedder, replacing the one it had.
_PUT_VECTOR = ("INSERT INTO memory_vectors(memory_id, embedder, dim, vector) "
               "VALUES (%s, %s, %s, %s) ON CONFLICT (memory_id, embedder) DO UPDATE SET "
               "dim = excluded.dim, vector = excluded.vector")


def _vector_row(memory_id: str, embedder_id: str, v: np.ndarray) -> tuple[Any, ...]:
    """``_PUT_VECTOR``'s parameters: the vector as float32, with its length."""
    f = v.astype("float32", copy=False).ravel()
    return (memory_id, embedder_id, int(f.shape[0]), f)

class PostgresStore:
    """PostgreSQL + pgvector. Safe for many processes and machines: short transactions, row
    locks for counters, deadlock retries, advisory locks for work that must run once."""

    engine = "postgresql"

    def __init__(
        self, dsn: str, *, organisation: str | None = None, workspace: str | None = None,
        pool_max: int = POOL_MAX, ef_search: int = EF_SEARCH, hnsw_m: int = HNSW_M,
        hnsw_ef_construction: int = HNSW_EF_CONSTRUCTION,
    ) -> None:
        psycopg = _import_driver()
        from psycopg_pool import ConnectionPool

        self.dsn = dsn
        self._location = redact_dsn(dsn)
        self.organisation = organisation if organisation is not None else os.environ.get(
            "KENNING_ORGANISATION", "")
        self.workspace = workspace if workspace is not None else os.environ.get(
            "KENNING_WORKSPACE", "")
        for name, value in (("organisation", self.organisation), ("workspace", self.workspace)):
            if not _SCOPE_NAME.match(value):
                raise ValidationError(
                    f"{name} {value!r} must be up to 100 letters, digits or _ . : @ -"
                )
        # Inlined as literals: the names are checked above, and every query needs them.
        self._mine = (f"m.organisation = '{self.organisation}' "
                      f"AND m.workspace = '{self.workspace}'")
        self._indexed_dims: set[int] = set()
        self._lexemes: tuple[float, tuple[dict[str, float], float, float] | None] | None = None
        self._shares: dict[tuple[str, str], tuple[float, float]] = {}
        self._memories_changed = False
        self._version_file = version_file(self._location)
        self.selective_from = SELECTIVE_FROM
        self.rank_budget = RANK_BUDGET
        self.ef_search = int(ef_search)
        self.hnsw_m, self.hnsw_ef_construction = int(hnsw_m), int(hnsw_ef_construction)
        if not (2 <= self.hnsw_m <= 100 and 4 <= self.hnsw_ef_construction <= 1000
                and self.hnsw_ef_construction >= 2 * self.hnsw_m):
            raise ValidationError(
                "HNSW m must be 2-100 and ef_construction 4-1000, at least twice m "
                f"(got m={self.hnsw_m}, ef_construction={self.hnsw_ef_construction})")
        self._written = 0
        self._stats_checked = -STATS_CHECK_S
        self._bulk = False
        # The driver and its pool log every failed reconnection attempt on stderr; Kenning's
        # own error says what happened once, clearly.
        logging.getLogger("psycopg").setLevel(logging.ERROR)
        try:
            with psycopg.connect(dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                 **_KEEPALIVES) as conn:
                self._migrate(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open PostgreSQL store at {self._location}: "
                             f"{_first_line(exc)}") from exc
        # The pool's own reconnection backs off exponentially up to minutes; here it gives up
        # after CONNECT_TIMEOUT_S and the next call that needs a connection makes a new one,
        # so connections come back within a second or two of the server.
        self._pool = ConnectionPool(
            dsn, min_size=1, max_size=max(1, pool_max), configure=self._configure,
            check=ConnectionPool.check_connection, open=False, name="kenning",
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S, **_KEEPALIVES},
            timeout=CONNECT_TIMEOUT_S, reconnect_timeout=CONNECT_TIMEOUT_S,
            reconnect_failed=lambda pool: None,
        )
        try:
            self._pool.open(wait=True, timeout=2 * CONNECT_TIMEOUT_S)
        except Exception as exc:
            self._pool.close()
            raise StoreError(f"cannot open a connection pool to {self._location}: "
                             f"{_first_line(exc)}") from exc

    # -- setup ---------------------------------------------------------------------------------

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        """Per connection: numpy <-> vector adaptation and the HNSW search settings."""
        from pgvector.psycopg import register_vector

        register_vector(conn)
        conn.execute(f"SET hnsw.ef_search = {self.ef_search}")
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        conn.commit()

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS kenning_schema (version INTEGER NOT NULL)")
            row = conn.execute("SELECT max(version) FROM kenning_schema").fetchone()
            version = int(row[0] or 0) if row else 0
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._location} has schema version {version}, newer than this Kenning "
                    f"({SCHEMA_VERSION}); upgrade Kenning"
                )
            if version == 0 and conn.execute(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() "
                "AND table_name = 'memories'"
            ).fetchone():
                raise StoreError(f"{self._location} has a memories table but is not a Kenning "
                                 "store")
            for step in range(version, SCHEMA_VERSION):
                conn.execute(MIGRATIONS[step])
                conn.execute("INSERT INTO kenning_schema(version) VALUES (%s)", (step + 1,))
            if 0 < version < VALIDITY_FROM:
                self._revalidate(conn, [r[0] for r in conn.execute(
                    f"SELECT DISTINCT l.to_id FROM memory_links l WHERE {_SUPERSEDES_SQL}")])
            target = conn.execute(
                "SELECT attstattarget FROM pg_attribute WHERE attrelid = 'memories'::regclass "
                "AND attname = 'fts'").fetchone()
            if target is not None and target[0] != FTS_STATISTICS:
                # Keyword search plans from how many memories hold each word: the statistics
                # must tell rare words from absent ones (see _lexeme_stats).
                conn.execute(f"ALTER TABLE memories ALTER COLUMN fts SET STATISTICS "
                             f"{FTS_STATISTICS}")

    def _run(self, fn: Callable[[psycopg.Connection[Any]], R]) -> R:
        """Run ``fn`` in one transaction, retrying deadlocks and serialisation failures, and a
        lost connection until the server is back (``_reconnecting``)."""
        from psycopg import errors

        def attempt() -> R:
            for tries in range(RETRIES):
                try:
                    with self._pool.connection() as conn, conn.transaction():
                        out = fn(conn)
                    if self._memories_changed:
                        # This machine's prompt index is now out of date: its hooks ask the
                        # server.
                        self._memories_changed = False
                        mark_written(self._version_file)
                    return out
                except (errors.DeadlockDetected, errors.SerializationFailure):
                    if tries == RETRIES - 1:
                        raise
                    time.sleep(0.005 * 2**tries)
            raise AssertionError("unreachable")

        return self._reconnecting(attempt)

    def _reconnecting(self, attempt: Callable[[], R]) -> R:
        """``attempt()``, again and again while the connection is lost (the server restarting,
        the network down), backing off from 0.1 s to 1 s, for up to ``RECONNECT_S``; then a
        StoreError that says so. A statement over ``STATEMENT_TIMEOUT_MS`` is a StoreError
        that says so; any other database error is raised as it is.

        A transaction cut off before its commit was rolled back by the server, so running it
        again writes it once; one cut off during its commit may have been written, and its
        second run finds the rows there (a memory, a link) and returns them."""
        import psycopg
        from psycopg import errors
        from psycopg_pool import PoolTimeout

        started = time.monotonic()
        delay = _BACKOFF_FIRST
        while True:
            try:
                return attempt()
            except errors.QueryCanceled as exc:
                raise StoreError(
                    f"PostgreSQL at {self._location} cancelled a statement after "
                    f"{STATEMENT_TIMEOUT_MS} ms (KENNING_PG_STATEMENT_TIMEOUT_MS): "
                    f"{_first_line(exc)}") from exc
            except (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout) as exc:
                if not _connection_lost(exc):
                    raise
                waited = time.monotonic() - started
                if waited + delay > RECONNECT_S:
                    raise StoreError(
                        f"PostgreSQL at {self._location} is unreachable: {_first_line(exc)} "
                        f"(tried for {waited:.0f} s; KENNING_PG_RECONNECT_S sets how long)"
                    ) from exc
                time.sleep(delay)
                delay = min(_BACKOFF_MAX, delay * 2)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        def attempt() -> list[tuple[Any, ...]]:
            with self._pool.connection() as conn:
                return conn.execute(sql, params).fetchall()

        return self._reconnecting(attempt)

    @contextmanager
    def bulk_load(self) -> Iterator[bool]:
        """Load many vectors without maintaining HNSW row by row, then build each index once
        (many times faster). Only on a near-empty table, or one whose index an interrupted load
        already dropped: searches by other users of a busy table would slow down meanwhile.
        Yields whether the indexes were set aside."""
        with self._pool.connection() as conn:
            # An aggregate always returns its one row.
            small = cast("tuple[Any, ...]", conn.execute(
                "SELECT count(*) < 1000 FROM (SELECT 1 FROM memory_vectors LIMIT 1000) s"
            ).fetchone())[0]
            names = [r[0] for r in conn.execute(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'hnsw' AND "
                "c.relnamespace = current_schema()::regnamespace").fetchall()]
            if not (small or not names):
                yield False
                return
            for name in names:
                conn.execute(f"DROP INDEX IF EXISTS {name}")
        self._bulk = True
        try:
            yield True
        finally:
            self._bulk = False
            self._indexed_dims.clear()
            dims = {int(r[0]) for r in self._rows("SELECT DISTINCT dim FROM memory_vectors")}
            self._ensure_hnsw(dims)
            self._written = 0
            self.analyze()

    def _ensure_hnsw(self, dims: set[int]) -> None:
        """One HNSW index per vector dimension (pgvector needs a fixed dimension to index)."""
        if self._bulk:
            return
        todo = {d for d in dims if d <= HNSW_MAX_DIM} - self._indexed_dims
        for dim in sorted(todo):
            name = f"memory_vectors_hnsw_{dim}"

            def build(conn: psycopg.Connection[Any], dim: int = dim, name: str = name) -> None:
                exists = ("SELECT 1 FROM pg_class WHERE relname = %s AND "
                          "relnamespace = current_schema()::regnamespace")
                if conn.execute(exists, (name,)).fetchone():
                    return  # no lock on the table when the index is already there
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_MIGRATION_LOCK, dim))
                # pgvector builds fast only while the graph fits in maintenance_work_mem (about
                # 2 KiB per 384-d vector); past that it falls back to a much slower build.
                rows = cast("tuple[Any, ...]", conn.execute(  # an aggregate: always one row
                    "SELECT count(*) FROM memory_vectors WHERE dim = %s", (dim,)).fetchone())[0]
                mem_mb = min(4096, max(256, rows * (dim * 4 + 512) * 3 // 2 // 1_048_576))
                conn.execute(f"SET LOCAL maintenance_work_mem = '{mem_mb}MB'")
                conn.execute("SET LOCAL statement_timeout = 0")  # as long as the build takes
                conn.execute(
                    f"CREATE INDEX IF NOT EXISTS {name} ON memory_vectors USING hnsw "
                    f"((vector::vector({dim})) vector_cosine_ops) WITH (m = {self.hnsw_m}, "
                    f"ef_construction = {self.hnsw_ef_construction}) WHERE dim = {dim}"
                )

            self._run(build)
            self._indexed_dims.add(dim)

    def _wrote(self, n: int) -> None:
        """Count written rows; refresh the planner's statistics after every ANALYZE_EVERY (a
        bulk load refreshes them once, at its end)."""
        self._written += n
        if self._written >= ANALYZE_EVERY and not self._bulk:
            self._written = 0
            self.analyze()

    def _check_statistics(self) -> None:
        """Before vector searches (at most every STATS_CHECK_S): ANALYZE when many rows changed
        since the last one, whoever wrote them (autovacuum may lag a bulk load by minutes)."""
        now = time.monotonic()
        if now - self._stats_checked < STATS_CHECK_S:
            return
        self._stats_checked = now
        rows = self._rows(
            "SELECT coalesce(sum(n_mod_since_analyze), 0), coalesce(sum(n_live_tup), 0) "
            "FROM pg_stat_user_tables WHERE relid IN ('memory_vectors'::regclass, "
            "'memories'::regclass)")
        changed, live = rows[0]
        if int(changed) > 500 + 0.1 * int(live):
            self.analyze()

    def analyze(self) -> None:
        """Refresh planner statistics (after bulk loads such as ``kenning migrate``)."""
        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute("SET LOCAL statement_timeout = 0")
            conn.execute("ANALYZE memories, memory_vectors, memory_links")

        self._run(work)
        self._lexemes = None

    def _lexeme_stats(self) -> tuple[dict[str, float], float, float] | None:
        """The planner's statistics of the tsvector column (kept by ANALYZE; nothing is counted
        per query): the share of memories holding each common lexeme, the share below which
        lexemes are not listed, and the rows in all. None below ``selective_from`` memories or
        before the first ANALYZE."""
        if self._lexemes is None or time.monotonic() - self._lexemes[0] > STATS_CHECK_S:
            rows = self._rows(
                "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, "
                "c.reltuples FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = "
                "current_schema() AND s.tablename = 'memories' AND s.attname = 'fts' "
                "WHERE c.oid = 'memories'::regclass")
            stats = None
            if rows and rows[0][0] and rows[0][2] >= self.selective_from:
                lexemes, freqs, total = rows[0]
                # The list ends with the lowest and highest share and the share of empty rows.
                shares = dict(zip(lexemes, map(float, freqs), strict=False))
                stats = (shares, float(freqs[-3]), float(total))
            self._lexemes = (time.monotonic(), stats)
        return self._lexemes[1]

    def _keyword_plan(self, terms: list[str], where: str = "",
                      params: Sequence[Any] = ()) -> tuple[list[str], KeywordPlan]:
        """The words that rank (those with lexemes) and the plan of which choose the rows."""
        stats = self._lexeme_stats()
        if stats is None or len(terms) < 2:
            return terms, KeywordPlan(tuple(terms))
        shares, floor, total = stats
        lexemes = self._rows(
            "SELECT t, tsvector_to_array(to_tsvector('english', t)) FROM unnest(%s::text[]) t",
            [terms])
        # Rows that pass the filters: a small project in a large shared database ranks every
        # match of its own (the server intersects the word and filter indexes first).
        total *= self._filtered_share(where, params)
        # A word's lexemes must all match (plainto_tsquery): its rarest one bounds its rows.
        rows = {t: total * min(shares.get(x, floor) for x in lex) for t, lex in lexemes if lex}
        words = [t for t in terms if t in rows]
        return words, plan({t: rows[t] for t in words}, total, self.rank_budget)

    def _filtered_share(self, where: str, params: Sequence[Any]) -> float:
        """The planner's estimate of the share of memories this store and ``where`` keep
        (cached for STATS_CHECK_S)."""
        key = (where, repr(params))
        now = time.monotonic()
        hit = self._shares.get(key)
        if hit is not None and now - hit[0] < STATS_CHECK_S:
            return hit[1]
        plan_json = self._rows(
            f"EXPLAIN (FORMAT JSON) SELECT 1 FROM memories m WHERE {self._mine}{where}",
            list(params))[0][0]
        top = plan_json[0]["Plan"]
        size = self._rows("SELECT reltuples FROM pg_class WHERE oid = 'memories'::regclass")
        share = min(1.0, float(top["Plan Rows"]) / max(1.0, float(size[0][0]))) if size else 1.0
        if len(self._shares) > 256:
            self._shares.clear()
        self._shares[key] = (now, share)
        return share

    def _log_changes(self, conn: psycopg.Connection[Any], memory_ids: Sequence[str]) -> None:
        """Record changed memories: ``watermark`` moves, so caches in any process refresh."""
        self._memories_changed = True
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO memory_changes(memory_id) VALUES (%s)",
                            [(m,) for m in memory_ids])
        row = conn.execute("SELECT currval(pg_get_serial_sequence('memory_changes', 'seq'))"
                           ).fetchone()
        if row and row[0] // 1000 != (row[0] - len(memory_ids)) // 1000:  # crossed a thousand
            conn.execute("DELETE FROM memory_changes WHERE seq <= %s", (row[0] - CHANGES_KEPT,))

    def _add_redactions(self, conn: psycopg.Connection[Any], n: int) -> None:
        conn.execute(
            "INSERT INTO meta(organisation, workspace, key, value) VALUES (%s, %s, 'redactions', "
            "%s) ON CONFLICT (organisation, workspace, key) DO UPDATE SET "
            "value = (meta.value::bigint + excluded.value::bigint)::text",
            (self.organisation, self.workspace, str(n)),
        )

    @contextmanager
    def exclusive(self, name: str) -> Iterator[None]:
        """Hold a session advisory lock named ``name`` (per organisation and workspace), so work
        that must run once at a time (consolidation, sync) does, across machines."""
        import psycopg

        key = f"kenning:{self.organisation}:{self.workspace}:{name}"
        # A connection of its own: the work inside needs the pool, however small it is.
        with psycopg.connect(self.dsn, autocommit=True, connect_timeout=10) as conn:
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))

    # -- contract ------------------------------------------------------------------------------

    @property
    def location(self) -> str:
        return self._location

    def schema_version(self) -> int:
        return int(self._rows("SELECT max(version) FROM kenning_schema")[0][0] or 0)

    def insert(
        self, memories: Sequence[Memory], vectors: np.ndarray | None, embedder_id: str | None,
        redactions: int = 0, links: Sequence[Link] = (),
        pending_links: Mapping[str, str] | None = None,
    ) -> list[Memory]:
        from psycopg.types.json import Jsonb

        memories, found = guard.memories(memories)
        redactions += found
        links = guard.links(links)
        params = [
            (m.id, self.organisation, self.workspace, m.type.value, m.topic, m.summary,
             m.content, m.category.value, Jsonb(list(m.tags)), m.source, m.confidence,
             m.outcome.value if m.outcome else None, m.outcome_reason, m.project, m.scope.value,
             m.agent or "", m.created_at, m.updated_at, m.last_accessed_at, m.access_count,
             m.content_hash, Jsonb(m.metadata), m.valid_from, m.valid_to, m.superseded_by,
             m.drift, m.drift_reason)
            for m in memories
        ]
        sql = (
            "INSERT INTO memories (id, organisation, workspace, "
            f"{_MEMORY_COLUMNS.split(', ', 1)[1]}) VALUES ({', '.join(['%s'] * 27)}) "
            "ON CONFLICT (organisation, workspace, project, scope, agent, content_hash) DO NOTHING "
            "RETURNING id"
        )

        def work(conn: psycopg.Connection[Any]) -> list[Memory]:
            out: list[Memory] = []
            new_ids: set[str] = set()
            with conn.cursor() as cur:
                if params:
                    cur.executemany(sql, params, returning=True)
                    while True:
                        row = cur.fetchone()
                        if row:
                            new_ids.add(row[0])
                        if not cur.nextset():
                            break
            rows: list[tuple[Any, ...]] = []
            for i, m in enumerate(memories):
                if m.id in new_ids:
                    out.append(m)
                    if vectors is not None and embedder_id:
                        v = vectors[i].astype("float32", copy=False)
                        rows.append((m.id, embedder_id, int(v.shape[0]), v))
                else:
                    got = conn.execute(
                        f"SELECT {_M_COLUMNS} FROM memories m WHERE {self._mine} AND "
                        "m.project = %s AND m.scope = %s AND m.agent = %s AND m.content_hash = %s",
                        (m.project, m.scope.value, m.agent or "", m.content_hash),
                    ).fetchone()
                    if got is None:
                        raise StoreError(f"memory {m.id} was neither inserted nor found")
                    out.append(_memory_row(got))
            if rows:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO memory_vectors(memory_id, embedder, dim, vector) "
                        "VALUES (%s, %s, %s, %s)", rows)
            if links:
                alias = {m.id: stored.id for m, stored in zip(memories, out, strict=True)}
                self._insert_links(conn, [
                    replace(ln, from_id=alias.get(ln.from_id, ln.from_id),
                            to_id=alias.get(ln.to_id, ln.to_id))
                    for ln in links
                ])
            if new_ids:
                self._log_changes(conn, sorted(new_ids))
            pending = [(PENDING_LINKS + mid, spec) for mid, spec in (pending_links or {}).items()
                       if mid in new_ids]
            if pending:
                self._put_meta(conn, pending)
            if redactions:
                self._add_redactions(conn, redactions)
            return out

        if vectors is not None and embedder_id and len(memories):
            self._ensure_hnsw({int(vectors.shape[1])})
        out = self._run(work)
        self._wrote(len(memories))
        return out

    def get_many(self, ids: Sequence[str]) -> dict[str, Memory]:
        if not ids:
            return {}
        rows = self._rows(
            f"SELECT {_M_COLUMNS} FROM memories m WHERE m.id = ANY(%s) AND {self._mine}",
            (list(dict.fromkeys(ids)),),
        )
        return {r[0]: _memory_row(r) for r in rows}

    def resolve_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        p = prefix.upper()
        rows = self._rows(
            f"SELECT m.id FROM memories m WHERE m.id >= %s AND m.id < %s AND {self._mine} "
            "ORDER BY m.id LIMIT %s",
            (p, p + "\U0010ffff", limit),
        )
        return [r[0] for r in rows]

    def update(
        self, memory_id: str, fields: dict[str, Any], vector: np.ndarray | None,
        embedder_id: str | None, redactions: int = 0,
    ) -> Memory:
        from psycopg import errors
        from psycopg.types.json import Jsonb

        bad = set(fields) - UPDATABLE
        if bad:
            raise ValueError(f"cannot update field(s): {', '.join(sorted(bad))}")
        fields, found = guard.fields(fields)
        redactions += found
        values: dict[str, Any] = {}
        for key, value in fields.items():
            if key == "tags":
                value = Jsonb(list(value))
            elif key == "metadata":
                value = Jsonb(value)
            elif key == "agent":
                value = value or ""
            elif hasattr(value, "value"):
                value = value.value
            values[key] = value

        def work(conn: psycopg.Connection[Any]) -> tuple[Any, ...] | None:
            if values:
                sets = ", ".join(f"{k} = %s" for k in values)
                try:
                    cur = conn.execute(
                        f"UPDATE memories m SET {sets} WHERE m.id = %s AND {self._mine}",
                        [*values.values(), memory_id],
                    )
                except errors.UniqueViolation as exc:
                    raise ValidationError(
                        "another memory in the same project, scope and agent already has this text"
                    ) from exc
                except errors.IntegrityError as exc:
                    raise ValidationError(
                        f"update rejected by the store: {_first_line(exc)}") from exc
                if cur.rowcount == 0:
                    raise NotFoundError(f"no memory with id {memory_id}")
            elif not self._owned(conn, memory_id):
                raise NotFoundError(f"no memory with id {memory_id}")
            if vector is not None or {"content", "summary", "topic"} & values.keys():
                conn.execute("DELETE FROM memory_vectors WHERE memory_id = %s", (memory_id,))
            if vector is not None and embedder_id:
                v = vector.astype("float32", copy=False).ravel()
                conn.execute(
                    "INSERT INTO memory_vectors(memory_id, embedder, dim, vector) "
                    "VALUES (%s, %s, %s, %s)", (memory_id, embedder_id, int(v.shape[0]), v))
            if redactions:
                self._add_redactions(conn, redactions)
            self._log_changes(conn, [memory_id])
            return conn.execute(
                f"SELECT {_M_COLUMNS} FROM memories m WHERE m.id = %s", (memory_id,)
            ).fetchone()

        if vector is not None and embedder_id:
            self._ensure_hnsw({int(vector.ravel().shape[0])})
        row = self._run(work)
        if row is None:
            raise NotFoundError(f"no memory with id {memory_id}")
        return _memory_row(row)

    def _owned(self, conn: psycopg.Connection[Any], memory_id: str) -> bool:
        return conn.execute(
            f"SELECT 1 FROM memories m WHERE m.id = %s AND {self._mine}", (memory_id,)
        ).fetchone() is not None

    def _owned_ids(self, conn: psycopg.Connection[Any], ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` that are memories of this organisation and workspace."""
        return {r[0] for r in conn.execute(
            f"SELECT m.id FROM memories m WHERE m.id = ANY(%s) AND {self._mine}", (list(ids),))}

    def delete(self, memory_id: str) -> bool:
        def work(conn: psycopg.Connection[Any]) -> bool:
            superseded = self._superseded_by_links(conn, "l.from_id = %s", [memory_id])
            cur = conn.execute(
                f"DELETE FROM memories m WHERE m.id = %s AND {self._mine}", (memory_id,))
            if cur.rowcount:
                self._log_changes(conn, [memory_id])
                self._revalidate(conn, superseded)
            return cur.rowcount > 0

        return self._run(work)

    def list(
        self,
        filters: Filters,
        *,
        limit: int | None = 50,
        offset: int = 0,
        newest_first: bool = True,
    ) -> list[Memory]:
        where, params = _where(filters)
        order = "DESC" if newest_first else "ASC"
        sql = (f"SELECT {_M_COLUMNS} FROM memories m WHERE {self._mine}{where} "
               f"ORDER BY m.created_at {order}, m.id {order}")
        if limit is not None:
            sql += " LIMIT %s OFFSET %s"
            params += [limit, offset]
        return [_memory_row(r) for r in self._rows(sql, params)]

    def scan(self, after: str | None, limit: int) -> builtins.list[Memory]:
        return [_memory_row(r) for r in self._rows(
            f"SELECT {_M_COLUMNS} FROM memories m WHERE m.id > %s AND {self._mine} "
            "ORDER BY m.id LIMIT %s", [after or "", limit])]

    def count(self, filters: Filters) -> int:
        where, params = _where(filters)
        return int(self._rows(
            f"SELECT count(*) FROM memories m WHERE {self._mine}{where}", params)[0][0])

    def keyword_search(
        self, query: str, filters: Filters, limit: int
    ) -> builtins.list[tuple[str, float]]:
        where, params = _where(filters)
        words, chosen = self._keyword_plan(keyword_terms(query), where, params)
        if not words:
            return []
        one = "plainto_tsquery('english', %s)"
        ranked = " || ".join(one for _ in words)
        if chosen.words == tuple(words) and not chosen.together:  # every match is ranked
            rows = self._rows(
                f"SELECT m.id, {_RANK} AS s FROM memories m, (SELECT {ranked} AS q) q "
                f"WHERE m.fts @@ q.q AND {self._mine}{where} ORDER BY s DESC, m.seq LIMIT %s",
                [*words, *params, limit])
            return [(r[0], float(r[1])) for r in rows]
        # In a large store the rarest words choose the rows (see keywordplan); all words rank.
        # Each group takes at most half the budget: words that go together (a phrase such as
        # "unicode encoding") match far more rows than their separate counts suggest.
        groups = ([list(chosen.any_of)] if chosen.any_of else []) + [
            list(g) for g in chosen.together]
        cap = max(limit, int(self.rank_budget // 2))
        parts, args = [], []
        for g in groups:
            joint = " || " if g is groups[0] and chosen.any_of else " && "
            parts.append(f"(SELECT m.seq FROM memories m WHERE m.fts @@ "
                         f"({joint.join(one for _ in g)}) AND {self._mine}{where} LIMIT %s)")
            args += [*g, *params, cap]
        rows = self._rows(
            f"SELECT m.id, {_RANK} AS s FROM memories m, (SELECT {ranked} AS q) q "
            f"WHERE m.seq IN ({' UNION '.join(parts)}) ORDER BY s DESC, m.seq LIMIT %s",
            [*words, *args, limit])
        return [(r[0], float(r[1])) for r in rows]

    def vector_search(
        self, vector: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> builtins.list[tuple[str, float]]:
        return self.vector_search_many(vector.reshape(1, -1), embedder_id, filters, limit)[0]

    def vector_search_many(
        self, vectors: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> builtins.list[builtins.list[tuple[str, float]]]:
        import numpy as np

        dim = int(vectors.shape[1])
        where, params = _where(filters)
        # The ORDER BY expression matches the partial HNSW index of this dimension.
        dist = f"v.vector::vector({dim}) <=> %s::vector({dim})"
        sql = (
            f"SELECT v.memory_id, {dist} AS d FROM memory_vectors v "
            "JOIN memories m ON m.id = v.memory_id "
            f"WHERE v.dim = {dim} AND v.embedder = %s AND {self._mine}{where} "
            f"ORDER BY {dist} LIMIT %s"
        )
        self._check_statistics()

        def attempt() -> list[list[tuple[str, float]]]:
            out: list[list[tuple[str, float]]] = []
            with self._pool.connection() as conn:
                for q in vectors.astype(np.float32, copy=False):
                    rows = conn.execute(sql, [q, embedder_id, *params, q, limit]).fetchall()
                    # Iterative index scans may return rows slightly out of order: sort them.
                    ranked = sorted(((r[0], 1.0 - float(r[1])) for r in rows),
                                    key=lambda x: (-x[1], x[0]))
                    out.append(ranked)
            return out

        return self._reconnecting(attempt)

    def adjacent(
        self, ids: Sequence[str], filters: Filters, width: int, reach_ms: int
    ) -> dict[str, builtins.list[tuple[str, int]]]:
        ids = list(dict.fromkeys(ids))
        if not ids or width < 1:
            return {}
        where, params = _where(filters)
        # One round trip: for each seed, two walks along the created_at index, each stopping
        # after ``width`` rows.
        rows = self._rows(
            f"SELECT s.id, n.id, n.created_at - s.created_at FROM memories s LEFT JOIN "
            f"LATERAL ((SELECT m.id, m.created_at FROM memories m WHERE m.created_at BETWEEN "
            f"s.created_at - %s AND s.created_at AND m.id != s.id AND {self._mine}{where} "
            f"ORDER BY m.created_at DESC LIMIT %s) UNION ALL (SELECT m.id, m.created_at FROM "
            f"memories m WHERE m.created_at BETWEEN s.created_at AND s.created_at + %s AND "
            f"m.id != s.id AND {self._mine}{where} ORDER BY m.created_at LIMIT %s)) n ON true "
            f"WHERE s.id = ANY(%s) AND {self._mine.replace('m.', 's.')}",
            [reach_ms, *params, width, reach_ms, *params, width, ids])
        out: dict[str, dict[str, int]] = {}
        for seed, mid, delta in rows:
            near = out.setdefault(seed, {})
            if mid is not None:
                near[mid] = int(delta)
        return {seed: sorted(near.items(), key=lambda r: (abs(r[1]), r[0]))
                for seed, near in out.items()}

    def vectors_of(self, ids: Sequence[str], embedder_id: str) -> dict[str, np.ndarray]:
        import numpy as np

        if not ids:
            return {}
        rows = self._rows(
            f"SELECT v.memory_id, v.vector FROM memory_vectors v JOIN memories m ON "
            f"m.id = v.memory_id WHERE v.memory_id = ANY(%s) AND v.embedder = %s AND {self._mine}",
            (list(ids), embedder_id),
        )
        return {r[0]: np.asarray(_array(r[1]), dtype=np.float32) for r in rows}

    def record_access(self, ids: Sequence[str], at_ms: int, reason: str = "accessed") -> None:
        if not ids:
            return
        counts: dict[str, int] = {}
        for i in ids:
            counts[i] = counts.get(i, 0) + 1

        def work(conn: psycopg.Connection[Any]) -> None:
            mine = self._owned_ids(conn, sorted(counts))  # another workspace's ids change nothing
            with conn.cursor() as cur:
                # Increments in the database and rows in id order: no lost updates, no deadlock.
                cur.executemany(
                    f"UPDATE memories SET confidence = {_ACCESSED_SQL}, "
                    "access_count = access_count + %(n)s, "
                    "last_accessed_at = GREATEST(coalesce(last_accessed_at, 0), %(at)s) "
                    "WHERE id = %(id)s",
                    [{"n": n, "at": at_ms, "id": i} for i, n in sorted(counts.items())
                     if i in mine],
                )
            self._log_confidence(conn, sorted(mine), at_ms, reason)
            self._co_access(conn, ids, at_ms, mine)

        self._run(work)

    def record_co_access(self, ids: Sequence[str], at_ms: int) -> None:
        if len(set(ids[:CO_ACCESS_TOP])) < 2:
            return

        def work(conn: psycopg.Connection[Any]) -> None:
            self._co_access(conn, ids, at_ms, self._owned_ids(conn, sorted(set(ids))))

        self._run(work)

    @staticmethod
    def _co_access(conn: psycopg.Connection[Any], ids: Sequence[str], at_ms: int,
                   mine: builtins.set[str]) -> None:
        """Count each pair among the first ``CO_ACCESS_TOP`` ids (of this workspace) as seen
        together."""
        top = sorted(set(ids[:CO_ACCESS_TOP]))
        pairs = [(a, b) for i, a in enumerate(top) for b in top[i + 1 :]]
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO co_access(a, b, count, last_at) "
                "SELECT %s, %s, 1, %s WHERE EXISTS (SELECT 1 FROM memories WHERE id = %s) "
                "AND EXISTS (SELECT 1 FROM memories WHERE id = %s) "
                "ON CONFLICT (a, b) DO UPDATE SET count = co_access.count + 1, "
                "last_at = GREATEST(co_access.last_at, excluded.last_at)",
                [(a, b, at_ms, a, b) for a, b in pairs if a in mine and b in mine],
            )

    def adjust_confidence(
        self, changes: Sequence[tuple[str, float, str]], at_ms: int
    ) -> dict[str, float]:
        def work(conn: psycopg.Connection[Any]) -> dict[str, float]:
            out: dict[str, float] = {}
            for memory_id, delta, reason in changes:
                row = conn.execute(
                    f"UPDATE memories m SET confidence = {_ADJUSTED_SQL}, updated_at = "
                    f"GREATEST(updated_at, %(at)s) WHERE id = %(id)s AND {self._mine} "
                    "RETURNING confidence",
                    {"at": at_ms, "delta": delta, "id": memory_id},
                ).fetchone()
                if row is not None:
                    out[memory_id] = float(row[0])
                    self._log_confidence(conn, [memory_id], at_ms, reason)
            return out

        return self._run(work)

    @staticmethod
    def _log_confidence(
        conn: psycopg.Connection[Any], ids: Sequence[str], at_ms: int, reason: str
    ) -> None:
        conn.execute(
            "INSERT INTO confidence_log(memory_id, at_ms, confidence, reason) "
            "SELECT id, %s, confidence, %s FROM memories WHERE id = ANY(%s) ORDER BY id",
            (at_ms, guard.reason(reason), list(ids)),
        )

    def confidence_history(
        self, memory_id: str, limit: int = 200
    ) -> builtins.list[tuple[int, float, str]]:
        rows = self._rows(
            "SELECT c.at_ms, c.confidence, c.reason FROM confidence_log c JOIN memories m ON "
            f"m.id = c.memory_id WHERE c.memory_id = %s AND {self._mine} "
            "ORDER BY c.seq DESC LIMIT %s",
            (memory_id, limit),
        )
        return [(int(a), float(c), r) for a, c, r in reversed(rows)]

    def add_session_events(self, events: Sequence[SessionEvent]) -> builtins.list[str]:
        from psycopg.types.json import Jsonb

        if not events:
            return []
        events = guard.events(events)

        def work(conn: psycopg.Connection[Any]) -> list[str]:
            new: list[str] = []
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO session_events(id, organisation, workspace, session_id, project, "
                    "at_ms, kind, data) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (id) DO NOTHING RETURNING id",
                    [(e.id, self.organisation, self.workspace, e.session_id, e.project, e.at_ms,
                      e.kind, Jsonb(e.data)) for e in events],
                    returning=True,
                )
                while True:
                    new += [r[0] for r in cur.fetchall()]
                    if not cur.nextset():
                        break
            return new

        return self._run(work)

    def session_events(
        self, *, session_id: str | None = None, kinds: Sequence[str] | None = None,
        project: str | None = None, limit: int = 1000, newest_first: bool = False,
    ) -> builtins.list[SessionEvent]:
        clauses = ["organisation = %s", "workspace = %s"]
        params: list[Any] = [self.organisation, self.workspace]
        if session_id is not None:
            clauses.append("session_id = %s")
            params.append(session_id)
        if kinds:
            clauses.append("kind = ANY(%s)")
            params.append(list(kinds))
        if project is not None:
            clauses.append("project = %s")
            params.append(project)
        order = "DESC" if newest_first else "ASC"
        rows = self._rows(
            "SELECT id, session_id, project, at_ms, kind, data FROM session_events WHERE "
            f"{' AND '.join(clauses)} ORDER BY at_ms {order}, id {order} LIMIT %s",
            [*params, limit],
        )
        return [SessionEvent(r[0], r[1], r[2], int(r[3]), r[4], dict(r[5])) for r in rows]

    def missing_vectors(self, embedder_id: str, limit: int) -> builtins.list[tuple[str, str]]:
        rows = self._rows(
            f"SELECT m.id, m.topic, m.summary, m.content FROM memories m WHERE {self._mine} AND "
            "NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND "
            "v.embedder = %s) ORDER BY m.seq LIMIT %s",
            (embedder_id, limit),
        )
        return [(r[0], embedding_text(r[1], r[2], r[3])) for r in rows]

    def count_missing_vectors(self, embedder_id: str) -> int:
        return int(self._rows(
            f"SELECT count(*) FROM memories m WHERE {self._mine} AND NOT EXISTS "
            "(SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.embedder = %s)",
            (embedder_id,),
        )[0][0])

    def put_vectors(self, embedder_id: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        if not items:
            return
        rows = [_vector_row(memory_id, embedder_id, v) for memory_id, v in items]

        def work(conn: psycopg.Connection[Any]) -> None:
            with conn.cursor() as cur:
                cur.executemany(
                    _PUT_VECTOR,
                    rows,
                )
            self._log_changes(conn, [r[0] for r in rows])

        self._ensure_hnsw({r[2] for r in rows})
        self._run(work)
        self._wrote(len(rows))

    def drop_other_vectors(self, embedder_id: str) -> int:
        def work(conn: psycopg.Connection[Any]) -> int:
            cur = conn.execute(
                "DELETE FROM memory_vectors v USING memories m WHERE m.id = v.memory_id AND "
                f"v.embedder <> %s AND {self._mine}", (embedder_id,))
            if cur.rowcount:
                self._log_changes(conn, ["*"])
            return cur.rowcount

        return self._run(work)

    def vector_counts(self) -> dict[str, int]:
        rows = self._rows(
            "SELECT v.embedder, count(*) FROM memory_vectors v JOIN memories m ON "
            f"m.id = v.memory_id WHERE {self._mine} GROUP BY v.embedder"
        )
        return {r[0]: int(r[1]) for r in rows}

    def _insert_links(self, conn: psycopg.Connection[Any], links: Sequence[Link]) -> None:
        from psycopg.types.json import Jsonb

        rows = [
            (ln.id, ln.from_id, ln.to_id, ln.link_type.value, ln.confidence,
             ln.created_by.value, Jsonb(ln.metadata), ln.created_at, ln.relationship)
            for ln in links
            if ln.from_id != ln.to_id
        ]
        if not rows:
            return
        # Both ends must be this workspace's: the foreign keys alone would accept another's.
        ends = sorted({i for r in rows for i in (r[1], r[2])})
        owned = self._owned_ids(conn, ends)
        missing = [i for i in ends if i not in owned]
        if missing:
            raise NotFoundError(f"no memory with id {missing[0]}")
        if any(ln.link_type is LinkType.EVOLUTION for ln in links):
            kept = {id(ln) for ln in reject_cycles(
                [ln for ln in links if ln.from_id != ln.to_id],
                lambda ids: self._supersedes_out(conn, ids))}
            rows = [r for r, ln in zip(rows, [ln for ln in links if ln.from_id != ln.to_id],
                                       strict=True) if id(ln) in kept]
        # Sorted by the unique key so concurrent writers lock rows in the same order.
        rows.sort(key=lambda r: (r[1], r[2], r[3], r[8]))
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO memory_links ({_LINK_COLUMNS}, relationship) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (from_id, to_id, link_type, relationship) DO UPDATE SET "
                "confidence = GREATEST(memory_links.confidence, excluded.confidence), "
                "metadata = CASE WHEN memory_links.created_by = 'system' AND "
                "excluded.created_by <> 'system' THEN excluded.metadata "
                "ELSE memory_links.metadata END, "
                "created_by = CASE WHEN memory_links.created_by = 'system' "
                "THEN excluded.created_by ELSE memory_links.created_by END",
                rows,
            )
        self._revalidate(conn, [r[2] for r in rows if r[3] == LinkType.EVOLUTION.value])

    @staticmethod
    def _supersedes_out(conn: psycopg.Connection[Any], ids: Sequence[str]
                        ) -> builtins.list[tuple[str, str]]:
        """(from, to) of the stored supersedes links out of ``ids``."""
        return [(r[0], r[1]) for r in conn.execute(
            f"SELECT l.from_id, l.to_id FROM memory_links l WHERE l.from_id = ANY(%s) "
            f"AND {_SUPERSEDES_SQL}", (list(ids),))]

    @staticmethod
    def _superseded_by_links(conn: psycopg.Connection[Any], where: str, params: Sequence[Any]
                             ) -> builtins.list[str]:
        """Targets of the evolution links matching ``where`` (over ``l``), before they change."""
        return [r[0] for r in conn.execute(
            "SELECT DISTINCT l.to_id FROM memory_links l WHERE l.link_type = 'evolution' "
            f"AND {where}", list(params))]

    def _revalidate(self, conn: psycopg.Connection[Any], ids: Sequence[str]) -> None:
        """Recompute ``valid_to`` and ``superseded_by`` of ``ids`` from the supersedes links
        into them (``kenning.store.base.validity``); a memory whose values change is logged
        (so this machine's prompt index is out of date too)."""
        ids = sorted(set(ids))
        if not ids:
            return
        ends = validity((r[0], r[1], r[2], r[3]) for r in conn.execute(
            "SELECT l.to_id, l.from_id, l.created_at, s.created_at FROM memory_links l "
            f"JOIN memories s ON s.id = l.from_id WHERE l.to_id = ANY(%s) AND {_SUPERSEDES_SQL}",
            (ids,)))
        changed = [
            (*ends.get(mid, (None, None)), mid)
            for mid, valid_to, by in conn.execute(
                "SELECT id, valid_to, superseded_by FROM memories WHERE id = ANY(%s) "
                "ORDER BY id FOR UPDATE", (ids,)).fetchall()
            if (valid_to, by) != ends.get(mid, (None, None))
        ]
        if changed:
            with conn.cursor() as cur:
                cur.executemany(
                    "UPDATE memories SET valid_to = %s, superseded_by = %s WHERE id = %s",
                    changed)
            self._log_changes(conn, [row[2] for row in changed])

    def add_links(self, links: Sequence[Link]) -> builtins.list[Link]:
        if not links:
            return []
        links = guard.links(links)

        def work(conn: psycopg.Connection[Any]) -> list[Link]:
            self._insert_links(conn, links)
            out = []
            for ln in links:
                row = conn.execute(
                    f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE from_id = %s AND "
                    "to_id = %s AND link_type = %s AND relationship = %s",
                    (ln.from_id, ln.to_id, ln.link_type.value, ln.relationship),
                ).fetchone()
                if row is not None:
                    out.append(_link_row(row))
            return out

        return self._run(work)

    def add_link(self, link: Link) -> Link:
        if link.from_id == link.to_id:
            raise ValidationError("a memory cannot link to itself")
        return self.add_links([link])[0]

    def links_of(self, memory_id: str) -> builtins.list[Link]:
        return self.links_for([memory_id])

    def links_for(
        self, ids: Sequence[str], *, link_types: Sequence[LinkType] | None = None,
        direction: str = "both",
    ) -> builtins.list[Link]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        ends = {"out": ("from_id",), "in": ("to_id",), "both": ("from_id", "to_id")}[direction]
        cond = " OR ".join(f"l.{end} = ANY(%s)" for end in ends)
        params: list[Any] = [ids] * len(ends)
        types_sql = ""
        if link_types:
            types_sql = " AND l.link_type = ANY(%s)"
            params.append([t.value for t in link_types])
        rows = self._rows(
            f"SELECT {_L_COLUMNS} FROM memory_links l JOIN memories m ON m.id = l.from_id "
            f"WHERE ({cond}){types_sql} AND {self._mine} ORDER BY l.created_at, l.id",
            params,
        )
        return [_link_row(r) for r in rows]

    def link_rows(self) -> builtins.list[tuple[str, str, str, float, int, str, str]]:
        return self._rows(
            "SELECT l.from_id, l.to_id, l.link_type, l.confidence, l.created_at, l.relationship, "
            f"l.created_by FROM memory_links l JOIN memories m ON m.id = l.from_id "
            f"WHERE {self._mine}"
        )

    def link_ids_for_pruning(self) -> builtins.list[tuple[str, str, float, int, str]]:
        return self._rows(
            "SELECT l.id, l.link_type, l.confidence, l.created_at, l.created_by FROM memory_links "
            f"l JOIN memories m ON m.id = l.from_id WHERE {self._mine} AND "
            "l.created_by = 'system' AND l.link_type <> 'evolution'"
        )

    def node_rows(self, filters: Filters) -> builtins.list[tuple[str, str, str | None, int, float]]:
        where, params = _where(filters)
        return self._rows(
            f"SELECT m.id, m.type, m.topic, m.created_at, m.confidence FROM memories m "
            f"WHERE {self._mine}{where} ORDER BY m.seq",
            params,
        )

    def delete_link(self, link_id: str) -> bool:
        return self.delete_links([link_id]) > 0

    def delete_links(self, link_ids: Sequence[str]) -> int:
        if not link_ids:
            return 0
        ids = sorted(set(link_ids))

        def work(conn: psycopg.Connection[Any]) -> int:
            superseded = self._superseded_by_links(conn, "l.id = ANY(%s)", [ids])
            gone = conn.execute(
                "DELETE FROM memory_links l USING memories m WHERE m.id = l.from_id AND "
                f"l.id = ANY(%s) AND {self._mine}", (ids,)).rowcount
            self._revalidate(conn, superseded)
            return gone

        return self._run(work)

    def update_link(self, link_id: str, *, confidence: float | None = None,
                    metadata: dict[str, Any] | None = None) -> Link:
        from psycopg.types.json import Jsonb

        def work(conn: psycopg.Connection[Any]) -> tuple[Any, ...] | None:
            mine = f"l.from_id = m.id AND l.id = %s AND {self._mine}"
            if confidence is not None:
                conn.execute(f"UPDATE memory_links l SET confidence = %s FROM memories m "
                             f"WHERE {mine}", (confidence, link_id))
            if metadata is not None:
                conn.execute(f"UPDATE memory_links l SET metadata = %s FROM memories m "
                             f"WHERE {mine}", (Jsonb(guard.metadata(metadata)), link_id))
                self._revalidate(conn, self._superseded_by_links(conn, "l.id = %s", [link_id]))
            return conn.execute(
                f"SELECT {_L_COLUMNS} FROM memory_links l JOIN memories m ON m.id = l.from_id "
                f"WHERE l.id = %s AND {self._mine}", (link_id,)).fetchone()

        row = self._run(work)
        if row is None:
            raise NotFoundError(f"no link with id {link_id}")
        return _link_row(row)

    def rename_relationship(self, old: str, new: str, link_type: LinkType) -> int:
        from psycopg.types.json import Jsonb

        new = guard.reason(new)
        def work(conn: psycopg.Connection[Any]) -> int:
            rows = conn.execute(
                "SELECT l.id, l.from_id, l.to_id, l.metadata FROM memory_links l JOIN memories m "
                f"ON m.id = l.from_id WHERE l.relationship = %s AND {self._mine} "
                "ORDER BY l.id FOR UPDATE OF l", (old,)).fetchall()
            superseded = self._superseded_by_links(conn, "l.id = ANY(%s)", [[r[0] for r in rows]])
            for link_id, from_id, to_id, meta in rows:
                meta = dict(meta)
                meta.setdefault("merged_from", old)
                meta["original_relationship"] = new
                taken = conn.execute(
                    "SELECT 1 FROM memory_links WHERE from_id = %s AND to_id = %s AND "
                    "link_type = %s AND relationship = %s AND id <> %s",
                    (from_id, to_id, link_type.value, new, link_id)).fetchone()
                if taken:  # the same link already exists under the new word
                    conn.execute("DELETE FROM memory_links WHERE id = %s", (link_id,))
                else:
                    conn.execute(
                        "UPDATE memory_links SET relationship = %s, link_type = %s, "
                        "metadata = %s WHERE id = %s",
                        (new, link_type.value, Jsonb(meta), link_id))
            self._revalidate(conn, superseded + self._superseded_by_links(
                conn, "l.id = ANY(%s)", [[r[0] for r in rows]]))
            return len(rows)

        return self._run(work)

    def link_summary(self, filters: Filters) -> dict[str, dict[str, int]]:
        where, params = _where(filters)
        rows = self._rows(
            "SELECT l.link_type, coalesce(l.metadata->>'kind', 'reference'), l.created_by, "
            "count(*) FROM memory_links l JOIN memories m ON m.id = l.from_id "
            f"WHERE {self._mine}{where} GROUP BY 1, 2, 3",
            params,
        )
        out: dict[str, dict[str, int]] = {"by_core_type": {}, "by_kind": {}, "by_creator": {}}
        for link_type, kind, creator, n in rows:
            for key, value in (("by_core_type", link_type), ("by_kind", kind),
                               ("by_creator", creator)):
                out[key][value] = out[key].get(value, 0) + int(n)
        return out

    def links_with_relationships(self, words: Sequence[str]) -> builtins.list[Link]:
        if not words:
            return []
        rows = self._rows(
            f"SELECT {_L_COLUMNS} FROM memory_links l JOIN memories m ON m.id = l.from_id "
            f"WHERE l.relationship = ANY(%s) AND {self._mine} ORDER BY l.created_at, l.id",
            (list(words),),
        )
        return [_link_row(r) for r in rows]

    def relationship_canonical(self, word: str) -> str | None:
        rows = self._rows(
            "SELECT l.metadata->>'canonical' FROM memory_links l JOIN memories m ON "
            f"m.id = l.from_id WHERE l.relationship = %s AND {self._mine} AND "
            "l.metadata->>'canonical' IS NOT NULL LIMIT 1",
            (word,),
        )
        return str(rows[0][0]) if rows else None

    def relationship_stats(self) -> builtins.list[tuple[str, int, float, int, str]]:
        rows = self._rows(
            "SELECT l.relationship, count(*), avg(l.confidence), max(l.created_at), "
            "max(l.link_type) FROM memory_links l JOIN memories m ON m.id = l.from_id "
            f"WHERE {self._mine} GROUP BY l.relationship ORDER BY count(*) DESC, l.relationship"
        )
        return [(r[0], int(r[1]), float(r[2]), int(r[3]), r[4]) for r in rows]

    def put_graph_scores(self, rows: Sequence[tuple[str, float, float, int]],
                         computed_at: int) -> None:
        if not rows:
            return
        params = sorted((*r, computed_at) for r in rows)

        def work(conn: psycopg.Connection[Any]) -> None:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO graph_scores(memory_id, pagerank, pagerank_norm, community, "
                    "computed_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (memory_id) DO UPDATE "
                    "SET pagerank = excluded.pagerank, pagerank_norm = excluded.pagerank_norm, "
                    "community = excluded.community, computed_at = excluded.computed_at",
                    params,
                )

        self._run(work)

    def graph_scores(self, ids: Sequence[str] | None = None) -> dict[str, tuple[float, int]]:
        sql = ("SELECT g.memory_id, g.pagerank_norm, g.community FROM graph_scores g "
               f"JOIN memories m ON m.id = g.memory_id WHERE {self._mine}")
        if ids is None:
            rows = self._rows(sql)
        else:
            rows = self._rows(sql + " AND g.memory_id = ANY(%s)", (list(ids),))
        return {r[0]: (float(r[1]), int(r[2])) for r in rows}

    def co_access_pairs(self, min_count: int) -> builtins.list[tuple[str, str, int, int]]:
        rows = self._rows(
            "SELECT c.a, c.b, c.count, c.last_at FROM co_access c JOIN memories m ON m.id = c.a "
            f"WHERE c.count >= %s AND {self._mine} ORDER BY c.count DESC, c.a, c.b",
            (min_count,),
        )
        return [(r[0], r[1], int(r[2]), int(r[3])) for r in rows]

    def co_access_rows(self, ids: Sequence[str]) -> builtins.list[tuple[str, str, int, int]]:
        if not ids:
            return []
        rows = self._rows(
            "SELECT c.a, c.b, c.count, c.last_at FROM co_access c JOIN memories m ON m.id = c.a "
            f"WHERE c.a = ANY(%s) AND {self._mine} ORDER BY c.a, c.b",
            (sorted(set(ids)),),
        )
        return [(r[0], r[1], int(r[2]), int(r[3])) for r in rows]

    def put_co_access(self, rows: Sequence[tuple[str, str, int, int]]) -> int:
        pairs = sorted(_ordered_pairs(rows))  # in key order: concurrent writers never deadlock
        if not pairs:
            return 0

        def work(conn: psycopg.Connection[Any]) -> int:
            known = self._owned_ids(conn, sorted({i for p in pairs for i in p[:2]}))
            kept = [p for p in pairs if p[0] in known and p[1] in known]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO co_access(a, b, count, last_at) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (a, b) DO UPDATE SET "
                    "count = GREATEST(co_access.count, excluded.count), "
                    "last_at = GREATEST(co_access.last_at, excluded.last_at)",
                    kept,
                )
            return len(kept)

        return self._run(work)

    def confidence_log_rows(self, ids: Sequence[str]) -> builtins.list[tuple[str, int, float, str]]:
        if not ids:
            return []
        rows = self._rows(
            "SELECT c.memory_id, c.at_ms, c.confidence, c.reason FROM confidence_log c JOIN "
            f"memories m ON m.id = c.memory_id WHERE c.memory_id = ANY(%s) AND {self._mine} "
            "ORDER BY c.memory_id, c.seq",
            (sorted(set(ids)),),
        )
        return [(r[0], int(r[1]), float(r[2]), r[3]) for r in rows]

    def put_confidence_log(self, rows: Sequence[tuple[str, int, float, str]]) -> int:
        if not rows:
            return 0

        def work(conn: psycopg.Connection[Any]) -> int:
            known = self._owned_ids(conn, sorted({r[0] for r in rows}))
            kept = [(m, int(at), float(conf), guard.reason(str(r))) for m, at, conf, r in rows
                    if m in known]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO confidence_log(memory_id, at_ms, confidence, reason) "
                    "VALUES (%s, %s, %s, %s)",
                    kept,
                )
            return len(kept)

        return self._run(work)

    # -- code drift ----------------------------------------------------------------------------

    def set_anchors(self, anchors: Mapping[str, Sequence[Anchor]]) -> int:
        rows = {mid: list(items) for mid, items in anchors.items()}
        if not rows:
            return 0

        def work(conn: psycopg.Connection[Any]) -> int:
            known = {r[0] for r in conn.execute(
                f"SELECT m.id FROM memories m WHERE m.id = ANY(%s) AND {self._mine} "
                "ORDER BY m.id FOR UPDATE", (list(rows),)).fetchall()}
            changed: list[str] = []
            for mid in sorted(known):
                conn.execute("DELETE FROM memory_anchors WHERE memory_id = %s", (mid,))
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO memory_anchors(memory_id, path, symbol, fingerprint, "
                        "commit_id, stat, state, reason, anchored_at, checked_at) VALUES "
                        "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT "
                        "(memory_id, path, symbol) DO UPDATE SET fingerprint = "
                        "excluded.fingerprint, commit_id = excluded.commit_id, stat = "
                        "excluded.stat, state = excluded.state, reason = excluded.reason, "
                        "anchored_at = excluded.anchored_at, checked_at = excluded.checked_at",
                        [(mid, a.path, a.symbol, a.fingerprint, a.commit, a.stat, a.state,
                          a.reason, a.anchored_at, a.checked_at) for a in rows[mid]])
                drift, reason = drift_of(rows[mid])
                cur2 = conn.execute(
                    "UPDATE memories SET drift = %s, drift_reason = %s WHERE id = %s AND "
                    "(drift IS DISTINCT FROM %s OR drift_reason IS DISTINCT FROM %s)",
                    (drift, reason, mid, drift, reason))
                if cur2.rowcount:
                    changed.append(mid)
            if changed:
                self._log_changes(conn, changed)
            return len(changed)

        return self._run(work)

    def anchors(
        self, *, project: str | None = None, paths: Sequence[str] | None = None,
        memory_ids: Sequence[str] | None = None,
    ) -> builtins.list[Anchor]:
        clauses = [self._mine]
        params: list[Any] = []
        if project is not None:
            clauses.append("m.project = %s")
            params.append(project)
        for column, values in (("a.path", paths), ("a.memory_id", memory_ids)):
            if values is not None:
                values = list(dict.fromkeys(values))
                if not values:
                    return []
                clauses.append(f"{column} = ANY(%s)")
                params.append(values)
        rows = self._rows(
            "SELECT a.memory_id, a.path, a.symbol, a.fingerprint, a.commit_id, a.stat, a.state, "
            "a.reason, a.anchored_at, a.checked_at FROM memory_anchors a "
            f"JOIN memories m ON m.id = a.memory_id WHERE {' AND '.join(clauses)} "
            "ORDER BY a.memory_id, a.path, a.symbol", params)
        return [Anchor(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], int(r[8]), int(r[9]))
                for r in rows]

    def watermark(self) -> str:
        row = self._rows("SELECT max(seq), count(*) FROM memory_changes")[0]
        return f"{row[0] or 0}:{row[1]}"

    def _meta_owner(self, key: str) -> tuple[str, str]:
        return ("", "") if key in GLOBAL_META else (self.organisation, self.workspace)

    def get_meta(self, key: str) -> str | None:
        rows = self._rows(
            "SELECT value FROM meta WHERE organisation = %s AND workspace = %s AND key = %s",
            (*self._meta_owner(key), key),
        )
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._run(lambda conn: self._put_meta(conn, [(key, value)]))

    def _put_meta(self, conn: psycopg.Connection[Any], items: Sequence[tuple[str, str]]) -> None:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO meta(organisation, workspace, key, value) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (organisation, workspace, key) DO UPDATE SET value = excluded.value",
                [(*self._meta_owner(key), key, value) for key, value in items])

    def pending_links(self, limit: int) -> builtins.list[tuple[str, str]]:
        rows = self._rows(
            "SELECT key, value FROM meta WHERE organisation = %s AND workspace = %s AND "
            "starts_with(key, %s) ORDER BY key COLLATE \"C\" LIMIT %s",
            (self.organisation, self.workspace, PENDING_LINKS, limit))
        return [(str(k)[len(PENDING_LINKS):], str(v)) for k, v in rows]

    def settle_links(
        self, embedder_id: str, vectors: Sequence[tuple[str, np.ndarray]],
        links: Sequence[Link], done: Sequence[str],
    ) -> None:
        links = guard.links(links)

        def work(conn: psycopg.Connection[Any]) -> None:
            alive = self._owned_ids(conn, sorted({mid for mid, _ in vectors} | {
                i for ln in links for i in (ln.from_id, ln.to_id)}))
            rows = [_vector_row(mid, embedder_id, v) for mid, v in vectors if mid in alive]
            with conn.cursor() as cur:
                cur.executemany(
                    _PUT_VECTOR,
                    rows,
                )
                if rows:
                    self._log_changes(conn, [r[0] for r in rows])
                self._insert_links(conn, [ln for ln in links
                                          if ln.from_id in alive and ln.to_id in alive])
                cur.executemany(
                    "DELETE FROM meta WHERE organisation = %s AND workspace = %s AND key = %s",
                    [(self.organisation, self.workspace, PENDING_LINKS + i) for i in done])

        if vectors:
            self._ensure_hnsw({int(v.shape[-1]) for _, v in vectors})
        self._run(work)
        self._wrote(len(vectors))

    def meta_items(self) -> dict[str, str]:
        """This organisation's and workspace's meta (for ``kenning migrate``)."""
        return dict(self._rows(
            "SELECT key, value FROM meta WHERE organisation = %s AND workspace = %s",
            (self.organisation, self.workspace)))

    def stats(self) -> dict[str, Any]:
        by_type = {r[0]: int(r[1]) for r in self._rows(
            f"SELECT m.type, count(*) FROM memories m WHERE {self._mine} GROUP BY m.type")}
        links = self._rows(
            "SELECT count(*) FROM memory_links l JOIN memories m ON m.id = l.from_id "
            f"WHERE {self._mine}")[0][0]
        sizes = self._rows(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0), "
            "coalesce(sum(pg_total_relation_size(c.oid)) FILTER "
            "(WHERE c.relname = 'memory_links'), 0) FROM pg_class c "
            "WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace "
            "AND c.relname IN ('memories', 'memory_vectors', 'memory_links', 'memory_changes', "
            "'graph_scores', 'co_access', 'meta', 'session_events', 'confidence_log')"
        )[0]
        return {
            "memories": sum(by_type.values()),
            "by_type": by_type,
            "links": int(links),
            "link_bytes": int(sizes[1]),
            "vectors": self.vector_counts(),
            "redactions": int(self.get_meta("redactions") or 0),
            "size_bytes": int(sizes[0]),
            "postgres": self.server_info(),
        }

    def server_info(self) -> dict[str, Any]:
        """Server and pgvector versions, the HNSW indexes and the pool's health, for doctor."""
        server = self._rows("SHOW server_version")[0][0]
        ext = self._rows("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        indexes = self._rows(
            "SELECT c.relname, i.indisvalid, i.indisready, pg_relation_size(c.oid), "
            "coalesce(c.reloptions, '{}') "
            "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON "
            "a.oid = c.relam WHERE a.amname = 'hnsw' AND c.relnamespace = "
            "current_schema()::regnamespace ORDER BY c.relname"
        )
        pool = self._pool.get_stats()
        return {
            "server_version": str(server),
            "pgvector_version": ext[0][0] if ext else None,
            "schema": self._rows("SELECT current_schema()")[0][0],
            "organisation": self.organisation,
            "workspace": self.workspace,
            "hnsw_indexes": [
                {"name": r[0], "valid": bool(r[1] and r[2]), "bytes": int(r[3]),
                 "options": dict(o.split("=", 1) for o in r[4])} for r in indexes
            ],
            "ef_search": self.ef_search,
            "pool": {
                "min": self._pool.min_size, "max": self._pool.max_size,
                "size": int(pool.get("pool_size", 0)),
                "available": int(pool.get("pool_available", 0)),
                "waiting": int(pool.get("requests_waiting", 0)),
                "errors": int(pool.get("connections_errors", 0)),
                "lost": int(pool.get("connections_lost", 0)),
            },
        }

    def close(self) -> None:
        with suppress(Exception):
            self._pool.close()


def _array(value: Any) -> Any:
    """A loaded pgvector value as something numpy takes (pgvector >= 0.4 loads ``Vector``)."""
    return value.to_numpy() if hasattr(value, "to_numpy") else value


def _connection_lost(exc: BaseException) -> bool:
    """Whether ``exc`` says the connection or the server went away (worth waiting for), not
    that the query was refused."""
    from psycopg_pool import PoolTimeout

    if isinstance(exc, PoolTimeout):
        return True
    state = getattr(exc, "sqlstate", None)
    return state is None or state.startswith("08") or state in _LOST_STATES


def _first_line(exc: BaseException) -> str:
    return redact_dsn(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
