"""Recall loads its contenders best first and stops once none left can win: the results are
those of scoring every contender, with far fewer rows read and decoded."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from kenning import Kenning, recall
from kenning.models import MemoryType, OutcomeStatus
from kenning.ranking import RankWeights, final_scores, score_ceilings
from tests.conftest import T0
from tests.test_store_contract import mem

DAY = 86_400_000
AREAS = ("login tokens", "redis cache", "deploy pipeline", "postgres migrations",
         "checkout form", "search index", "billing webhooks", "image uploads")
VERBS = ("broke", "was fixed by", "depends on", "was replaced in", "slowed down",
         "needs a retry in", "is documented for", "was moved out of")
THINGS = ("the staging cluster", "the nightly job", "the mobile app", "the admin panel",
          "the public API", "the worker queue", "the CDN", "the audit log")


def notes(n: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    types = ("decision", "gotcha", "pattern", "insight", "context")
    out = []
    for i in range(n):
        area, verb, thing = rng.choice(AREAS), rng.choice(VERBS), rng.choice(THINGS)
        out.append({"text": f"Note {i}: {area} {verb} {thing} ({rng.choice(AREAS)})",
                    "type": rng.choice(types), "topic": area.split()[0],
                    "created_at": T0 - rng.randint(0, 200) * DAY})
    return out


def test_no_final_score_exceeds_its_ceiling() -> None:
    rng = random.Random(7)
    kinds = list(MemoryType)
    for case in range(200):
        w = RankWeights(context_boost=rng.choice((0.5, 0.0, 2.0)),
                        dated_boost=rng.choice((0.5, 0.0)),
                        intent_weight=rng.choice((0.1, 0.0, 0.5)))
        ids = [f"m{i}" for i in range(30)]
        memories = {mid: mem(mid, id=mid, type=rng.choice(kinds),
                             topic=rng.choice((None, "conversation", "auth")),
                             confidence=rng.random(), created_at=T0 - rng.randint(0, 90) * DAY,
                             outcome=rng.choice((None, *OutcomeStatus)),
                             valid_to=rng.choice((None, T0 - DAY)),
                             drift=rng.choice((None, "stale", "obsolete")))
                    for mid in ids}
        fused = {mid: {"relevance": rng.random()} for mid in ids}
        pagerank = {mid: rng.random() for mid in ids} if case % 2 else None
        context = {mid: rng.random() for mid in ids[::3]} if case % 3 else None
        periods = [(T0 - 30 * DAY, T0)] if case % 4 == 0 else []
        scores = {mid: s for mid, s, _ in final_scores(
            fused, memories, T0, w, frozenset({"decision"}), pagerank=pagerank,
            context=context, periods=periods)}
        ceilings = score_ceilings(fused, ids, w, pagerank=pagerank, context=context,
                                  dated=bool(periods))
        assert ceilings is not None
        for mid, ceiling in zip(ids, ceilings, strict=True):
            assert scores[mid] <= ceiling * (1 + 1e-12)


def test_weights_outside_their_range_load_every_contender() -> None:
    fused = {"a": {"relevance": 0.5}}
    assert score_ceilings(fused, ["a"], RankWeights(confidence_weight=1.5)) is None
    assert score_ceilings(fused, ["a"], RankWeights(superseded_factor=-1.0)) is None
    assert score_ceilings({"a": {"relevance": -0.1}}, ["a"], RankWeights()) is None


@pytest.mark.parametrize("graph", [False, True])
def test_best_first_loading_gives_the_results_of_loading_every_contender(
    make_kenning: Callable[..., Kenning], monkeypatch: pytest.MonkeyPatch, graph: bool,
) -> None:
    k = make_kenning()
    stored = k.remember_many(notes(300, seed=3))
    rng = random.Random(5)
    for m in rng.sample(stored, 40):  # confidence, outcomes and history that reorder hits
        k.outcome(m.id, rng.choice(("failed", "partial", "success")))
    for new, old in zip(stored[:10], stored[10:20], strict=True):
        k.supersede(new.id, old.id)
    if graph:
        k.consolidate()
    loaded: list[int] = []
    get_many = k.store.get_many

    def counting(ids: list[str]) -> dict[str, object]:
        loaded.append(len(ids))
        return get_many(ids)  # type: ignore[return-value]

    monkeypatch.setattr(k.store, "get_many", counting)
    queries = [f"why {a} {v} {t}" for a in AREAS for v in VERBS[:2] for t in THINGS[:2]]
    queries += ["what happened to redis cache on 3 May 2026", "postgres migrations in May"]
    context = stored[0].id

    def run(**kw: object) -> list[tuple[str, float, dict[str, float] | None]]:
        out = []
        for q in queries:
            out += [(h.memory.id, h.score, h.parts)
                    for h in k.recall(q, k=5, track=False, explain=True, **kw)]  # type: ignore[arg-type]
        return out

    best_first = run() + run(context=context)
    rows_best_first = sum(loaded)
    loaded.clear()
    monkeypatch.setattr(recall, "score_ceilings", lambda *a, **kw: None)
    every = run() + run(context=context)
    assert best_first == every
    assert rows_best_first < sum(loaded) / 2


def test_recall_without_the_ceilings_is_what_the_facade_ranks(
    make_kenning: Callable[..., Kenning],
) -> None:
    """Unusual weights fall back to loading every contender and still rank."""
    k = make_kenning(weights=replace(RankWeights(), confidence_weight=1.5))
    k.remember_many(notes(60, seed=11))
    hits = k.recall("redis cache broke the nightly job", k=5, track=False)
    assert len(hits) == 5
    assert hits == sorted(hits, key=lambda h: -h.score)
    assert k.recall("zeppelin quasar", k=5, track=False, mode="keyword") == []
