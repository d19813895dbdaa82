"""``Kenning``: the one facade. The CLI, hooks, MCP tools and web routes are thin layers over it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from kenning import validation as v
from kenning.embed import MINILM_ID, Embedder, default_embedder
from kenning.errors import NotFoundError, ValidationError
from kenning.ids import looks_like_id, new_id
from kenning.models import (
    BASE_CONFIDENCE,
    DEFAULT_CATEGORY,
    DEFAULT_CONFIDENCE,
    CreatedBy,
    Filters,
    Hit,
    Link,
    LinkType,
    Memory,
    MemoryType,
    OutcomeStatus,
    Scope,
)
from kenning.paths import current_project, default_db_path
from kenning.ranking import RankWeights, contenders, final_scores, fuse, intent_types
from kenning.redact import redact, redact_obj
from kenning.store.base import Store
from kenning.text import content_hash, embedding_text, make_summary
from kenning.times import now_ms, to_ms

if TYPE_CHECKING:
    import numpy as np

Mode = Literal["hybrid", "keyword", "vector"]
Progress = Callable[[int, int], None]
_DEFAULT = object()

# Expression-layer words for the explicit links the foundation stores (MAMA-ADR-001 §1).
RELATIONSHIP_CORE: dict[str, LinkType] = {
    "supersedes": LinkType.EVOLUTION,
    "refines": LinkType.EVOLUTION,
    "improves": LinkType.EVOLUTION,
    "implements": LinkType.IMPLEMENTATION,
    "outcome_of": LinkType.IMPLEMENTATION,
    "executes": LinkType.IMPLEMENTATION,
    "relates_to": LinkType.ASSOCIATION,
    "motivated_by": LinkType.ASSOCIATION,
    "inspired_by": LinkType.ASSOCIATION,
    "challenges": LinkType.ASSOCIATION,
    "depends_on": LinkType.ASSOCIATION,
    "temporal": LinkType.TEMPORAL,
}


class Kenning:
    """Memory for coding agents over one store.

    >>> with Kenning("/tmp/k.db") as k:
    ...     m = k.remember("Use JWT for auth", type="decision", topic="auth_strategy")
    ...     hits = k.recall("why JWT?")
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        project: str | None = None,
        embedder: Embedder | object | None = _DEFAULT,
        store: Store | None = None,
        clock: Callable[[], int] = now_ms,
        weights: RankWeights | None = None,
        max_content_chars: int = v.MAX_CONTENT_CHARS,
    ) -> None:
        if store is None:
            from kenning.store.sqlite import SQLiteStore

            store = SQLiteStore(path if path is not None else default_db_path())
        self.store: Store = store
        self.project = project if project is not None else current_project()
        self.embedder: Embedder | None = (
            default_embedder() if embedder is _DEFAULT else embedder  # type: ignore[assignment]
        )
        self.clock = clock
        self.weights = weights or RankWeights()
        self.max_content_chars = max_content_chars
        self.on_progress: Progress | None = None
        self._indexed_at: str | None = None
        self._executor: ThreadPoolExecutor | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.store.close()

    def _worker(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kenning")
        return self._executor

    def __enter__(self) -> Kenning:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------

    def _prepare(
        self,
        text: str,
        *,
        type: MemoryType | str = MemoryType.INSIGHT,
        topic: str | None = None,
        summary: str | None = None,
        category: str | None = None,
        tags: Iterable[str] | str = (),
        source: str | None = None,
        confidence: float | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: object = None,
        scope: Scope | str = Scope.PROJECT,
        agent: str | None = None,
    ) -> tuple[Memory, int]:
        """Validate, redact and build a Memory; returns it with the number of redactions."""
        now = self.clock()
        mtype = v.memory_type(type)
        body = v.content(text, self.max_content_chars)
        red = redact(body)
        red_summary = redact(v.summary(summary) or "")
        meta, meta_count = redact_obj(v.metadata(dict(metadata) if metadata else None))
        red_topic = redact(v.topic(topic) or "")
        red_source = redact(v.source(source) or "")
        mscope = v.scope(scope)
        created = now if created_at is None else to_ms(created_at, now, name="created_at")
        conf = (
            v.confidence(confidence)
            if confidence is not None
            else DEFAULT_CONFIDENCE.get(mtype, BASE_CONFIDENCE)
        )
        memory = Memory(
            id=new_id(max(0, created)),
            type=mtype,
            topic=red_topic.text or None,
            summary=red_summary.text or make_summary(red.text),
            content=red.text,
            category=v.category(category) if category else DEFAULT_CATEGORY[mtype],
            tags=v.tags(tags),
            source=red_source.text or None,
            confidence=conf,
            outcome=None,
            outcome_reason=None,
            project="" if mscope is Scope.USER else self.project,
            scope=mscope,
            agent=v.agent(agent),
            created_at=created,
            updated_at=now,
            last_accessed_at=None,
            access_count=0,
            content_hash=content_hash(red.text),
            metadata=meta,  # type: ignore[arg-type]
        )
        count = red.count + red_summary.count + meta_count + red_topic.count + red_source.count
        return memory, count

    def remember(self, text: str, **fields: Any) -> Memory:
        """Store one memory (secrets redacted first). Same text in the same project, scope and
        agent returns the stored memory with ``is_new=False`` instead of a duplicate."""
        return self.remember_many([{"text": text, **fields}])[0]

    def remember_many(self, items: Iterable[Mapping[str, Any]]) -> list[Memory]:
        """Store many memories in one transaction with one batched embedding pass.

        All items are validated before anything is written: one bad item writes nothing.
        """
        items = list(items)
        prepared: list[Memory] = []
        redactions = 0
        for n, item in enumerate(items):
            fields = dict(item)
            text = fields.pop("text", None)
            if text is None:
                raise ValidationError(f"item {n}: missing 'text'")
            try:
                memory, count = self._prepare(text, **fields)
            except (TypeError, ValidationError) as exc:
                if isinstance(exc, TypeError) and "argument" not in str(exc):
                    raise
                where = f"item {n}: " if len(items) > 1 else ""
                raise ValidationError(f"{where}{exc}") from exc
            prepared.append(memory)
            redactions += count
        if not prepared:
            return []
        vectors = self._embed([embedding_text(m.topic, m.summary, m.content) for m in prepared])
        return self.store.insert(
            prepared, vectors, self.embedder.id if self.embedder else None, redactions
        )

    def update(self, memory_id: str, **fields: Any) -> Memory:
        """Change a memory's fields (``text``/``content``, ``summary``, ``topic``, ``type``,
        ``category``, ``tags``, ``source``, ``confidence``, ``metadata``, ``scope``, ``agent``,
        ``outcome``, ``outcome_reason``). Content changes are re-hashed and re-embedded."""
        current = self.get(memory_id)
        changes: dict[str, Any] = {}
        redactions = 0
        if "text" in fields:
            fields["content"] = fields.pop("text")
        for key, value in fields.items():
            if key == "content":
                red = redact(v.content(value, self.max_content_chars))
                redactions += red.count
                changes["content"] = red.text
                changes["content_hash"] = content_hash(red.text)
                if "summary" not in fields and current.summary == make_summary(current.content):
                    changes["summary"] = make_summary(red.text)
            elif key == "summary":
                body = changes.get("content", current.content)
                red = redact(v.summary(value) or make_summary(body))
                redactions += red.count
                changes["summary"] = red.text
            elif key == "topic":
                red = redact(v.topic(value) or "")
                redactions += red.count
                changes["topic"] = red.text or None
            elif key == "type":
                changes["type"] = v.memory_type(value)
            elif key == "category":
                changes["category"] = v.category(value)
            elif key == "tags":
                changes["tags"] = v.tags(value)
            elif key == "source":
                red = redact(v.source(value) or "")
                redactions += red.count
                changes["source"] = red.text or None
            elif key == "confidence":
                changes["confidence"] = v.confidence(value)
            elif key == "metadata":
                meta, count = redact_obj(v.metadata(value))
                redactions += count
                changes["metadata"] = meta
            elif key == "scope":
                changes["scope"] = v.scope(value)
            elif key == "agent":
                changes["agent"] = v.agent(value)
            elif key == "outcome":
                changes["outcome"] = None if value is None else v.outcome(value)
            elif key == "outcome_reason":
                red = redact(v.source(value) or "") if value is not None else None
                redactions += red.count if red else 0
                changes["outcome_reason"] = red.text if red else None
            else:
                raise ValidationError(f"cannot update {key!r}")
        if not changes:
            return current
        changes["updated_at"] = self.clock()
        vector = None
        if {"content", "summary", "topic"} & changes.keys() and self.embedder is not None:
            merged = replace(current, **{k: changes[k] for k in ("content", "summary", "topic")
                                         if k in changes})
            vector = self._embed([embedding_text(merged.topic, merged.summary, merged.content)])
        return self.store.update(
            current.id,
            changes,
            None if vector is None else vector[0],
            self.embedder.id if self.embedder else None,
            redactions,
        )

    def outcome(
        self, memory_id: str, status: OutcomeStatus | str, reason: str | None = None
    ) -> Memory:
        """Record how a decision turned out: success, failed or partial, with a reason."""
        return self.update(memory_id, outcome=v.outcome(status), outcome_reason=reason)

    def forget(self, memory_id: str) -> Memory:
        """Delete a memory with its vectors and links; returns what was deleted."""
        memory = self.get(memory_id)
        self.store.delete(memory.id)
        return memory

    # -- reading -------------------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        """The memory with this id, or with this unique id prefix (at least 6 characters)."""
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise ValidationError("memory id is empty")
        key = memory_id.strip().upper()
        found = self.store.get_many([key]).get(key)
        if found is not None:
            return found
        if not looks_like_id(key) and len(key) >= 6:
            matches = self.store.resolve_prefix(key, limit=2)
            if len(matches) == 1:
                return self.store.get_many(matches)[matches[0]]
            if len(matches) > 1:
                raise ValidationError(f"id prefix {memory_id!r} is ambiguous; give more of it")
        raise NotFoundError(f"no memory with id {memory_id!r}")

    def _filters(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
        project: str | object | None = _DEFAULT,
    ) -> Filters:
        now = self.clock()
        if isinstance(types, str | MemoryType):
            types = [types]
        if isinstance(scope, str | Scope):
            scope = [scope]
        return Filters(
            project=self.project if project is _DEFAULT else project,  # type: ignore[arg-type]
            types=tuple(v.memory_type(t) for t in types) if types else None,
            topic=v.topic(topic),
            since=None if since is None else to_ms(since, now, name="since"),
            until=None if until is None else to_ms(until, now, name="until"),
            scopes=tuple(v.scope(s) for s in scope) if scope else None,
            agent=v.agent(agent),
        )

    def list(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
        limit: int | None = 50,
        offset: int = 0,
        newest_first: bool = True,
    ) -> list[Memory]:
        """Memories of this project (and the user's), newest first, filtered."""
        f = self._filters(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )
        if limit is not None:
            v.positive_int(limit, "limit", 100_000)
        return self.store.list(f, limit=limit, offset=offset, newest_first=newest_first)

    def count(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
    ) -> int:
        """How many memories match the filters."""
        f = self._filters(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )
        return self.store.count(f)

    def recall(
        self,
        query: str,
        *,
        k: int = 10,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
        explain: bool = False,
        mode: Mode = "hybrid",
        track: bool = True,
    ) -> list[Hit]:
        """Hybrid recall: keyword (BM25) and vector candidates fused by relative score, then
        weighed by confidence, recency and outcome. ``mode`` picks one side alone; ``track`` updates
        access statistics of the returned memories."""
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query is empty")
        v.positive_int(k, "k", 1000)
        if mode not in ("hybrid", "keyword", "vector"):
            raise ValidationError(f"unknown mode {mode!r}: use hybrid, keyword or vector")
        f = self._filters(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )
        pool = max(100, 5 * k)
        keyword: list[tuple[str, float]] = []
        vector: list[tuple[str, float]] = []
        want_keyword = mode != "vector" or self.embedder is None
        if mode != "keyword" and self.embedder is not None:
            self._ensure_index()
            # The keyword search runs while the model embeds the query (both release the GIL).
            pending = self._worker().submit(self.store.keyword_search, query, f, pool) \
                if want_keyword else None
            qvec = self.embedder.embed([query.strip()])[0]
            vector = self.store.vector_search(qvec, self.embedder.id, f, pool)
            keyword = pending.result() if pending else []
        elif want_keyword:
            keyword = self.store.keyword_search(query, f, pool)
        fused = fuse(keyword, vector, self.weights)
        head = contenders(fused, k, self.weights)
        fused = {mid: fused[mid] for mid in head}
        memories = self.store.get_many(head)
        now = self.clock()
        ranked = final_scores(fused, memories, now, self.weights, intent_types(query))[:k]
        hits = [Hit(memories[m], score, parts if explain else None) for m, score, parts in ranked]
        if track and hits:
            self.store.record_access([h.memory.id for h in hits], now)
        return hits

    # -- links ---------------------------------------------------------------------------------

    def link(
        self,
        from_id: str,
        to_id: str,
        relationship: str = "relates_to",
        *,
        confidence: float = 0.9,
        reason: str | None = None,
        created_by: CreatedBy | str = CreatedBy.USER,
        metadata: Mapping[str, Any] | None = None,
    ) -> Link:
        """Link two memories. Known relationship words map to their core type; any other word is
        kept as said (expression layer) and stored as an association."""
        a, b = self.get(from_id), self.get(to_id)
        if a.id == b.id:
            raise ValidationError("a memory cannot link to itself")
        words = " ".join(str(relationship).split()).lower().replace(" ", "_")
        if not words:
            raise ValidationError("relationship is empty")
        core = RELATIONSHIP_CORE.get(words)
        meta: dict[str, Any] = dict(v.metadata(dict(metadata) if metadata else None))
        meta["original_relationship"] = words
        meta["inference_confidence"] = 1.0 if core else 0.5
        if reason:
            meta["reason"] = redact(reason).text
        return self.store.add_link(
            Link(
                id=new_id(self.clock()),
                from_id=a.id,
                to_id=b.id,
                link_type=core or LinkType.ASSOCIATION,
                confidence=v.confidence(confidence),
                created_by=CreatedBy(created_by),
                metadata=meta,
                created_at=self.clock(),
            )
        )

    def links(self, memory_id: str) -> list[Link]:
        """Links into and out of a memory, oldest first."""
        return self.store.links_of(self.get(memory_id).id)

    # -- vectors -------------------------------------------------------------------------------

    def _embed(self, texts: Sequence[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        return self.embedder.embed(list(texts))

    def _ensure_index(self) -> None:
        """Embed memories that have no vector from the current embedder (written by a process
        without the model, or by another embedder): never mix vector spaces."""
        assert self.embedder is not None
        mark = self.store.watermark()
        if mark == self._indexed_at:
            return
        if self.store.count_missing_vectors(self.embedder.id):
            self.reindex(progress=self.on_progress)
            mark = self.store.watermark()
        self._indexed_at = mark

    def reindex(self, *, progress: Progress | None = None, batch: int = 256) -> int:
        """Embed every memory missing a vector from the current embedder, then drop vectors of
        other embedders. ``progress(done, total)`` is called after each batch."""
        if self.embedder is None:
            raise ValidationError("no embedding model is installed: nothing to re-index")
        total = self.store.count_missing_vectors(self.embedder.id)
        done = 0
        if progress:
            progress(0, total)
        while True:
            todo = self.store.missing_vectors(self.embedder.id, batch)
            if not todo:
                break
            vecs = self.embedder.embed([t for _, t in todo])
            self.store.put_vectors(self.embedder.id, [(mid, vecs[i]) for i, (mid, _) in
                                                      enumerate(todo)])
            done += len(todo)
            if progress:
                progress(done, max(total, done))
        self.store.drop_other_vectors(self.embedder.id)
        return done

    # -- status --------------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """What ``kenning doctor`` prints: where, what version, which embedder, how much."""
        from kenning.embed import EmbedderUnavailable, find_minilm
        from kenning.errorlog import log_path, recent_errors

        stats = self.store.stats()
        emb: dict[str, Any]
        if self.embedder is not None:
            emb = {"id": self.embedder.id, "dim": self.embedder.dim, "available": True}
        else:
            try:
                find_minilm()
                reason = "disabled (KENNING_EMBEDDER=none)"
            except EmbedderUnavailable as exc:
                reason = str(exc)
            emb = {"id": None, "available": False, "reason": reason,
                   "fallback": "keyword recall (FTS5 BM25)"}
        missing = (
            self.store.count_missing_vectors(self.embedder.id)
            if self.embedder is not None else None
        )
        return {
            "store": self.store.location,
            "engine": self.store.engine,
            "schema_version": self.store.schema_version(),
            "project": self.project,
            "embedder": emb,
            "memories": stats["memories"],
            "memories_by_type": stats["by_type"],
            "project_memories": self.store.count(Filters(project=self.project)),
            "links": stats["links"],
            "vectors": stats["vectors"],
            "vectors_missing": missing,
            "redactions": stats["redactions"],
            "size_bytes": stats["size_bytes"],
            "error_log": str(log_path()),
            "recent_errors": recent_errors(5),
            "default_model": MINILM_ID,
        }
