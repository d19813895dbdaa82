"""The whole graph as arrays, and the ranking structure (PageRank, communities) computed on it.

Pure: store rows and a clock in, arrays and scores out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kenning.graph.communities import label_propagation
from kenning.graph.decay import decayed_many
from kenning.graph.pagerank import normalise, pagerank


@dataclass
class GraphArrays:
    """Nodes (memory ids) and edges as parallel arrays; weights are decayed confidences."""

    ids: list[str]
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    link_type: list[str]
    relationship: list[str]

    @property
    def n(self) -> int:
        return len(self.ids)


def build(
    nodes: Sequence[tuple[str, str, str | None, int, float]],
    links: Sequence[tuple[str, str, str, float, int, str, str]],
    now_ms: int,
) -> GraphArrays:
    """Arrays for the links whose both ends are among ``nodes`` (rows from the store)."""
    ids = [row[0] for row in nodes]
    index = {mid: i for i, mid in enumerate(ids)}
    kept = [ln for ln in links if ln[0] in index and ln[1] in index]
    src = np.fromiter((index[ln[0]] for ln in kept), dtype=np.int64, count=len(kept))
    dst = np.fromiter((index[ln[1]] for ln in kept), dtype=np.int64, count=len(kept))
    conf = np.fromiter((ln[3] for ln in kept), dtype=np.float64, count=len(kept))
    created = np.fromiter((ln[4] for ln in kept), dtype=np.int64, count=len(kept))
    types = [ln[2] for ln in kept]
    weight = decayed_many(conf, types, created, now_ms) if kept else conf
    return GraphArrays(ids, src, dst, np.asarray(weight, dtype=np.float64), types,
                       [ln[5] for ln in kept])


def ranking_structure(g: GraphArrays) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted PageRank (d = 0.85, tol 1e-6, links count both ways), its normalised form and
    label-propagation communities."""
    pr = pagerank(g.n, g.src, g.dst, g.weight, damping=0.85, tol=1e-6, undirected=True)
    labels = label_propagation(g.n, g.src, g.dst, g.weight)
    return pr, normalise(pr), labels
