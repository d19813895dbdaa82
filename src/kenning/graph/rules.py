"""Automatic link rules (temporal, same-topic decisions, semantic similarity weighted by the two
memories' types): pure functions from a new memory and its candidates to proposed links.
Nothing here reads a store or a clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kenning.models import LinkType

MINUTE_MS = 60_000
DAY_MS = 86_400_000

# Type-aware similarity: how much a similarity between two types is worth (older type ->
# newer type); pairs not listed count 1.0.
TYPE_BOOST: dict[tuple[str, str], float] = {
    ("decision", "checkpoint"): 1.2,
    ("decision", "decision"): 1.0,
    ("checkpoint", "checkpoint"): 0.8,
    ("insight", "decision"): 1.1,
    ("decision", "insight"): 0.9,
}


@dataclass(frozen=True)
class LinkRules:
    """Thresholds of the automatic rules; every one is configurable."""

    temporal_window_ms: int = 15 * MINUTE_MS
    temporal_confidence: tuple[float, float] = (0.4, 0.7)
    temporal_top_k: int = 3
    same_topic_window_ms: int = 7 * DAY_MS
    same_topic_confidence: tuple[float, float] = (0.4, 0.7)
    # Only the newest decision on the topic: a chain, not a clique (older ones are reachable
    # through it, and parallel threads on one topic add far fewer wrong links).
    same_topic_top_k: int = 1
    # Optional: link a same-topic decision only when its embedding is at least this similar.
    # Off by default: two decisions on one topic say different things in different words
    # (cosines of 0.08-0.29 between real successive decisions), so similarity cannot tell a
    # thread from a stranger; precision comes from the chain (newest only), the recency-scaled
    # confidence (0.4-0.7, so a wrong guess fades and is pruned within days) and the lineage
    # rule (a decision that names its predecessor gets no guessed link).
    same_topic_min_similarity: float | None = None
    semantic_threshold: float = 0.85
    semantic_top_k: int = 5
    prune_below: float = 0.3
    max_auto_links: int = 8
    type_boost: Mapping[tuple[str, str], float] = field(default_factory=lambda: dict(TYPE_BOOST))


@dataclass(frozen=True)
class Node:
    """What the rules need to know about a memory."""

    id: str
    type: str
    topic: str | None
    created_at: int
    similarity: float | None = None  # cosine to the new memory, when known
    outcome: str | None = None  # how it turned out (a decision's success / failed / partial)
    current: bool = True  # not superseded by a later memory


@dataclass(frozen=True)
class ProposedLink:
    """A link the rules want, from the older memory to the newer one."""

    from_id: str
    to_id: str
    link_type: LinkType
    confidence: float
    relationship: str
    metadata: dict[str, Any]


def _scale(lo_hi: tuple[float, float], fraction: float) -> float:
    lo, hi = lo_hi
    return lo + max(0.0, min(1.0, fraction)) * (hi - lo)


def type_aware_similarity(similarity: float, older: str, newer: str,
                          boost: Mapping[tuple[str, str], float]) -> float:
    """Cosine similarity weighed by how related the two types usually are (capped at 1)."""
    return min(1.0, similarity * boost.get((older, newer), 1.0))


def auto_links(
    new: Node,
    earlier_same_topic: Sequence[Node],
    similar: Sequence[tuple[Node, float]],
    rules: LinkRules,
    *,
    has_lineage: bool = False,
) -> list[ProposedLink]:
    """Links for ``new``: temporal (same topic, 15 min), same-topic decisions (one week: the
    chain goes on from one decision in force, a failed or partial one first, else the newest)
    and semantic (>= threshold, top k, other topics), strongest first, capped per memory.

    ``has_lineage``: the decision already says which decision it evolves from, so guessing
    same-topic associations would only add noise (the rule is for decisions that say nothing).
    """
    out: list[ProposedLink] = []
    if new.topic:
        before = sorted(
            (n for n in earlier_same_topic
             if n.id != new.id and n.topic == new.topic and n.created_at <= new.created_at),
            key=lambda n: -n.created_at,
        )
        temporal = [n for n in before if new.created_at - n.created_at < rules.temporal_window_ms]
        for prev in temporal[: rules.temporal_top_k]:
            delta = new.created_at - prev.created_at
            out.append(ProposedLink(
                prev.id, new.id, LinkType.TEMPORAL,
                _scale(rules.temporal_confidence, 1 - delta / rules.temporal_window_ms),
                "temporal",
                {"original_relationship": "temporal", "time_delta": delta,
                 "reason": "same_context", "kind": "temporal"},
            ))
        if new.type == "decision" and not has_lineage:
            gate = rules.same_topic_min_similarity
            decisions = [n for n in before if n.type == "decision" and n.current
                         and new.created_at - n.created_at < rules.same_topic_window_ms
                         and (gate is None or n.similarity is None or n.similarity >= gate)]
            # The chain goes on from a decision still in force, first one that turned out
            # badly (a new decision on its topic most likely answers it), else the newest.
            decisions.sort(key=lambda n: (n.outcome not in ("failed", "partial"),
                                          -n.created_at))
            for prev in decisions[: rules.same_topic_top_k]:
                age = new.created_at - prev.created_at
                out.append(ProposedLink(
                    prev.id, new.id, LinkType.ASSOCIATION,
                    _scale(rules.same_topic_confidence, 1 - age / rules.same_topic_window_ms),
                    "relates_to",
                    {"original_relationship": "relates_to", "relationship_tags": ["same_topic"],
                     "reason": "same_topic", "age_days": age // DAY_MS, "kind": "reference"},
                ))
    scored = []
    for cand, sim in similar:
        if cand.id == new.id or (new.topic and cand.topic == new.topic):
            continue
        older, newer = (cand, new) if cand.created_at <= new.created_at else (new, cand)
        score = type_aware_similarity(sim, older.type, newer.type, rules.type_boost)
        if score >= rules.semantic_threshold:
            scored.append((score, sim, older, newer))
    scored.sort(key=lambda t: -t[0])
    for score, sim, older, newer in scored[: rules.semantic_top_k]:
        out.append(ProposedLink(
            older.id, newer.id, LinkType.ASSOCIATION, score, "relates_to",
            {"original_relationship": "relates_to",
             "relationship_tags": ["semantic_similarity"], "similarity": round(sim, 4),
             "reason": "semantic_match", "kind": "similar"},
        ))
    out = [ln for ln in out if ln.confidence >= rules.prune_below]
    out.sort(key=lambda ln: -ln.confidence)
    return out[: rules.max_auto_links]
