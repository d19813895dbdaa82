"""An in-memory copy of one embedder's vectors for exact search: a float32 matrix plus the columns
filters need, kept in step with the store by small incremental updates."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from kenning.models import Filters, Scope

CODED = ("type", "topic", "project", "scope", "agent")


@functools.cache
def _blas_libraries() -> tuple[Any, ...]:
    """The BLAS libraries numpy loaded, as threadpoolctl controllers (found once, ~1 ms)."""
    from threadpoolctl import ThreadpoolController

    return tuple(ThreadpoolController().select(user_api="blas").lib_controllers)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the enclosed products on the calling thread alone. A search is one matrix-vector
    product, bound by memory: a second BLAS thread barely helps on a quiet machine, and on a
    busy one (or beside recall's own keyword search thread) waiting for it cost 15 ms against
    1 ms at 10,000 vectors, measured interleaved. Setting the limit is two C calls per library."""
    libs = _blas_libraries()
    before = [lib.get_num_threads() for lib in libs]
    for lib, n in zip(libs, before, strict=True):
        if n != 1:
            lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, n in zip(libs, before, strict=True):
            if n != 1:
                lib.set_num_threads(n)


class VectorCache:
    """Rows arrive as ``(seq, memory_id, dim, blob, type, topic, project, scope, agent,
    created_at)``. Buffers grow by doubling; a changed memory's old row is marked dead and its
    new row appended, so an update costs one row, not a reload. Text columns are stored as small
    integer codes so filter masks are integer compares.
    """

    def __init__(self, embedder_id: str) -> None:
        self.embedder_id = embedder_id
        self.generation: str | None = None
        self.max_seq = 0
        self.last_change = 0
        self.n = 0
        self.dead = 0
        self.ids: list[str] = []
        self.index: dict[str, int] = {}
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._alive = np.zeros(0, dtype=bool)
        self._cols: dict[str, np.ndarray] = {}
        self._codes: dict[str, dict[Any, int]] = {c: {} for c in CODED}

    @property
    def live(self) -> int:
        return self.n - self.dead

    def _reserve(self, extra: int, dim: int) -> None:
        need = self.n + extra
        if self._matrix.shape[0] >= need:
            return
        cap = max(need, 2 * self._matrix.shape[0], 1024)
        grown = np.empty((cap, dim), dtype=np.float32)
        alive = np.zeros(cap, dtype=bool)
        if self.n:
            grown[: self.n] = self._matrix[: self.n]
            alive[: self.n] = self._alive[: self.n]
        self._matrix, self._alive = grown, alive
        for name in (*CODED, "created_at"):
            col = np.empty(cap, dtype=np.int64 if name == "created_at" else np.int32)
            if name in self._cols and self.n:
                col[: self.n] = self._cols[name][: self.n]
            self._cols[name] = col

    def kill(self, memory_ids: Iterable[str]) -> None:
        """Forget the rows of these memories (they changed or were deleted)."""
        for mid in memory_ids:
            i = self.index.pop(mid, None)
            if i is not None:
                self._alive[i] = False
                self.dead += 1

    def append(self, rows: Sequence[tuple[Any, ...]]) -> None:
        if not rows:
            return
        self.kill(r[1] for r in rows if r[1] in self.index)
        dim = rows[0][2]
        self._reserve(len(rows), dim)
        start, end = self.n, self.n + len(rows)
        block = np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float32)
        self._matrix[start:end] = block.reshape(-1, dim)
        self._alive[start:end] = True
        for j, name in enumerate(CODED, start=4):
            codes = self._codes[name]
            self._cols[name][start:end] = [codes.setdefault(r[j], len(codes)) for r in rows]
        self._cols["created_at"][start:end] = [r[9] for r in rows]
        for offset, r in enumerate(rows):
            self.ids.append(r[1])
            self.index[r[1]] = start + offset
        self.n = end
        self.max_seq = max(self.max_seq, max(r[0] for r in rows))
        if self.dead > max(1024, self.n // 4):
            self._compact()

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: self.n])
        self._matrix = self._matrix[keep].copy()
        self._alive = np.ones(len(keep), dtype=bool)
        self._cols = {name: col[keep].copy() for name, col in self._cols.items()}
        self.ids = [self.ids[i] for i in keep]
        self.index = {mid: i for i, mid in enumerate(self.ids)}
        self.n, self.dead = len(keep), 0

    def _is(self, name: str, values: Sequence[Any]) -> np.ndarray:
        codes = [self._codes[name][v] for v in values if v in self._codes[name]]
        return np.isin(self._cols[name][: self.n], codes)

    def mask(self, f: Filters) -> np.ndarray | None:
        """Rows passing ``f`` (and alive); None when every row passes."""
        parts: list[np.ndarray] = [self._alive[: self.n]] if self.dead else []
        if f.project is not None:
            parts.append(self._is("project", [f.project]) | self._is("scope", [Scope.USER.value]))
        if f.types:
            parts.append(self._is("type", [t.value for t in f.types]))
        if f.topic is not None:
            parts.append(self._is("topic", [f.topic]))
        if f.since is not None:
            parts.append(self._cols["created_at"][: self.n] >= f.since)
        if f.until is not None:
            parts.append(self._cols["created_at"][: self.n] < f.until)
        if f.scopes:
            parts.append(self._is("scope", [s.value for s in f.scopes]))
        if f.agent is not None:
            parts.append(self._is("agent", [f.agent]))
        if not parts:
            return None
        out = parts[0]
        for p in parts[1:]:
            out = out & p
        return out

    def search(self, vector: Any, f: Filters, limit: int) -> list[tuple[str, float]]:
        """Exact top-``limit`` by inner product (cosine for unit vectors), best first."""
        if not self.live:
            return []
        with one_blas_thread():
            sims = self._matrix[: self.n] @ np.asarray(vector, dtype=np.float32)
        mask = self.mask(f)
        if mask is not None:
            sims = np.where(mask, sims, -np.inf)
        k = min(limit, self.n)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        ids = self.ids
        # Python ints and floats at once: indexing numpy scalars one by one cost ~0.2 ms.
        return [(ids[i], s) for i, s in zip(top.tolist(), sims[top].tolist(), strict=True)
                if math.isfinite(s)]

    def search_many(self, vectors: Any, f: Filters, limit: int) -> list[list[tuple[str, float]]]:
        """``search`` for a batch of query vectors with one matrix product."""
        queries = np.asarray(vectors, dtype=np.float32)
        if not self.live or queries.size == 0:
            return [[] for _ in range(len(queries))]
        sims = queries @ self._matrix[: self.n].T
        mask = self.mask(f)
        if mask is not None:
            sims = np.where(mask[None, :], sims, -np.inf)
        k = min(limit, self.n)
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        out = []
        for row, idx in enumerate(top):
            idx = idx[np.argsort(-sims[row, idx], kind="stable")]
            hits = sims[row, idx]
            out.append([(self.ids[i], float(h)) for i, h in zip(idx, hits, strict=True)
                        if np.isfinite(h)])
        return out

    def vectors_of(self, memory_ids: Sequence[str]) -> dict[str, Any]:
        """The current vector of each memory that has one (views into the matrix; read only)."""
        return {mid: self._matrix[self.index[mid]] for mid in memory_ids if mid in self.index}
