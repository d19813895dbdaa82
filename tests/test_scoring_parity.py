"""The prompt hook scores memories with its own lean code (``kenning.promptindex.inject.hit``: no
facade, no numpy in a fresh process); recall scores them with ``kenning.ranking.final_scores``.
Given the same memories, keyword relevance, PageRank and clock, both must give the same scores
and so the same order; a memory superseded by then is ranked down by recall and left out by
the hook, under the same rule."""

from __future__ import annotations

import random
from dataclasses import replace

from kenning import learning
from kenning.models import Category, Memory, MemoryType, OutcomeStatus, Scope
from kenning.promptindex import inject
from kenning.ranking import RankWeights, final_scores

NOW = 1_780_000_000_000
DAY = 86_400_000


def memories(rng: random.Random, n: int) -> list[Memory]:
    out = []
    for i in range(n):
        created = NOW - rng.randint(0, 400) * DAY - rng.randint(0, DAY)
        updated = created + rng.choice([0, rng.randint(0, NOW - created)])
        accessed = rng.choice([None, rng.randint(updated, NOW)])
        out.append(Memory(
            # session summaries are records the prompt hook shows at most once (never, in fact)
            id=f"m{i:03d}", type=rng.choice([t for t in MemoryType if t is not MemoryType.SESSION]),
            topic=rng.choice([None, "auth"]),
            summary=f"memory {i}", content=f"memory {i}", category=Category.PROJECT_PATTERNS,
            tags=(), source=None, confidence=round(rng.uniform(0.05, 1.0), 3),
            outcome=rng.choice([None, *OutcomeStatus]), outcome_reason=None, project="p",
            scope=Scope.PROJECT, agent=None, created_at=created, updated_at=updated,
            last_accessed_at=accessed, access_count=0, content_hash=str(i)))
    return out


def test_prompt_hook_and_recall_score_alike() -> None:
    rng = random.Random(20261125)
    for graph in (False, True):
        pool = memories(rng, 120)
        relevance = {m.id: rng.uniform(0.01, 1.0) for m in pool}
        pagerank = {m.id: rng.uniform(0.0, 1.0) for m in pool} if graph else None
        # Some memories were superseded before now, some only take their successor later.
        pool = [replace(m, valid_to=NOW - rng.randint(0, 3) * DAY, superseded_by="x")
                if rng.random() < 0.2 else
                replace(m, valid_to=NOW + DAY, superseded_by="x") if rng.random() < 0.05
                else m for m in pool]
        superseded = {m.id for m in pool if m.valid_to is not None and m.valid_to <= NOW}
        assert superseded
        # Recall sees each memory with its confidence as of now (decayed from its last touch).
        live = {m.id: replace(m, confidence=learning.decayed(
            m.confidence, learning.anchor_ms(m.created_at, m.updated_at, m.last_accessed_at),
            NOW, m.type.value)) for m in pool}
        recall = final_scores({mid: {"relevance": r} for mid, r in relevance.items()}, live,
                              NOW, RankWeights(), pagerank=pagerank)
        hook = inject.best([inject.hit(
            m.id, m.type.value, m.topic, m.summary, m.confidence, m.created_at, m.updated_at,
            m.last_accessed_at, m.outcome.value if m.outcome else None, relevance[m.id],
            (pagerank or {}).get(m.id, 0.0), m.valid_to, NOW, graph=graph)
            for m in pool], len(pool))
        recall_scores = {mid: score for mid, score, _ in recall}
        for h in hook:
            assert abs(float(h["score"]) - recall_scores[str(h["id"])]) < 1e-4, h  # type: ignore[arg-type]
        assert {str(h["id"]) for h in hook} == {m.id for m in pool} - superseded
        current = [mid for mid, _, _ in recall if mid not in superseded]
        assert [h["id"] for h in hook][:20] == current[:20]
        factor = RankWeights().superseded_factor
        assert all(parts["superseded"] == factor for mid, _, parts in recall if mid in superseded)
