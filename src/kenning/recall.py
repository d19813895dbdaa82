"""Reading and recall behind the facade: fetching memories, filtering them, hybrid recall and
keeping the vector index current.

``ranking.py`` is the pure scoring; ``RecallService`` is what gathers the candidates for it (the
store's keyword search and, with an embedder, its vector search), loads the memories with their
confidence as of now and ranks them with ``ranking``. ``Kenning`` keeps the public methods with
their signatures and documentation and builds a service on each call with the store, project,
clock, embedder and weights it has at that moment. What must outlive one call (the store
watermark the vector index was last checked at, the progress callback, the background worker)
stays on the facade: the service reads and replaces it through the small callables it is given.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from kenning import expansion
from kenning import validation as v
from kenning.errors import NotFoundError, ValidationError, disk_full
from kenning.ids import looks_like_id
from kenning.models import Filters, Hit, Memory, MemoryType, Scope
from kenning.ranking import (
    RankWeights,
    contenders,
    empty_parts,
    final_scores,
    fuse,
    intent_types,
    score_ceilings,
)
from kenning.times import to_ms

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from kenning.embed import Embedder
    from kenning.graph.traversal import Reached
    from kenning.store.base import Store

Mode = Literal["hybrid", "keyword", "vector"]
Progress = Callable[[int, int], None]
# How much deeper than the pool the first vector search goes, so that feedback can rescore
# its head instead of searching again: on LoCoMo the moved query's best 100 lie within the
# first search's best 200 and the keyword candidates (R@10 the same as a second full search).
FEEDBACK_DEPTH = 2
# Memories a read embeds (with their links) before it searches, of a backlog other processes
# left: about half a second of the model on two cores; the rest is settled in the background
# and found by its words meanwhile.
READ_BACKLOG = 64
# How many of the memories that mention a name the query names gain by their closeness to
# the rest of the query.
NAME_KEEP = 50
CONTEXT_MIN_CONFIDENCE = 0.3  # path confidence for a memory to count as connected to a context
# Cosine similarity from which a candidate without a keyword match still counts as relevant.
# Measured with the bundled MiniLM model on developer memories: paraphrased questions that share
# no word with their memory score 0.06-0.58 (median 0.33, 27 of 30 at 0.2 or more); a question
# against an unrelated memory -0.14-0.25 (median -0.01, 29 of 30 below 0.2); off-topic
# questions (weather, recipes) reach at most 0.196 against any of them.
MIN_SIMILARITY = 0.2
# Recall loads its contenders this many times k at a time, best first (``_best_first``).
LOAD_STEP = 2


def relevant(fused: dict[str, dict[str, float]], min_similarity: float = MIN_SIMILARITY
             ) -> dict[str, dict[str, float]]:
    """The fused candidates that bear on the query: a keyword match, or a vector similarity of
    at least ``min_similarity``. The final factors reorder relevant memories; this keeps the
    merely nearest ones out when nothing relevant exists."""
    return {mid: p for mid, p in fused.items()
            if p["keyword_rank"] > 0 or (p["vector_rank"] > 0
                                         and p["vector_similarity"] >= min_similarity)}


class RecallService:
    """Memories by id or prefix, filtered listings and counts, hybrid recall, and the upkeep
    of the vector index recall searches.

    Every dependency is explicit: the store, the project and clock, the embedder (or None)
    and the ranking weights; ``live`` (a memory's confidence as of a time) and
    ``neighbourhood`` (memories near one memory, for contextual recall) are facade operations
    owned by other parts; ``worker`` gives the facade's background thread, and
    ``indexed_at`` / ``set_indexed_at`` / ``on_progress`` read and replace the index state
    the facade keeps across calls."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        clock: Callable[[], int],
        embedder: Embedder | None,
        weights: RankWeights,
        live: Callable[[Memory, int | None], Memory],
        neighbourhood: Callable[[str, int, float], dict[str, Reached]],
        worker: Callable[[], ThreadPoolExecutor],
        indexed_at: Callable[[], str | None],
        set_indexed_at: Callable[[str | None], None],
        on_progress: Callable[[], Progress | None],
        settle: Callable[[int | None], int] = lambda limit: 0,
        backlog: Callable[[], None] = lambda: None,
    ) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.embedder = embedder
        self.weights = weights
        self.live = live
        self.neighbourhood = neighbourhood
        self.worker = worker
        self.indexed_at = indexed_at
        self.set_indexed_at = set_indexed_at
        self.on_progress = on_progress
        self.settle = settle
        self.backlog = backlog

    # -- reading -------------------------------------------------------------------------------

    def get(self, memory_id: str, *, touch: bool = False) -> Memory:
        """The memory with this id or unique id prefix (6 characters or more), as of now. With
        ``touch`` the fetch is a use (an agent asked for this memory by id): it gains
        ``kenning.learning.ACCESS_BOOST`` and the memory is returned as it is afterwards."""
        found = self._find(memory_id)
        if not touch:
            return found
        self.store.record_access([found.id], self.clock(), "fetched by id")
        return self._find(found.id)

    def _find(self, memory_id: str) -> Memory:
        """The memory with this id or unique id prefix, as of now."""
        key = v.identifier(memory_id).upper()
        found = self.store.get_many([key]).get(key)
        if found is not None:
            return self.live(found, None)
        if not looks_like_id(key) and len(key) >= 6:
            matches = self.store.resolve_prefix(key, limit=2)
            if len(matches) == 1:
                return self.live(self.store.get_many(matches)[matches[0]], None)
            if len(matches) > 1:
                raise ValidationError(f"id prefix {v.shown(memory_id)} is ambiguous; give more "
                                      "of it")
        raise NotFoundError(f"no memory with id {v.shown(memory_id)}")

    def filters(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
    ) -> Filters:
        """The store filters for this project from checked user input (times may be relative
        to the clock's now)."""
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
    ) -> builtins.list[Memory]:
        """One page of the matching memories, each with its confidence as of now."""
        f = self.filters(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )
        if limit is not None:
            v.positive_int(limit, "limit", 100_000)
        now = self.clock()
        return [self.live(m, now) for m in
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
        f = self.filters(
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
        weak: bool = False,
    ) -> builtins.list[Hit]:
        """The ``k`` best relevant memories for ``query`` within the filters: keyword and
        vector candidates fused (the vector side rescored with the query moved toward the
        best hits), kept when they match a keyword or come at least ``MIN_SIMILARITY`` close
        in meaning (any, when ``weak``), widened by the memories adjacent and linked to the
        strongest, lifted where they mention a name the query names and answer what it asks
        about it (``kenning.expansion``), narrowed to the contenders, then ranked with the
        memories' live confidence, recency, outcome, supersession, a date the query names,
        PageRank (once computed) and closeness to ``context``. Retrieval never changes
        confidence (only a use does); with ``track`` the head of the result is counted as
        retrieved together, which the graph's co-access links grow from."""
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query is empty")
        v.positive_int(k, "k", 1000)
        if mode not in ("hybrid", "keyword", "vector"):
            raise ValidationError(f"unknown mode {mode!r}: use hybrid, keyword or vector")
        f = self.filters(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )
        if context is None and not self.store.list(f, limit=1):
            return []  # nothing to find: no model load, no index upkeep
        pool = max(100, 5 * k)
        keyword: builtins.list[tuple[str, float]] = []
        vector: builtins.list[tuple[str, float]] = []
        wide: builtins.list[tuple[str, float]] = []
        qvec = None
        naming = None
        want_keyword = mode != "vector" or self.embedder is None
        if mode != "keyword" and self.embedder is not None:
            self._upkeep(self.ensure_index, READ_BACKLOG)
            # The keyword search runs while the model embeds the query (both release the GIL).
            pending = self.worker().submit(self.store.keyword_search, query, f, pool) \
                if want_keyword else None
            if mode == "hybrid" and self.weights.name_weight > 0:
                naming = self.worker().submit(self._names, query, f)
            qvec = self.embedder.embed([query.strip()])[0]
            # Feedback rescores a wider head of this search: one search serves both.
            wide = self.store.vector_search(qvec, self.embedder.id, f, FEEDBACK_DEPTH * pool
                                            if self.weights.feedback_weight > 0 else pool)
            vector = wide[:pool]
            keyword = pending.result() if pending else []
        elif want_keyword:
            keyword = self.store.keyword_search(query, f, pool)
        fused = fuse(keyword, vector, self.weights)
        if qvec is not None and vector and self.weights.feedback_weight > 0:
            fused = self._feedback(fused, keyword, qvec, wide, pool)
        kept = relevant(fused)
        if not weak:
            fused = kept
        fused, joined = self._widen(fused, set(kept), f)
        if qvec is not None and naming is not None:
            fused = self._about_names(fused, self._ask(qvec, *naming.result(), f, wide))
        periods = expansion.query_periods(query, self.clock())
        near = None
        if context is not None:
            anchor = self.get(context)
            near = {mid: r.confidence for mid, r in
                    self.neighbourhood(anchor.id, 2, CONTEXT_MIN_CONFIDENCE).items()}
        use_graph = self.store.get_meta("graph_computed_at") is not None
        head = contenders(fused, k, self.weights, graph=use_graph, context=near is not None,
                          dated=bool(periods))
        fused = {mid: fused[mid] for mid in head}
        now = self.clock()
        pagerank = None
        if use_graph:
            pagerank = {mid: pr for mid, (pr, _) in self.store.graph_scores(head).items()}
        intent = intent_types(query)
        memories, ranked = self._best_first(
            head, fused, k, now, lambda m: m.id not in joined or expansion.within(f, m),
            lambda part, loaded: final_scores(part, loaded, now, self.weights, intent,
                                              pagerank=pagerank, context=near, periods=periods),
            score_ceilings(fused, head, self.weights, pagerank=pagerank, context=near,
                           dated=bool(periods)))
        hits = [Hit(memories[m], score, parts if explain else None) for m, score, parts in ranked]
        if track and len(hits) > 1:
            self._upkeep(self.store.record_co_access, [h.memory.id for h in hits], now)
        return hits

    @staticmethod
    def _upkeep(write: Callable[..., object], *args: object) -> None:
        """A write a read does on the side (embedding a backlog, counting what was found
        together): on a full disk it is left for later and the read goes on with what the
        store has (its words find what has no vector yet), rather than failing."""
        try:
            write(*args)
        except Exception as exc:
            if not disk_full(exc):
                raise
            from kenning.errorlog import log_error

            log_error("recall's upkeep (the disk is full)", exc)

    def _best_first(
        self, head: builtins.list[str], fused: dict[str, dict[str, float]], k: int, now: int,
        keep: Callable[[Memory], bool],
        score: Callable[[dict[str, dict[str, float]], dict[str, Memory]],
                        builtins.list[tuple[str, float, dict[str, float]]]],
        ceilings: builtins.list[float] | None,
    ) -> tuple[dict[str, Memory], builtins.list[tuple[str, float, dict[str, float]]]]:
        """The loaded memories and the ``k`` best final scores among the contenders ``head``
        (best relevance first): memories are loaded ``LOAD_STEP`` x ``k`` at a time and
        loading stops once no contender left can reach the k-th score so far (``ceilings``,
        from ``ranking.score_ceilings``; None loads them all). The same result as scoring
        every contender: loading and decoding the rows was most of recall's own time."""
        # What the highest ceiling left is, from each position on.
        left = [0.0] * (len(head) + 1)
        if ceilings is not None:
            for i in range(len(head) - 1, -1, -1):
                left[i] = max(ceilings[i], left[i + 1])
        step = max(len(head) if ceilings is None else LOAD_STEP * k, 1)
        memories: dict[str, Memory] = {}
        ranked: builtins.list[tuple[str, float, dict[str, float]]] = []
        for start in range(0, len(head), step):
            # A margin for rounding: the ceiling multiplies in another order than the score.
            if len(ranked) >= k and left[start] * (1 + 1e-9) < ranked[k - 1][1]:
                break
            chunk = head[start:start + step]
            loaded = {mid: self.live(m, now) for mid, m in self.store.get_many(chunk).items()
                      if keep(m)}
            memories.update(loaded)
            ranked = sorted(ranked + score({mid: fused[mid] for mid in loaded}, loaded),
                            key=lambda t: (-t[1], t[0]))[:k]
        return memories, ranked

    # -- the stages after fusion (kenning.expansion) --------------------------------------------

    def _feedback(
        self, fused: dict[str, dict[str, float]], keyword: builtins.list[tuple[str, float]],
        qvec: np.ndarray, wide: builtins.list[tuple[str, float]], pool: int,
    ) -> dict[str, dict[str, float]]:
        """Rescore the candidates (the keyword ones and the vector search's wider head) with
        the query moved toward the best relevant hits, and fuse anew. None relevant, no
        feedback: unrelated memories would only pull the query off."""
        assert self.embedder is not None
        w = self.weights
        seeds = expansion.strongest({mid: p["relevance"] for mid, p in relevant(fused).items()},
                                    w.feedback_hits)
        if not seeds:
            return fused
        candidates = [mid for mid, _ in wide] + [mid for mid, _ in keyword]
        vecs = self.store.vectors_of(builtins.list(dict.fromkeys(candidates + seeds)),
                                     self.embedder.id)
        moved = expansion.feedback_vector(qvec, [vecs[s] for s in seeds if s in vecs],
                                          w.feedback_weight)
        return fuse(keyword, expansion.nearest(moved, vecs, pool), w)

    def _widen(self, fused: dict[str, dict[str, float]], seedable: set[str], f: Filters
               ) -> tuple[dict[str, dict[str, float]], set[str]]:
        """Neighbourhood and graph context: the memories recorded around the strongest
        relevant hits (``seedable``) and the memories linked to them share their relevance
        (joining the candidates when no search found them), and a hit gains from relevant
        neighbours. Also returns the linked memories that joined, which must still pass the
        filters once loaded. The parts in ``fused`` are updated in place."""
        w = self.weights
        joined: set[str] = set()
        if not fused or (w.adjacent_weight <= 0 and w.linked_weight <= 0):
            return fused, joined
        relevance = {mid: p["relevance"] for mid, p in fused.items()}
        seeds = expansion.strongest({mid: r for mid, r in relevance.items() if mid in seedable},
                                    w.context_seeds)
        if not seeds:
            return fused, joined
        adjacent: dict[str, float] = {}
        # Turns of a conversation (``context`` records: kept user turns, imported dialogue)
        # answer each other; lessons recorded in one sitting are each whole, so a decision
        # about Redis never lends relevance to the styling rule saved a minute later.
        turns = _only(f, MemoryType.CONTEXT)
        if w.adjacent_weight > 0 and turns is not None:
            adjacent = expansion.adjacent_context(
                relevance, self.store.adjacent(seeds, turns, w.adjacent_width,
                                               w.adjacent_width * w.adjacent_gap_ms),
                w.adjacent_gap_ms)
        linked: dict[str, float] = {}
        if w.linked_weight > 0:
            links = [(ln.from_id, ln.to_id, ln.confidence)
                     for ln in self.store.links_for(seeds)
                     if ln.metadata.get("kind") not in expansion.REDUNDANT_LINKS]
            linked = expansion.linked_context(relevance, seeds, links)
            joined = set(linked) - set(fused)
        out: dict[str, dict[str, float]] = {}
        for mid, parts in expansion.widen(relevance, adjacent, w.adjacent_weight,
                                          linked, w.linked_weight).items():
            # Updated in place: every candidate's parts are recall's own (from ``fuse``), and
            # copying ~300 of them per query cost more than the widening itself.
            base = fused.get(mid)
            if base is None:
                base = empty_parts()
            base.update(parts)
            out[mid] = base
        return out, joined

    def _names(self, query: str, f: Filters
               ) -> tuple[builtins.list[str], builtins.list[np.ndarray], set[str]]:
        """The names the query mentions (``expansion.query_names``), their vectors (names
        recur from query to query: each comes from the query cache) and the memories the
        keyword search for them finds: what ``_ask`` needs that does not wait for the
        query's own vector, so it runs while the model embeds the query."""
        assert self.embedder is not None
        names = expansion.query_names(query)
        if not names:
            return [], [], set()
        return (names, [self.embedder.embed([n])[0] for n in names],
                {mid for mid, _ in self.store.keyword_search(" ".join(names), f, NAME_KEEP)})

    def _ask(self, qvec: np.ndarray, names: builtins.list[str],
             name_vecs: builtins.list[np.ndarray], named: set[str], f: Filters,
             wide: builtins.list[tuple[str, float]]) -> builtins.list[tuple[str, float]]:
        """What the query asks about the names it mentions: the memories that mention one of
        them, nearest first to the query's vector with the names' directions taken out
        (``expansion.without_names``). They are those the keyword search for the names found
        (``named``, all of them for a rare name) and, of the first vector search's head
        (``wide``), the ones nearest to that vector that mention a name (a name in many
        memories); none without names. No second vector search: on LoCoMo one over the
        whole store ranked about the same (R@10 0.774 with it, 0.771 without)."""
        assert self.embedder is not None
        if not names:
            return []
        vec = expansion.without_names(qvec, name_vecs)
        vecs = self.store.vectors_of(builtins.list(dict.fromkeys(
            [mid for mid, _ in wide] + sorted(named))), self.embedder.id)
        near = [mid for mid, _ in expansion.nearest(
            vec, {mid: vecs[mid] for mid, _ in wide if mid in vecs}, NAME_KEEP)
            if mid not in named]
        named = named | {mid for mid, m in self.store.get_many(near).items()
                         if expansion.mentions(m, names)}
        return expansion.nearest(vec, {mid: vecs[mid] for mid in named if mid in vecs},
                                 NAME_KEEP)

    def _about_names(self, fused: dict[str, dict[str, float]],
                     asked: builtins.list[tuple[str, float]]) -> dict[str, dict[str, float]]:
        """The memories that mention a name the query names gain name_weight x their
        closeness to what it asks about it (``_ask``), spread over them (and join the
        candidates when no search found them)."""
        out = dict(fused)
        for mid, closeness in expansion.spread(asked).items():
            parts = dict(out.get(mid) or empty_parts())
            parts["named"] = self.weights.name_weight * closeness
            parts["relevance"] += parts["named"]
            out[mid] = parts
        return out

    # -- vectors -------------------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> np.ndarray | None:
        """Vectors for ``texts`` from the embedder; None without one or without texts."""
        if self.embedder is None or not texts:
            return None
        return self.embedder.embed(builtins.list(texts))

    def ensure_index(self, limit: int | None = None) -> None:
        """Embed the memories still without a vector from the current embedder, checked once
        per store change (the watermark is remembered on the facade between calls): first
        those written without waiting for the model, with their automatic links (``settle``),
        then any other. With ``limit`` (a read: it must not wait for a backlog other
        processes left) at most that many of each are done here, and the read finds the rest
        by its words: pending writes left over are settled in the background (``backlog``),
        other memories without a vector ``limit`` more by each read."""
        assert self.embedder is not None
        mark = self.store.watermark()
        if mark == self.indexed_at():
            return
        if self.settle(limit):
            mark = self.store.watermark()
        if limit is not None and self.store.pending_links(1):
            self.backlog()
            return
        missing = self.store.count_missing_vectors(self.embedder.id)
        if missing:
            self.reindex(progress=self.on_progress(), limit=limit)
            mark = self.store.watermark()
            if limit is not None and missing > limit:
                self.backlog()
                return
        self.set_indexed_at(mark)

    def reindex(self, *, progress: Progress | None = None, batch: int = 256,
                limit: int | None = None) -> int:
        """Embed, ``batch`` at a time, every memory missing a vector from the current
        embedder (at most ``limit``), then, once none is missing, drop other embedders'
        vectors; how many were embedded."""
        if self.embedder is None:
            raise ValidationError("no embedding model is installed: nothing to re-index")
        total = self.store.count_missing_vectors(self.embedder.id)
        if limit is not None:
            total = min(total, limit)
        done = 0
        if progress and total:
            progress(0, total)
        while limit is None or done < limit:
            todo = self.store.missing_vectors(
                self.embedder.id, batch if limit is None else min(batch, limit - done))
            if not todo:
                break
            vecs = self.embedder.embed([t for _, t in todo])
            self.store.put_vectors(self.embedder.id, [(mid, vecs[i]) for i, (mid, _) in
                                                      enumerate(todo)])
            done += len(todo)
            if progress:
                progress(done, max(total, done))
        if limit is None or not self.store.count_missing_vectors(self.embedder.id):
            self.store.drop_other_vectors(self.embedder.id)
        return done


def _only(f: Filters, kind: MemoryType) -> Filters | None:
    """``f`` narrowed to memories of ``kind``, or None when ``f`` leaves that kind out."""
    from dataclasses import replace

    if f.types is not None and kind not in f.types:
        return None
    return replace(f, types=(kind,))
