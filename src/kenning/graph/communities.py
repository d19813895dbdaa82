"""Community structure of the memory graph: label propagation and connected components.

Pure functions over parallel edge arrays (``src[i] -- dst[i]``, treated as undirected).
Both return int64 labels renumbered 0..c-1 by descending community size (ties: the community
holding the smaller node index first), so label 0 is always the largest group.
"""

from __future__ import annotations

import numpy as np

from kenning.graph.pagerank import _edge_arrays

# Label propagation updates nodes in this many seeded random batches per sweep (see below).
_BATCHES = 4
# Relative slack under which two summed label weights count as tied.
_TIE_RTOL = 1e-9


def _renumber(labels: np.ndarray) -> np.ndarray:
    """Map arbitrary labels to 0..c-1 by descending group size, ties by smallest member index."""
    if labels.size == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, inverse, counts = np.unique(
        labels, return_index=True, return_inverse=True, return_counts=True
    )
    order = np.lexsort((first, -counts))
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size, dtype=np.int64)
    return rank[inverse.ravel()]


def label_propagation(
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray | None,
    *,
    max_iter: int = 20,
    seed: int = 0,
) -> np.ndarray:
    """Weighted undirected label-propagation communities, deterministic for a given seed.

    Each node adopts the label with the largest summed edge weight among its neighbours.
    """
    # How it runs: each sweep splits the nodes into _BATCHES random batches (seeded RNG) and
    # updates one batch at a time, vectorised, against the labels left by earlier batches -- a
    # semi-synchronous schedule that behaves like asynchronous LPA but costs a few numpy sorts
    # per sweep. Ties: a node keeps its current label when that label is tied for best
    # (Raghavan et al.'s stopping rule, which prevents flip-flopping); otherwise the smallest
    # tied label wins. Only nodes with a neighbour whose label changed are re-evaluated; the
    # run stops when no node is left to re-evaluate (every node holds a best label) or after
    # max_iter sweeps. Self-loops and zero-weight edges carry no vote; isolated nodes keep
    # their own label.
    s, d, w = _edge_arrays(n, src, dst, weight)
    labels = np.arange(n, dtype=np.int64)
    if n == 0:
        return labels
    keep = (s != d) & (w > 0.0)
    s, d, w = s[keep], d[keep], w[keep]
    # Half-edges u <- v (v votes for u's label), both directions, grouped by receiving node u.
    u = np.concatenate((s, d))
    v = np.concatenate((d, s))
    hw = np.concatenate((w, w))
    order = np.argsort(u, kind="stable")
    u, v, hw = u[order], v[order], hw[order]

    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(u, minlength=n), out=indptr[1:])

    rng = np.random.default_rng(seed)
    dirty = indptr[1:] > indptr[:-1]  # nodes with at least one neighbour
    for _ in range(max(max_iter, 0)):
        active = np.flatnonzero(dirty)
        if not active.size:
            break
        batch_of = rng.integers(0, _BATCHES, size=active.size)
        for b in range(_BATCHES):
            nodes = active[batch_of == b]
            if not nodes.size:
                continue
            dirty[nodes] = False
            he = _csr_rows(indptr, nodes)
            changed = _update_batch(labels, u[he], labels[v[he]], hw[he], n)
            if changed.size:
                dirty[v[_csr_rows(indptr, changed)]] = True
    return _renumber(labels)


def _csr_rows(indptr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Concatenated entry indices ``indptr[r]:indptr[r + 1]`` of each row in ``rows``."""
    starts = indptr[rows]
    lens = indptr[rows + 1] - starts
    ends = np.cumsum(lens)
    entries: np.ndarray = (np.arange(ends[-1] if ends.size else 0)
                           + np.repeat(starts - ends + lens, lens))
    return entries


def _update_batch(
    labels: np.ndarray, bu: np.ndarray, bl: np.ndarray, bw: np.ndarray, n: int
) -> np.ndarray:
    """Move each node in ``bu`` to its best neighbour label in place; return the moved nodes."""
    order = np.argsort(bu * n + bl)
    bu, bl, bw = bu[order], bl[order], bw[order]
    starts = np.flatnonzero(
        np.concatenate(([True], (bu[1:] != bu[:-1]) | (bl[1:] != bl[:-1])))
    )
    gsum = np.add.reduceat(bw, starts)
    gu, gl = bu[starts], bl[starts]
    # Groups are sorted by (node, label); find each node's run of groups and its best weight.
    ustart = np.flatnonzero(np.concatenate(([True], gu[1:] != gu[:-1])))
    gmax = np.maximum.reduceat(gsum, ustart)
    runs = np.diff(np.append(ustart, gu.size))
    cand = gsum >= np.repeat(gmax, runs) * (1.0 - _TIE_RTOL)
    keep_current = np.zeros(n, dtype=bool)
    keep_current[gu[cand & (gl == labels[gu])]] = True
    ci = np.flatnonzero(cand)
    cu = gu[ci]
    first = ci[np.concatenate(([True], cu[1:] != cu[:-1]))]
    nodes, new = gu[first], gl[first]
    move = ~keep_current[nodes] & (labels[nodes] != new)
    nodes, new = nodes[move], new[move]
    labels[nodes] = new
    moved: np.ndarray = nodes
    return moved


def components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Connected components (edges undirected), labels 0..c-1 by descending component size.

    Vectorised union-find: hook each root onto the smallest adjacent root, then compress paths.
    """
    s, d, _ = _edge_arrays(n, src, dst)
    parent = np.arange(n, dtype=np.int64)
    keep = s != d
    s, d = s[keep], d[keep]
    while s.size:
        ps, pd = parent[s], parent[d]
        lo, hi = np.minimum(ps, pd), np.maximum(ps, pd)
        live = lo != hi
        if not live.any():
            break
        # An edge inside one tree stays inside it; drop it from later rounds.
        s, d, lo, hi = s[live], d[live], lo[live], hi[live]
        # parent[i] <= i always holds, so hooking a root onto a smaller root makes no cycles.
        np.minimum.at(parent, hi, lo)
        while True:  # full path compression by pointer jumping
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
    return _renumber(parent)
