"""Pure graph algorithms: PageRank, communities, components, link decay and graph health."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kenning.graph.communities import components, label_propagation
from kenning.graph.decay import (
    DAY_MS,
    DECAY_PER_DAY,
    LINK_TYPES,
    decayed_confidence,
    decayed_many,
)
from kenning.graph.health import graph_health
from kenning.graph.pagerank import normalise, pagerank

NOW = 1_780_000_000_000


def arr(*xs: int) -> np.ndarray:
    return np.array(xs, dtype=np.int64)


def dense_pagerank(n: int, src, dst, w, damping: float = 0.85) -> np.ndarray:
    """Textbook dense power iteration: column-stochastic matrix, dangling columns uniform."""
    m = np.zeros((n, n))
    np.add.at(m, (dst, src), w)
    out = m.sum(axis=0)
    m = np.where(out > 0, m / np.where(out > 0, out, 1.0), 1.0 / n)
    r = np.full(n, 1.0 / n)
    for _ in range(10_000):
        new = damping * m @ r + (1 - damping) / n
        if np.abs(new - r).sum() < 1e-14:
            return new
        r = new
    return r


# --- PageRank ---------------------------------------------------------------------------------


def test_pagerank_cycle_is_uniform() -> None:
    r = pagerank(3, arr(0, 1, 2), arr(1, 2, 0), np.ones(3))
    np.testing.assert_allclose(r, [1 / 3] * 3, atol=1e-9)


def test_pagerank_star_centre_ranks_highest() -> None:
    leaves = np.arange(1, 6)
    r = pagerank(6, leaves, np.zeros(5, dtype=np.int64), np.ones(5))
    assert int(r.argmax()) == 0
    assert r[0] > 3 * r[1]
    np.testing.assert_allclose(r[1:], r[1])  # leaves are symmetric
    ru = pagerank(6, np.zeros(5, dtype=np.int64), leaves, np.ones(5), undirected=True)
    assert int(ru.argmax()) == 0


def test_pagerank_weights_matter() -> None:
    # 0 points at both 1 and 2, but its edge to 2 is three times heavier.
    r = pagerank(3, arr(0, 0), arr(1, 2), np.array([1.0, 3.0]))
    assert r[2] > r[1]
    same = pagerank(3, arr(0, 0), arr(1, 2), np.array([2.0, 2.0]))
    assert same[1] == pytest.approx(same[2])


def test_pagerank_sums_to_one_and_handles_dangling() -> None:
    # Node 2 has no out-edges; node 3 has no edges at all.
    r = pagerank(4, arr(0, 1), arr(1, 2), np.ones(2), tol=1e-12)
    assert r.sum() == pytest.approx(1.0)
    assert (r > 0).all()
    assert r[2] > r[1] > r[0]
    np.testing.assert_allclose(r, dense_pagerank(4, arr(0, 1), arr(1, 2), np.ones(2)), atol=1e-9)


def test_pagerank_matches_dense_reference_on_random_graph() -> None:
    rng = np.random.default_rng(7)
    n, e = 50, 200
    src, dst = rng.integers(0, n, e), rng.integers(0, n, e)
    w = rng.random(e) + 0.1
    r = pagerank(n, src, dst, w, tol=1e-12, max_iter=1000)
    np.testing.assert_allclose(r, dense_pagerank(n, src, dst, w), atol=1e-6)
    assert r.sum() == pytest.approx(1.0)
    both = pagerank(n, src, dst, w, tol=1e-12, max_iter=1000, undirected=True)
    ref = dense_pagerank(n, np.concatenate((src, dst)), np.concatenate((dst, src)),
                         np.concatenate((w, w)))
    np.testing.assert_allclose(both, ref, atol=1e-6)


def test_pagerank_edge_cases() -> None:
    assert pagerank(0, arr(), arr(), np.ones(0)).size == 0
    np.testing.assert_allclose(pagerank(4, arr(), arr(), None), [0.25] * 4)
    with pytest.raises(ValueError):
        pagerank(2, arr(0), arr(2), np.ones(1))
    with pytest.raises(ValueError):
        pagerank(2, arr(0), arr(1), np.array([-1.0]))


def test_normalise() -> None:
    np.testing.assert_allclose(normalise(np.array([1.0, 2.0, 4.0])), [0.25, 0.5, 1.0])
    np.testing.assert_array_equal(normalise(np.zeros(3)), np.zeros(3))
    assert normalise(np.zeros(0)).size == 0


# --- communities ------------------------------------------------------------------------------


def two_cliques() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cliques {0..4} and {5..9} (weight 1), joined by one weak edge 4-5 (weight 0.1)."""
    pairs = [(a, b) for lo in (0, 5) for a in range(lo, lo + 5) for b in range(a + 1, lo + 5)]
    pairs.append((4, 5))
    src, dst = np.array(pairs).T
    w = np.ones(len(pairs))
    w[-1] = 0.1
    return src, dst, w


