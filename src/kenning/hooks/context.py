"""The memories worth putting in front of the model for one prompt, found inside the prompt
hook's ~5 ms: FTS5 BM25 over the store (no model loads in a fresh process), weighed by the same
factors as recall (decayed confidence, recency, outcome, PageRank computed at consolidation),
superseded memories left out, rendered as compact markdown within a character budget."""

from __future__ import annotations

from kenning.promptindex import inject
from kenning.promptindex.inject import (
    CANDIDATES,
    COMMON_FRACTION,
    COMMON_FROM,
    MAX_TERMS,
    PROMPT_CHARS,
)
from kenning.words import query_terms

TYPE_CHECKING = False
if TYPE_CHECKING:  # the prompt hook never imports collections
    from collections.abc import Collection
    from sqlite3 import Connection

try:  # the C module alone: the sqlite3 package adds datetime and friends (~1.5 ms)
    import _sqlite3 as sqlite
except ImportError:  # pragma: no cover - interpreters without the split module
    import sqlite3 as sqlite  # type: ignore[no-redef]


_BM25 = "bm25(memories_fts, 2.0, 1.5, 1.0, 1.0)"  # as kenning.store.sqlite: topic, summary first


def connect(path: str, busy_ms: int = 200) -> Connection:
    """A read-only connection that never creates a store and never waits long for a lock."""
    conn = sqlite.connect(f"file:{path}?mode=ro", uri=True, timeout=busy_ms / 1000)
    conn.execute("PRAGMA query_only = ON")
    return conn


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _selective(conn: Connection, terms: list[str]) -> list[str]:
    """Drop very common terms in large stores (they match most rows and carry no topic)."""
    row = conn.execute(
        "SELECT seq FROM sqlite_sequence WHERE name = 'memories'"
    ).fetchone()
    total = row[0] if row else 0
    if total < COMMON_FROM or len(terms) < 2:
        return terms
    kept = []
    for t in terms:
        df = conn.execute(
            "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", (_quote(t),)
        ).fetchone()[0]
        if df <= COMMON_FRACTION * total:
            kept.append(t)
    return kept


def rank(conn: Connection, prompt: str, project: str, now_ms: int, k: int = 5,
         min_confidence: float = 0.0, seen: Collection[str] = ()) -> list[dict[str, object]]:
    """Top ``k`` memories of ``project`` (and user scope) for ``prompt``, best first, each a dict
    with id, type, topic, summary, confidence, outcome, score and its parts."""
    asked = [t for t in query_terms(prompt[:PROMPT_CHARS], MAX_TERMS) if len(t) > 1]
    if not asked:
        return []
    terms = _selective(conn, asked)
    if not terms:
        return []
    rows = conn.execute(
        f"SELECT m.id, m.type, m.topic, m.summary, m.confidence, m.created_at, m.updated_at, "
        f"m.last_accessed_at, m.outcome, h.s, "
        f"(SELECT pagerank_norm FROM graph_scores g WHERE g.memory_id = m.id), m.valid_to, "
        f"m.content, m.tags, m.drift, m.drift_reason "
        f"FROM (SELECT rowid AS r, {_BM25} AS s FROM memories_fts WHERE memories_fts MATCH ? "
        f"ORDER BY s LIMIT ?) h JOIN memories m ON m.seq = h.r "
        f"WHERE (m.project = ? OR m.scope = 'user')",
        (" OR ".join(_quote(t) for t in terms), CANDIDATES, project),
    ).fetchall()
    kept = inject.matching_rows(rows, asked)
    # BM25 here is lower-is-better: negated, it is a keyword score like the other paths'.
    return inject.best_rows([(*r[:9], -r[9], *r[10:]) for r in kept], now_ms, k, min_confidence,
                            seen)
