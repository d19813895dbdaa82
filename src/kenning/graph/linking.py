"""Making links when memories are written: explicit ones (supersedes, implements, free ``links[]``),
ones inferred from reasoning text and automatic ones (temporal, same-topic, semantic rules), all as
``Link`` objects the store writes in the same transaction as the memories."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from kenning.errors import ValidationError
from kenning.graph.rules import LinkRules, Node, auto_links
from kenning.ids import new_id
from kenning.models import CreatedBy, Filters, Link, LinkType, Memory, MemoryType
from kenning.promptindex.format import stem
from kenning.relations import PASSIVE, Relationship, normalise_word, reasoning_cues
from kenning.store.base import Store
from kenning.weights import episodic
from kenning.words import STOPWORDS, words

if TYPE_CHECKING:
    import numpy as np

# remember() parameters that name a relationship: the parameter used decides the link type.
EXPLICIT_PARAMS = ("supersedes", "refines", "improves", "implements", "outcome_of")
CAUSAL = frozenset({"implements", "outcome_of", "fixes", "caused_by"})
EXPLICIT_CONFIDENCE = 0.9
FREE_CONFIDENCE = 0.8  # free-text links[]: explicit, but in the agent's own words
INFERRED_CONFIDENCE = 0.7  # pattern-matched in reasoning text, lower than explicit
INFER_MIN_SIMILARITY = 0.5  # an inferred predecessor must be about the same thing
PREDECESSORS = 30  # most similar earlier decisions of the topic checked for the named term
OBJECT_WORDS = 3  # words a cue's object may have ("instead of plain REST calls")
# Words that start an object without naming anything, and nouns too generic to be evidence
# that an earlier decision is the one replaced ("replaces the old approach").
_LEAD_WORDS = frozenset({"the", "a", "an", "our", "their", "its", "this", "that", "these",
                         "those", "my", "your", "old", "older", "previous", "current",
                         "existing", "plain", "using", "use"})
_GENERIC = frozenset({"decision", "approach", "setup", "option", "choice", "way", "one",
                      "thing", "solution", "tool", "library", "system", "method", "plan",
                      "idea", "pattern", "default", "version", "stack"})
# Words inside cues ("moving away from", "in place of"): part of the cue, never its object.
_CUE_WORDS = frozenset({"away", "favour", "favor", "place", "out", "up", "than", "on", "upon",
                        "from", "of", "with", "to"})
# Korean particles attached to the object before a cue ("JWT를 세션으로 교체했다").
_KO_PARTICLE = re.compile(r"(?:을|를|은|는|이|가|으로|로|의|에서|에|와|과|보다)$")
_EVOLVES = ("supersedes", "refines", "improves")


@dataclass
class LinkSpec:
    """The links one remembered item asks for, before ids are resolved."""

    explicit: list[tuple[str, str, str | None, tuple[str, ...]]] = field(default_factory=list)
    reason: str | None = None

    @property
    def has_evolution(self) -> bool:
        return any(rel in ("supersedes", "refines", "improves") for _, rel, _, _ in self.explicit)


def pop_spec(fields: dict[str, Any]) -> LinkSpec:
    """Take the link parameters out of remember() keyword arguments."""
    spec = LinkSpec(reason=fields.pop("reason", None))
    if spec.reason is not None and not isinstance(spec.reason, str):
        raise ValidationError("reason must be a string")
    for param in EXPLICIT_PARAMS:
        targets = fields.pop(param, None)
        if targets is None:
            continue
        for target in [targets] if isinstance(targets, str) else list(targets):
            spec.explicit.append((_target(target, param), param, spec.reason, ()))
    for n, item in enumerate(fields.pop("links", None) or ()):
        if isinstance(item, Mapping):
            to_id, rel = item.get("to_id"), item.get("relationship")
            why, tags = item.get("reason"), tuple(item.get("tags") or ())
        elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
            (to_id, rel), why, tags = item, None, ()
        else:
            raise ValidationError(f"links[{n}] must be {{'to_id': ..., 'relationship': ...}}")
        if not isinstance(rel, str) or not rel.strip():
            raise ValidationError(f"links[{n}]: relationship is empty")
        spec.explicit.append((_target(to_id, f"links[{n}].to_id"), rel, why, tags))
    return spec


def _target(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{what} must be a memory id")
    return value.strip()


def make_link(
    from_id: str,
    to_id: str,
    rel: Relationship,
    *,
    confidence: float,
    created_by: CreatedBy,
    now_ms: int,
    reason: str | None = None,
    tags: Sequence[str] = (),
    extra: Mapping[str, Any] | None = None,
) -> Link:
    """A link keeping the words as said (expression layer) with their canonical and core type.

    Passive words ("superseded by") are stored in the active direction, so chains read one way.
    """
    said = normalise_word(rel.original)
    meta: dict[str, Any] = dict(extra or {})
    if rel.canonical in PASSIVE:
        from_id, to_id = to_id, from_id
        rel = replace(rel, canonical=PASSIVE[rel.canonical])
        meta["inverted"] = True
    meta.update({
        "original_relationship": said,
        "canonical": rel.canonical,
        "relationship_tags": list(dict.fromkeys([said, *tags])),
        "inference_confidence": rel.inference_confidence,
        "via": rel.via,
        "kind": "causal" if rel.canonical in CAUSAL else "reference",
    })
    if reason:
        meta["reason"] = reason
    return Link(
        id=new_id(now_ms), from_id=from_id, to_id=to_id, link_type=LinkType(rel.core_type),
        confidence=confidence, created_by=created_by, metadata=meta, created_at=now_ms,
    )


def auto_link_batch(
    store: Store,
    project: str,
    memories: Sequence[Memory],
    vectors: np.ndarray | None,
    embedder_id: str | None,
    rules: LinkRules,
    now_ms: int,
    lineage: frozenset[str] = frozenset(),
    exclude: frozenset[str] = frozenset(),
) -> list[Link]:
    """The automatic link rules for a batch: candidates are stored memories and earlier batch
    items; the semantic neighbours of the whole batch come from one matrix product.
    ``lineage``: ids of memories whose evolution links are already known (explicit or
    inferred); ``exclude``: stored memories that are no candidates (a batch linked after it was
    stored must not meet itself, or its later items, among the stored ones)."""
    if not memories:
        return []
    earliest = min(m.created_at for m in memories)
    since = earliest - max(rules.temporal_window_ms, rules.same_topic_window_ms)
    by_topic: dict[str, list[Node]] = {}
    for topic in {m.topic for m in memories if m.topic}:
        rows = store.list(Filters(project=project, topic=topic, since=since), limit=50)
        by_topic[topic] = [_node(m) for m in rows if m.id not in exclude]
    neighbours: list[list[tuple[str, float]]] = [[] for _ in memories]
    if vectors is not None and embedder_id:
        neighbours = store.vector_search_many(
            vectors, embedder_id, Filters(project=project), rules.semantic_top_k * 3
        )
    known = {mid: m for mid, m in store.get_many([mid for row in neighbours for mid, _ in row])
             .items() if not episodic(m.type.value, m.topic)  # kept user turns: no links
             and mid not in exclude}
    batch_sims = (vectors @ vectors.T) if vectors is not None and len(memories) > 1 else None
    stored_vectors: dict[str, Any] = {}
    if vectors is not None and embedder_id:
        stored_vectors = store.vectors_of(
            [n.id for nodes in by_topic.values() for n in nodes], embedder_id
        )
    out: list[Link] = []
    for i, m in enumerate(memories):
        earlier = [
            replace(n, similarity=float(vectors[i] @ stored_vectors[n.id]))
            if vectors is not None and n.id in stored_vectors else n
            for n in by_topic.get(m.topic or "", [])
        ]
        similar = [(_node(known[mid]), sim) for mid, sim in neighbours[i] if mid in known]
        for j in range(i):
            prev = memories[j]
            sim = float(batch_sims[i, j]) if batch_sims is not None else None
            if m.topic and prev.topic == m.topic:
                earlier.append(replace(_node(prev), similarity=sim))
            if sim is not None and sim >= rules.semantic_threshold * 0.7:
                similar.append((_node(prev), sim))
        for p in auto_links(_node(m), earlier, similar, rules, has_lineage=m.id in lineage):
            out.append(Link(
                id=new_id(now_ms), from_id=p.from_id, to_id=p.to_id, link_type=p.link_type,
                confidence=round(p.confidence, 4), created_by=CreatedBy.SYSTEM,
                metadata=p.metadata, created_at=max(now_ms, m.created_at),
            ))
    return out


def inferred_evolution(
    store: Store,
    project: str,
    memories: Sequence[Memory],
    specs: Sequence[LinkSpec],
    vectors: np.ndarray | None,
    embedder_id: str | None,
    now_ms: int,
    embed: Callable[[list[str]], np.ndarray | None] | None = None,
) -> list[Link]:
    """Inferred evolution: a decision whose text or reasoning says "instead of", "replaces",
    "improves"... and names no target is linked, at lower confidence, to the earlier decision
    on its topic that the cue names and that is about the same thing: the cue's object
    ("instead of pnpm") must occur in that decision's text and its embedding must be at least
    INFER_MIN_SIMILARITY similar, even when it is the topic's only earlier decision. Reasoning
    often says "instead of" something never recorded: then nothing is linked (without vectors,
    similarity is unknown and nothing is inferred either).
    The reasoning usually names what is replaced, so its embedding counts as much as the text's.
    """
    out: list[Link] = []
    if vectors is None or not embedder_id:
        return out
    for i, (m, spec) in enumerate(zip(memories, specs, strict=True)):
        if m.type is not MemoryType.DECISION or not m.topic or spec.has_evolution:
            continue
        text = " ".join(t for t in (spec.reason, m.content) if t)
        found = [(rel, conf, start, end) for rel, conf, start, end in reasoning_cues(text)
                 if rel in _EVOLVES]
        if not found:
            continue
        rel, conf, start, end = found[0]
        named = cue_object(text, start, end)
        if not named:
            continue
        queries = [vectors[i]]
        reason_vec = embed([spec.reason]) if spec.reason and embed else None
        if reason_vec is not None:
            queries.append(reason_vec[0])
        target = _likely_predecessor(store, project, memories[:i], m, vectors[:i], queries,
                                     embedder_id, named)
        if target is None:
            continue
        out.append(make_link(
            m.id, target, Relationship(rel, rel, "evolution", conf, False, "reasoning"),
            confidence=min(conf, INFERRED_CONFIDENCE), created_by=CreatedBy.SYSTEM,
            now_ms=now_ms, reason=spec.reason, extra={"inferred_from": "reasoning"},
        ))
    return out


def cue_object(text: str, start: int, end: int) -> frozenset[str]:
    """The terms naming what a cue at ``text[start:end]`` points at: up to OBJECT_WORDS words
    right after an English cue ("instead of pnpm for installs" -> pnpm), up to the first
    stopword or punctuation; those before it for "in favour of" ("dropped pnpm in favour of
    bun") and for Korean cues, which follow their object ("JWT 대신"); those inside "replaced
    pnpm with". Generic nouns, cue words and stopwords never count."""
    cue = text[start:end]
    inside = [w for w in words(cue)[1:] if w not in STOPWORDS]
    if "favo" in cue.lower() or not cue.isascii():
        before = words(text[max(0, start - 80):start])[-OBJECT_WORDS:]
        named = [_KO_PARTICLE.sub("", w) or w for w in before]
    elif cue.lower().endswith(" with"):
        named = []  # "replaced pnpm with bun": the object is inside, what follows is new
    else:
        named = []
        for w in _clause(text[end:end + 200]):
            if w in _LEAD_WORDS and not named:
                continue
            if w in STOPWORDS or len(named) == OBJECT_WORDS:
                break
            named.append(w)
    return frozenset(stem(w) for w in [*inside, *named]
                     if w not in STOPWORDS and w not in _GENERIC and w not in _LEAD_WORDS
                     and w not in _CUE_WORDS and len(w) > 1)


def _clause(text: str) -> list[str]:
    """The words of ``text`` up to the first punctuation that ends a phrase."""
    for i, ch in enumerate(text):
        if ch in ".,;:!?()[]\n":
            return words(text[:i])
    return words(text)


def _names(memory: Memory, named: frozenset[str]) -> bool:
    """Whether any of the ``named`` terms occurs in the memory's topic-free text, other than
    as what that memory itself replaced: "move CI from Jenkins to Buildkite" mentions Jenkins
    but is not the decision a later "instead of Jenkins" replaces."""
    present = {stem(w) for w in words(f"{memory.summary} {memory.content}")}
    reason = memory.metadata.get("reason")
    text = " ".join(t for t in (reason if isinstance(reason, str) else None, memory.content)
                    if t)
    for rel, _, start, end in reasoning_cues(text):
        if rel in _EVOLVES:
            present -= cue_object(text, start, end)
    return not named.isdisjoint(present)


def _likely_predecessor(
    store: Store, project: str, batch_before: Sequence[Memory], m: Memory,
    batch_vectors: np.ndarray, queries: Sequence[np.ndarray], embedder_id: str,
    named: frozenset[str],
) -> str | None:
    """The earlier same-topic decision most similar to ``m`` (its text or its reasoning,
    whichever matches better) among those at least INFER_MIN_SIMILARITY similar whose text
    holds a ``named`` term; None when there is none."""
    f = Filters(project=project, types=(MemoryType.DECISION,), topic=m.topic,
                until=m.created_at + 1)
    in_batch = {b.id: (j, b) for j, b in enumerate(batch_before)
                if b.type is MemoryType.DECISION and b.topic == m.topic}
    best: dict[str, float] = {}
    for query in queries:
        for j, b in in_batch.values():
            best[b.id] = max(best.get(b.id, -1.0), float(query @ batch_vectors[j]))
        for mid, sim in store.vector_search(query, embedder_id, f, PREDECESSORS):
            if mid != m.id:
                best[mid] = max(best.get(mid, -1.0), sim)
    close = [mid for mid, sim in best.items() if sim >= INFER_MIN_SIMILARITY]
    stored = store.get_many([mid for mid in close if mid not in in_batch])
    texts = {mid: b for mid, (_, b) in in_batch.items()} | stored
    named_ones = [mid for mid in close if mid in texts and _names(texts[mid], named)]
    return max(named_ones, key=lambda mid: (best[mid], mid)) if named_ones else None


def _node(m: Memory) -> Node:
    return Node(m.id, m.type.value, m.topic, m.created_at,
                outcome=m.outcome.value if m.outcome else None, current=m.valid_to is None)