def test_label_propagation_finds_two_cliques() -> None:
    src, dst, w = two_cliques()
    for seed in range(10):
        labels = label_propagation(10, src, dst, w, seed=seed)
        assert len(set(labels[:5].tolist())) == 1
        assert len(set(labels[5:].tolist())) == 1
        assert labels[0] != labels[5]
        assert sorted(set(labels.tolist())) == [0, 1]


def test_label_propagation_isolated_nodes_and_sizes() -> None:
    src, dst, w = two_cliques()
    # Nodes 10..12 have no edges; add a third, bigger clique {13..18} to check renumbering.
    extra = [(a, b) for a in range(13, 19) for b in range(a + 1, 19)]
    s2, d2 = np.array(extra).T
    src, dst = np.concatenate((src, s2)), np.concatenate((dst, d2))
    w = np.concatenate((w, np.ones(len(extra))))
    labels = label_propagation(19, src, dst, w)
    assert set(labels[13:].tolist()) == {0}  # largest community gets label 0
    iso = labels[10:13].tolist()
    assert len(set(iso)) == 3
    assert not set(iso) & set(labels[:10].tolist())
    assert labels.max() == 5  # 3 cliques + 3 singletons


def test_label_propagation_deterministic_with_seed() -> None:
    rng = np.random.default_rng(3)
    n, e = 300, 900
    src, dst, w = rng.integers(0, n, e), rng.integers(0, n, e), rng.random(e)
    a = label_propagation(n, src, dst, w, seed=11)
    b = label_propagation(n, src, dst, w, seed=11)
    np.testing.assert_array_equal(a, b)
    assert a.dtype == np.int64 and a.min() == 0
    sizes = np.bincount(a)
    assert (np.diff(sizes) <= 0).all()


def test_label_propagation_empty_and_pair() -> None:
    assert label_propagation(0, arr(), arr(), None).size == 0
    np.testing.assert_array_equal(label_propagation(3, arr(), arr(), None), [0, 1, 2])
    for seed in range(8):  # a lone pair must settle, not swap labels forever
        np.testing.assert_array_equal(label_propagation(2, arr(0), arr(1), None, seed=seed),
                                      [0, 0])


def test_components() -> None:
    # {0,1,2} via a path, {3,4}, {5} alone, {6,7,8,9} as a chain given out of order.
    src = arr(0, 1, 3, 8, 6, 7)
    dst = arr(1, 2, 4, 9, 7, 8)
    labels = components(10, src, dst)
    np.testing.assert_array_equal(labels, [1, 1, 1, 2, 2, 3, 0, 0, 0, 0])
    assert components(0, arr(), arr()).size == 0
    np.testing.assert_array_equal(components(3, arr(1), arr(1)), [0, 1, 2])


def test_components_long_path_and_random() -> None:
    n = 1000
    perm = np.random.default_rng(1).permutation(n)
    labels = components(n, perm[:-1], perm[1:])
    assert (labels == 0).all()
    rng = np.random.default_rng(2)
    src, dst = rng.integers(0, 200, 150), rng.integers(0, 200, 150)
    labels = components(200, src, dst)
    # Reference: plain BFS.
    adj: list[list[int]] = [[] for _ in range(200)]
    for a, b in zip(src.tolist(), dst.tolist(), strict=True):
        adj[a].append(b)
        adj[b].append(a)
    seen = [-1] * 200
    for start in range(200):
        if seen[start] >= 0:
            continue
        stack, seen[start] = [start], start
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if seen[y] < 0:
                    seen[y] = start
                    stack.append(y)
    for a in range(200):
        for b in (0, 57, 199):
            assert (labels[a] == labels[b]) == (seen[a] == seen[b])


# --- decay ------------------------------------------------------------------------------------


