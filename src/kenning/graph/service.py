"""The memory graph behind the facade: links, traversals, consolidation and structure.

``GraphService`` holds what ``Kenning``'s graph methods do; the facade keeps their signatures and
documentation and builds a service on each call with the store, project and clock it has at that
moment. Caches that must outlive one call (traversal results, the relationship words in use, the
relationship resolver) stay on the facade: the service reads and replaces them through the small
callables it is given, so they behave exactly as if the facade held the code itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from kenning import validation as v
from kenning.errors import NotFoundError, ValidationError
from kenning.graph.linking import EXPLICIT_CONFIDENCE, FREE_CONFIDENCE, make_link
from kenning.graph.traversal import (
    MAX_DEPTH,
    ChainEntry,
    Reached,
    evolution_chain,
    neighbourhood,
)
from kenning.graph.traversal import impact as traverse_impact
from kenning.ids import new_id
from kenning.models import CreatedBy, Filters, Link, LinkType, Memory, MemoryType, iso
from kenning.redact import redact, redact_together
from kenning.relations import (
    RelationshipResolver,
    normalise_word,
    promotion_candidates,
    table_lookup,
)
from kenning.times import to_ms

if TYPE_CHECKING:
    from kenning.graph.rules import LinkRules
    from kenning.store.base import Store

T = TypeVar("T")  # what a cached traversal holds
CO_ACCESS_MIN = 3  # recalled together this often -> a co-accessed link
PROMOTED_KEY = "relationship_vocabulary"  # meta: promoted words -> core type
CLUSTERS_KEY = "relationship_clusters"  # meta: word -> its cluster's canonical form
JUDGED_LIMIT = 20_000  # judged trajectories read per consolidation (the newest)
TRAVERSAL_CACHE_SIZE = 128  # traversal results kept before the oldest is dropped

# (link generation, store watermark): traversal results are valid while both are unchanged.
TraversalMark = tuple[str | None, str]
# (link generation, {relationship word: core type}) for the words links already use.
KnownWords = tuple[str | None, dict[str, str]]


RESTATES = 0.6  # share of a rule's words a kept user turn holds when it is the turn that said it


class GraphService:
    """Links between memories, graph traversals (why / impact / related), consolidation
    (distilled episodes, co-accessed links, pruning, PageRank, communities) and the graph's
    structure and health.

    Every dependency is explicit: the store, the project and clock, the link rules, how to fetch
    a memory (``get``, owned by the facade's reading side), how to write one (``remember_many``
    and ``update``, owned by the writing side, for distilled memories) and accessors for the
    caches the facade keeps across calls.
    """

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        clock: Callable[[], int],
        link_rules: LinkRules,
        get: Callable[[str], Memory],
        traversals: dict[tuple[Any, ...], Any],
        traversal_mark: Callable[[], TraversalMark | None],
        set_traversal_mark: Callable[[TraversalMark], None],
        known_words: Callable[[], KnownWords | None],
        set_known_words: Callable[[KnownWords], None],
        resolver: Callable[[], RelationshipResolver | None],
        set_resolver: Callable[[RelationshipResolver], None],
        remember_many: Callable[[Iterable[Mapping[str, Any]]], list[Memory]],
        update: Callable[..., Memory],
    ) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.link_rules = link_rules
        self.get = get
        self.traversals = traversals
        self.traversal_mark = traversal_mark
        self.set_traversal_mark = set_traversal_mark
        self.known_words = known_words
        self.set_known_words = set_known_words
        self.resolver = resolver
        self.set_resolver = set_resolver
        self.remember_many = remember_many
        self.update = update

    # -- links ---------------------------------------------------------------------------------

    def relations(self) -> RelationshipResolver:
        """The facade's resolver, made on first use (creating it is cheap; its multilingual model
        loads only when an unknown word needs it) and handed back to the facade to keep; it
        knows the words promoted into the vocabulary."""
        resolver = self.resolver()
        if resolver is None:
            resolver = RelationshipResolver()
            self.set_resolver(resolver)
        resolver.official = self.promoted()
        return resolver

    def promoted(self) -> dict[str, str]:
        """Relationship words promoted into the vocabulary (word -> core type)."""
        return _meta_json(self.store, PROMOTED_KEY)

    def clusters(self) -> dict[str, str]:
        """Relationship words in use grouped by meaning at the last consolidation (member ->
        the cluster's canonical form)."""
        return _meta_json(self.store, CLUSTERS_KEY)

    def tend_vocabulary(self) -> dict[str, Any]:
        """Keep the relationship words in use tidy (each consolidation): words used often and
        surely are promoted (resolved like table words from then on, never archived); words
        fading out of use are archived (their links filed under their canonical, the words
        kept in ``merged_from``); the other free words are clustered by meaning, and health
        suggests merging each cluster into its canonical form."""
        from kenning.relations import (
            CORE_TYPE,
            cluster_words,
            normalised_lookup,
            orphan_decay,
        )

        stats = self.store.relationship_stats()
        core_of = {row[0]: row[4] for row in stats}
        promoted = self.promoted()
        fresh = {w: core_of[w] for w, _, _ in promotion_candidates([r[:3] for r in stats])
                 if w not in promoted}
        if fresh:
            promoted = {**promoted, **fresh}
            self.store.set_meta(PROMOTED_KEY, json.dumps(promoted, ensure_ascii=False))
        archived: dict[str, str] = {}
        for word, _ in orphan_decay([r[:4] for r in stats], self.clock(), promoted):
            canonical = self.store.relationship_canonical(word)
            target = canonical if canonical and canonical != word and (
                canonical in CORE_TYPE or canonical in promoted) else "relates_to"
            core = CORE_TYPE.get(target) or promoted.get(target) or "association"
            self.store.rename_relationship(word, target, LinkType(core))
            archived[word] = target
        free = sorted(w for w, *_ in stats if w not in archived
                      and normalised_lookup(w) is None)
        clusters = self.clusters()
        mark = json.dumps(free, ensure_ascii=False)
        if len(free) >= 2 and self.store.get_meta(CLUSTERS_KEY + ":words") != mark:
            vectors = self.relations().vectors(free)
            if vectors is not None:
                usage = {row[0]: row[1] for row in stats}
                clusters = cluster_words(free, usage, vectors, promoted)
                self.store.set_meta(CLUSTERS_KEY, json.dumps(clusters, ensure_ascii=False))
                self.store.set_meta(CLUSTERS_KEY + ":words", mark)
        return {"promoted": sorted(fresh), "archived": archived,
                "clusters": len(set(clusters.values()))}

    def known_relationships(self) -> dict[str, str]:
        """Relationship words already in use, with their core types. The scan is a GROUP BY over
        every link, so the answer is kept until the link generation changes."""
        mark = self.store.get_meta("link_generation")
        cached = self.known_words()
        if cached is None or cached[0] != mark:
            cached = (mark, {row[0]: row[4] for row in self.store.relationship_stats()})
            self.set_known_words(cached)
        return cached[1]

    def link(
        self,
        from_id: str,
        to_id: str,
        relationship: str,
        *,
        confidence: float | None,
        reason: str | None,
        tags: Sequence[str],
        created_by: CreatedBy | str,
        metadata: Mapping[str, Any] | None,
    ) -> Link:
        """Resolve the words to a relation (table words skip the scan of words in use), default
        the confidence by how the words were resolved, redact the reason and store the link."""
        a, b = self.get(from_id), self.get(to_id)
        if a.id == b.id:
            raise ValidationError("a memory cannot link to itself")
        relationship, said, *words = redact_together(
            [v.relationship(relationship), v.reason(reason) or "", *v.tags(tags)])
        known = {} if table_lookup(relationship) else self.known_relationships()
        rel = self.relations().resolve(relationship, known)
        default = EXPLICIT_CONFIDENCE if rel.via == "table" else FREE_CONFIDENCE
        return self.store.add_link(make_link(
            a.id, b.id, rel,
            confidence=v.confidence(confidence if confidence is not None else default),
            created_by=CreatedBy(created_by), now_ms=self.clock(),
            reason=said or None,
            tags=words,
            extra=v.metadata(dict(metadata) if metadata else None),
        ))

    def supersede(self, new_id: str, old_id: str, reason: str | None) -> Link:
        """``new_id`` replaces ``old_id``: a user's ``supersedes`` link, which the store writes
        in the same transaction as the old memory's end of validity (``valid_to``: the new
        one's creation, or now if later; ``superseded_by``: the new one). A cycle is refused.
        What only restated the old memory (``_restating``) is superseded with it."""
        new, old = self.get(new_id), self.get(old_id)
        if new.id == old.id:
            raise ValidationError("a memory cannot supersede itself")
        reason = v.reason(reason)
        rel = self.relations().resolve("supersedes", {})
        link = self.store.add_link(make_link(
            new.id, old.id, rel, confidence=EXPLICIT_CONFIDENCE, created_by=CreatedBy.USER,
            now_ms=self.clock(), reason=redact(reason).text if reason else None,
        ))
        # what restates the old memory would present it as current: its track record (how it
        # held up, distilled from its uses) and the kept user words that stated it end with it
        for other, why in self._restating(old):
            self.store.add_link(make_link(
                new.id, other.id, rel, confidence=EXPLICIT_CONFIDENCE, created_by=CreatedBy.USER,
                now_ms=self.clock(), reason=why))
        return link

    def _restating(self, old: Memory) -> list[tuple[Memory, str]]:
        """Current memories that only restate ``old``: its track record, and the kept user
        turn (an episode of the same session and transcript line) whose words state it."""
        from kenning.weights import EPISODE_TOPIC, episodic
        from kenning.words import STOPWORDS, words

        out: list[tuple[Memory, str]] = []
        sources = [e.from_id for e in self.store.links_of(old.id) if e.to_id == old.id]
        for track in self.store.get_many(sources).values():
            if (track.valid_to is None and track.metadata.get("distilled") is True
                    and track.metadata.get("subject") == old.id):
                out.append((track, "the memory it tracked was replaced"))
        prov = old.metadata.get("provenance")
        if not (isinstance(prov, dict) and prov.get("via") == "transcript"
                and prov.get("session_id") and prov.get("lines")):
            return out
        said = set(words(old.summary)) - STOPWORDS
        for turn in self.store.list(Filters(project=old.project, types=(MemoryType.CONTEXT,),
                                            topic=EPISODE_TOPIC), limit=None):
            meta = turn.metadata
            if (turn.valid_to is None and episodic(turn.type.value, turn.topic)
                    and meta.get("session_id") == prov["session_id"]
                    and meta.get("line") in prov["lines"] and said
                    and len(said & set(words(turn.content))) >= RESTATES * len(said)):
                out.append((turn, "what the user said here was replaced"))
        return out

    def links(self, memory_id: str) -> list[Link]:
        """Links into and out of a memory (which must exist), oldest first."""
        return self.store.links_of(self.get(memory_id).id)

    def unlink(self, link_id: str) -> bool:
        """Delete one link; whether it existed."""
        return self.store.delete_link(v.identifier(link_id, "link id"))

    # -- traversal -----------------------------------------------------------------------------

    def _cached(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """A traversal result from the facade's cache, or ``compute()`` kept there. The whole
        cache is dropped when a memory or link changes; past its size the oldest entry goes."""
        mark = (self.store.get_meta("link_generation"), self.store.watermark())
        if mark != self.traversal_mark():
            self.traversals.clear()
            self.set_traversal_mark(mark)
        if key not in self.traversals:
            if len(self.traversals) >= TRAVERSAL_CACHE_SIZE:
                self.traversals.pop(next(iter(self.traversals)))
            self.traversals[key] = compute()
        found: T = self.traversals[key]
        return found

    def why(self, topic: str) -> list[ChainEntry]:
        """The evolution chain of a topic; when there is none and the text looks like an id, the
        chain of that memory's topic instead."""
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

    def impact(self, memory_id: str, *, window: object, depth: int
               ) -> list[tuple[Memory, Reached]]:
        """Later memories reached from this one; temporal links count only within ``window``."""
        start = self.get(memory_id)
        now = self.clock()
        span = now - to_ms(window, now, name="window")
        v.positive_int(depth, "depth", MAX_DEPTH)
        return self._cached(("impact", start.id, span, depth), lambda: traverse_impact(
            self.store, start.id, now_ms=now, window_ms=span, max_depth=depth))

    def related(self, memory_id: str, *, depth: int, min_confidence: float
                ) -> list[tuple[Memory, Reached]]:
        """The neighbourhood of a memory as memories, most confidently connected first."""
        start = self.get(memory_id)
        v.positive_int(depth, "depth", MAX_DEPTH)
        reached = self.neighbourhood(start.id, depth, v.confidence(min_confidence))
        memories = self.store.get_many(list(reached))
        ordered = sorted(reached.values(), key=lambda r: (-r.confidence, r.depth, r.memory_id))
        return [(memories[r.memory_id], r) for r in ordered if r.memory_id in memories]

    def neighbourhood(self, memory_id: str, depth: int, min_confidence: float
                      ) -> dict[str, Reached]:
        """Memories within ``depth`` links of one memory whose path confidence reaches
        ``min_confidence`` (cached; recall uses it too, to find a context's neighbours)."""
        now = self.clock()
        return self._cached(("near", memory_id, depth, min_confidence), lambda: neighbourhood(
            self.store, [memory_id], now_ms=now, max_depth=depth, min_confidence=min_confidence))

    # -- structure -----------------------------------------------------------------------------

    def consolidate(self) -> dict[str, Any]:
        """Consolidate, holding the store's exclusive lock when it has one (a shared server:
        one consolidation at a time)."""
        exclusive = getattr(self.store, "exclusive", None)
        if exclusive is None:
            return self._consolidate_now()
        with exclusive("consolidate"):
            return self._consolidate_now()

    def distil(self) -> tuple[dict[str, int], list[str]]:
        """Apply ``kenning.distil.plan`` to this project's episodes and
        ``kenning.distil.plan_trajectories`` to its judged trajectories: create or update each
        distilled memory, link it to its new episodes (``derived_from``; a track record
        ``outcome_of`` the memory it judges) and mark repeated episodes ``distilled_into`` it.
        Returns the counts and the ids of every distilled memory."""
        from kenning import distil

        memories = [m for m in self.store.list(Filters(project=self.project, types=distil.TYPES),
                                               limit=None) if m.project == self.project]
        judged = self._judged()
        records = [m for m in self.store.list(Filters(project=self.project,
                                                      types=(MemoryType.OUTCOME,)), limit=None)
                   if str(m.metadata.get("distil_key", "")).startswith("trajectory:")]
        subjects = self.store.get_many(sorted({j.memory_id for j in judged}))
        by_id = {m.id: m for m in [*memories, *records, *subjects.values()]}
        done = [m.id for m in [*memories, *records] if m.metadata.get("distilled") is True]
        counts = {"distilled": 0, "distilled_updated": 0, "distilled_episodes": 0,
                  "track_records": 0}
        links: list[Link] = []
        now = self.clock()
        plans = distil.plan(memories) + distil.plan_trajectories(
            judged, {mid: m for mid, m in subjects.items() if m.project == self.project},
            records)
        for p in plans:
            if p.memory_id is None:
                (made,) = self.remember_many([{
                    "text": p.text, "type": p.type, "topic": p.topic, "category": p.category,
                    "confidence": p.confidence, "tags": ["distilled"], "source": "distil",
                    "metadata": p.metadata}])
                if not made.is_new:  # that text is already a memory: leave it as it is
                    continue
                target = made.id
                if p.outcome:
                    self.update(target, outcome=p.outcome, outcome_reason=p.outcome_reason)
                done.append(target)
                counts["distilled"] += 1
            else:
                current = by_id[p.memory_id]
                fields: dict[str, Any] = {"metadata": {**current.metadata, **p.metadata}}
                if current.content != p.text:
                    fields["text"] = p.text
                if current.confidence < p.confidence:
                    fields["confidence"] = p.confidence
                if p.outcome and (current.outcome is None
                                  or current.outcome.value != p.outcome):
                    fields.update(outcome=p.outcome, outcome_reason=p.outcome_reason)
                self.update(current.id, **fields)
                target = current.id
                counts["distilled_updated"] += 1
            counts["track_records"] += p.relationship == "outcome_of"
            rel = self.relations().resolve(p.relationship)
            for episode in p.new_episodes:
                if p.mark_episodes:
                    # Metadata alone: marking an episode is not a use, so its decay is untouched.
                    self.store.update(episode, {"metadata": {**by_id[episode].metadata,
                                                             "distilled_into": target}},
                                      None, None)
                links.append(make_link(
                    target, episode, rel, confidence=EXPLICIT_CONFIDENCE,
                    created_by=CreatedBy.SYSTEM, now_ms=now, extra={"distilled": True},
                    reason=p.outcome_reason if p.outcome_reason
                    else f"distilled from {len(p.episodes)} episodes"))
            counts["distilled_episodes"] += len(p.new_episodes) if p.mark_episodes else 0
        self.store.add_links(links)
        return counts, done

    def _judged(self) -> list[Any]:
        """This project's judged trajectories (one ``judged`` event per memory and session,
        with the verdict) as ``kenning.distil.Judged``, newest ``JUDGED_LIMIT`` first."""
        from kenning.distil import Judged

        out = []
        for e in self.store.session_events(kinds=["judged"], project=self.project,
                                           limit=JUDGED_LIMIT, newest_first=True):
            delta, checks = e.data.get("delta"), e.data.get("checks")
            if not isinstance(delta, int | float) or not delta:
                continue
            pairs = tuple(sorted((str(s), bool(ok)) for s, ok in checks.items())
                          ) if isinstance(checks, dict) else ()
            out.append(Judged(str(e.data.get("memory_id")), e.session_id, e.at_ms,
                              float(delta), pairs))
        return out

    def _consolidate_now(self) -> dict[str, Any]:
        """Distil repeated episodes, add co-accessed links, prune decayed automatic links (not
        those of a distilled memory to its episodes), rebuild the graph and store its PageRank
        and communities; returns the sizes and how long each step took."""
        from kenning.graph.decay import decayed_confidence
        from kenning.graph.structure import build as build_graph
        from kenning.graph.structure import ranking_structure

        timings: dict[str, float] = {}
        now = self.clock()
        t = time.perf_counter()
        distilled, distilled_ids = self.distil()
        timings["distil_ms"] = (time.perf_counter() - t) * 1000
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
        if weak and distilled_ids:
            lineage = {ln.id for mid in distilled_ids for ln in self.store.links_of(mid)
                       if ln.metadata.get("distilled") is True}
            weak = [link_id for link_id in weak if link_id not in lineage]
        pruned = self.store.delete_links(weak)
        timings["prune_ms"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        vocabulary = self.tend_vocabulary()
        timings["vocabulary_ms"] = (time.perf_counter() - t) * 1000
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
            "vocabulary": vocabulary,
            **distilled,
            "communities": int(labels.max()) + 1 if graph.n else 0,
            "timings_ms": {k: round(x, 2) for k, x in timings.items()},
        }

    def graph_stats(self) -> dict[str, Any]:
        """Counts of this project's memories and of links by core type, edge kind and creator,
        with the community count and when the graph was last consolidated."""
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

    def top(self, k: int) -> list[tuple[Memory, float, int]]:
        """The ``k`` highest stored PageRanks among this project's (and unscoped) memories,
        fetched in chunks so other projects' memories are skipped without loading them all."""
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

    def communities(self, *, limit: int, sample: int) -> list[dict[str, Any]]:
        """Stored communities, largest first, each with its ``sample`` most central members and
        their topics."""
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
        """The graph health report, with relationship words worth promoting to the table."""
        from kenning.graph.health import graph_health
        from kenning.graph.structure import build as build_graph

        now = self.clock()
        nodes = self.store.node_rows(Filters(project=self.project))
        graph = build_graph(nodes, self.store.link_rows(), now)
        stats = self.store.relationship_stats()
        promoted = self.promoted()
        clusters = self.clusters()
        synonyms = {}
        for word, *_ in stats:
            # The table first; a word it lacks uses the canonical recorded when it was linked,
            # else the canonical form of the cluster it fell in.
            canonical = table_lookup(word) or self.store.relationship_canonical(word)
            if (not canonical or canonical == word) and word not in promoted:
                canonical = clusters.get(word)
            if canonical and canonical != word:
                synonyms[word] = canonical
        official = {w for w, *_ in stats if table_lookup(w) == w} | set(promoted)
        store_stats = self.store.stats()
        report = graph_health(
            graph.n, graph.src, graph.dst, relationships=[row[:4] for row in stats],
            link_bytes=store_stats["link_bytes"], db_bytes=max(store_stats["size_bytes"], 1),
            now_ms=now, synonyms=synonyms, official=official,
        )
        out = report.to_dict()
        out["promotion_candidates"] = [
            {"relationship": w, "usage": u, "avg_confidence": round(c, 3)}
            for w, u, c in promotion_candidates([(w, u, c) for w, u, c, *_ in stats])
        ]
        return out

    def links_by_relationship(self, relationship: str) -> list[Link]:
        """Links said with the query's words or any word the resolver counts as a synonym, and
        every word clustered with one of those."""
        words = self.relations().expand_query(relationship, self.known_relationships())
        clusters = self.clusters()
        heads = {clusters[w] for w in words if w in clusters}
        words |= {w for w, head in clusters.items() if head in heads}
        return self.store.links_with_relationships(sorted(words))

    def merge_relationship(self, word: str, into: str) -> int:
        """Rename ``word`` to ``into`` on every link, under ``into``'s core type."""
        old = normalise_word(v.relationship(word))
        new = normalise_word(redact(v.relationship(into)).text)
        if not old or not new or old == new:
            raise ValidationError("give two different relationship words")
        rel = self.relations().resolve(new, self.known_relationships())
        return self.store.rename_relationship(old, new, LinkType(rel.core_type))

    # -- dashboard -----------------------------------------------------------------------------

    def downvote_link(self, link_id: str, step: float) -> Link:
        """Lower a link's confidence by ``step`` (floored at 0) and count the down-vote."""
        link_id = v.identifier(link_id, "link id")
        step = v.confidence(step)
        current = self.store.update_link(link_id)
        meta = {**current.metadata, "downvotes": int(current.metadata.get("downvotes", 0)) + 1}
        return self.store.update_link(current.id, confidence=max(0.0, current.confidence - step),
                                      metadata=meta)

    def links_with_word(self, relationship: str) -> list[Link]:
        """Links said with exactly this (normalised) word, without synonym expansion."""
        word = normalise_word(relationship) if isinstance(relationship, str) else ""
        if not word:
            raise ValidationError("relationship is empty")
        return self.store.links_with_relationships([word])

    def topics(self, limit: int) -> list[dict[str, Any]]:
        """This project's topics by how many memories use them, with the decisions among them."""
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


def _meta_json(store: Store, key: str) -> dict[str, str]:
    """A ``{str: str}`` kept as JSON in the store's meta table ({} when absent or unreadable)."""
    raw = store.get_meta(key)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
