"""``Kenning``: the one facade. The CLI, hooks, MCP tools and web routes are thin layers over it."""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from kenning import learning
from kenning import validation as v
from kenning.embed import MINILM_ID, Embedder, default_embedder
from kenning.errors import NotFoundError, ValidationError
from kenning.extract.service import ExtractionService
from kenning.findings import FindingsService
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
from kenning.graph.service import GraphService
from kenning.graph.traversal import ChainEntry, Reached
from kenning.ids import looks_like_id, new_id
from kenning.insights import InsightService
from kenning.lifecycle import SessionService
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
    SessionEvent,
    iso,
)
from kenning.paths import current_project, default_db_path
from kenning.ranking import (
    RankWeights,
    contenders,
    final_scores,
    fuse,
    intent_types,
)
from kenning.redact import redact, redact_obj
from kenning.relations import RelationshipResolver, table_lookup
from kenning.sessions import Trajectory
from kenning.store.base import Store
from kenning.text import content_hash, embedding_text, make_summary
from kenning.times import now_ms, to_ms

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from kenning.automemory.bridge import Target
    from kenning.automemory.options import AutoMemoryOptions
    from kenning.lifecycle import SessionReport

Mode = Literal["hybrid", "keyword", "vector"]
Progress = Callable[[int, int], None]
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
            from kenning.store.engines import open_store

            store = open_store(path if path is not None else default_db_path())
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
        """Finish background work and close the store (also on leaving a ``with`` block)."""
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
                reason = redact(v.source(value) or "") if value is not None else None
                redactions += reason.count if reason else 0
                changes["outcome_reason"] = reason.text if reason else None
            else:
                raise ValidationError(f"cannot update {key!r}")
        if not changes:
            return current
        changes["updated_at"] = self.clock()
        # Moving updated_at restarts decay from here: store the confidence as of now.
        changes.setdefault("confidence", current.confidence)
        vector = None
        if {"content", "summary", "topic"} & changes.keys() and self.embedder is not None:
            merged = replace(current, **{k: changes[k] for k in ("content", "summary", "topic")
                                         if k in changes})
            vector = self._embed([embedding_text(merged.topic, merged.summary, merged.content)])
        updated = self.store.update(
            current.id,
            changes,
            None if vector is None else vector[0],
            self.embedder.id if self.embedder else None,
            redactions,
        )
        if "confidence" in fields:
            self.store.adjust_confidence([(updated.id, 0.0, "set")], changes["updated_at"])
        return updated

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
            return self._live(found)
        if not looks_like_id(key) and len(key) >= 6:
            matches = self.store.resolve_prefix(key, limit=2)
            if len(matches) == 1:
                return self._live(self.store.get_many(matches)[matches[0]])
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
        now = self.clock()
        return [self._live(m, now) for m in
                self.store.list(f, limit=limit, offset=offset, newest_first=newest_first)]

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
    ) -> builtins.list[Hit]:
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
        now = self.clock()
        memories = {mid: self._live(m, now) for mid, m in self.store.get_many(head).items()}
        pagerank = None
        if use_graph:
            pagerank = {mid: pr for mid, (pr, _) in self.store.graph_scores(head).items()}
        superseded = frozenset(
            ln.to_id for ln in self.store.links_for(head, link_types=[LinkType.EVOLUTION],
                                                    direction="in")
            if ln.metadata.get("canonical", ln.relationship) == "supersedes"
        )
        ranked = final_scores(fused, memories, now, self.weights, intent_types(query),
                              pagerank=pagerank, context=near, superseded=superseded)[:k]
        hits = [Hit(memories[m], score, parts if explain else None) for m, score, parts in ranked]
        if track and hits:
            self.store.record_access([h.memory.id for h in hits], now)
        return hits

    # -- learning and sessions: live confidence, feedback, session trajectories ----------------

    def _live(self, m: Memory, now: int | None = None) -> Memory:
        """``m`` with its confidence as of now: stored values decay from their last touch."""
        conf = learning.decayed(
            m.confidence, learning.anchor_ms(m.created_at, m.updated_at, m.last_accessed_at),
            self.clock() if now is None else now,
        )
        return m if conf == m.confidence else replace(m, confidence=conf)

    def _sessions(self) -> SessionService:
        """The session service over this facade's current store, project, clock and the
        operations it composes (built per call, so later changes to them are seen)."""
        return SessionService(store=self.store, project=self.project, clock=self.clock,
                              get=self.get, live=self._live, remember=self.remember,
                              record_subagent_stop=self.record_subagent_stop)

    def feedback(self, memory_id: str, delta: float, reason: str) -> Memory:
        """Raise or lower a memory's confidence by ``delta`` (after decay) for ``reason``."""
        return self._sessions().feedback(memory_id, delta, reason)

    def confidence_history(self, memory_id: str, limit: int = 200) -> builtins.list[dict[str, Any]]:
        """How a memory's confidence changed and why, oldest first (``at`` is ISO time)."""
        return self._sessions().confidence_history(memory_id, limit)

    def journal_dir(self) -> str:
        """Where hooks append this store's session events (beside a SQLite file)."""
        return self._sessions().journal_dir()

    def record_events(
        self, events: Sequence[SessionEvent | Mapping[str, Any]]
    ) -> builtins.list[str]:
        """Store session events; injections among the new ones count as accesses of the
        injected memories (+0.03 confidence each). Returns the ids that were new."""
        return self._sessions().record_events(events)

    def ingest_journal(self) -> dict[str, int]:
        """Move what hooks appended to the journal into the store (idempotent; a journal that
        could not be ingested stays for the next healthy run). Pending memories hooks could not
        store are remembered now."""
        return self._sessions().ingest_journal()

    def session_trajectories(self, session_id: str) -> dict[str, Trajectory]:
        """Each memory's trajectory in a session: begun when recorded or injected, with the
        injections and tool outcomes that followed."""
        return self._sessions().session_trajectories(session_id)

    def learn_from_session(self, session_id: str) -> dict[str, Any]:
        """Complete and judge a session's trajectories once: a failing command after a memory
        was injected lowers it, a passing test raises it (``kenning.learning.judge``)."""
        return self._sessions().learn_from_session(session_id)

    def learn_from_abandoned_sessions(self, idle_ms: int = 3_600_000) -> builtins.list[str]:
        """Judge sessions that injected memories but never reached SessionEnd (a crash, a
        killed terminal) once they have been idle for ``idle_ms``. Returns their ids."""
        return self._sessions().learn_from_abandoned_sessions(idle_ms)

    def injections(self, limit: int = 50) -> builtins.list[dict[str, Any]]:
        """What the prompt hook put in front of the model recently, and why, newest first."""
        return self._sessions().injections(limit)

    def briefing(self, k: int = 5, max_chars: int = 2400) -> str:
        """A short session-start briefing: the latest checkpoint, then the project's most
        central and trusted memories (PageRank, confidence), as markdown with ids."""
        return self._sessions().briefing(k, max_chars)

    def start_session(self, project_root: Path | None = None,
                      options: AutoMemoryOptions | None = None, *, briefing_k: int = 5,
                      max_chars: int = 2400, log_as: str = "session start") -> SessionReport:
        """Everything a session start does (``kenning.lifecycle.start``): ingest the journal,
        judge abandoned sessions, import changed auto-memory files of ``project_root``, bring
        the prompt index up to date; the report carries the briefing."""
        from kenning import lifecycle

        return lifecycle.start(self, project_root, self._auto_options(options),
                               briefing_k=briefing_k, max_chars=max_chars, log_as=log_as)

    def compact_session(self, session_id: str, note: str | None = None) -> Memory:
        """Before a conversation is compacted: ingest the journal and save a checkpoint."""
        from kenning import lifecycle

        return lifecycle.compact(self, session_id, note)

    def end_session(self, session_id: str, *, transcript: Path | None = None,
                    project_root: Path | None = None, options: AutoMemoryOptions | None = None,
                    log_as: str = "session end") -> SessionReport:
        """Everything a session end does (``kenning.lifecycle.end``): ingest, learn, extract
        from ``transcript``, consolidate, sync auto memory, rebuild the prompt index. A failing
        step is logged and reported; the later steps still run."""
        from kenning import lifecycle

        return lifecycle.end(self, session_id, transcript, project_root,
                             self._auto_options(options), log_as=log_as)

    def checkpoint(self, session_id: str, note: str | None = None) -> Memory:
        """Save where a session stands (before compaction): prompts, files edited, commands and
        their outcomes so far, plus ``note``."""
        return self._sessions().checkpoint(session_id, note)

    def build_prompt_index(self, *, force: bool = True) -> dict[str, Any]:
        """Write the prompt index the per-prompt hook reads (``kenning.promptindex``): every
        memory with its PageRank and supersession, as of now. Atomic; without ``force``, a
        SQLite store's index that is still current is kept."""
        return self._sessions().build_prompt_index(force=force)

    # -- links ---------------------------------------------------------------------------------

    def _graph(self) -> GraphService:
        """The graph service over this facade's current store, project, clock and rules; the
        caches it reads and replaces (traversals, words in use, the resolver) stay here."""
        return GraphService(
            store=self.store, project=self.project, clock=self.clock,
            link_rules=self.link_rules, get=self.get, traversals=self._traversals,
            traversal_mark=lambda: self._traversal_mark,
            set_traversal_mark=lambda mark: setattr(self, "_traversal_mark", mark),
            known_words=lambda: self._known_words,
            set_known_words=lambda words: setattr(self, "_known_words", words),
            resolver=lambda: self._relations,
            set_resolver=lambda resolver: setattr(self, "_relations", resolver),
        )

    @property
    def relations(self) -> RelationshipResolver:
        """The relationship-word resolver (its multilingual model loads only for unknown words)."""
        return self._graph().relations()

    def _known_relationships(self) -> dict[str, str]:
        """Relationship words already in use, with their core types (cached until links
        change: the scan is a GROUP BY over every link)."""
        return self._graph().known_relationships()

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
        return self._graph().link(from_id, to_id, relationship, confidence=confidence,
                                  reason=reason, tags=tags, created_by=created_by,
                                  metadata=metadata)

    def links(self, memory_id: str) -> builtins.list[Link]:
        """Links into and out of a memory, oldest first."""
        return self._graph().links(memory_id)

    def unlink(self, link_id: str) -> bool:
        """Delete one link (by its id)."""
        return self._graph().unlink(link_id)

    # -- graph: traversal ----------------------------------------------------------------------

    def why(self, topic: str) -> builtins.list[ChainEntry]:
        """"Why did we decide X?": the evolution chain of a topic (or of a memory's topic when
        given an id), newest first, with outcomes and implementations."""
        return self._graph().why(topic)

    def impact(self, memory_id: str, *, window: object = "7d", depth: int = 5
               ) -> builtins.list[tuple[Memory, Reached]]:
        """"What happened after X?": later memories reached through implementation, evolution
        and temporal links (temporal ones only within ``window`` of X)."""
        return self._graph().impact(memory_id, window=window, depth=depth)

    def related(self, memory_id: str, *, depth: int = 2, min_confidence: float = 0.3
                ) -> builtins.list[tuple[Memory, Reached]]:
        """Memories within ``depth`` links of this one, most confidently connected first."""
        return self._graph().related(memory_id, depth=depth, min_confidence=min_confidence)

    def _neighbourhood(self, memory_id: str, depth: int, min_confidence: float
                       ) -> dict[str, Reached]:
        """Memories near one memory, from the traversal cache kept here (recall uses it too)."""
        return self._graph().neighbourhood(memory_id, depth, min_confidence)

    # -- graph: structure ----------------------------------------------------------------------

    def consolidate(self) -> dict[str, Any]:
        """Maintain the graph: co-accessed links from recall statistics, prune weak automatic
        links, then PageRank and communities, stored for recall and hooks to read."""
        return self._graph().consolidate()

    def graph_stats(self) -> dict[str, Any]:
        """Sizes of the graph: links by core type, by edge kind and by creator."""
        return self._graph().graph_stats()

    def top(self, k: int = 10) -> builtins.list[tuple[Memory, float, int]]:
        """The most central memories by stored PageRank: (memory, normalised rank, community)."""
        return self._graph().top(k)

    def communities(self, *, limit: int = 20, sample: int = 3) -> builtins.list[dict[str, Any]]:
        """Communities found by label propagation, largest first, with their central members."""
        return self._graph().communities(limit=limit, sample=sample)

    def health(self) -> dict[str, Any]:
        """Graph health: components, isolated memories, orphaned relationship words,
        link storage share and recommendations (merge synonyms, archive orphans)."""
        return self._graph().health()

    def links_by_relationship(self, relationship: str) -> builtins.list[Link]:
        """Links said with these words or any synonym of them, in any language (fuzzy query
        expansion): "motivated by" also finds "inspired_by" and "영감을_받은"."""
        return self._graph().links_by_relationship(relationship)

    def merge_relationship(self, word: str, into: str) -> int:
        """Act on a health recommendation: file every link said with ``word`` under ``into``."""
        return self._graph().merge_relationship(word, into)

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
                   "fallback": "keyword recall (FTS5 BM25)" if self.store.engine == "sqlite"
                   else "keyword recall (tsvector ts_rank)"}
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
            "hooks": self._hook_status(),
            **({"postgres": stats["postgres"]} if "postgres" in stats else {}),
        }

    def _hook_status(self) -> dict[str, Any]:
        """The Claude Code hooks' side of the store: journal waiting, prompt index state."""
        from kenning.hooks import journal, pindex

        directory = self.journal_dir()
        pending = 0
        if os.path.isdir(directory):
            pending = sum(os.path.getsize(os.path.join(directory, n)) for n in os.listdir(directory)
                          if n == journal.FILE or n.startswith("claimed-"))
        path = pindex.index_path(directory)
        state = "missing"
        if os.path.exists(path):
            state = "current" if pindex.load(path, self.store.location) is not None else "stale"
        last = self.store.session_events(kinds=["start", "end"], limit=1, newest_first=True)
        return {"journal": directory, "journal_pending_bytes": pending,
                "prompt_index": state, "last_session_event": iso(last[0].at_ms) if last else None}

    # -- dashboard -----------------------------------------------------------------------------

    def downvote_link(self, link_id: str, step: float = 0.2) -> Link:
        """A user's "this link is wrong-ish": lower its confidence by ``step`` (not below 0) and
        count the down-vote in its metadata, so decay and pruning can finish the job."""
        return self._graph().downvote_link(link_id, step)

    def links_with_word(self, relationship: str) -> builtins.list[Link]:
        """Links said with exactly these relationship words (no synonym expansion), oldest
        first: what a health recommendation about one word is about."""
        return self._graph().links_with_word(relationship)

    def topics(self, limit: int = 500) -> builtins.list[dict[str, Any]]:
        """Topics of this project's memories, most used first, with how many are decisions."""
        return self._graph().topics(limit)

    # -- Claude Code auto memory bridge and agent memory scopes --------------------------------

    def _memory_target(self, project_root: Path | None, scope: str | None) -> Target:
        from kenning.automemory import paths as amp
        from kenning.automemory.bridge import Target

        if scope is None:
            return Target(amp.auto_memory_dir(project_root), None, None)
        kind, agent = amp.parse_scope(scope)
        return Target(amp.agent_memory_dir(kind, agent, project_root), kind, agent)

    @staticmethod
    def _auto_options(options: AutoMemoryOptions | None) -> AutoMemoryOptions:
        from kenning.automemory.options import AutoMemoryOptions

        return options if options is not None else AutoMemoryOptions()

    def auto_memory_dir(self, project_root: Path | None = None) -> Path:
        """Claude Code's auto memory directory for the project (git root's real path, keyed as
        the client keys it, under ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)."""
        return self._memory_target(project_root, None).dir

    def agent_memory_dir(self, scope: str, project_root: Path | None = None) -> Path:
        """The memory directory of ``project:<agent>``, ``local:<agent>`` or ``user:<agent>``."""
        return self._memory_target(project_root, scope).dir

    def auto_import(self, project_root: Path | None = None,
                    options: AutoMemoryOptions | None = None, *, scope: str | None = None
                    ) -> dict[str, Any]:
        """Import changed MEMORY.md lines, client memory files and topic files (of the auto
        memory, or of an agent ``scope``); counts: files, imported, updated, unchanged, skipped."""
        from kenning.automemory.bridge import import_dir

        return import_dir(self, self._memory_target(project_root, scope),
                          self._auto_options(options))

    def auto_sync(self, project_root: Path | None = None,
                  options: AutoMemoryOptions | None = None, *, scope: str | None = None
                  ) -> dict[str, Any]:
        """Import first, then write memories >= min confidence as client memory files and
        curate MEMORY.md; atomic and idempotent."""
        from kenning.automemory.bridge import write_dir

        return write_dir(self, self._memory_target(project_root, scope),
                         self._auto_options(options), sync=True)

    def auto_status(self, project_root: Path | None = None,
                    options: AutoMemoryOptions | None = None, *, scope: str | None = None
                    ) -> dict[str, Any]:
        """MEMORY.md against the client's limits, files by origin, pending changes."""
        from kenning.automemory.bridge import status

        return status(self, self._memory_target(project_root, scope), self._auto_options(options))

    def curate(self, project_root: Path | None = None, options: AutoMemoryOptions | None = None,
               write: bool = True, *, scope: str | None = None) -> dict[str, Any]:
        """Rewrite MEMORY.md within 200 lines and 25,000 bytes, most valuable lines first, a
        person's lines imported and kept; ``write=False`` only previews."""
        from kenning.automemory.bridge import write_dir

        if not write:
            return self.curate_preview(project_root, options, scope=scope)
        return write_dir(self, self._memory_target(project_root, scope),
                         self._auto_options(options), sync=False)

    def curate_preview(self, project_root: Path | None = None,
                       options: AutoMemoryOptions | None = None, *, scope: str | None = None
                       ) -> dict[str, Any]:
        """The MEMORY.md curation would write (what Claude Code will load): path, text, lines,
        bytes, max_lines, max_bytes. Writes nothing."""
        from kenning.automemory.bridge import preview

        return preview(self, self._memory_target(project_root, scope), self._auto_options(options))

    def agent_scopes(self, project_root: Path | None = None) -> builtins.list[dict[str, Any]]:
        """Agent memory scopes known from the store, from disk and from agent definitions."""
        from pathlib import Path

        from kenning.automemory.scopes import list_scopes

        return list_scopes(self, Path(project_root) if project_root is not None else Path.cwd())

    def transfer(self, from_scope: str, to_scope: str, min_confidence: float = 0.8
                 ) -> dict[str, Any]:
        """Copy an agent scope's memories with confidence >= ``min_confidence`` to another scope
        (``user:reviewer``...), de-duplicated, with provenance."""
        from kenning.automemory.scopes import transfer

        return transfer(self, from_scope, to_scope, min_confidence)

    # -- agents: findings, session insights, scoping, extraction -------------------------------

    def _findings(self) -> FindingsService:
        """The findings service over this facade's current store, project, clock and
        embedder (built per call, so later changes to them are honoured)."""
        return FindingsService(
            store=self.store, project=self.project, clock=self.clock, embedder=self.embedder,
            max_content_chars=self.max_content_chars, ensure_index=self._ensure_index,
            remember=self.remember, update=self.update, get=self.get, recall=self.recall)

    def _insights(self) -> InsightService:
        """The session insight service over this facade's operations (built per call)."""
        return InsightService(remember_many=self.remember_many, list_memories=self.list,
                              scoped_recall=self.scoped_recall)

    def _extraction(self) -> ExtractionService:
        """The extraction service over this facade's current store, project and embedder
        (built per call)."""
        return ExtractionService(store=self.store, project=self.project,
                                 embedder=self.embedder, ensure_index=self._ensure_index,
                                 remember_many=self.remember_many)

    def record_finding(
        self,
        text: str,
        *,
        source: str,
        type: MemoryType | str = MemoryType.INSIGHT,
        category: str | None = None,
        topic: str | None = None,
        summary: str | None = None,
        confidence: float | None = None,
        tags: Iterable[str] | str = (),
        agent: str | None = None,
        spec: str | None = None,
        shared: bool = False,
        metadata: Mapping[str, Any] | None = None,
        threshold: float = 0.85,
    ) -> Memory:
        """Record what an agent found; several agents may record at once. The same finding
        said in other words (cosine >= ``threshold``) is merged into the stored one: one
        memory, every source in ``metadata.sources``. Safe with many processes and machines
        at once (``findings.lock``)."""
        return self._findings().record(
            text, source=source, type=type, category=category, topic=topic, summary=summary,
            confidence=confidence, tags=tags, agent=agent, spec=spec, shared=shared,
            metadata=metadata, threshold=threshold)

    def record_subagent_stop(self, payload: Mapping[str, Any], *, swarm: str | None = None
                             ) -> Memory | None:
        """A SubagentStop hook payload's final report as a finding from ``agent:<type>`` (or
        ``swarm:<id>:<type>``); None for compaction's unnamed agent or an empty report."""
        return self._findings().subagent_stop(payload, swarm=swarm)

    def share(self, memory_id: str, shared: bool = True) -> Memory:
        """Make a spec-, worktree- or agent-scoped memory visible everywhere in the project
        (explicit sharing overrides the scope), or take that back."""
        return self._findings().share(memory_id, shared)

    def scoped_recall(
        self,
        query: str,
        *,
        k: int = 10,
        spec: str | None = None,
        agent: str | None = None,
        include_shared: bool = True,
        episodes: Sequence[str] | None = None,
        **kw: Any,
    ) -> builtins.list[Hit]:
        """``recall`` within a scope: a spec/worktree's and project-wide memories, an
        agent's own and un-owned ones, shared ones always; optionally only some episodes."""
        return self._findings().scoped_recall(query, k=k, spec=spec, agent=agent,
                                              include_shared=include_shared,
                                              episodes=episodes, **kw)

    def save_insight(
        self,
        insight: Mapping[str, Any],
        *,
        spec: str | None = None,
        agent: str | None = None,
        source: str | None = None,
        shared: bool = False,
        children: bool = True,
    ) -> builtins.list[Memory]:
        """Store what an agent session learned: one session_insight memory plus a
        pattern, gotcha, codebase_discovery and task_outcome memory per finding, in one
        transaction. The session memory comes first in the result."""
        return self._insights().save(insight, spec=spec, agent=agent, source=source,
                                     shared=shared, children=children)

    def session_history(self, limit: int = 5, *, spec: str | None = None,
                        agent: str | None = None) -> builtins.list[Memory]:
        """The latest session_insight memories, newest first (retrieval by time, not meaning)."""
        return self._insights().history(limit, spec=spec, agent=agent)

    def similar_outcomes(self, task: str, k: int = 5, *, spec: str | None = None,
                         agent: str | None = None) -> builtins.list[Hit]:
        """Past task outcomes, QA results and sessions most like ``task`` (retrieval by
        similar task): what succeeded or failed before."""
        return self._insights().similar_outcomes(task, k, spec=spec, agent=agent)

    def session_context(self, task: str | None = None, *, k: int = 5, history: int = 3,
                        spec: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """What an agent should know before starting ``task``: relevant
        memories, gotchas, similar past outcomes and the latest sessions' insights."""
        return self._insights().context(task, k=k, history=history, spec=spec, agent=agent)

    def insights(self, limit: int = 5, *, spec: str | None = None) -> builtins.list[dict[str, Any]]:
        """The last sessions' insights as worked / failed / gotchas / next."""
        return self._insights().views(limit, spec=spec)

    def extract(
        self,
        transcript: str | os.PathLike[str] | None = None,
        repo: str | os.PathLike[str] | None = None,
        since: str | None = None,
        apply: bool = False,
        *,
        llm: bool | None = None,
        llm_budget: int | None = None,
        threshold: float = 0.85,
    ) -> dict[str, Any]:
        """Mine a Claude Code transcript and git history for candidate memories by rules
        (no LLM needed), drop near-duplicates of each other and of what is stored (cosine >=
        ``threshold``), optionally refine them with an LLM (opt-in, budget-capped), and with
        ``apply`` store the new ones plus a session_insight, in one transaction."""
        return self._extraction().extract(transcript, repo, since, apply, llm=llm,
                                          llm_budget=llm_budget, threshold=threshold)
