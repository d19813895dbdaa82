"""Copy a store into another engine (SQLite <-> PostgreSQL) in batches, resumably, and prove it.

Memories keep their ids and every field (confidence, access counts, timestamps); vectors, links,
graph scores, co-access counters, the confidence log, code anchors, session events and meta
follow.
Re-running after an interruption skips what is already there, so nothing is duplicated.
``fingerprint`` gives counts and content hashes that must match on both sides.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from kenning.models import Filters, Link, Memory
from kenning.store.base import Store

# Engine-internal counters: each engine keeps its own, copying them would confuse its caches.
INTERNAL_META = frozenset({"generation", "link_generation"})
Progress = Callable[[str, int, int], None]


@dataclass
class MigrationReport:
    """What was copied, and the fingerprints of both sides after the copy."""

    source: str
    target: str
    copied: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    source_fingerprint: dict[str, Any] = field(default_factory=dict)
    target_fingerprint: dict[str, Any] = field(default_factory=dict)

    @property
    def verified(self) -> bool:
        return self.source_fingerprint == self.target_fingerprint

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "target": self.target, "copied": self.copied,
            "skipped": self.skipped, "verified": self.verified,
            "source_fingerprint": self.source_fingerprint,
            "target_fingerprint": self.target_fingerprint,
        }


def meta_items(store: Store) -> dict[str, str]:
    """Every meta key and value of ``store`` except engine-internal counters."""
    items: dict[str, str]
    if hasattr(store, "meta_items"):
        items = store.meta_items()
    elif store.engine == "sqlite":
        conn = sqlite3.connect(f"file:{store.location}?mode=ro", uri=True)
        try:
            items = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        finally:
            conn.close()
    else:  # pragma: no cover - every engine is handled above
        raise TypeError(f"cannot list the meta of a {store.engine} store")
    return {k: v for k, v in items.items() if k not in INTERNAL_META}


def _pages(store: Store, batch: int) -> Iterator[list[Memory]]:
    """Every memory in id order. Keyset pages: OFFSET paging made copying 1M memories
    quadratic (each page re-skipped every row before it)."""
    after: str | None = None
    while True:
        page = store.scan(after, batch)
        if not page:
            return
        yield page
        after = page[-1].id


BULK_FROM = 5_000  # memories from which a PostgreSQL target builds its HNSW index at the end


def migrate(
    source: Store, target: Store, *, batch: int = 500, progress: Progress | None = None,
    bulk: bool | None = None,
) -> MigrationReport:
    """Copy everything from ``source`` into ``target`` and fingerprint both sides. ``bulk``
    (default: from BULK_FROM memories) lets a PostgreSQL target build vector indexes once at
    the end instead of row by row."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    if bulk is None:
        bulk = source.count(Filters()) >= BULK_FROM
    loading = getattr(target, "bulk_load", None)
    if not (bulk and loading):
        return _migrate(source, target, batch, progress)
    with loading():
        report = _migrate(source, target, batch, progress, verify=False)
    _verify(report, source, target, batch, progress)
    return report


def _verify(report: MigrationReport, source: Store, target: Store, batch: int,
            progress: Progress | None) -> None:
    _tick(progress, "verifying", 0, 2)
    report.source_fingerprint = fingerprint(source, batch=batch)
    _tick(progress, "verifying", 1, 2)
    report.target_fingerprint = fingerprint(target, batch=batch)
    _tick(progress, "verifying", 2, 2)


