"""The whole memory graph as compact columns for the canvas view, laid out server-side and
cached until a memory or link changes."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from kenning.models import Filters, LinkType, MemoryType
from kenning.web.layout import community_layout

if TYPE_CHECKING:
    from kenning.facade import Kenning

CORE_TYPES = [t.value for t in LinkType]
MEMORY_TYPES = [t.value for t in MemoryType]
LABEL_CHARS = 80


class GraphCache:
    """One laid-out graph per store state (link generation + memory watermark)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._mark: tuple[Any, ...] | None = None
        self._data: dict[str, Any] | None = None

    def get(self, k: Kenning) -> dict[str, Any]:
        store = k.store
        mark = (store.get_meta("link_generation"), store.watermark(),
                store.get_meta("graph_computed_at"), k.project)
        with self._lock:
            if self._data is None or mark != self._mark:
                self._data = build_graph(k)
                self._mark = mark
            return self._data


def build_graph(k: Kenning) -> dict[str, Any]:
    """Nodes (id, position, PageRank, community, type, label) and edges (ends by index, core
    type, confidence). PageRank and communities come from the last ``consolidate``; without
    one they are computed here (and not stored: the dashboard reads)."""
    from kenning.graph.structure import build, ranking_structure

    now = k.clock()
    nodes = k.store.node_rows(Filters(project=k.project))
    rows = k.store.link_rows()
    graph = build(nodes, rows, now)
    n = graph.n
    scores = k.store.graph_scores() if k.store.get_meta("graph_computed_at") else {}
    if scores:
        rank = np.array([scores.get(mid, (0.0, -1))[0] for mid in graph.ids], dtype=np.float64)
        community = np.array([scores.get(mid, (0.0, -1))[1] for mid in graph.ids],
                             dtype=np.int64)
        source = "consolidate"
    else:
        _, rank, community = ranking_structure(graph)
        source = "computed"
    pos = community_layout(rank, community)
    summaries = _labels(k, graph.ids)
    type_index = {t: i for i, t in enumerate(MEMORY_TYPES)}
    core_index = {t: i for i, t in enumerate(CORE_TYPES)}
    members = set(graph.ids)
    confidence = np.array([ln[3] for ln in rows if ln[0] in members and ln[1] in members],
                          dtype=np.float64)
    degree = (np.bincount(graph.src, minlength=n) + np.bincount(graph.dst, minlength=n)
              if n else np.zeros(0, dtype=np.int64))
    return {
        "count": n,
        "edge_count": len(graph.src),
        "scores_from": source,
        "types": MEMORY_TYPES,
        "core_types": CORE_TYPES,
        "nodes": {
            "id": graph.ids,
            "x": np.round(pos[:, 0], 1).tolist(),
            "y": np.round(pos[:, 1], 1).tolist(),
            "rank": np.round(rank, 4).tolist(),
            "community": community.tolist(),
            "type": [type_index.get(row[1], 0) for row in nodes],
            "topic": [row[2] or "" for row in nodes],
            "label": [summaries.get(mid, "") for mid in graph.ids],
            "degree": degree.tolist(),
        },
        "edges": {
            "source": graph.src.tolist(),
            "target": graph.dst.tolist(),
            "type": [core_index.get(t, 2) for t in graph.link_type],
            "confidence": np.round(confidence, 3).tolist(),
            "weight": np.round(graph.weight, 3).tolist(),
        },
    }


def _labels(k: Kenning, ids: list[str]) -> dict[str, str]:
    """Short summaries for hover labels, fetched in batches."""
    out: dict[str, str] = {}
    for start in range(0, len(ids), 500):
        for mid, m in k.store.get_many(ids[start : start + 500]).items():
            text = " ".join(m.summary.split())
            out[mid] = text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"
    return out
