"""The prompt hook's answer from a PostgreSQL store whose prompt index is out of date (this
machine wrote to it since the index was built): ``tsvector`` search, then the same scoring as
the index and the SQLite fallback. psycopg loads only on this path (about 0.1 s)."""

from __future__ import annotations

import os

from kenning.promptindex import inject
from kenning.promptindex.inject import CANDIDATES, MAX_TERMS, PROMPT_CHARS
from kenning.store.pgrank import POSTGRES_RANK as RANK
from kenning.words import query_terms

TYPE_CHECKING = False
if TYPE_CHECKING:  # the prompt hook never imports collections
    from collections.abc import Collection

TIMEOUT_MS = 1_000  # the server's limit for the search, inside the hook's budget
MATCHES = 5_000  # matches ranked at most (about 50 ms at a million memories): the budget holds


def rank(dsn: str, prompt: str, project: str, now_ms: int, k: int = 5,
         min_confidence: float = 0.0, seen: Collection[str] = ()) -> list[dict[str, object]]:
    """Top ``k`` memories of ``project`` (and user scope) for ``prompt`` in the organisation and
    workspace of ``$KENNING_ORGANISATION`` / ``$KENNING_WORKSPACE``, as ``context.rank``."""
    terms = [t for t in query_terms(prompt[:PROMPT_CHARS], MAX_TERMS) if len(t) > 1]
    if not terms:
        return []
    import psycopg

    query = " || ".join("plainto_tsquery('english', %s)" for _ in terms)
    with psycopg.connect(dsn, autocommit=True, connect_timeout=2) as conn:
        conn.execute(f"SET statement_timeout = {TIMEOUT_MS}")
        rows = conn.execute(
            "SELECT m.id, m.type, m.topic, m.summary, m.confidence, m.created_at, m.updated_at, "
            "m.last_accessed_at, m.outcome, h.s, g.pagerank_norm, m.valid_to, m.content, m.tags, "
            "m.drift, m.drift_reason "
            f"FROM (SELECT m.seq, {RANK} AS s FROM (SELECT m.seq, m.fts FROM memories m, "
            f"(SELECT {query} AS q) q WHERE m.fts @@ q.q AND m.organisation = %s AND "
            "m.workspace = %s AND (m.project = %s OR m.scope = 'user') LIMIT %s) m, "
            f"(SELECT {query} AS q) q ORDER BY s DESC, m.seq LIMIT %s) h "
            "JOIN memories m ON m.seq = h.seq LEFT JOIN graph_scores g ON g.memory_id = m.id",
            [*terms, os.environ.get("KENNING_ORGANISATION", ""),
             os.environ.get("KENNING_WORKSPACE", ""), project, MATCHES, *terms, CANDIDATES],
        ).fetchall()
    return inject.best_rows(inject.matching_rows(rows, terms), now_ms, k, min_confidence, seen)
