"""The relationship words in use, tended at each consolidation: clustering by meaning (health
suggests merging a cluster into its canonical form, a query finds the whole cluster), orphan
decay (a fading one-off word is archived under its canonical, a table word never is), and
promotion of much-used words (resolved like table words from then on)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from kenning import Kenning
from kenning.relations import RelationshipResolver, cluster_words, orphan_decay
from tests.conftest import Clock
from tests.test_relations import FakeEmbedder, _axis

DAY = 86_400_000


@pytest.fixture
def kk(make_kenning: Callable[..., Kenning]) -> Kenning:
    fake = FakeEmbedder({
        "learned from": _axis(5), "learnt from": _axis(5, 0.2), "gleaned from": _axis(5, 0.35),
        "sketched beside": _axis(7),
    })
    return make_kenning(embedder=None, relations=RelationshipResolver(embedder=fake))


def pair(k: Kenning, n: int) -> tuple[str, str]:
    a = k.remember(f"Decision {n}: ship the parser behind a flag", type="decision")
    b = k.remember(f"Note {n}: the parser flag defaults to off", type="insight")
    return a.id, b.id


def test_words_in_use_are_clustered_and_merges_suggested(kk: Kenning) -> None:
    for n, word in enumerate(["learned from"] * 3 + ["learnt from", "gleaned from"]):
        a, b = pair(kk, n)
        kk.link(a, b, word)
    out = kk.consolidate()["vocabulary"]
    assert out["clusters"] == 1
    recs = kk.health()["recommendations"]
    assert "Merge 'learnt_from' into 'learned_from' (1 occurrence)" in recs
    assert "Merge 'gleaned_from' into 'learned_from' (1 occurrence)" in recs
    found = {ln.relationship for ln in kk.links_by_relationship("gleaned from")}
    assert found == {"learned_from", "learnt_from", "gleaned_from"}  # the whole cluster


def test_a_fading_one_off_word_is_archived_but_a_table_word_is_not(kk: Kenning,
                                                                   clock: Clock) -> None:
    a, b = pair(kk, 1)
    odd = kk.link(a, b, "sketched beside")
    c, d = pair(kk, 2)
    kk.link(c, d, "blocks")
    assert "sketched_beside" in kk.health()["orphaned_relationships"]
    assert "blocks" not in kk.health()["orphaned_relationships"]  # the table's own word
    clock.advance(5 * DAY)
    assert kk.consolidate()["vocabulary"]["archived"] == {}
    clock.advance(15 * DAY)  # 0.8 x e^(-0.05 x 20 x 2) is below 0.2
    assert kk.consolidate()["vocabulary"]["archived"] == {"sketched_beside": "relates_to"}
    (moved,) = [ln for ln in kk.links(a) if ln.id == odd.id]
    assert moved.relationship == "relates_to" and moved.metadata["merged_from"] == (
        "sketched_beside")
    assert [ln.relationship for ln in kk.links(c)] == ["blocks"]
    assert not any("blocks" in r for r in kk.health()["recommendations"])


def test_a_much_used_word_is_promoted_and_never_archived(kk: Kenning, clock: Clock) -> None:
    for n in range(10):
        a, b = pair(kk, n)
        kk.link(a, b, "learned from", confidence=0.9)
    assert kk.consolidate()["vocabulary"]["promoted"] == ["learned_from"]
    rel = kk.relations.resolve("learned from")
    assert (rel.canonical, rel.via, rel.inference_confidence) == ("learned_from", "table", 1.0)
    clock.advance(90 * DAY)
    assert kk.consolidate()["vocabulary"]["archived"] == {}
    assert "learned_from" not in kk.health()["orphaned_relationships"]


def test_the_pure_cores() -> None:
    vecs = np.array([[1.0, 0.0], [0.96, 0.28], [0.0, 1.0]])
    assert cluster_words(["a_b", "a_c", "z"], {"a_b": 1, "a_c": 4, "z": 1}, vecs) == {
        "a_b": "a_c", "a_c": "a_c"}  # the most used one is the canonical form
    assert cluster_words(["relies_on", "unrelies_on"], {}, vecs[:2]) == {}  # guarded pair
    now = 100 * DAY
    rows = [("odd_word", 1, 0.8, now - 20 * DAY), ("common_word", 5, 0.8, now - 20 * DAY),
            ("supersedes", 1, 0.9, 0)]
    assert [w for w, _ in orphan_decay(rows, now)] == ["odd_word"]
    assert orphan_decay(rows, now, official=["odd_word"]) == []
