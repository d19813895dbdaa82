"""``Kenning``: the one facade. The CLI, hooks, MCP tools and web routes are thin layers over it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from kenning import validation as v
from kenning.embed import MINILM_ID, Embedder, default_embedder
from kenning.errors import NotFoundError, ValidationError
from kenning.graph.linking import (
    EXPLICIT_CONFIDENCE,
    EXPLICIT_PARAMS,
    FREE_CONFIDENCE,
    LinkSpec,
    auto_link_batch,
    inferred_evolution,
    make_link,
    pop_spec,
)
from kenning.graph.rules import LinkRules
from kenning.graph.traversal import (
    MAX_DEPTH,
    ChainEntry,
    Reached,
    evolution_chain,
    neighbourhood,
)
from kenning.graph.traversal import impact as traverse_impact
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
    iso,
)
from kenning.paths import current_project, default_db_path
from kenning.ranking import RankWeights, contenders, final_scores, fuse, intent_types
from kenning.redact import redact, redact_obj
from kenning.relations import (
    RelationshipResolver,
    normalise_word,
    promotion_candidates,
    table_lookup,
)
from kenning.store.base import Store
from kenning.text import content_hash, embedding_text, make_summary
from kenning.times import now_ms, to_ms

if TYPE_CHECKING:
    import numpy as np

Mode = Literal["hybrid", "keyword", "vector"]
Progress = Callable[[int, int], None]
CO_ACCESS_MIN = 3  # recalled together this often -> a co-accessed link
CONTEXT_MIN_CONFIDENCE = 0.3  # path confidence for a memory to count as connected to a context
_DEFAULT = object()


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
        link_rules: LinkRules | None = None,
        auto_link: bool = True,
        relations: RelationshipResolver | None = None,
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
        self.link_rules = link_rules or LinkRules()
        self.auto_link = auto_link
        self._relations = relations
        self._traversals: dict[tuple[Any, ...], Any] = {}
        self._traversal_mark: tuple[str | None, str] | None = None
        self._known_words: tuple[str | None, dict[str, str]] | None = None

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
        specs: list[LinkSpec] = []
        redactions = 0
        for n, item in enumerate(items):
            fields = dict(item)
            text = fields.pop("text", None)
            where = f"item {n}: " if len(items) > 1 else ""
            if text is None:
                raise ValidationError(f"{where}missing 'text'")
            try:
                spec = pop_spec(fields)
                if spec.reason:
                    spec.reason = redact(spec.reason).text
                    fields["metadata"] = {**(fields.get("metadata") or {}), "reason": spec.reason}
                memory, count = self._prepare(text, **fields)
            except (TypeError, ValidationError) as exc:
                if isinstance(exc, TypeError) and "argument" not in str(exc):
                    raise
                raise ValidationError(f"{where}{exc}") from exc
            prepared.append(memory)
            specs.append(spec)
            redactions += count
        if not prepared:
            return []
        now = self.clock()
        links = self._explicit_links(prepared, specs, now)
        vectors = self._embed([embedding_text(m.topic, m.summary, m.content) for m in prepared])
        embedder_id = self.embedder.id if self.embedder else None
        if self.auto_link:
            links += inferred_evolution(self.store, self.project, prepared, specs, vectors,
                                        embedder_id, now, self._embed)
            lineage = frozenset(ln.from_id for ln in links
                                if ln.link_type is LinkType.EVOLUTION)
            links += auto_link_batch(self.store, self.project, prepared, vectors, embedder_id,
                                     self.link_rules, now, lineage)
        return self.store.insert(prepared, vectors, embedder_id, redactions, links)

    def _explicit_links(
        self, prepared: Sequence[Memory], specs: Sequence[LinkSpec], now: int
    ) -> list[Link]:
        """Links named at remember time; every target must exist (else nothing is written)."""
        out: list[Link] = []
        for m, spec in zip(prepared, specs, strict=True):
            for target, rel_word, why, tags in spec.explicit:
                target_id = self.get(target).id
                # Store words matter only when the table does not know the word.
                known = {} if table_lookup(rel_word) else self._known_relationships()
                rel = self.relations.resolve(rel_word, known)
                conf = EXPLICIT_CONFIDENCE if rel_word in EXPLICIT_PARAMS else FREE_CONFIDENCE
                created_by = CreatedBy.USER if rel_word in EXPLICIT_PARAMS else CreatedBy.LLM
                out.append(make_link(
                    m.id, target_id, rel, confidence=conf, created_by=created_by, now_ms=now,
                    reason=redact(why).text if why else None, tags=tags,
                ))
        return out

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
                # User-scope memories belong to no project; others to this one.
                changes["project"] = "" if changes["scope"] is Scope.USER else (
                    current.project or self.project
                )
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
    ) -> Filters:
        now = self.clock()
        if isinstance(types, str | MemoryType):
            types = [types]
        if isinstance(scope, str | Scope):
            scope = [scope]
        return Filters(
            project=self.project,
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
        context: str | None = None,
    ) -> list[Hit]:
        """Hybrid recall: keyword (BM25) and vector candidates fused by relative score, then
        weighed by confidence, recency, outcome and (once consolidated) PageRank. ``context``
        names a memory whose graph neighbours are boosted (contextual search); ``mode`` picks
        one side alone; ``track`` updates access statistics of the returned memories."""
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
        near = None
        if context is not None:
            anchor = self.get(context)
            near = {mid: r.confidence for mid, r in
                    self._neighbourhood(anchor.id, 2, CONTEXT_MIN_CONFIDENCE).items()}
        use_graph = self.store.get_meta("graph_computed_at") is not None
        head = contenders(fused, k, self.weights, graph=use_graph, context=near is not None)
        fused = {mid: fused[mid] for mid in head}
        memories = self.store.get_many(head)
        pagerank = None
        if use_graph:
            pagerank = {mid: pr for mid, (pr, _) in self.store.graph_scores(head).items()}
        superseded = frozenset(
            ln.to_id for ln in self.store.links_for(head, link_types=[LinkType.EVOLUTION],
                                                    direction="in")
            if ln.metadata.get("canonical", ln.relationship) == "supersedes"
        )
        now = self.clock()
        ranked = final_scores(fused, memories, now, self.weights, intent_types(query),
                              pagerank=pagerank, context=near, superseded=superseded)[:k]
        hits = [Hit(memories[m], score, parts if explain else None) for m, score, parts in ranked]
        if track and hits:
            self.store.record_access([h.memory.id for h in hits], now)
        return hits

    # -- links ---------------------------------------------------------------------------------

    @property
    def relations(self) -> RelationshipResolver:
        """The relationship-word resolver (its multilingual model loads only for unknown words)."""
        if self._relations is None:
            self._relations = RelationshipResolver()
        return self._relations

    def _known_relationships(self) -> dict[str, str]:
        """Relationship words already in use, with their core types (cached until links
        change: the scan is a GROUP BY over every link)."""
        mark = self.store.get_meta("link_generation")
        if self._known_words is None or self._known_words[0] != mark:
            self._known_words = (mark, {row[0]: row[4] for row in
                                        self.store.relationship_stats()})
        return self._known_words[1]

    def link(
        self,
        from_id: str,
        to_id: str,
        relationship: str = "relates_to",
        *,
        confidence: float | None = None,
        reason: str | None = None,
        tags: Sequence[str] = (),
        created_by: CreatedBy | str = CreatedBy.USER,
        metadata: Mapping[str, Any] | None = None,
    ) -> Link:
        """Link two memories with any relationship words, in any language. Known words and
        their synonyms map to a canonical relation and core type; the words as said are kept."""
        a, b = self.get(from_id), self.get(to_id)
        if a.id == b.id:
            raise ValidationError("a memory cannot link to itself")
        if not isinstance(relationship, str) or not relationship.strip():
            raise ValidationError("relationship is empty")
        known = {} if table_lookup(relationship) else self._known_relationships()
        rel = self.relations.resolve(relationship, known)
        default = EXPLICIT_CONFIDENCE if rel.via == "table" else FREE_CONFIDENCE
        return self.store.add_link(make_link(
            a.id, b.id, rel,
            confidence=v.confidence(confidence if confidence is not None else default),
            created_by=CreatedBy(created_by), now_ms=self.clock(),
            reason=redact(reason).text if reason else None, tags=v.tags(tags),
            extra=v.metadata(dict(metadata) if metadata else None),
        ))

    def links(self, memory_id: str) -> list[Link]:
        """Links into and out of a memory, oldest first."""
        return self.store.links_of(self.get(memory_id).id)

    def unlink(self, link_id: str) -> bool:
        """Delete one link (by its id)."""
        return self.store.delete_link(link_id)

    # -- graph: traversal ----------------------------------------------------------------------

    def _cached(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """Traversal results, dropped whenever a memory or link changes (MAMA §10 cache)."""
        mark = (self.store.get_meta("link_generation"), self.store.watermark())
        if mark != self._traversal_mark:
            self._traversals.clear()
            self._traversal_mark = mark
        if key not in self._traversals:
            if len(self._traversals) >= 128:
                self._traversals.pop(next(iter(self._traversals)))
            self._traversals[key] = compute()
        return self._traversals[key]

    def why(self, topic: str) -> list[ChainEntry]:
        """"Why did we decide X?": the evolution chain of a topic (or of a memory's topic when
        given an id), newest first, with outcomes and implementations."""
        key = v.topic(topic)
        if not key:
            raise ValidationError("topic is empty")
        chain = self._cached(("why", key), lambda: evolution_chain(self.store, self.project, key))
        if chain or len(key) < 6 or " " in key:
            return chain
        try:
            memory = self.get(key)
        except (NotFoundError, ValidationError):
            return chain
        return self.why(memory.topic) if memory.topic else []

    def impact(self, memory_id: str, *, window: object = "7d", depth: int = 5
               ) -> list[tuple[Memory, Reached]]:
        """"What happened after X?": later memories reached through implementation, evolution
        and temporal links (temporal ones only within ``window`` of X)."""
        start = self.get(memory_id)
        now = self.clock()
        span = now - to_ms(window, now, name="window")
        v.positive_int(depth, "depth", MAX_DEPTH)
        return self._cached(("impact", start.id, span, depth), lambda: traverse_impact(
            self.store, start.id, now_ms=now, window_ms=span, max_depth=depth))

    def related(self, memory_id: str, *, depth: int = 2, min_confidence: float = 0.3
                ) -> list[tuple[Memory, Reached]]:
        """Memories within ``depth`` links of this one, most confidently connected first."""
        start = self.get(memory_id)
        v.positive_int(depth, "depth", MAX_DEPTH)
        reached = self._neighbourhood(start.id, depth, v.confidence(min_confidence))
        memories = self.store.get_many(list(reached))
        ordered = sorted(reached.values(), key=lambda r: (-r.confidence, r.depth, r.memory_id))
        return [(memories[r.memory_id], r) for r in ordered if r.memory_id in memories]

    def _neighbourhood(self, memory_id: str, depth: int, min_confidence: float
                       ) -> dict[str, Reached]:
        now = self.clock()
        return self._cached(("near", memory_id, depth, min_confidence), lambda: neighbourhood(
            self.store, [memory_id], now_ms=now, max_depth=depth, min_confidence=min_confidence))

    # -- graph: structure ----------------------------------------------------------------------

    def consolidate(self) -> dict[str, Any]:
        """Maintain the graph: co-accessed links from recall statistics, prune weak automatic
        links, then PageRank and communities, stored for recall and hooks to read."""
        from kenning.graph.decay import decayed_confidence
        from kenning.graph.structure import build as build_graph
        from kenning.graph.structure import ranking_structure

        timings: dict[str, float] = {}
        now = self.clock()
        t = time.perf_counter()
        co_links = [
            Link(new_id(now), a, b, LinkType.ASSOCIATION, min(0.9, 0.4 + 0.1 * count),
                 CreatedBy.SYSTEM, {"original_relationship": "co_accessed", "kind": "co-accessed",
                                    "reason": f"recalled together {count} times"}, now)
            for a, b, count, _ in self.store.co_access_pairs(CO_ACCESS_MIN)
        ]
        self.store.add_links(co_links)
        timings["co_access_ms"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        weak = [
            link_id for link_id, ltype, conf, created, by in self.store.link_ids_for_pruning()
            if by == CreatedBy.SYSTEM.value
            and decayed_confidence(conf, ltype, created, now) < self.link_rules.prune_below
        ]
        pruned = self.store.delete_links(weak)
        timings["prune_ms"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        nodes = self.store.node_rows(Filters(project=self.project))
        graph = build_graph(nodes, self.store.link_rows(), now)
        timings["build_ms"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        pr, pr_norm, labels = ranking_structure(graph)
        timings["rank_ms"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        self.store.put_graph_scores(
            [(mid, float(pr[i]), float(pr_norm[i]), int(labels[i]))
             for i, mid in enumerate(graph.ids)],
            now,
        )
        self.store.set_meta("graph_computed_at", str(now))
        timings["store_ms"] = (time.perf_counter() - t) * 1000
        return {
            "memories": graph.n,
            "links": len(graph.src),
            "co_accessed_links": len(co_links),
            "pruned_links": pruned,
            "communities": int(labels.max()) + 1 if graph.n else 0,
            "timings_ms": {k: round(x, 2) for k, x in timings.items()},
        }

    def graph_stats(self) -> dict[str, Any]:
        """Sizes of the graph: links by core type, by edge kind and by creator."""
        f = Filters(project=self.project)
        memories = self.store.count(f)
        summary = self.store.link_summary(f)
        total = sum(summary["by_core_type"].values())
        scores = self.store.graph_scores()
        computed = self.store.get_meta("graph_computed_at")
        return {
            "memories": memories,
            "links": total,
            "links_per_memory": round(total / memories, 3) if memories else 0.0,
            "average_degree": round(2 * total / memories, 3) if memories else 0.0,
            **summary,
            "communities": len({c for _, c in scores.values()}),
            "graph_computed_at": iso(int(computed)) if computed else None,
        }

    def top(self, k: int = 10) -> list[tuple[Memory, float, int]]:
        """The most central memories by stored PageRank: (memory, normalised rank, community)."""
        v.positive_int(k, "k", 1000)
        ranked = sorted(self.store.graph_scores().items(), key=lambda kv: (-kv[1][0], kv[0]))
        out: list[tuple[Memory, float, int]] = []
        for start in range(0, len(ranked), 4 * k):
            chunk = ranked[start : start + 4 * k]
            memories = self.store.get_many([mid for mid, _ in chunk])
            for mid, (pr, com) in chunk:
                m = memories.get(mid)
                if m is not None and m.project in (self.project, ""):
                    out.append((m, pr, com))
            if len(out) >= k:
                break
        return out[:k]

    def communities(self, *, limit: int = 20, sample: int = 3) -> list[dict[str, Any]]:
        """Communities found by label propagation, largest first, with their central members."""
        scores = self.store.graph_scores()
        groups: dict[int, list[tuple[str, float]]] = {}
        for mid, (pr, com) in scores.items():
            groups.setdefault(com, []).append((mid, pr))
        ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:limit]
        heads = {c: sorted(members, key=lambda t: -t[1])[:sample] for c, members in ordered}
        memories = self.store.get_many([mid for ms in heads.values() for mid, _ in ms])
        out = []
        for com, members in ordered:
            topics: dict[str, int] = {}
            for m in (memories.get(mid) for mid, _ in heads[com]):
                if m and m.topic:
                    topics[m.topic] = topics.get(m.topic, 0) + 1
            out.append({
                "community": com,
                "size": len(members),
                "topics": sorted(topics, key=lambda t: -topics[t]),
                "central": [memories[mid].to_dict() for mid, _ in heads[com] if mid in memories],
            })
        return out

    def health(self) -> dict[str, Any]:
        """Graph health (MAMA §9): components, isolated memories, orphaned relationship words,
        link storage share and recommendations (merge synonyms, archive orphans)."""
        from kenning.graph.health import graph_health
        from kenning.graph.structure import build as build_graph

        now = self.clock()
        nodes = self.store.node_rows(Filters(project=self.project))
        graph = build_graph(nodes, self.store.link_rows(), now)
        stats = self.store.relationship_stats()
        synonyms = {}
        for word, *_ in stats:
            # The table first; a word it lacks uses the canonical recorded when it was linked.
            canonical = table_lookup(word) or self.store.relationship_canonical(word)
            if canonical and canonical != word:
                synonyms[word] = canonical
        store_stats = self.store.stats()
        report = graph_health(
            graph.n, graph.src, graph.dst, relationships=[row[:4] for row in stats],
            link_bytes=store_stats["link_bytes"], db_bytes=max(store_stats["size_bytes"], 1),
            now_ms=now, synonyms=synonyms,
        )
        out = report.to_dict()
        out["promotion_candidates"] = [
            {"relationship": w, "usage": u, "avg_confidence": round(c, 3)}
            for w, u, c in promotion_candidates([(w, u, c) for w, u, c, *_ in stats])
        ]
        return out

    def links_by_relationship(self, relationship: str) -> list[Link]:
        """Links said with these words or any synonym of them, in any language (MAMA §9
        fuzzy query expansion): "motivated by" also finds "inspired_by" and "영감을_받은"."""
        words = self.relations.expand_query(relationship, self._known_relationships())
        return self.store.links_with_relationships(sorted(words))

    def merge_relationship(self, word: str, into: str) -> int:
        """Act on a health recommendation: file every link said with ``word`` under ``into``."""
        old, new = normalise_word(word), normalise_word(into)
        if not old or not new or old == new:
            raise ValidationError("give two different relationship words")
        rel = self.relations.resolve(new, self._known_relationships())
        return self.store.rename_relationship(old, new, LinkType(rel.core_type))

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