def test_decay_values() -> None:
    old = NOW - 400 * DAY_MS
    assert decayed_confidence(0.9, "evolution", old, NOW) == 0.9
    half = math.log(2) / DECAY_PER_DAY["temporal"]
    assert half == pytest.approx(6.93, abs=0.01)
    created = NOW - round(half * DAY_MS)
    assert decayed_confidence(0.8, "temporal", created, NOW) == pytest.approx(0.4, rel=1e-6)
    assert decayed_confidence(1.0, "association", NOW - 10 * DAY_MS, NOW) == pytest.approx(
        math.exp(-0.5))
    assert decayed_confidence(1.0, "implementation", NOW - 50 * DAY_MS, NOW) == pytest.approx(
        math.exp(-1.0))
    # Future creation times (clock skew) never raise confidence.
    assert decayed_confidence(0.7, "temporal", NOW + DAY_MS, NOW) == 0.7
    with pytest.raises(ValueError):
        decayed_confidence(0.5, "bogus", NOW, NOW)


def test_decayed_many_matches_scalar() -> None:
    types = ["evolution", "temporal", "association", "implementation", "temporal"]
    conf = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    created = np.array([NOW - 100 * DAY_MS, NOW - 3 * DAY_MS, NOW - 20 * DAY_MS,
                        NOW - 7 * DAY_MS, NOW + 5 * DAY_MS])
    want = [decayed_confidence(c, t, int(m), NOW)
            for c, t, m in zip(conf, types, created, strict=True)]
    np.testing.assert_allclose(decayed_many(conf, types, created, NOW), want)
    codes = np.array([LINK_TYPES.index(t) for t in types])
    np.testing.assert_allclose(decayed_many(conf, codes, created, NOW), want)
    with pytest.raises(ValueError):
        decayed_many(conf[:1], ["bogus"], created[:1], NOW)
    with pytest.raises(ValueError):
        decayed_many(conf[:1], np.array([9]), created[:1], NOW)


# --- health -----------------------------------------------------------------------------------


def test_graph_health_counts_and_recommendations() -> None:
    # 10 nodes: triangle {0,1,2}, pair {3,4}; 5..9 isolated (50% > 20%).
    src, dst = arr(0, 1, 2, 3), arr(1, 2, 0, 4)
    rels = [
        ("inspired_by", 30, 0.8, NOW - DAY_MS),
        ("motivated_by", 12, 0.7, NOW - DAY_MS),
        ("refines_auth_jwt_token", 1, 0.6, NOW - 90 * DAY_MS),
        ("fresh_one_off", 1, 0.6, NOW - 5 * DAY_MS),
        ("supersedes", 6, 0.9, NOW - 2 * DAY_MS),
    ]
    h = graph_health(10, src, dst, relationships=rels, link_bytes=2_000, db_bytes=10_000,
                     now_ms=NOW, synonyms={"motivated_by": "inspired_by", "unused": "x"})
    assert h.node_count == 10 and h.edge_count == 4
    assert h.component_count == 7  # triangle, pair, five singletons
    assert h.largest_component == 3
    assert h.isolated_count == 5
    assert h.connectivity == pytest.approx(0.5)
    assert h.orphaned_relationships == ["fresh_one_off", "refines_auth_jwt_token"]
    assert h.relationship_diversity == 5
    assert h.canonical_coverage == pytest.approx(38 / 50)
    assert h.link_storage_share == pytest.approx(0.2)
    assert h.recommendations[0] == "Merge 'motivated_by' into 'inspired_by' (12 occurrences)"
    assert h.recommendations[1] == "Archive 'refines_auth_jwt_token' (1 occurrence, 90 days old)"
    assert h.recommendations[2].startswith("Connect isolated memories: 50%")
    assert len(h.recommendations) == 3
    d = h.to_dict()
    assert d["component_count"] == 7 and d["recommendations"] == h.recommendations


def test_graph_health_well_connected_and_empty() -> None:
    h = graph_health(3, arr(0, 1), arr(1, 2), relationships=[("supersedes", 2, 0.9, NOW)],
                     link_bytes=0, db_bytes=0, now_ms=NOW)
    assert h.recommendations == []
    assert h.connectivity == 1.0 and h.component_count == 1 and h.canonical_coverage == 1.0
    assert h.link_storage_share == 0.0
    empty = graph_health(0, arr(), arr(), relationships=[], link_bytes=0, db_bytes=1, now_ms=NOW)
    assert empty.component_count == 0 and empty.largest_component == 0
    assert empty.recommendations == []