def _migrate(source: Store, target: Store, batch: int, progress: Progress | None,
             verify: bool = True) -> MigrationReport:
    report = MigrationReport(source.location, target.location)
    copied = dict.fromkeys(("memories", "vectors", "links", "graph_scores", "co_access",
                            "confidence_log", "anchors", "session_events", "meta"), 0)
    skipped = {"memories": 0, "duplicates": 0}
    total = source.count(Filters())
    embedders = sorted(source.vector_counts())
    alias: dict[str, str] = {}  # source id -> target id, where the target already had the text
    done = 0
    _tick(progress, "memories", 0, total)
    for page in _pages(source, batch):
        present = target.get_many([m.id for m in page])
        fresh = [m for m in page if m.id not in present]
        skipped["memories"] += len(page) - len(fresh)
        if fresh:
            stored = target.insert(fresh, None, None)
            for m, s in zip(fresh, stored, strict=True):
                if s.id != m.id:
                    alias[m.id] = s.id
                    skipped["duplicates"] += 1
                else:
                    copied["memories"] += 1
        ids = [m.id for m in page]
        for embedder in embedders:
            have = target.vectors_of([i for i in ids if i in present], embedder)
            vecs = source.vectors_of(ids, embedder)
            items = [(i, v) for i, v in vecs.items() if i not in alias and i not in have]
            target.put_vectors(embedder, items)
            copied["vectors"] += len(items)
        done += len(page)
        _tick(progress, "memories", done, total)
    done = 0
    _tick(progress, "links", 0, total)
    for page in _pages(source, batch):
        ids = [m.id for m in page]
        links = source.links_for(ids, direction="out")
        moved = [_realias(ln, alias) for ln in links]
        target.add_links([ln for ln in moved if ln.from_id != ln.to_id])
        copied["links"] += len(moved)
        copied["co_access"] += _copy_co_access(source, target, ids, alias)
        copied["confidence_log"] += _copy_confidence_log(source, target, ids, alias)
        copied["anchors"] += _copy_anchors(source, target, [i for i in ids if i not in alias])
        scores = source.graph_scores(ids)
        # The store hands out the normalised rank (what recall reads); it stands for the raw one
        # until the next consolidation recomputes both.
        target.put_graph_scores(
            [(alias.get(i, i), norm, norm, community) for i, (norm, community) in scores.items()],
            _int(source.get_meta("graph_computed_at")),
        )
        copied["graph_scores"] += len(scores)
        done += len(page)
        _tick(progress, "links", done, total)
    copied["session_events"] = _copy_session_events(source, target, batch)
    for key, value in sorted(meta_items(source).items()):
        target.set_meta(key, value)
        copied["meta"] += 1
    report.copied, report.skipped = copied, skipped
    if hasattr(target, "analyze"):
        target.analyze()  # fresh planner statistics after a bulk load
    if verify:
        _verify(report, source, target, batch, progress)
    return report


def _copy_co_access(source: Store, target: Store, ids: Sequence[str],
                    alias: dict[str, str]) -> int:
    """The co-access counters of ``ids`` that the target does not hold as they are."""
    rows = []
    for a, b, n, at in source.co_access_rows(ids):
        a, b = sorted((alias.get(a, a), alias.get(b, b)))
        if a != b:
            rows.append((a, b, n, at))
    have = set(target.co_access_rows(sorted({r[0] for r in rows})))
    todo = [r for r in rows if r not in have]
    return target.put_co_access(todo) if todo else 0


def _copy_confidence_log(source: Store, target: Store, ids: Sequence[str],
                         alias: dict[str, str]) -> int:
    """The logged confidence changes of ``ids`` that the target lacks, in logged order (an
    entry logged twice is copied twice). A memory whose text the target already held under
    another id keeps that memory's history: these values were never its confidence."""
    have = Counter(target.confidence_log_rows(ids))
    todo = []
    for row in source.confidence_log_rows(ids):
        if row[0] in alias:
            continue
        if have[row]:
            have[row] -= 1
        else:
            todo.append(row)
    return target.put_confidence_log(todo) if todo else 0


def _copy_anchors(source: Store, target: Store, ids: Sequence[str]) -> int:
    """The code anchors of ``ids`` whose memory's anchors differ on the target (each memory's
    set replaces the target's, so a run after an interruption copies it whole again)."""
    def by_memory(store: Store) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for a in store.anchors(memory_ids=ids):
            out.setdefault(a.memory_id, []).append(a)
        return out

    have, want = by_memory(target), by_memory(source)
    todo = {mid: items for mid, items in want.items() if have.get(mid) != items}
    if todo:
        target.set_anchors(todo)
    return sum(len(items) for items in todo.values())


