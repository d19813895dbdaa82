"""The embedded engine: one SQLite file in WAL mode, FTS5 for keywords, numpy for vectors.

numpy is imported only when vectors are involved, so keyword-only processes (hooks) start fast.
"""

from __future__ import annotations

import builtins
import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.errors import NotFoundError, StoreError, ValidationError
from kenning.learning import ACCESS_BOOST, CEILING, DECAY_PER_HOUR, FLOOR, HOUR_MS, STANDING
from kenning.models import (
    Anchor,
    Category,
    CreatedBy,
    Filters,
    Link,
    LinkType,
    Memory,
    MemoryType,
    OutcomeStatus,
    Scope,
    SessionEvent,
)
from kenning.places.lean import mark_written, sessions_version_file, version_file
from kenning.store import guard
from kenning.store.base import (
    PENDING_LINKS,
    SCHEMA_VERSION,
    UPDATABLE,
    drift_of,
    reject_cycles,
    validity,
)
from kenning.text import embedding_text, keyword_terms

if TYPE_CHECKING:
    import numpy as np

    from kenning.store.vectorcache import VectorCache

BUSY_TIMEOUT_MS = 30_000
CHANGES_KEPT = 10_000  # change-log rows kept for other processes' caches to catch up from
CO_ACCESS_TOP = 3  # the head of each recall counts as "used together"
SELECTIVE_FROM = 20_000  # memories from which keyword search skips very common terms
_BM25 = "bm25(memories_fts, 2.0, 1.5, 1.0, 1.0)"  # topic and summary weigh more than the body


def _in(values: Sequence[str]) -> str:
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


_TYPES = _in([t.value for t in MemoryType])
_CATEGORIES = _in([c.value for c in Category])
_OUTCOMES = _in([o.value for o in OutcomeStatus])
_SCOPES = _in([s.value for s in Scope])
_LINK_TYPES = _in([t.value for t in LinkType])
_CREATED_BY = _in([c.value for c in CreatedBy])

# Versioned migrations: index i holds the script that takes user_version i to i + 1.
MIGRATIONS: list[str] = [
    f"""
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE memories (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL CHECK (type IN {_TYPES}),
        topic TEXT,
        summary TEXT NOT NULL CHECK (length(summary) > 0),
        content TEXT NOT NULL CHECK (length(content) > 0),
        category TEXT NOT NULL CHECK (category IN {_CATEGORIES}),
        tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
        source TEXT,
        confidence REAL NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
        outcome TEXT CHECK (outcome IS NULL OR outcome IN {_OUTCOMES}),
        outcome_reason TEXT,
        project TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN {_SCOPES}),
        agent TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_accessed_at INTEGER,
        access_count INTEGER NOT NULL DEFAULT 0 CHECK (access_count >= 0),
        content_hash TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(metadata)),
        UNIQUE (project, scope, agent, content_hash)
    );
    CREATE INDEX idx_memories_project_created ON memories(project, created_at);
    CREATE INDEX idx_memories_type_created ON memories(type, created_at);
    CREATE INDEX idx_memories_topic_created ON memories(topic, created_at);
    CREATE INDEX idx_memories_created ON memories(created_at);

    CREATE VIRTUAL TABLE memories_fts USING fts5(
        topic, summary, content, tags,
        content='memories', content_rowid='seq',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, topic, summary, content, tags)
        VALUES (new.seq, new.topic, new.summary, new.content, new.tags);
    END;
    CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, topic, summary, content, tags)
        VALUES ('delete', old.seq, old.topic, old.summary, old.content, old.tags);
    END;
    CREATE TRIGGER memories_au AFTER UPDATE OF topic, summary, content, tags ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, topic, summary, content, tags)
        VALUES ('delete', old.seq, old.topic, old.summary, old.content, old.tags);
        INSERT INTO memories_fts(rowid, topic, summary, content, tags)
        VALUES (new.seq, new.topic, new.summary, new.content, new.tags);
    END;

    CREATE TABLE memory_vectors (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        embedder TEXT NOT NULL,
        dim INTEGER NOT NULL CHECK (dim > 0),
        vector BLOB NOT NULL CHECK (length(vector) = dim * 4),
        UNIQUE (memory_id, embedder)
    );
    CREATE INDEX idx_vectors_embedder ON memory_vectors(embedder, seq);

    CREATE TABLE memory_links (
        id TEXT PRIMARY KEY,
        from_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        to_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        link_type TEXT NOT NULL CHECK (link_type IN {_LINK_TYPES}),
        confidence REAL NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
        created_by TEXT NOT NULL CHECK (created_by IN {_CREATED_BY}),
        metadata TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(metadata)),
        relationship TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        CHECK (from_id <> to_id),
        UNIQUE (from_id, to_id, link_type, relationship)
    );
    CREATE INDEX idx_links_from ON memory_links(from_id);
    CREATE INDEX idx_links_to ON memory_links(to_id);
    CREATE INDEX idx_links_type ON memory_links(link_type);
    CREATE INDEX idx_links_confidence ON memory_links(confidence);
    CREATE INDEX idx_links_relationship ON memory_links(relationship);

    -- Memories whose vector or filter columns changed, so in-memory caches update one row.
    CREATE TABLE memory_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL
    );

    INSERT INTO meta(key, value) VALUES ('generation', '0'), ('redactions', '0');
    """,
]
MIGRATIONS.append(
    """
    -- Ranking structure computed at consolidation, read by recall and hooks without recomputing.
    CREATE TABLE graph_scores (
        memory_id TEXT PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
        pagerank REAL NOT NULL CHECK (pagerank >= 0.0),
        pagerank_norm REAL NOT NULL CHECK (pagerank_norm >= 0.0 AND pagerank_norm <= 1.0),
        community INTEGER NOT NULL,
        computed_at INTEGER NOT NULL
    );
    CREATE INDEX idx_graph_scores_community ON graph_scores(community);
    -- How often two memories were recalled together (the co-accessed edge kind).
    CREATE TABLE co_access (
        a TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        b TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        count INTEGER NOT NULL CHECK (count > 0),
        last_at INTEGER NOT NULL,
        PRIMARY KEY (a, b),
        CHECK (a < b)
    );
    CREATE INDEX idx_links_created ON memory_links(created_at);
    INSERT INTO meta(key, value) VALUES ('link_generation', '0');
    -- Deleting a memory deletes its links: traversal caches must hear of it.
    CREATE TRIGGER memory_links_ad AFTER DELETE ON memory_links BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'link_generation';
    END;
    CREATE TRIGGER memory_links_ai AFTER INSERT ON memory_links BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'link_generation';
    END;
    CREATE TRIGGER memory_links_au AFTER UPDATE ON memory_links BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'link_generation';
    END;
    """
)
MIGRATIONS.append(
    """
    -- Session activity from Claude Code hooks (prompts, injections, tool outcomes), ingested
    -- from the hooks' append-only journals; ids make re-ingesting a journal harmless.
    CREATE TABLE session_events (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        project TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data))
    );
    CREATE INDEX idx_session_events_session ON session_events(session_id, at_ms);
    CREATE INDEX idx_session_events_kind ON session_events(kind, at_ms);
    -- Every change of a memory's confidence and why: learning made visible.
    CREATE TABLE confidence_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        at_ms INTEGER NOT NULL,
        confidence REAL NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX idx_confidence_log_memory ON confidence_log(memory_id, at_ms);
    """
)
MIGRATIONS.append(
    """
    -- Validity: when a memory became true and when (and by which successor) it stopped being
    -- true. valid_from NULL means since created_at; the supersedes links already stored are
    -- read into valid_to and superseded_by right after this step (VALIDITY_FROM).
    ALTER TABLE memories ADD COLUMN valid_from INTEGER;
    ALTER TABLE memories ADD COLUMN valid_to INTEGER;
    ALTER TABLE memories ADD COLUMN superseded_by TEXT;
    """
)
MIGRATIONS.append(
    """
    -- Code drift: the places in the code a memory describes (a file, or a symbol in it) with
    -- the fingerprint they had when anchored, and what the last check found. A memory's drift
    -- and drift_reason are its anchors' worst state, kept in the same transaction.
    ALTER TABLE memories ADD COLUMN drift TEXT CHECK (drift IN ('stale', 'obsolete'));
    ALTER TABLE memories ADD COLUMN drift_reason TEXT;
    CREATE TABLE memory_anchors (
        memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        symbol TEXT NOT NULL DEFAULT '',
        fingerprint TEXT NOT NULL,
        commit_id TEXT,
        stat TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL DEFAULT 'fresh' CHECK (state IN ('fresh', 'stale', 'obsolete')),
        reason TEXT,
        anchored_at INTEGER NOT NULL,
        checked_at INTEGER NOT NULL,
        PRIMARY KEY (memory_id, path, symbol)
    );
    CREATE INDEX idx_anchors_path ON memory_anchors(path);
    """
)
assert len(MIGRATIONS) == SCHEMA_VERSION
VALIDITY_FROM = 4  # the schema version whose upgrade fills validity from the stored links
# A link that says its source supersedes its target (as kenning.store.base.is_supersedes).
_SUPERSEDES_SQL = (
    "l.link_type = 'evolution' AND "
    "coalesce(json_extract(l.metadata, '$.canonical'), l.relationship) = 'supersedes'"
)

