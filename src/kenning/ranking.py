"""Hybrid recall scoring: fuse keyword and vector scores, then weigh confidence and recency.

Pure functions: candidate lists, memories and a clock in; scores and their parts out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kenning import expansion
from kenning import weights as W
from kenning.models import Memory


@dataclass(frozen=True)
class RankWeights:
    """Tunable knobs of the final score; the defaults favour relevance strongly."""

    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    # Smallest cosine spread the vector side is normalised over (LoCoMo's median spread over
    # 100 candidates is 0.26), so tiny stores do not turn small differences into 1 vs 0.
    vector_min_span: float = 0.2
    confidence_weight: float = W.CONFIDENCE_WEIGHT
    recency_weight: float = W.RECENCY_WEIGHT
    recency_half_life_days: float = W.RECENCY_HALF_LIFE_DAYS
    # A decision that failed (or half-worked) still answers "why", but ranks below what replaced it.
    outcome_factor: tuple[tuple[str, float], ...] = W.OUTCOME_FACTOR
    # A memory a successor superseded (``Memory.valid_to`` reached) is history: still found,
    # ranked far below what replaced it.
    superseded_factor: float = W.SUPERSEDED_FACTOR
    # A memory whose code changed (stale) or went (obsolete) since it was recorded.
    drift_factor: tuple[tuple[str, float], ...] = W.DRIFT_FACTOR
    # Memories of the type a question asks for ("why ..." -> decisions) keep their score;
    # the others are scaled by 1 - intent_weight.
    intent_weight: float = 0.10
    # Recall with a context memory: connected memories get up to 1 + context_boost (1.5x).
    context_boost: float = 0.5
    # Graph-aware ranking: alpha x score + (1 - alpha) x normalised PageRank.
    graph_alpha: float = W.GRAPH_ALPHA
    # The stages after fusion (``kenning.expansion``); a weight of 0 turns a stage off.
    # How many of the strongest relevant memories the context stages grow from.
    context_seeds: int = 20
    # Memories recorded around a seed, ``adjacent_width`` on each side in the same sitting
    # (no pause longer than ``adjacent_gap_ms``), share adjacent_weight x its relevance, and
    # a seed gains that share of its best neighbour's. Half: a neighbour's relevance is
    # evidence about a memory, never as good as its own match.
    adjacent_weight: float = 0.5
    adjacent_width: int = 2
    # Thirty minutes without a new memory ends a sitting (the usual session timeout).
    adjacent_gap_ms: int = 30 * 60_000
    # Memories linked to a seed share linked_weight x link confidence x its relevance.
    linked_weight: float = 0.5
    # The query vector moves toward the mean of the best ``feedback_hits`` by this much and
    # rescores the candidates (pseudo-relevance feedback; Rocchio's usual beta is 0.5-0.75).
    feedback_weight: float = 0.6
    feedback_hits: int = 3
    # Memories created in a day or month the query names count (1 + dated_boost) x.
    dated_boost: float = 0.5
    # Memories that mention a name the query names gain up to name_weight, by closeness to
    # what the query asks about it (its vector without the name's). Below the fused scale
    # (1): a second reading of the query, never worth a full match.
    name_weight: float = 0.3


# Question words that say which memory types answer them ("why did we decide X?" -> decisions).
_INTENTS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"\b(why|reason|rationale|decid\w*|decision|chose|choose|pick(ed)?)\b", re.I),
     frozenset({"decision"})),
    (re.compile(r"\b(fix\w*|error|bug|broke\w*|fail\w*|crash\w*|gotcha|pitfall|flaky)\b", re.I),
     frozenset({"gotcha", "outcome"})),
    (re.compile(r"\b(how (do|should|to)|convention|usually|prefer\w*|always|never)\b", re.I),
     frozenset({"pattern", "preference"})),
)


def intent_types(query: str) -> frozenset[str]:
    """Memory types a query asks for by its wording; empty when it asks for none in particular."""
    wanted: set[str] = set()
    for pattern, types in _INTENTS:
        if pattern.search(query):
            wanted |= types
    return frozenset(wanted)


def _by_max(scores: Sequence[tuple[str, float]]) -> dict[str, float]:
    """BM25 has a natural zero: divide by the best score."""
    hi = max((s for _, s in scores), default=0.0)
    return {mid: s / hi if hi > 0 else 1.0 for mid, s in scores}


def _minmax(scores: Sequence[tuple[str, float]], min_span: float) -> dict[str, float]:
    """Cosine similarities crowd into a narrow band: spread them over the candidates, but over
    at least ``min_span`` so two near-equal candidates in a tiny store do not become 1 and 0."""
    if not scores:
        return {}
    hi = max(s for _, s in scores)
    lo = min(min(s for _, s in scores), hi - min_span)
    span = hi - lo
    return {mid: (s - lo) / span if span > 0 else 1.0 for mid, s in scores}


def fuse(
    keyword: Sequence[tuple[str, float]],
    vector: Sequence[tuple[str, float]],
    w: RankWeights,
) -> dict[str, dict[str, float]]:
    """Relative score fusion: keyword scores over the best one, vector similarities min-max
    normalised over the candidates (spread at least ``vector_min_span``), summed by weight and
    scaled so the best possible is 1.

    Unlike reciprocal-rank fusion it keeps how far apart candidates are, so a strong keyword
    match is not dragged down by a weak vector list (LoCoMo dev R@10: 0.68 vs RRF's 0.60).
    Returns per id ``relevance`` and the raw parts (ranks are 1-based; 0 means absent). Each
    id comes at most once per list, as the searches give them.
    """
    parts: dict[str, dict[str, float]] = {}
    total = (w.keyword_weight if keyword else 0.0) + (w.vector_weight if vector else 0.0)
    # Each candidate's parts are built in one literal (the keyword side first, as ranked), not
    # filled key by key: 0.11 against 0.13 ms a call over ~300 candidates, twice per recall.
    normed = _by_max(keyword)
    for rank, (mid, score) in enumerate(keyword, start=1):
        norm = normed[mid]
        parts[mid] = {"keyword_rank": rank, "keyword_score": score, "keyword_norm": norm,
                      "vector_rank": 0.0, "vector_similarity": 0.0, "vector_norm": 0.0,
                      "relevance": 0.0 + w.keyword_weight * norm / total}
    normed = _minmax(vector, w.vector_min_span)
    for rank, (mid, sim) in enumerate(vector, start=1):
        norm = normed[mid]
        p = parts.get(mid)
        if p is None:
            parts[mid] = {"keyword_rank": 0.0, "keyword_score": 0.0, "keyword_norm": 0.0,
                          "vector_rank": rank, "vector_similarity": sim, "vector_norm": norm,
                          "relevance": 0.0 + w.vector_weight * norm / total}
        else:
            p["vector_rank"], p["vector_similarity"], p["vector_norm"] = rank, sim, norm
            p["relevance"] += w.vector_weight * norm / total
    return parts


def empty_parts() -> dict[str, float]:
    """The fused parts of a candidate no search found (a memory that joined by context)."""
    return {
        "keyword_rank": 0.0, "keyword_score": 0.0, "keyword_norm": 0.0, "vector_rank": 0.0,
        "vector_similarity": 0.0, "vector_norm": 0.0, "relevance": 0.0,
    }


def contenders(
    fused: Mapping[str, dict[str, float]], k: int, w: RankWeights, *, graph: bool = False,
    context: bool = False, dated: bool = False,
) -> list[str]:
    """Ids that can still reach the top ``k`` after the final factors (so only they are fetched).

    The factors keep a score within [floor, boost] x relevance (the boost of a context memory
    and of a date the query names, when there is one), plus at most 1 - alpha from PageRank
    when ``graph``: anything that cannot catch the k-th best is left out.
    """
    order = sorted(fused, key=lambda mid: -fused[mid]["relevance"])
    if len(order) <= k:
        return order
    floor = (1 - w.confidence_weight) * (1 - w.recency_weight) * (1 - w.intent_weight)
    floor *= min((f for _, f in w.outcome_factor), default=1.0) * w.superseded_factor
    floor *= min((f for _, f in w.drift_factor), default=1.0)
    floor *= W.EPISODE_FACTOR
    boost = 1 + w.context_boost if context else 1.0
    if dated:
        boost *= 1 + w.dated_boost
    alpha = w.graph_alpha if graph else 1.0
    kth = alpha * fused[order[k - 1]]["relevance"] * floor
    cutoff = (kth - (1 - alpha)) / (alpha * boost)
    return [mid for mid in order if fused[mid]["relevance"] >= cutoff]


def score_ceilings(
    fused: Mapping[str, dict[str, float]], ids: Sequence[str], w: RankWeights, *,
    pagerank: Mapping[str, float] | None = None, context: Mapping[str, float] | None = None,
    dated: bool = False,
) -> list[float] | None:
    """The highest final score each of ``ids`` can reach, from what is known before its memory
    is loaded (its relevance, PageRank and connection to the context memory), so recall loads
    the contenders best first and stops once none left can beat the k-th score found: the
    same result as loading all of them, with a fraction of the rows (on the benchmark's
    stores 21-27 of ~136 for k=10). Every factor ``final_scores`` applies is taken at its
    largest; None when a weight outside its usual range makes a factor's largest value
    depend on the memory (then every contender is loaded)."""
    if (not 0 <= w.graph_alpha <= 1 or w.dated_boost < 0
            or any(f < 0 for _, f in (*w.outcome_factor, *w.drift_factor))
            or w.superseded_factor < 0 or W.EPISODE_FACTOR < 0
            or min(1 - w.confidence_weight, 1 - w.recency_weight, 1 - w.intent_weight) < 0):
        return None
    before = (max(1.0, 1 - w.confidence_weight) * max(1.0, 1 - w.recency_weight)
              * max(1.0, 1 - w.intent_weight) * max(1.0, W.EPISODE_FACTOR)
              * (1 + w.dated_boost if dated else 1.0))
    after = (max(1.0, *(f for _, f in w.outcome_factor)) * max(1.0, w.superseded_factor)
             * max(1.0, *(f for _, f in w.drift_factor)))
    alpha = w.graph_alpha if pagerank is not None else 1.0
    out = []
    for mid in ids:
        relevance = fused[mid]["relevance"]
        if relevance < 0:
            return None
        connected = 1 + w.context_boost * context.get(mid, 0.0) if context else 1.0
        score = alpha * relevance * before * max(connected, 0.0)
        if pagerank is not None:
            score += (1 - alpha) * pagerank.get(mid, 0.0)
        out.append(max(score, 0.0) * after)
    return out


recency = W.recency


def final_scores(
    fused: Mapping[str, dict[str, float]],
    memories: Mapping[str, Memory],
    now_ms: int,
    w: RankWeights,
    intent: frozenset[str] = frozenset(),
    *,
    pagerank: Mapping[str, float] | None = None,
    context: Mapping[str, float] | None = None,
    periods: Sequence[tuple[int, int]] = (),
) -> list[tuple[str, float, dict[str, float]]]:
    """Score = relevance x (1 - cw + cw x confidence) x (1 - rw + rw x recency) x intent x
    (1 + boost x connection to the context memory) x (1 + dated_boost when the memory was
    created in one of the ``periods`` the query names); with PageRank, the graph-aware score
    alpha x that + (1 - alpha) x normalised PageRank; then x outcome x superseded (the
    superseded factor when the memory's ``valid_to`` is at or before ``now_ms``) x drift (when
    the code it describes changed or went since it was recorded). A kept user
    turn (``weights.episodic``) counts ``EPISODE_FACTOR`` of its relevance.

    Multiplicative: the factors reorder relevant memories, never rescue irrelevant ones.
    """
    outcome_factor = dict(w.outcome_factor)
    drift_factor = dict(w.drift_factor)
    out = []
    for mid, p in fused.items():
        m = memories.get(mid)
        if m is None:
            continue
        rec = recency(m.created_at, now_ms, w.recency_half_life_days)
        conf_factor = 1 - w.confidence_weight + w.confidence_weight * m.confidence
        rec_factor = 1 - w.recency_weight + w.recency_weight * rec
        outcome = outcome_factor.get(m.outcome.value, 1.0) if m.outcome else 1.0
        fits = 1.0 if not intent or m.type.value in intent else 1.0 - w.intent_weight
        connected = 1.0 + w.context_boost * context.get(mid, 0.0) if context else 1.0
        history = w.superseded_factor if W.superseded(m.valid_to, now_ms) else 1.0
        drifted = drift_factor.get(m.drift, 1.0) if m.drift else 1.0
        said = W.EPISODE_FACTOR if W.episodic(m.type.value, m.topic) else 1.0
        when = 1 + w.dated_boost if periods and expansion.dated(m.created_at, periods) else 1.0
        score = p["relevance"] * conf_factor * rec_factor * fits * connected * said * when
        parts = dict(p, confidence=m.confidence, recency=rec, outcome=outcome,
                     superseded=history, drift=drifted, intent=fits, episode=said,
                     confidence_factor=conf_factor, recency_factor=rec_factor)
        if context is not None:
            parts["context"] = connected
        if periods:
            parts["dated"] = when
        if pagerank is not None:
            pr = pagerank.get(mid, 0.0)
            score = w.graph_alpha * score + (1 - w.graph_alpha) * pr
            parts["pagerank"] = pr
        # History applies last: a central but failed, superseded or stale decision stays below.
        score *= outcome * history * drifted
        parts["final"] = score
        out.append((mid, score, parts))
    out.sort(key=lambda t: (-t[1], t[0]))
    return out