def _copy_session_events(source: Store, target: Store, batch: int) -> int:
    if not (hasattr(source, "session_events") and hasattr(target, "add_session_events")):
        return 0
    events = source.session_events(limit=10**9)
    for start in range(0, len(events), batch):
        target.add_session_events(events[start : start + batch])
    return len(events)


def _realias(link: Link, alias: dict[str, str]) -> Link:
    from dataclasses import replace

    if link.from_id in alias or link.to_id in alias:
        return replace(link, from_id=alias.get(link.from_id, link.from_id),
                       to_id=alias.get(link.to_id, link.to_id))
    return link


def _int(value: str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0


def _tick(progress: Progress | None, phase: str, done: int, total: int) -> None:
    if progress is not None:
        progress(phase, done, total)


def _digest(obj: Any) -> bytes:
    return hashlib.sha256(
        json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    ).digest()


def _combine(digests: list[bytes]) -> str:
    h = hashlib.sha256()
    for d in sorted(digests):
        h.update(d)
    return h.hexdigest()


def memory_record(m: Memory) -> dict[str, Any]:
    """Every stored field of a memory, exactly (``to_dict`` rounds confidence)."""
    d = m.to_dict()
    d["confidence"] = repr(float(m.confidence))
    d["created_at"], d["updated_at"] = m.created_at, m.updated_at
    d["last_accessed_at"] = m.last_accessed_at
    return d


def fingerprint(store: Store, *, batch: int = 1000) -> dict[str, Any]:
    """Counts and order-independent SHA-256 hashes of memories, vectors, links, graph scores,
    co-access counters, the confidence log (each memory's in order) and meta: equal
    fingerprints mean equal content."""
    mem_d: list[bytes] = []
    vec_d: list[bytes] = []
    link_d: list[bytes] = []
    score_d: list[bytes] = []
    co_d: list[bytes] = []
    log_d: list[bytes] = []
    anchor_d: list[bytes] = []
    embedders = sorted(store.vector_counts())
    for page in _pages(store, batch):
        ids = [m.id for m in page]
        mem_d += [_digest(memory_record(m)) for m in page]
        for embedder in embedders:
            for mid, v in store.vectors_of(ids, embedder).items():
                vec_d.append(hashlib.sha256(
                    f"{mid}|{embedder}|".encode() + v.astype("<f4").tobytes()).digest())
        link_d += [_digest(ln.to_dict()) for ln in store.links_for(ids, direction="out")]
        score_d += [_digest([i, repr(n), c]) for i, (n, c) in store.graph_scores(ids).items()]
        co_d += [_digest(list(row)) for row in store.co_access_rows(ids)]
        anchor_d += [_digest(a.to_dict() | {"memory_id": a.memory_id})
                     for a in store.anchors(memory_ids=ids)]
        nth: dict[str, int] = {}
        for mid, at, conf, reason in store.confidence_log_rows(ids):
            nth[mid] = nth.get(mid, 0) + 1
            log_d.append(_digest([mid, nth[mid], at, repr(conf), reason]))
    meta = meta_items(store)
    return {
        "counts": {"memories": len(mem_d), "vectors": len(vec_d), "links": len(link_d),
                   "graph_scores": len(score_d), "co_access": len(co_d),
                   "confidence_log": len(log_d), "anchors": len(anchor_d), "meta": len(meta)},
        "hashes": {"memories": _combine(mem_d), "vectors": _combine(vec_d),
                   "links": _combine(link_d), "graph_scores": _combine(score_d),
                   "co_access": _combine(co_d), "confidence_log": _combine(log_d),
                   "anchors": _combine(anchor_d),
                   "meta": _combine([_digest([k, v]) for k, v in meta.items()])},
    }