# The confidence rule of kenning.learning as SQL over the row's own type and timestamps:
# episodic kinds decay since the last touch (never below the floor), standing kinds
# (learning.STANDING) keep theirs; then the use boost or the feedback delta.
_ANCHOR_SQL = "max(created_at, updated_at, coalesce(last_accessed_at, 0))"
_DECAYED_SQL = (
    f"CASE WHEN type IN {_in(sorted(STANDING))} THEN confidence ELSE "
    f"max(min(confidence, {FLOOR}), confidence - {DECAY_PER_HOUR} * "
    f"max(0, :at - {_ANCHOR_SQL}) / {HOUR_MS}.0) END"
)
_ACCESSED_SQL = f"min({CEILING}, {_DECAYED_SQL} + {ACCESS_BOOST} * :n)"
_ADJUSTED_SQL = f"min({CEILING}, max(0.0, {_DECAYED_SQL} + :delta))"

_MEMORY_COLUMNS = (
    "id, type, topic, summary, content, category, tags, source, confidence, outcome, "
    "outcome_reason, project, scope, agent, created_at, updated_at, last_accessed_at, "
    "access_count, content_hash, metadata, valid_from, valid_to, superseded_by, drift, "
    "drift_reason"
)
_INSERT_SQL = (
    f"INSERT INTO memories ({_MEMORY_COLUMNS}) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (project, scope, agent, content_hash) DO NOTHING"
)


_TYPE = {t.value: t for t in MemoryType}
_CATEGORY = {c.value: c for c in Category}
_OUTCOME = {o.value: o for o in OutcomeStatus}
_SCOPE = {s.value: s for s in Scope}


def _json(text: str, empty: Any) -> Any:
    """json.loads with a fast path for the common empty list / object."""
    return empty if text in ("[]", "{}") else json.loads(text)


def _row_to_memory(row: Sequence[Any], is_new: bool = True) -> Memory:
    return Memory(
        id=row[0],
        type=_TYPE[row[1]],
        topic=row[2],
        summary=row[3],
        content=row[4],
        category=_CATEGORY[row[5]],
        tags=tuple(_json(row[6], ())),
        source=row[7],
        confidence=float(row[8]),
        outcome=_OUTCOME[row[9]] if row[9] else None,
        outcome_reason=row[10],
        project=row[11],
        scope=_SCOPE[row[12]],
        agent=row[13] or None,
        created_at=int(row[14]),
        updated_at=int(row[15]),
        last_accessed_at=None if row[16] is None else int(row[16]),
        access_count=int(row[17]),
        content_hash=row[18],
        metadata=_json(row[19], None) or {},
        is_new=is_new,
        valid_from=int(row[14]) if row[20] is None else int(row[20]),
        valid_to=None if row[21] is None else int(row[21]),
        superseded_by=row[22],
        drift=row[23],
        drift_reason=row[24],
    )


def _memory_params(m: Memory) -> tuple[Any, ...]:
    return (
        m.id, m.type.value, m.topic, m.summary, m.content, m.category.value,
        json.dumps(list(m.tags), ensure_ascii=False), m.source, m.confidence,
        m.outcome.value if m.outcome else None, m.outcome_reason, m.project, m.scope.value,
        m.agent or "", m.created_at, m.updated_at, m.last_accessed_at, m.access_count,
        m.content_hash, json.dumps(m.metadata, ensure_ascii=False, sort_keys=True),
        m.valid_from, m.valid_to, m.superseded_by, m.drift, m.drift_reason,
    )


