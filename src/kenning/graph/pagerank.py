"""Weighted PageRank over memory links, by numpy power iteration.

Pure functions: node count and edge arrays in, score arrays out. Edges are parallel arrays
``src[i] -> dst[i]`` with ``weight[i] >= 0``; duplicate edges add up, self-loops are kept.
"""

from __future__ import annotations

import numpy as np


def _edge_arrays(
    n: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate and coerce parallel edge arrays to (int64, int64, float64); weight None = all 1."""
    if n < 0:
        raise ValueError(f"node count must be >= 0, got {n}")
    s = np.asarray(src, dtype=np.int64).ravel()
    d = np.asarray(dst, dtype=np.int64).ravel()
    if s.shape != d.shape:
        raise ValueError(f"src and dst differ in length: {s.size} vs {d.size}")
    if weight is None:
        w = np.ones(s.size, dtype=np.float64)
    else:
        w = np.asarray(weight, dtype=np.float64).ravel()
        if w.shape != s.shape:
            raise ValueError(f"weight has {w.size} entries for {s.size} edges")
        if w.size and not (np.isfinite(w).all() and (w >= 0).all()):
            raise ValueError("edge weights must be finite and >= 0")
    if s.size and (min(s.min(), d.min()) < 0 or max(s.max(), d.max()) >= n):
        raise ValueError(f"edge endpoint out of range for {n} nodes")
    return s, d, w


def pagerank(
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray | None,
    *,
    damping: float = 0.85,
    tol: float = 1e-6,
    max_iter: int = 100,
    undirected: bool = False,
) -> np.ndarray:
    """Weighted PageRank scores (float64, summing to 1) of ``n`` nodes by power iteration.

    Dangling nodes spread their rank uniformly; ``undirected`` counts every edge both ways.
    """
    if not 0.0 <= damping <= 1.0:
        raise ValueError(f"damping must be in [0, 1], got {damping}")
    s, d, w = _edge_arrays(n, src, dst, weight)
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    if undirected:
        s, d = np.concatenate((s, d)), np.concatenate((d, s))
        w = np.concatenate((w, w))
    out_w = np.bincount(s, weights=w, minlength=n)
    dangling = out_w <= 0.0
    # Transition share of each edge: its weight over its source's total out-weight.
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(out_w[s] > 0.0, w / out_w[s], 0.0)
    live = share > 0.0
    s, d, share = s[live], d[live], share[live]
    base = (1.0 - damping) / n
    rank = np.full(n, 1.0 / n)
    for _ in range(max(max_iter, 0)):
        spread = np.bincount(d, weights=rank[s] * share, minlength=n)
        leak = rank[dangling].sum() / n
        new = damping * (spread + leak) + base
        delta = np.abs(new - rank).sum()
        rank = new
        if delta < tol:
            break
    total = rank.sum()
    return rank / total if total > 0 else np.full(n, 1.0 / n)


def normalise(scores: np.ndarray) -> np.ndarray:
    """Scale scores into [0, 1] by their maximum, so graph rank can mix with other signals."""
    arr = np.asarray(scores, dtype=np.float64)
    if arr.size == 0:
        return arr.copy()
    top = arr.max()
    if not top > 0.0:
        return np.zeros_like(arr)
    scaled: np.ndarray = arr / top
    return scaled
