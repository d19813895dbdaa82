"""``Kenning``: the one facade. The CLI, hooks, MCP tools and web routes are thin layers over it."""

from __future__ import annotations

import builtins
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, cast

from kenning import learning
from kenning import validation as v
from kenning.embed import MINILM_ID, Embedder, default_embedder
from kenning.errors import NotFoundError, ValidationError
from kenning.filelock import DirLock
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
    recency,
)
from kenning.redact import redact, redact_obj
from kenning.relations import (
    RelationshipResolver,
    normalise_word,
    promotion_candidates,
    table_lookup,
)
from kenning.sessions import Trajectory, trajectories
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

    def feedback(self, memory_id: str, delta: float, reason: str) -> Memory:
        """Raise or lower a memory's confidence by ``delta`` (after decay) for ``reason``."""
        if not isinstance(delta, int | float) or not -1.0 <= delta <= 1.0:
            raise ValidationError("delta must be a number between -1 and 1")
        memory = self.get(memory_id)
        self.store.adjust_confidence([(memory.id, float(delta), v.source(reason) or "feedback")],
                                     self.clock())
        return self.get(memory.id)

    def confidence_history(self, memory_id: str, limit: int = 200) -> builtins.list[dict[str, Any]]:
        """How a memory's confidence changed and why, oldest first (``at`` is ISO time)."""
        memory = self.get(memory_id)
        return [{"at": iso(at), "at_ms": at, "confidence": round(c, 4), "reason": r}
                for at, c, r in self.store.confidence_history(memory.id, limit)]

    def journal_dir(self) -> str:
        """Where hooks append this store's session events (beside a SQLite file)."""
        from kenning.hooks.locate import journal_dir

        return journal_dir(self.store.location)

    def record_events(
        self, events: Sequence[SessionEvent | Mapping[str, Any]]
    ) -> builtins.list[str]:
        """Store session events; injections among the new ones count as accesses of the
        injected memories (+0.03 confidence each). Returns the ids that were new."""
        parsed = [e if isinstance(e, SessionEvent) else SessionEvent(
            id=str(e["id"]), session_id=str(e.get("session_id") or ""),
            project=str(e.get("project") or self._project_of(e.get("cwd"))),
            at_ms=int(e["at_ms"]), kind=str(e["kind"]), data=dict(e.get("data") or {}),
        ) for e in events]
        new = set(self.store.add_session_events(parsed))
        for e in parsed:
            if e.id in new and e.kind == "injected":
                ids = [str(m["id"]) for m in e.data.get("memories", []) if m.get("id")]
                known = self.store.get_many(ids)
                self.store.record_access([i for i in ids if i in known], e.at_ms)
        return [e.id for e in parsed if e.id in new]

    def _project_of(self, cwd: object) -> str:
        """The project a hook event's working directory belongs to (this one's if unknown)."""
        if os.environ.get("KENNING_PROJECT") or not isinstance(cwd, str) or not cwd:
            return self.project
        from kenning.paths import project_key, project_root

        return project_key(project_root(cwd))

    def ingest_journal(self) -> dict[str, int]:
        """Move what hooks appended to the journal into the store (idempotent; a journal that
        could not be ingested stays for the next healthy run). Pending memories hooks could not
        store are remembered now."""
        from kenning.hooks import journal

        directory = self.journal_dir()
        counts = {"files": 0, "events": 0, "new": 0, "unreadable": 0, "remembered": 0,
                  "findings": 0}
        lock = DirLock(directory)
        if not lock.acquire():
            return counts
        try:
            for path in journal.claim(directory):
                events, bad = journal.read(path)
                counts["files"] += 1
                counts["events"] += len(events)
                counts["unreadable"] += bad
                pending = [e for e in events if e["kind"] == "remember"]
                new = set(self.record_events([e for e in events if e["kind"] != "remember"]))
                counts["new"] += len(new)
                for e in events:  # a subagent's final report is a finding of that agent
                    data = cast("dict[str, Any]", e.get("data") or {})  # the hooks write dicts
                    if e["kind"] == "subagent" and e["id"] in new and data.get("report"):
                        self.record_subagent_stop({**data, "last_assistant_message":
                                                   data["report"]})
                        counts["findings"] += 1
                for e in pending:
                    fields = dict(cast("dict[str, Any]", e.get("data") or {}))
                    text = fields.pop("text", None)
                    if isinstance(text, str) and text.strip():
                        self.remember(text, **fields)
                        counts["remembered"] += 1
                os.unlink(path)
        finally:
            lock.release()
        return counts

    def session_trajectories(self, session_id: str) -> dict[str, Trajectory]:
        """Each memory's trajectory in a session: begun when recorded or injected, with the
        injections and tool outcomes that followed."""
        events = self.store.session_events(session_id=session_id, limit=100_000)
        if not events:
            return {}
        start, end = events[0].at_ms, events[-1].at_ms
        recorded = [(m.id, m.created_at) for m in self.store.list(
            Filters(project=self.project, since=start, until=end + 1), limit=500)]
        return trajectories(events, recorded)

    def learn_from_session(self, session_id: str) -> dict[str, Any]:
        """Complete and judge a session's trajectories once: a failing command after a memory
        was injected lowers it, a passing test raises it (``kenning.learning.judge``)."""
        now = self.clock()
        trajs = self.session_trajectories(session_id)
        judged: list[dict[str, Any]] = []
        marks = [SessionEvent(f"judged:{session_id}:{mid}", session_id, self.project, now,
                              "judged", {"memory_id": mid}) for mid in trajs]
        fresh = set(self.store.add_session_events(marks))
        changes = []
        for mid, t in trajs.items():
            if f"judged:{session_id}:{mid}" not in fresh:
                continue
            delta, reason = t.verdict()
            if not t.used():
                delta, reason = 0.0, "recorded in this session, not yet put to use"
            judged.append({"memory_id": mid, "delta": delta, "reason": reason,
                           "steps": len(t.steps), "begun_by": t.begun_by})
            if delta:
                changes.append((mid, delta, f"session {session_id[:8]}: {reason}"))
        applied = self.store.adjust_confidence(changes, now) if changes else {}
        return {"session_id": session_id, "trajectories": len(trajs), "judged": judged,
                "adjusted": applied}

    def learn_from_abandoned_sessions(self, idle_ms: int = 3_600_000) -> builtins.list[str]:
        """Judge sessions that injected memories but never reached SessionEnd (a crash, a
        killed terminal) once they have been idle for ``idle_ms``. Returns their ids."""
        now = self.clock()
        recent = self.store.session_events(kinds=["injected"], project=self.project, limit=500,
                                           newest_first=True)
        done: list[str] = []
        for sid in dict.fromkeys(e.session_id for e in recent if e.session_id):
            ended = self.store.session_events(session_id=sid, kinds=["end", "judged"], limit=1)
            last = self.store.session_events(session_id=sid, limit=1, newest_first=True)
            if not ended and last and now - last[0].at_ms >= idle_ms:
                self.learn_from_session(sid)
                done.append(sid)
        return done

    def injections(self, limit: int = 50) -> builtins.list[dict[str, Any]]:
        """What the prompt hook put in front of the model recently, and why, newest first."""
        events = self.store.session_events(kinds=["injected"], project=self.project,
                                           limit=v.positive_int(limit, "limit", 10_000),
                                           newest_first=True)
        ids = {str(m["id"]) for e in events for m in e.data.get("memories", [])}
        known = self.store.get_many(sorted(ids))
        out = []
        for e in events:
            shown = []
            for m in e.data.get("memories", []):
                mem = known.get(str(m["id"]))
                shown.append({"id": m["id"], "summary": mem.summary if mem else "(forgotten)",
                              "type": mem.type.value if mem else None,
                              "score": m.get("score"), "parts": m.get("parts", {})})
            out.append({"at": iso(e.at_ms), "event": "UserPromptSubmit",
                        "session_id": e.session_id,
                        "prompt": "matched: " + ", ".join(e.data.get("matched", [])),
                        "matched": e.data.get("matched", []), "memories": shown})
        return out

    def briefing(self, k: int = 5, max_chars: int = 2400) -> str:
        """A short session-start briefing: the latest checkpoint, then the project's most
        central and trusted memories (PageRank, confidence), as markdown with ids."""
        k = v.positive_int(k, "k", 100)
        lines: list[str] = []
        checkpoint = self.store.list(Filters(project=self.project,
                                             types=(MemoryType.CHECKPOINT,)), limit=1)
        if checkpoint:
            c = checkpoint[0]
            lines.append(f"Last checkpoint ({iso(c.created_at)[:16]}): {c.summary} (id {c.id})")
        scores = self.store.graph_scores()
        pool = self.store.list(Filters(project=self.project), limit=2000)
        now = self.clock()
        chosen = sorted(
            (self._live(m, now) for m in pool if m.type is not MemoryType.CHECKPOINT),
            key=lambda m: -(m.confidence + 2.0 * scores.get(m.id, (0.0, 0))[0]
                            + 0.2 * recency(m.created_at, now)),
        )[:k]
        if chosen:
            lines.append("Key memories for this project:")
            lines += [f"- [{m.type.value}] {m.summary} (id {m.id})" for m in chosen]
        text = ""
        for line in lines:
            if len(text) + len(line) + 1 > max_chars:
                break
            text += line + "\n"
        if not text:
            return ""
        return "Kenning memory briefing (details: kenning MCP tools `get`, `why`):\n" + text

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
        events = self.store.session_events(session_id=session_id, limit=100_000)
        files = list(dict.fromkeys(str(e.data["file"]) for e in events
                                   if e.kind == "tool" and e.data.get("file")))
        commands = [e.data for e in events if e.kind == "tool" and e.data.get("cmd")]
        failed = [str(c["cmd"]) for c in commands if not c.get("ok")]
        parts = [f"Session {session_id[:8]} checkpoint"
                 + (f": {note.strip()}" if note and note.strip() else "")]
        if files:
            parts.append("Files edited: " + ", ".join(files[-20:]))
        if commands:
            parts.append(f"Commands run: {len(commands)}"
                         + (f" ({len(failed)} failed: {', '.join(failed[-5:])})" if failed else ""))
        injected = {str(m["id"]) for e in events if e.kind == "injected"
                    for m in e.data.get("memories", [])}
        if injected:
            parts.append(f"Memories used: {len(injected)}")
        return self.remember("\n".join(parts), type="checkpoint", source=f"session:{session_id}",
                             metadata={"session_id": session_id, "files": files[-50:]})

    def build_prompt_index(self, *, force: bool = True) -> dict[str, Any]:
        """Write the prompt index the per-prompt hook reads (``kenning.promptindex``): every
        memory with its PageRank and supersession, as of now. Atomic; without ``force``, a
        SQLite store's index that is still current is kept."""
        from pathlib import Path

        from kenning import promptindex
        from kenning.files import atomic_write_bytes
        from kenning.hooks.pindex import index_path, load

        t0 = time.perf_counter()
        location = self.store.location
        path = Path(index_path(self.journal_dir()))
        if not force and "://" not in location and load(str(path), location) is not None:
            return {"path": str(path), "fresh": True}
        from kenning.hooks.locate import read_version, version_file

        # Read before the data: a write landing meanwhile leaves the index marked stale.
        version = read_version(version_file(location))
        memories = self.store.list(Filters(), limit=None, newest_first=False)
        scores = self.store.graph_scores()
        evolution = [r for r in self.store.link_rows() if r[2] == LinkType.EVOLUTION.value]
        canonical = {w: self.store.relationship_canonical(w) or w
                     for w in {r[5] for r in evolution}}
        superseded = {r[1] for r in evolution if canonical[r[5]] == "supersedes"}
        data = promptindex.build(
            (promptindex.Entry(
                id=m.id, project=m.project, scope=m.scope.value, type=m.type.value,
                topic=m.topic, summary=m.summary, content=m.content, tags=m.tags,
                outcome=m.outcome.value if m.outcome else None, confidence=m.confidence,
                pagerank=scores.get(m.id, (0.0, 0))[0], created_at=m.created_at,
                updated_at=m.updated_at, last_accessed_at=m.last_accessed_at,
                superseded=m.id in superseded) for m in memories),
            version, self.clock())
        atomic_write_bytes(path, data, mode=0o600)
        return {"path": str(path), "memories": len(memories), "bytes": len(data),
                "ms": round((time.perf_counter() - t0) * 1000, 1)}

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

    def links(self, memory_id: str) -> builtins.list[Link]:
        """Links into and out of a memory, oldest first."""
        return self.store.links_of(self.get(memory_id).id)

    def unlink(self, link_id: str) -> bool:
        """Delete one link (by its id)."""
        return self.store.delete_link(link_id)

    # -- graph: traversal ----------------------------------------------------------------------

    def _cached(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """Traversal results, cached and dropped whenever a memory or link changes."""
        mark = (self.store.get_meta("link_generation"), self.store.watermark())
        if mark != self._traversal_mark:
            self._traversals.clear()
            self._traversal_mark = mark
        if key not in self._traversals:
            if len(self._traversals) >= 128:
                self._traversals.pop(next(iter(self._traversals)))
            self._traversals[key] = compute()
        return self._traversals[key]

    def why(self, topic: str) -> builtins.list[ChainEntry]:
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
               ) -> builtins.list[tuple[Memory, Reached]]:
        """"What happened after X?": later memories reached through implementation, evolution
        and temporal links (temporal ones only within ``window`` of X)."""
        start = self.get(memory_id)
        now = self.clock()
        span = now - to_ms(window, now, name="window")
        v.positive_int(depth, "depth", MAX_DEPTH)
        return self._cached(("impact", start.id, span, depth), lambda: traverse_impact(
            self.store, start.id, now_ms=now, window_ms=span, max_depth=depth))

    def related(self, memory_id: str, *, depth: int = 2, min_confidence: float = 0.3
                ) -> builtins.list[tuple[Memory, Reached]]:
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
        exclusive = getattr(self.store, "exclusive", None)
        if exclusive is None:
            return self._consolidate_now()
        with exclusive("consolidate"):  # a shared server: one consolidation at a time
            return self._consolidate_now()

    def _consolidate_now(self) -> dict[str, Any]:
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

    def top(self, k: int = 10) -> builtins.list[tuple[Memory, float, int]]:
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

    def communities(self, *, limit: int = 20, sample: int = 3) -> builtins.list[dict[str, Any]]:
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
        """Graph health: components, isolated memories, orphaned relationship words,
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

    def links_by_relationship(self, relationship: str) -> builtins.list[Link]:
        """Links said with these words or any synonym of them, in any language (fuzzy query
        expansion): "motivated by" also finds "inspired_by" and "영감을_받은"."""
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
        if not isinstance(link_id, str) or not link_id.strip():
            raise ValidationError("link id is empty")
        step = v.confidence(step)
        current = self.store.update_link(link_id.strip())
        meta = {**current.metadata, "downvotes": int(current.metadata.get("downvotes", 0)) + 1}
        return self.store.update_link(current.id, confidence=max(0.0, current.confidence - step),
                                      metadata=meta)

    def links_with_word(self, relationship: str) -> builtins.list[Link]:
        """Links said with exactly these relationship words (no synonym expansion), oldest
        first: what a health recommendation about one word is about."""
        word = normalise_word(relationship) if isinstance(relationship, str) else ""
        if not word:
            raise ValidationError("relationship is empty")
        return self.store.links_with_relationships([word])

    def topics(self, limit: int = 500) -> builtins.list[dict[str, Any]]:
        """Topics of this project's memories, most used first, with how many are decisions."""
        v.positive_int(limit, "limit", 100_000)
        counts: dict[str, list[int]] = {}
        for _mid, mtype, topic, _created, _conf in self.store.node_rows(
                Filters(project=self.project)):
            if topic:
                row = counts.setdefault(topic, [0, 0])
                row[0] += 1
                row[1] += mtype == MemoryType.DECISION.value
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
        return [{"topic": t, "memories": c, "decisions": d} for t, (c, d) in ordered]

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

    def _similar(self, text: str, threshold: float, *, spec: str | None = None,
                 limit: int = 5) -> tuple[Memory, float] | None:
        """The stored memory of this project most similar to ``text`` at or above
        ``threshold`` cosine (a near-duplicate), within ``spec``'s scope; None without an
        embedder."""
        from kenning.insights import in_scope

        if self.embedder is None:
            return None
        self._ensure_index()
        red = redact(text).text
        qvec = self.embedder.embed([embedding_text(None, make_summary(red), red)])[0]
        hits = self.store.vector_search(qvec, self.embedder.id, Filters(project=self.project),
                                        limit)
        found = self.store.get_many([mid for mid, score in hits if score >= threshold])
        for mid, score in hits:
            m = found.get(mid)
            if m is not None and in_scope(m, spec=spec, include_shared=False):
                return m, score
        return None

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
        from kenning import findings as fnd

        src = fnd.source(source)
        body = v.content(text, self.max_content_chars)
        threshold = v.confidence(threshold)
        conf = None if confidence is None else v.confidence(confidence)
        meta = v.metadata(dict(metadata) if metadata else None)
        if spec is not None:
            meta["spec"] = v.topic(spec)
        if shared:
            meta["shared"] = True
        fields = dict(type=type, category=category, topic=topic, summary=summary,
                      confidence=conf, tags=tags, agent=agent, source=src)
        with fnd.lock(self.store):
            match = self._similar(body, threshold, spec=meta.get("spec"))
            if match is None:
                stored = self.remember(body, **fields, metadata={**meta, "sources": [src]})
                if stored.is_new:
                    return stored
                match = (stored, 1.0)
            m, sim = match
            known = m.metadata.get("sources")
            known = known if isinstance(known, list) else ([m.source] if m.source else [])
            merged = {**m.metadata, "sources": fnd.merged_sources(known, src),
                      "findings": int(m.metadata.get("findings", 1) or 1) + 1,
                      "last_similarity": round(float(sim), 4)}
            new_conf = fnd.corroborated(m.confidence, conf or 0.0, src not in known)
            return replace(self.update(m.id, metadata=merged, confidence=new_conf),
                           is_new=False)

    def record_subagent_stop(self, payload: Mapping[str, Any], *, swarm: str | None = None
                             ) -> Memory | None:
        """A SubagentStop hook payload's final report as a finding from ``agent:<type>`` (or
        ``swarm:<id>:<type>``); None for compaction's unnamed agent or an empty report."""
        if not isinstance(payload, Mapping):
            raise ValidationError("payload must be an object")
        agent_type = payload.get("agent_type")
        text = payload.get("last_assistant_message")
        if not isinstance(agent_type, str) or not agent_type.strip():
            return None
        if not isinstance(text, str) or len(text.strip()) < 20:
            return None
        name = agent_type.strip().replace(" ", "-")
        src = f"swarm:{swarm}:{name}" if swarm else f"agent:{name}"
        return self.record_finding(text, source=src, agent=name,
                                   metadata={"agent_id": str(payload.get("agent_id") or "")})

    def share(self, memory_id: str, shared: bool = True) -> Memory:
        """Make a spec-, worktree- or agent-scoped memory visible everywhere in the project
        (explicit sharing overrides the scope), or take that back."""
        m = self.get(memory_id)
        meta = {k: val for k, val in m.metadata.items() if k != "shared"}
        if shared:
            meta["shared"] = True
        return self.update(m.id, metadata=meta)

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
        from kenning.insights import episode, episode_of, in_scope

        wanted = {episode(e) for e in episodes} if episodes else None
        v.positive_int(k, "k", 1000)
        filtering = spec is not None or agent is not None or wanted is not None
        track = kw.pop("track", True)
        hits = self.recall(query, k=min(1000, 5 * k) if filtering else k, track=False, **kw)
        out = [h for h in hits
               if in_scope(h.memory, spec=spec, agent=agent, include_shared=include_shared)
               and (wanted is None or episode_of(h.memory) in wanted)][:k]
        if track and out:
            self.store.record_access([h.memory.id for h in out], self.clock())
        return out

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
        from kenning.insights import SessionInsight, insight_items

        ins = SessionInsight.from_dict(insight)
        meta: dict[str, Any] = {}
        if spec is not None:
            meta["spec"] = v.topic(spec)
        if shared:
            meta["shared"] = True
        common = {"agent": agent, "source": source or "session", "metadata": meta}
        return self.remember_many(insight_items(ins, common, children=children))

    def session_history(self, limit: int = 5, *, spec: str | None = None,
                        agent: str | None = None) -> builtins.list[Memory]:
        """The latest session_insight memories, newest first (retrieval by time, not meaning)."""
        from kenning.insights import episode_of, in_scope

        v.positive_int(limit, "limit", 1000)
        out: list[Memory] = []
        offset = 0
        while len(out) < limit:
            page = self.list(types=MemoryType.SESSION, limit=200, offset=offset)
            out += [m for m in page if episode_of(m) == "session_insight"
                    and in_scope(m, spec=spec, agent=agent)]
            if len(page) < 200:
                break
            offset += 200
        return out[:limit]

    def similar_outcomes(self, task: str, k: int = 5, *, spec: str | None = None,
                         agent: str | None = None) -> builtins.list[Hit]:
        """Past task outcomes, QA results and sessions most like ``task`` (retrieval by
        similar task): what succeeded or failed before."""
        return self.scoped_recall(
            task, k=k, spec=spec, agent=agent, types=[MemoryType.OUTCOME, MemoryType.SESSION],
            episodes=["task_outcome", "qa_result", "session_insight"], track=False)

    def session_context(self, task: str | None = None, *, k: int = 5, history: int = 3,
                        spec: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """What an agent should know before starting ``task``: relevant
        memories, gotchas, similar past outcomes and the latest sessions' insights."""
        v.positive_int(k, "k", 50)
        v.positive_int(history, "history", 50)
        out: dict[str, Any] = {"task": task, "relevant": [], "gotchas": [],
                               "similar_outcomes": [], "recent_sessions": []}
        if task is not None:
            if not isinstance(task, str) or not task.strip():
                raise ValidationError("task is empty")
            out["relevant"] = [h.memory for h in self.scoped_recall(task, k=k, spec=spec,
                                                                    agent=agent)]
            out["gotchas"] = [h.memory for h in self.scoped_recall(
                task, k=3, spec=spec, agent=agent, types=MemoryType.GOTCHA, track=False)]
            out["similar_outcomes"] = [h.memory for h in self.similar_outcomes(
                task, 3, spec=spec, agent=agent)]
        else:
            from kenning.insights import scoped

            out["gotchas"] = scoped(self.list(types=MemoryType.GOTCHA, limit=20),
                                    spec=spec, agent=agent)[:3]
        out["recent_sessions"] = self.session_history(history, spec=spec, agent=agent)
        return out

    def insights(self, limit: int = 5, *, spec: str | None = None) -> builtins.list[dict[str, Any]]:
        """The last sessions' insights as worked / failed / gotchas / next."""
        from kenning.insights import session_view

        return [session_view(m) for m in self.session_history(limit, spec=spec)]

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
        from pathlib import Path

        from kenning.extract import candidates as rules
        from kenning.extract import gitlog
        from kenning.extract.transcript import read_transcript
        from kenning.insights import SessionInsight, insight_items

        started = time.perf_counter()
        threshold = v.confidence(threshold)
        cands: list[rules.Candidate] = []
        sources: dict[str, Any] = {}
        tr = None
        if transcript is not None:
            tr = read_transcript(transcript)
            cands += rules.from_transcript(tr)
            sources["transcript"] = {"path": tr.path, "session_id": tr.session_id,
                                     "events": len(tr.events), "skipped_lines": tr.skipped_lines}
        where = repo
        if where is None and tr is not None and tr.cwd and Path(tr.cwd).is_dir():
            where = tr.cwd  # the session's own project
        elif where is None and (tr is None or since is not None):
            where = os.getcwd()
        if where is not None:
            window = since if since is not None else (
                tr.first_timestamp if tr is not None else None)
            try:
                root = gitlog.repo_root(where)
                commits = gitlog.commits(root, window)
            except ValidationError as exc:
                # With a transcript to mine (the SessionEnd hook), a project without git, or
                # git failing, must not lose the session's candidates.
                if tr is None or (since is not None and repo is not None):
                    raise
                sources["git"] = {"error": str(exc)}
            else:
                cands += rules.from_commits(commits, str(root))
                sources["git"] = {"repo": str(root), "since": window, "commits": len(commits)}
        elif since is not None:
            raise ValidationError("since needs a git repository (give repo)")
        cands = self._dedupe_candidates(cands, threshold)
        fresh = [c for c in cands if c.duplicate_of is None]
        llm_report = None
        from kenning.extract import llm as llm_mod

        if llm_mod.opted_in(llm) and fresh:
            budget = llm_budget if llm_budget is not None else llm_mod.budget_from_env()
            v.positive_int(budget, "llm_budget", 1_000_000)
            fresh, llm_report = llm_mod.refine(fresh, budget=budget)
            cands = [c for c in cands if c.duplicate_of is not None] + fresh
        applied: list[Memory] = []
        session_id = None
        if apply and fresh:
            items = [c.to_item() for c in fresh]
            summary = rules.session_summary(tr, fresh) if tr is not None else None
            if summary is not None:
                items += insight_items(SessionInsight.from_dict(summary),
                                       {"source": "extract:transcript"}, children=False)
            applied = self.remember_many(items)
            if len(applied) > len(fresh):
                session_id = applied[-1].id
        return {
            "candidates": [c.to_dict() for c in cands],
            "new": len(fresh),
            "duplicates": len(cands) - len(fresh),
            "applied": [m.id for m in applied[: len(fresh)] if m.is_new],
            "session_insight": session_id,
            "sources": sources,
            "llm": llm_report,
            "elapsed_ms": round((time.perf_counter() - started) * 1000, 2),
        }

    def _dedupe_candidates(self, cands: builtins.list[Any], threshold: float) -> builtins.list[Any]:
        """Drop exact and near repeats among candidates of a kind (keep the surer one) and
        mark those that repeat a stored memory of their type with ``duplicate_of``."""
        uniq: dict[str, Any] = {}
        for c in sorted(cands, key=lambda c: -c.confidence):
            uniq.setdefault(content_hash(c.text), c)
        cands = list(uniq.values())
        if self.embedder is None or not cands:
            return cands
        self._ensure_index()
        vecs = self.embedder.embed([embedding_text(None, make_summary(redact(c.text).text),
                                                   redact(c.text).text) for c in cands])
        keep: list[int] = []
        for i in range(len(cands)):  # a gotcha and its fix read alike: compare within a kind
            if all(float(vecs[i] @ vecs[j]) < threshold or cands[i].kind != cands[j].kind
                   for j in keep):
                keep.append(i)
        cands = [cands[i] for i in keep]
        found = self.store.vector_search_many(vecs[keep], self.embedder.id,
                                              Filters(project=self.project), 5)
        near = self.store.get_many([mid for hits in found for mid, s in hits if s >= threshold])
        for c, hits in zip(cands, found, strict=True):
            same = [(mid, s) for mid, s in hits if s >= threshold and mid in near
                    and near[mid].type.value == c.type]
            if same:
                c.duplicate_of, c.similarity = same[0]
        return cands