def _ordered_pairs(rows: Sequence[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    """Co-access rows with ``a < b`` as the table keeps them; a memory paired with itself goes."""
    return [(a, b, int(n), int(at)) if a < b else (b, a, int(n), int(at))
            for a, b, n, at in rows if a != b]


# A memory's vector from one embedder, replacing the one it had.
_PUT_VECTOR = ("INSERT INTO memory_vectors(memory_id, embedder, dim, vector) VALUES (?,?,?,?) "
               "ON CONFLICT (memory_id, embedder) DO UPDATE SET dim = excluded.dim, "
               "vector = excluded.vector")


def _blob(vector: Any) -> tuple[int, bytes]:
    """A vector as (dimension, little-endian float32 bytes), without importing numpy here."""
    v = vector.astype("<f4", copy=False).ravel()
    return int(v.shape[0]), v.tobytes()


def _row_to_link(row: Sequence[Any]) -> Link:
    return Link(
        id=row[0], from_id=row[1], to_id=row[2], link_type=LinkType(row[3]),
        confidence=float(row[4]), created_by=CreatedBy(row[5]), metadata=json.loads(row[6]),
        created_at=int(row[7]),
    )


_LINK_COLUMNS = "id, from_id, to_id, link_type, confidence, created_by, metadata, created_at"
_VECTOR_ROWS = (
    "SELECT v.seq, v.memory_id, v.dim, v.vector, m.type, m.topic, m.project, m.scope, m.agent, "
    "m.created_at FROM memory_vectors v JOIN memories m ON m.id = v.memory_id"
)


def _where(filters: Filters, alias: str = "") -> tuple[str, list[Any]]:
    """SQL WHERE clause for ``filters``; user-scope memories are visible from every project."""
    p = f"{alias}." if alias else ""
    clauses: list[str] = []
    params: list[Any] = []
    if filters.project is not None:
        clauses.append(f"({p}project = ? OR {p}scope = 'user')")
        params.append(filters.project)
    if filters.types:
        clauses.append(f"{p}type IN ({', '.join('?' for _ in filters.types)})")
        params.extend(t.value for t in filters.types)
    if filters.topic is not None:
        clauses.append(f"{p}topic = ?")
        params.append(filters.topic)
    if filters.since is not None:
        clauses.append(f"{p}created_at >= ?")
        params.append(filters.since)
    if filters.until is not None:
        clauses.append(f"{p}created_at < ?")
        params.append(filters.until)
    if filters.scopes:
        clauses.append(f"{p}scope IN ({', '.join('?' for _ in filters.scopes)})")
        params.extend(s.value for s in filters.scopes)
    if filters.agent is not None:
        clauses.append(f"{p}agent = ?")
        params.append(filters.agent)
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


class SQLiteStore:
    """The default engine. Safe for many processes: WAL, a busy timeout, short write locks."""

    engine = "sqlite"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                check_same_thread=False,
            )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open store at {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._version_file = version_file(str(self.path))
        self._sessions_file = sessions_version_file(str(self.path))
        self._vectors: dict[str, VectorCache] = {}
        self._owner = threading.get_ident()
        self._readers = threading.local()
        self._reader_conns: list[sqlite3.Connection] = []
        try:
            self._configure()
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(f"{self.path} is not a usable Kenning store: {exc}") from exc

    # -- setup ---------------------------------------------------------------------------------

    def _read(self) -> sqlite3.Connection:
        """The connection for reads on this thread: other threads (recall's keyword search runs
        beside the query embedding) get their own, so WAL lets them read in parallel."""
        if threading.get_ident() == self._owner:
            return self._conn
        conn = getattr(self._readers, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000)
            conn.execute("PRAGMA query_only = ON")
            self._readers.conn = conn
            with self._lock:
                self._reader_conns.append(conn)
        return conn

    def _configure(self) -> None:
        c = self._conn
        c.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if c.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = NORMAL")
        c.execute("PRAGMA foreign_keys = ON")
        c.execute("PRAGMA temp_store = MEMORY")

    def _migrate(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}, newer than this Kenning "
                f"({SCHEMA_VERSION}); upgrade Kenning"
            )
        if version == SCHEMA_VERSION:
            return
        with self._write():
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and self._conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            ).fetchone()[0]:
                raise StoreError(f"{self.path} is a SQLite file but not a Kenning store")
            for step in range(version, SCHEMA_VERSION):
                for statement in _split_sql(MIGRATIONS[step]):
                    self._conn.execute(statement)
            if version < VALIDITY_FROM:
                targets = [r[0] for r in self._conn.execute(
                    f"SELECT DISTINCT l.to_id FROM memory_links l WHERE {_SUPERSEDES_SQL}")]
                self._revalidate(self._conn, targets)
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _write(self, *, marks: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken with BEGIN IMMEDIATE so concurrent writers queue.
        ``marks``: whether a change may alter what files derived from the store show (the
        prompt index reads memories, their validity and PageRank); session events, vectors,
        co-access counts and bookkeeping leave the marker alone, so a session start that only
        ingests events keeps the index it has."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            before = self._conn.total_changes
            try:
                yield self._conn
                self._conn.execute("COMMIT")
                if marks and self._conn.total_changes != before:  # a no-op keeps derived files
                    mark_written(self._version_file)
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    def _bump_generation(self, c: sqlite3.Connection) -> None:
        """Invalidate every cache wholesale (for bulk changes such as dropping an embedder)."""
        c.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")

    def _log_changes(self, c: sqlite3.Connection, memory_ids: Sequence[str]) -> None:
        """Record changed memories so caches (in any process) refresh just those rows."""
        c.executemany(
            "INSERT INTO memory_changes(memory_id) VALUES (?)", [(m,) for m in memory_ids]
        )
        c.execute(
            "DELETE FROM memory_changes WHERE seq <= (SELECT max(seq) FROM memory_changes) - ?",
            (CHANGES_KEPT,),
        )

    # -- contract ------------------------------------------------------------------------------

    @property
    def location(self) -> str:
        return str(self.path)

    def schema_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def insert(
        self, memories: Sequence[Memory], vectors: np.ndarray | None, embedder_id: str | None,
        redactions: int = 0, links: Sequence[Link] = (),
        pending_links: Mapping[str, str] | None = None,
    ) -> list[Memory]:
        memories, found = guard.memories(memories)
        redactions += found
        links = guard.links(links)
        out: list[Memory] = []
        with self._write() as c:
            new_vectors: list[tuple[str, str, int, bytes]] = []
            pending: list[tuple[str, str]] = []
            for i, m in enumerate(memories):
                cur = c.execute(_INSERT_SQL, _memory_params(m))
                if cur.rowcount == 1:
                    out.append(m)
                    if vectors is not None and embedder_id:
                        new_vectors.append((m.id, embedder_id, *_blob(vectors[i])))
                    if pending_links and m.id in pending_links:
                        pending.append((PENDING_LINKS + m.id, pending_links[m.id]))
                else:
                    row = c.execute(
                        f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE project = ? AND scope = ? "
                        "AND agent = ? AND content_hash = ?",
                        (m.project, m.scope.value, m.agent or "", m.content_hash),
                    ).fetchone()
                    out.append(_row_to_memory(row, is_new=False))
            if new_vectors:
                c.executemany(
                    "INSERT INTO memory_vectors(memory_id, embedder, dim, vector) VALUES (?,?,?,?)",
                    new_vectors,
                )
            if pending:
                c.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", pending)
            if links:
                # A duplicate keeps the stored memory's id: its links attach there.
                alias = {m.id: stored.id for m, stored in zip(memories, out, strict=True)}
                self._insert_links(c, [
                    replace(ln, from_id=alias.get(ln.from_id, ln.from_id),
                            to_id=alias.get(ln.to_id, ln.to_id))
                    for ln in links
                ])
            if redactions:
                c.execute(
                    "UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'redactions'",
                    (redactions,),
                )
        return out

    def get_many(self, ids: Sequence[str]) -> dict[str, Memory]:
        found: dict[str, Memory] = {}
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self._conn.execute(
                f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE id IN "
                f"({', '.join('?' for _ in chunk)})",
                chunk,
            ).fetchall()
            for row in rows:
                found[row[0]] = _row_to_memory(row, is_new=False)
        return found

    def resolve_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        p = prefix.upper()
        rows = self._conn.execute(
            "SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            (p, p + "\U0010ffff", limit),
        ).fetchall()
        return [r[0] for r in rows]

    def update(
        self, memory_id: str, fields: dict[str, Any], vector: np.ndarray | None,
        embedder_id: str | None, redactions: int = 0,
    ) -> Memory:
        bad = set(fields) - UPDATABLE
        if bad:
            raise ValueError(f"cannot update field(s): {', '.join(sorted(bad))}")
        fields, found = guard.fields(fields)
        redactions += found
        values: dict[str, Any] = {}
        for key, value in fields.items():
            if key in ("tags",):
                value = json.dumps(list(value), ensure_ascii=False)
            elif key == "metadata":
                value = json.dumps(value, ensure_ascii=False, sort_keys=True)
            elif key == "agent":
                value = value or ""
            elif hasattr(value, "value"):
                value = value.value
            values[key] = value
        with self._write() as c:
            if values:
                sets = ", ".join(f"{k} = ?" for k in values)
                try:
                    cur = c.execute(
                        f"UPDATE memories SET {sets} WHERE id = ?", [*values.values(), memory_id]
                    )
                except sqlite3.IntegrityError as exc:
                    if "UNIQUE" in str(exc):
                        raise ValidationError(
                            "another memory in the same project, scope and agent already has "
                            "this text"
                        ) from exc
                    raise ValidationError(f"update rejected by the store: {exc}") from exc
                if cur.rowcount == 0:
                    raise NotFoundError(f"no memory with id {memory_id}")
            if vector is not None or {"content", "summary", "topic"} & values.keys():
                # A changed text invalidates every vector of it; re-indexing fills the gap.
                c.execute("DELETE FROM memory_vectors WHERE memory_id = ?", (memory_id,))
            if vector is not None and embedder_id:
                c.execute(
                    "INSERT INTO memory_vectors(memory_id, embedder, dim, vector) VALUES (?,?,?,?)",
                    (memory_id, embedder_id, *_blob(vector)),
                )
            if redactions:
                c.execute(
                    "UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'redactions'",
                    (redactions,),
                )
            self._log_changes(c, [memory_id])
            row = c.execute(
                f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE id = ?", (memory_id,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"no memory with id {memory_id}")
        return _row_to_memory(row, is_new=False)

    def delete(self, memory_id: str) -> bool:
        with self._write() as c:
            superseded = self._superseded_by_links(c, "l.from_id = ?", [memory_id])
            cur = c.execute("DELETE FROM memories WHERE id = ?", (memory_id,))
            if cur.rowcount:
                self._log_changes(c, [memory_id])
                self._revalidate(c, superseded)
            return cur.rowcount > 0

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
        sql = (
            f"SELECT {_MEMORY_COLUMNS} FROM memories{where} "
            f"ORDER BY created_at {order}, id {order}"
        )
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [_row_to_memory(r, is_new=False) for r in self._conn.execute(sql, params)]

    def scan(self, after: str | None, limit: int) -> builtins.list[Memory]:
        rows = self._conn.execute(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE id > ? ORDER BY id LIMIT ?",
            (after or "", limit),
        )
        return [_row_to_memory(r, is_new=False) for r in rows]

    def count(self, filters: Filters) -> int:
        where, params = _where(filters)
        row = self._conn.execute(f"SELECT count(*) FROM memories{where}", params).fetchone()
        return int(row[0])

    def keyword_search(
        self, query: str, filters: Filters, limit: int
    ) -> builtins.list[tuple[str, float]]:
        conn = self._read()
        terms = self._selective_terms(conn, keyword_terms(query))
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        where, params = _where(filters)
        # Rank in FTS alone first (topic and summary weigh more than the body), then filter the
        # head; only when filters reject most of it is the whole match set joined and sorted.
        head = conn.execute(
            f"SELECT rowid, {_BM25} FROM memories_fts WHERE memories_fts MATCH ? "
            "ORDER BY 2 LIMIT ?",
            (match, 4 * limit),
        ).fetchall()
        score = {seq: -float(s) for seq, s in head}
        kept = conn.execute(
            f"SELECT seq, id FROM memories WHERE seq IN ({', '.join('?' for _ in head)})"
            + (where.replace(" WHERE ", " AND ", 1) if where else ""),
            [seq for seq, _ in head] + params,
        ).fetchall() if head else []
        if len(kept) >= limit or len(head) < 4 * limit:
            ranked = sorted(kept, key=lambda r: (-score[r[0]], r[0]))[:limit]
            return [(mid, score[seq]) for seq, mid in ranked]
        where_m, params_m = _where(filters, "m")
        rows = conn.execute(
            f"SELECT m.id, {_BM25} AS s FROM memories_fts JOIN memories m "
            f"ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ?"
            + (where_m.replace(" WHERE ", " AND ", 1) if where_m else "")
            + " ORDER BY s LIMIT ?",
            [match, *params_m, limit],
        ).fetchall()
        return [(r[0], -float(r[1])) for r in rows]

    def _selective_terms(
        self, conn: sqlite3.Connection, terms: builtins.list[str]
    ) -> builtins.list[str]:
        """In large stores, drop terms found in over 5 % of memories when rarer ones exist.

        Their BM25 weight is small, but scoring the tens of thousands of rows they match is
        most of a keyword search's time.
        """
        if len(terms) < 2:
            return terms
        row = conn.execute(
            "SELECT seq FROM sqlite_sequence WHERE name = 'memories'"
        ).fetchone()
        total = row[0] if row else 0
        if total < SELECTIVE_FROM:
            return terms
        df = {
            t: conn.execute(
                "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?",
                ('"' + t.replace('"', '""') + '"',),
            ).fetchone()[0]
            for t in terms
        }
        rare = [t for t in terms if df[t] <= 0.05 * total]
        return rare or sorted(terms, key=lambda t: df[t])[:2]

    def _cache(self, embedder_id: str) -> VectorCache:
        """This embedder's vectors, brought up to date with a few cheap queries."""
        from kenning.store.vectorcache import VectorCache

        c = self._conn
        generation, first_change, last_change, last_vector = c.execute(
            "SELECT (SELECT value FROM meta WHERE key = 'generation'), "
            "(SELECT min(seq) FROM memory_changes), (SELECT max(seq) FROM memory_changes), "
            "(SELECT max(seq) FROM memory_vectors)"
        ).fetchone()
        cache = self._vectors.get(embedder_id)
        if (
            cache is None
            or cache.generation != generation
            or (first_change is not None and first_change > cache.last_change + 1)
        ):
            cache = self._vectors[embedder_id] = VectorCache(embedder_id)
            cache.generation = generation
            cache.last_change = last_change or 0
        if (last_vector or 0) > cache.max_seq:
            cache.append(c.execute(
                f"{_VECTOR_ROWS} WHERE v.embedder = ? AND v.seq > ? ORDER BY v.seq",
                (embedder_id, cache.max_seq),
            ).fetchall())
        if last_change is not None and last_change > cache.last_change:
            changed = [r[0] for r in c.execute(
                "SELECT DISTINCT memory_id FROM memory_changes WHERE seq > ?",
                (cache.last_change,),
            )]
            cache.kill(changed)
            for start in range(0, len(changed), 500):
                chunk = changed[start : start + 500]
                # Re-read these rows wherever they sit; new rows are the seq scan's job.
                cache.append(c.execute(
                    f"{_VECTOR_ROWS} WHERE v.embedder = ? AND v.seq <= ? AND v.memory_id IN "
                    f"({', '.join('?' for _ in chunk)}) ORDER BY v.seq",
                    [embedder_id, cache.max_seq, *chunk],
                ).fetchall())
            cache.last_change = last_change
        return cache

    def vector_search(
        self, vector: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> builtins.list[tuple[str, float]]:
        with self._lock:
            cache = self._cache(embedder_id)
            return cache.search(vector, filters, limit)

    def vector_search_many(
        self, vectors: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> builtins.list[builtins.list[tuple[str, float]]]:
        with self._lock:
            return self._cache(embedder_id).search_many(vectors, filters, limit)

    def adjacent(
        self, ids: Sequence[str], filters: Filters, width: int, reach_ms: int
    ) -> dict[str, builtins.list[tuple[str, int]]]:
        ids = list(dict.fromkeys(ids))
        if not ids or width < 1:
            return {}
        conn = self._read()
        where, params = _where(filters)
        extra = where.replace(" WHERE ", " AND ", 1)
        seeds = conn.execute(
            f"SELECT id, created_at FROM memories WHERE id IN ({', '.join('?' for _ in ids)})",
            ids,
        ).fetchall()
        out: dict[str, builtins.list[tuple[str, int]]] = {}
        for mid, at in seeds:
            # Two walks along the created_at index, each stopping after ``width`` rows.
            rows = conn.execute(
                f"SELECT * FROM (SELECT id, created_at FROM memories WHERE created_at "
                f"BETWEEN ? AND ? AND id != ?{extra} ORDER BY created_at DESC LIMIT ?) "
                f"UNION ALL SELECT * FROM (SELECT id, created_at FROM memories WHERE "
                f"created_at BETWEEN ? AND ? AND id != ?{extra} ORDER BY created_at LIMIT ?)",
                [at - reach_ms, at, mid, *params, width, at, at + reach_ms, mid, *params, width],
            ).fetchall()
            near = {n: t - at for n, t in rows}
            out[mid] = sorted(near.items(), key=lambda r: (abs(r[1]), r[0]))
        return out

    def vectors_of(self, ids: Sequence[str], embedder_id: str) -> dict[str, np.ndarray]:
        if not ids:
            return {}
        with self._lock:
            return self._cache(embedder_id).vectors_of(ids)

    def record_access(self, ids: Sequence[str], at_ms: int, reason: str = "accessed") -> None:
        if not ids:
            return
        counts: dict[str, int] = {}
        for i in ids:
            counts[i] = counts.get(i, 0) + 1
        with self._write() as c:
            # The learning rule in SQL, so concurrent processes never lose an update.
            c.executemany(
                f"UPDATE memories SET confidence = {_ACCESSED_SQL}, access_count = access_count "
                "+ :n, last_accessed_at = max(:at, coalesce(last_accessed_at, 0)) WHERE id = :id",
                [{"at": at_ms, "n": n, "id": i} for i, n in counts.items()],
            )
            self._log_confidence(c, list(counts), at_ms, reason)
            self._co_access(c, ids, at_ms)

    def record_co_access(self, ids: Sequence[str], at_ms: int) -> None:
        if len(set(ids[:CO_ACCESS_TOP])) < 2:
            return
        with self._write(marks=False) as c:
            self._co_access(c, ids, at_ms)

    @staticmethod
    def _co_access(c: sqlite3.Connection, ids: Sequence[str], at_ms: int) -> None:
        """Count each pair among the first ``CO_ACCESS_TOP`` ids as seen together."""
        top = sorted(set(ids[:CO_ACCESS_TOP]))
        c.executemany(
            "INSERT INTO co_access(a, b, count, last_at) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (a, b) DO UPDATE SET count = count + 1, last_at = excluded.last_at",
            [(a, b, at_ms) for i, a in enumerate(top) for b in top[i + 1 :]],
        )

    def adjust_confidence(
        self, changes: Sequence[tuple[str, float, str]], at_ms: int
    ) -> dict[str, float]:
        out: dict[str, float] = {}
        with self._write() as c:
            for memory_id, delta, reason in changes:
                row = c.execute(
                    f"UPDATE memories SET confidence = {_ADJUSTED_SQL}, updated_at = "
                    "max(updated_at, :at) WHERE id = :id RETURNING confidence",
                    {"at": at_ms, "delta": delta, "id": memory_id},
                ).fetchone()
                if row is not None:
                    out[memory_id] = float(row[0])
                    self._log_confidence(c, [memory_id], at_ms, reason)
        return out

    def _log_confidence(
        self, c: sqlite3.Connection, ids: Sequence[str], at_ms: int, reason: str
    ) -> None:
        reason = guard.reason(reason)
        c.executemany(
            "INSERT INTO confidence_log(memory_id, at_ms, confidence, reason) "
            "SELECT id, ?, confidence, ? FROM memories WHERE id = ?",
            [(at_ms, reason, i) for i in ids],
        )

    def confidence_history(
        self, memory_id: str, limit: int = 200
    ) -> builtins.list[tuple[int, float, str]]:
        rows = self._read().execute(
            "SELECT at_ms, confidence, reason FROM confidence_log WHERE memory_id = ? "
            "ORDER BY seq DESC LIMIT ?",
            (memory_id, limit),
        ).fetchall()
        return [(int(a), float(c), r) for a, c, r in reversed(rows)]

    def add_session_events(self, events: Sequence[SessionEvent]) -> builtins.list[str]:
        events = guard.events(events)
        new: list[str] = []
        with self._write(marks=False) as c:
            for e in events:
                cur = c.execute(
                    "INSERT INTO session_events(id, session_id, project, at_ms, kind, data) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                    (e.id, e.session_id, e.project, e.at_ms, e.kind,
                     json.dumps(e.data, ensure_ascii=False, sort_keys=True)),
                )
                if cur.rowcount == 1:
                    new.append(e.id)
        if new:
            mark_written(self._sessions_file)
        return new

    def session_events(
        self, *, session_id: str | None = None, kinds: Sequence[str] | None = None,
        project: str | None = None, limit: int = 1000, newest_first: bool = False,
    ) -> builtins.list[SessionEvent]:
        clauses, params = [], []
        if session_id is not None:
            clauses.append("session_id = ?")
            params.append(session_id)
        if kinds:
            clauses.append(f"kind IN ({', '.join('?' for _ in kinds)})")
            params.extend(kinds)
        if project is not None:
            clauses.append("project = ?")
            params.append(project)
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        order = "DESC" if newest_first else "ASC"
        rows = self._read().execute(
            f"SELECT id, session_id, project, at_ms, kind, data FROM session_events{where} "
            f"ORDER BY at_ms {order}, id {order} LIMIT ?",
            [*params, limit],
        ).fetchall()
        return [SessionEvent(r[0], r[1], r[2], int(r[3]), r[4], json.loads(r[5])) for r in rows]

    def missing_vectors(self, embedder_id: str, limit: int) -> builtins.list[tuple[str, str]]:
        rows = self._conn.execute(
            "SELECT m.id, m.topic, m.summary, m.content FROM memories m WHERE NOT EXISTS "
            "(SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.embedder = ?) "
            "ORDER BY m.seq LIMIT ?",
            (embedder_id, limit),
        ).fetchall()
        return [(r[0], embedding_text(r[1], r[2], r[3])) for r in rows]

    def count_missing_vectors(self, embedder_id: str) -> int:
        return int(
            self._conn.execute(
                "SELECT count(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memory_vectors v "
                "WHERE v.memory_id = m.id AND v.embedder = ?)",
                (embedder_id,),
            ).fetchone()[0]
        )

    def put_vectors(self, embedder_id: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        rows = [(memory_id, embedder_id, *_blob(v)) for memory_id, v in items]
        with self._write(marks=False) as c:
            c.executemany(
                _PUT_VECTOR,
                rows,
            )
            self._log_changes(c, [r[0] for r in rows])

    def pending_links(self, limit: int) -> builtins.list[tuple[str, str]]:
        rows = self._conn.execute(
            "SELECT key, value FROM meta WHERE key > ? AND key < ? ORDER BY key LIMIT ?",
            (PENDING_LINKS, PENDING_LINKS + "\U0010ffff", limit),
        ).fetchall()
        return [(k[len(PENDING_LINKS):], v) for k, v in rows]

    def settle_links(
        self, embedder_id: str, vectors: Sequence[tuple[str, np.ndarray]],
        links: Sequence[Link], done: Sequence[str],
    ) -> None:
        links = guard.links(links)
        with self._write() as c:
            alive = self._existing_ids(c, sorted({mid for mid, _ in vectors} | {
                i for ln in links for i in (ln.from_id, ln.to_id)}))
            rows = [(mid, embedder_id, *_blob(v)) for mid, v in vectors if mid in alive]
            c.executemany(
                _PUT_VECTOR,
                rows,
            )
            self._log_changes(c, [r[0] for r in rows])
            self._insert_links(c, [ln for ln in links
                                   if ln.from_id in alive and ln.to_id in alive])
            c.executemany("DELETE FROM meta WHERE key = ?", [(PENDING_LINKS + i,) for i in done])

    def drop_other_vectors(self, embedder_id: str) -> int:
        with self._write(marks=False) as c:
            n = c.execute("DELETE FROM memory_vectors WHERE embedder <> ?", (embedder_id,)).rowcount
            if n:
                self._bump_generation(c)
        return n

    def vector_counts(self) -> dict[str, int]:
        rows = self._conn.execute(
            "SELECT embedder, count(*) FROM memory_vectors GROUP BY embedder"
        ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    @staticmethod
    def _existing_ids(c: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` that are stored memories."""
        ids = list(ids)
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            found.update(r[0] for r in c.execute(
                f"SELECT id FROM memories WHERE id IN ({', '.join('?' for _ in chunk)})", chunk))
        return found

    def _insert_links(self, c: sqlite3.Connection, links: Sequence[Link]) -> None:
        # A clear error, not the foreign key's, for a link to a memory that is not stored.
        ends = sorted({i for ln in links if ln.from_id != ln.to_id for i in (ln.from_id, ln.to_id)})
        found = self._existing_ids(c, ends)
        missing = [i for i in ends if i not in found]
        if missing:
            raise NotFoundError(f"no memory with id {missing[0]}")
        if any(ln.link_type is LinkType.EVOLUTION for ln in links):
            links = reject_cycles(links, lambda ids: self._supersedes_out(c, ids))
        c.executemany(
            f"INSERT INTO memory_links ({_LINK_COLUMNS}, relationship) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            # A person or agent confirming what the system inferred takes the link over.
            "ON CONFLICT (from_id, to_id, link_type, relationship) DO UPDATE SET "
            "confidence = max(memory_links.confidence, excluded.confidence), "
            "metadata = CASE WHEN memory_links.created_by = 'system' AND excluded.created_by "
            "<> 'system' THEN excluded.metadata ELSE memory_links.metadata END, "
            "created_by = CASE WHEN memory_links.created_by = 'system' "
            "THEN excluded.created_by ELSE memory_links.created_by END",
            [
                (
                    ln.id, ln.from_id, ln.to_id, ln.link_type.value, ln.confidence,
                    ln.created_by.value, json.dumps(ln.metadata, ensure_ascii=False),
                    ln.created_at, ln.relationship,
                )
                for ln in links
                if ln.from_id != ln.to_id
            ],
        )
        self._revalidate(c, [ln.to_id for ln in links if ln.link_type is LinkType.EVOLUTION])

    @staticmethod
    def _supersedes_out(c: sqlite3.Connection, ids: Sequence[str]
                        ) -> builtins.list[tuple[str, str]]:
        """(from, to) of the stored supersedes links out of ``ids``."""
        out: builtins.list[tuple[str, str]] = []
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            out += c.execute(
                f"SELECT l.from_id, l.to_id FROM memory_links l WHERE l.from_id IN "
                f"({', '.join('?' for _ in chunk)}) AND {_SUPERSEDES_SQL}", chunk).fetchall()
        return out

    @staticmethod
    def _superseded_by_links(c: sqlite3.Connection, where: str, params: Sequence[Any]
                             ) -> builtins.list[str]:
        """Targets of the evolution links matching ``where`` (over ``l``), before they change."""
        return [r[0] for r in c.execute(
            f"SELECT DISTINCT l.to_id FROM memory_links l WHERE l.link_type = 'evolution' "
            f"AND {where}", list(params))]

    def _revalidate(self, c: sqlite3.Connection, ids: Sequence[str]) -> None:
        """Recompute ``valid_to`` and ``superseded_by`` of ``ids`` from the supersedes links
        into them (``kenning.store.base.validity``); a memory whose values change is logged."""
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            marks = ", ".join("?" for _ in chunk)
            ends = validity(c.execute(
                "SELECT l.to_id, l.from_id, l.created_at, s.created_at FROM memory_links l "
                f"JOIN memories s ON s.id = l.from_id WHERE l.to_id IN ({marks}) "
                f"AND {_SUPERSEDES_SQL}", chunk))
            changed = [
                (*ends.get(mid, (None, None)), mid)
                for mid, valid_to, by in c.execute(
                    f"SELECT id, valid_to, superseded_by FROM memories WHERE id IN ({marks})",
                    chunk).fetchall()
                if (valid_to, by) != ends.get(mid, (None, None))
            ]
            if changed:
                c.executemany("UPDATE memories SET valid_to = ?, superseded_by = ? WHERE id = ?",
                              changed)
                self._log_changes(c, [row[2] for row in changed])

    def add_links(self, links: Sequence[Link]) -> builtins.list[Link]:
        if not links:
            return []
        links = guard.links(links)
        with self._write() as c:
            self._insert_links(c, links)
            out = []
            for ln in links:
                row = c.execute(
                    f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE from_id = ? AND to_id = ? "
                    "AND link_type = ? AND relationship = ?",
                    (ln.from_id, ln.to_id, ln.link_type.value, ln.relationship),
                ).fetchone()
                if row is not None:
                    out.append(_row_to_link(row))
        return out

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
        types_sql = ""
        type_params: list[str] = []
        if link_types:
            types_sql = f" AND link_type IN ({', '.join('?' for _ in link_types)})"
            type_params = [t.value for t in link_types]
        found: dict[str, Link] = {}
        ends = {"out": ("from_id",), "in": ("to_id",), "both": ("from_id", "to_id")}[direction]
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            marks = ", ".join("?" for _ in chunk)
            for end in ends:
                for row in self._conn.execute(
                    f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE {end} IN ({marks})"
                    f"{types_sql}",
                    [*chunk, *type_params],
                ):
                    found[row[0]] = _row_to_link(row)
        return sorted(found.values(), key=lambda ln: (ln.created_at, ln.id))

    def link_rows(self) -> builtins.list[tuple[str, str, str, float, int, str, str]]:
        return self._conn.execute(
            "SELECT from_id, to_id, link_type, confidence, created_at, relationship, created_by "
            "FROM memory_links"
        ).fetchall()

    def link_ids_for_pruning(self) -> builtins.list[tuple[str, str, float, int, str]]:
        return self._conn.execute(
            "SELECT id, link_type, confidence, created_at, created_by FROM memory_links "
            "WHERE created_by = 'system' AND link_type <> 'evolution'"
        ).fetchall()

    def node_rows(self, filters: Filters) -> builtins.list[tuple[str, str, str | None, int, float]]:
        where, params = _where(filters)
        return self._conn.execute(
            f"SELECT id, type, topic, created_at, confidence FROM memories{where} ORDER BY seq",
            params,
        ).fetchall()

    def delete_link(self, link_id: str) -> bool:
        return self.delete_links([link_id]) > 0

    def delete_links(self, link_ids: Sequence[str]) -> int:
        if not link_ids:
            return 0
        with self._write() as c:
            ids = list(dict.fromkeys(link_ids))
            superseded: builtins.list[str] = []
            for start in range(0, len(ids), 400):
                chunk = ids[start : start + 400]
                superseded += self._superseded_by_links(
                    c, f"l.id IN ({', '.join('?' for _ in chunk)})", chunk)
            gone = c.executemany(
                "DELETE FROM memory_links WHERE id = ?", [(i,) for i in link_ids]
            ).rowcount
            self._revalidate(c, superseded)
            return gone

    def update_link(self, link_id: str, *, confidence: float | None = None,
                    metadata: dict[str, Any] | None = None) -> Link:
        with self._write() as c:
            if confidence is not None:
                c.execute("UPDATE memory_links SET confidence = ? WHERE id = ?",
                          (confidence, link_id))
            if metadata is not None:
                c.execute("UPDATE memory_links SET metadata = ? WHERE id = ?",
                          (json.dumps(guard.metadata(metadata), ensure_ascii=False), link_id))
                self._revalidate(c, self._superseded_by_links(c, "l.id = ?", [link_id]))
            row = c.execute(
                f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE id = ?", (link_id,)
            ).fetchone()
        if row is None:
            raise NotFoundError(f"no link with id {link_id}")
        return _row_to_link(row)

    def rename_relationship(self, old: str, new: str, link_type: LinkType) -> int:
        new = guard.reason(new)
        with self._write() as c:
            rows = c.execute(
                "SELECT id, metadata FROM memory_links WHERE relationship = ?", (old,)
            ).fetchall()
            superseded = self._superseded_by_links(c, "l.relationship = ?", [old])
            moved = 0
            for link_id, meta_text in rows:
                meta = json.loads(meta_text)
                meta.setdefault("merged_from", old)
                meta["original_relationship"] = new
                cur = c.execute(
                    "UPDATE OR IGNORE memory_links SET relationship = ?, link_type = ?, "
                    "metadata = ? WHERE id = ?",
                    (new, link_type.value, json.dumps(meta, ensure_ascii=False), link_id),
                )
                if cur.rowcount == 0:  # the same link already exists under the new word
                    c.execute("DELETE FROM memory_links WHERE id = ?", (link_id,))
                moved += 1
            self._revalidate(c, superseded + self._superseded_by_links(
                c, "l.relationship = ?", [new]))
            return moved

    def link_summary(self, filters: Filters) -> dict[str, dict[str, int]]:
        where, params = _where(filters, "m")
        rows = self._conn.execute(
            "SELECT l.link_type, coalesce(json_extract(l.metadata, '$.kind'), 'reference'), "
            "l.created_by, count(*) FROM memory_links l JOIN memories m ON m.id = l.from_id"
            f"{where} GROUP BY 1, 2, 3",
            params,
        ).fetchall()
        out: dict[str, dict[str, int]] = {"by_core_type": {}, "by_kind": {}, "by_creator": {}}
        for link_type, kind, creator, n in rows:
            for key, value in (("by_core_type", link_type), ("by_kind", kind),
                               ("by_creator", creator)):
                out[key][value] = out[key].get(value, 0) + n
        return out

    def links_with_relationships(self, words: Sequence[str]) -> builtins.list[Link]:
        if not words:
            return []
        rows = self._conn.execute(
            f"SELECT {_LINK_COLUMNS} FROM memory_links WHERE relationship IN "
            f"({', '.join('?' for _ in words)}) ORDER BY created_at, id",
            list(words),
        ).fetchall()
        return [_row_to_link(r) for r in rows]

    def relationship_canonical(self, word: str) -> str | None:
        row = self._conn.execute(
            "SELECT json_extract(metadata, '$.canonical') FROM memory_links "
            "WHERE relationship = ? AND json_extract(metadata, '$.canonical') IS NOT NULL "
            "LIMIT 1",
            (word,),
        ).fetchone()
        return None if row is None else str(row[0])

    def relationship_stats(self) -> builtins.list[tuple[str, int, float, int, str]]:
        return self._conn.execute(
            "SELECT relationship, count(*), avg(confidence), max(created_at), max(link_type) "
            "FROM memory_links GROUP BY relationship ORDER BY count(*) DESC, relationship"
        ).fetchall()

    def put_graph_scores(self, rows: Sequence[tuple[str, float, float, int]],
                         computed_at: int) -> None:
        with self._write() as c:
            c.executemany(
                "INSERT OR REPLACE INTO graph_scores(memory_id, pagerank, pagerank_norm, "
                "community, computed_at) VALUES (?, ?, ?, ?, ?)",
                [(*r, computed_at) for r in rows],
            )

    def graph_scores(self, ids: Sequence[str] | None = None) -> dict[str, tuple[float, int]]:
        if ids is None:
            rows = self._conn.execute(
                "SELECT memory_id, pagerank_norm, community FROM graph_scores"
            ).fetchall()
        else:
            rows = []
            ids = list(ids)
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                rows += self._conn.execute(
                    "SELECT memory_id, pagerank_norm, community FROM graph_scores WHERE "
                    f"memory_id IN ({', '.join('?' for _ in chunk)})",
                    chunk,
                ).fetchall()
        return {r[0]: (float(r[1]), int(r[2])) for r in rows}

    def co_access_pairs(self, min_count: int) -> builtins.list[tuple[str, str, int, int]]:
        return self._conn.execute(
            "SELECT a, b, count, last_at FROM co_access WHERE count >= ? ORDER BY count DESC",
            (min_count,),
        ).fetchall()

    def co_access_rows(self, ids: Sequence[str]) -> builtins.list[tuple[str, str, int, int]]:
        ids = sorted(set(ids))
        out: list[tuple[str, str, int, int]] = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            out += [(a, b, int(n), int(at)) for a, b, n, at in self._read().execute(
                "SELECT a, b, count, last_at FROM co_access WHERE a IN "
                f"({', '.join('?' for _ in chunk)}) ORDER BY a, b", chunk)]
        return out

    def put_co_access(self, rows: Sequence[tuple[str, str, int, int]]) -> int:
        pairs = _ordered_pairs(rows)
        if not pairs:
            return 0
        with self._write(marks=False) as c:
            known = self._existing_ids(c, sorted({i for p in pairs for i in p[:2]}))
            kept = [p for p in pairs if p[0] in known and p[1] in known]
            c.executemany(
                "INSERT INTO co_access(a, b, count, last_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (a, b) DO UPDATE SET count = max(co_access.count, excluded.count), "
                "last_at = max(co_access.last_at, excluded.last_at)",
                kept,
            )
        return len(kept)

    def confidence_log_rows(self, ids: Sequence[str]) -> builtins.list[tuple[str, int, float, str]]:
        ids = sorted(set(ids))
        out: list[tuple[str, int, float, str]] = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            out += [(m, int(at), float(conf), r) for m, at, conf, r in self._read().execute(
                "SELECT memory_id, at_ms, confidence, reason FROM confidence_log WHERE memory_id "
                f"IN ({', '.join('?' for _ in chunk)}) ORDER BY memory_id, seq", chunk)]
        return out

    def put_confidence_log(self, rows: Sequence[tuple[str, int, float, str]]) -> int:
        if not rows:
            return 0
        with self._write(marks=False) as c:
            known = self._existing_ids(c, sorted({r[0] for r in rows}))
            kept = [(m, int(at), float(conf), guard.reason(str(r))) for m, at, conf, r in rows
                    if m in known]
            c.executemany(
                "INSERT INTO confidence_log(memory_id, at_ms, confidence, reason) "
                "VALUES (?, ?, ?, ?)",
                kept,
            )
        return len(kept)

    # -- code drift ----------------------------------------------------------------------------

    def set_anchors(self, anchors: Mapping[str, Sequence[Anchor]]) -> int:
        rows = {mid: list(items) for mid, items in anchors.items()}
        if not rows:
            return 0
        changed: list[str] = []
        with self._write(marks=False) as c:
            known = set()
            ids = list(rows)
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                known |= {r[0] for r in c.execute(
                    f"SELECT id FROM memories WHERE id IN ({', '.join('?' for _ in chunk)})",
                    chunk)}
            for mid in ids:
                if mid not in known:
                    continue
                c.execute("DELETE FROM memory_anchors WHERE memory_id = ?", (mid,))
                c.executemany(
                    "INSERT OR REPLACE INTO memory_anchors(memory_id, path, symbol, fingerprint, "
                    "commit_id, stat, state, reason, anchored_at, checked_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(mid, a.path, a.symbol, a.fingerprint, a.commit, a.stat, a.state,
                      a.reason, a.anchored_at, a.checked_at) for a in rows[mid]])
                drift, reason = drift_of(rows[mid])
                cur = c.execute(
                    "UPDATE memories SET drift = ?, drift_reason = ? WHERE id = ? AND "
                    "(drift IS NOT ? OR drift_reason IS NOT ?)",
                    (drift, reason, mid, drift, reason))
                if cur.rowcount:
                    changed.append(mid)
            if changed:
                self._log_changes(c, changed)
        if changed:
            mark_written(self._version_file)
        return len(changed)

    def anchors(
        self, *, project: str | None = None, paths: Sequence[str] | None = None,
        memory_ids: Sequence[str] | None = None,
    ) -> builtins.list[Anchor]:
        clauses: list[str] = []
        params: list[Any] = []
        if project is not None:
            clauses.append("m.project = ?")
            params.append(project)
        for column, values in (("a.path", paths), ("a.memory_id", memory_ids)):
            if values is not None:
                values = list(dict.fromkeys(values))
                if not values:
                    return []
                clauses.append(f"{column} IN (SELECT value FROM json_each(?))")
                params.append(json.dumps(values))
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        rows = self._read().execute(
            "SELECT a.memory_id, a.path, a.symbol, a.fingerprint, a.commit_id, a.stat, a.state, "
            "a.reason, a.anchored_at, a.checked_at FROM memory_anchors a "
            f"JOIN memories m ON m.id = a.memory_id{where} "
            "ORDER BY a.memory_id, a.path, a.symbol", params)
        return [Anchor(*r) for r in rows]

    def watermark(self) -> str:
        row = self._conn.execute(
            "SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'memories'), "
            "(SELECT value FROM meta WHERE key = 'generation'), "
            "(SELECT max(seq) FROM memory_changes)"
        ).fetchone()
        return f"{row[0] or 0}:{row[1]}:{row[2] or 0}"

    def get_meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._write(marks=False) as c:
            c.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def stats(self) -> dict[str, Any]:
        c = self._conn
        by_type = dict(c.execute("SELECT type, count(*) FROM memories GROUP BY type").fetchall())
        size = sum(
            p.stat().st_size
            for p in (self.path, Path(f"{self.path}-wal"))
            if p.exists()
        )
        return {
            "memories": sum(by_type.values()),
            "by_type": by_type,
            "links": c.execute("SELECT count(*) FROM memory_links").fetchone()[0],
            "link_bytes": self._table_bytes(("memory_links", "idx_links_from", "idx_links_to",
                                             "idx_links_type", "idx_links_confidence",
                                             "idx_links_relationship", "idx_links_created")),
            "vectors": self.vector_counts(),
            "redactions": int(self.get_meta("redactions") or 0),
            "size_bytes": size,
        }

    def _table_bytes(self, names: Sequence[str]) -> int:
        """Bytes used by these tables and indexes (dbstat when compiled in, else an estimate)."""
        try:
            row = self._conn.execute(
                f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({', '.join('?' for _ in names)})",
                list(names),
            ).fetchone()
            return int(row[0] or 0)
        except sqlite3.Error:
            row = self._conn.execute(
                "SELECT sum(length(id) + length(from_id) + length(to_id) + length(metadata) "
                "+ length(relationship) + 40) FROM memory_links"
            ).fetchone()
            return int(row[0] or 0) * 2

    def close(self) -> None:
        with self._lock, suppress(sqlite3.Error):
            for conn in self._reader_conns:
                conn.close()
            self._reader_conns.clear()
            self._conn.close()


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (BEGIN ... END;) whole."""
    statements: list[str] = []
    buf: list[str] = []
    in_trigger = False
    for line in script.strip().splitlines():
        buf.append(line)
        stripped = line.strip().upper()
        if re.match(r"CREATE TRIGGER", stripped):
            in_trigger = True
        if (in_trigger and stripped == "END;") or (not in_trigger and stripped.endswith(";")):
            statements.append("\n".join(buf).strip())
            buf, in_trigger = [], False
    if "".join(buf).strip():
        statements.append("\n".join(buf).strip())
    return statements
