"""Graph traversal over a store: evolution chains, impact, neighbourhoods.

Every level of a breadth-first search is one batched query (no N+1); depth is capped; path
confidence is the product of the links' decayed confidences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kenning.graph.decay import decayed_confidence
from kenning.models import Filters, Link, LinkType, Memory, MemoryType
from kenning.store.base import Store

MAX_DEPTH = 5
EVOLUTION_MAX_DEPTH = 10


@dataclass(frozen=True)
class Reached:
    """A memory found by a traversal: how deep, through which link, how confidently."""

    memory_id: str
    depth: int
    confidence: float
    via: Link | None


def neighbourhood(
    store: Store,
    start: Sequence[str],
    *,
    now_ms: int,
    max_depth: int = 2,
    link_types: Sequence[LinkType] | None = None,
    min_confidence: float = 0.0,
) -> dict[str, Reached]:
    """Memories reachable from ``start`` within ``max_depth`` links (either direction), with the
    best path confidence; the start nodes themselves are not included."""
    depth_cap = min(max_depth, MAX_DEPTH)
    best: dict[str, Reached] = {}
    frontier = {mid: 1.0 for mid in start}
    seen = set(start)
    for depth in range(1, depth_cap + 1):
        if not frontier:
            break
        following: dict[str, float] = {}
        for ln in store.links_for(list(frontier), link_types=link_types):
            for here, there in ((ln.from_id, ln.to_id), (ln.to_id, ln.from_id)):
                if here not in frontier or there in seen:
                    continue
                conf = frontier[here] * decayed_confidence(
                    ln.confidence, ln.link_type.value, ln.created_at, now_ms
                )
                if conf < min_confidence:
                    continue
                if there not in best or conf > best[there].confidence:
                    best[there] = Reached(there, depth, conf, ln)
                    following[there] = max(following.get(there, 0.0), conf)
        seen.update(following)
        frontier = following
    return best


@dataclass
class ChainEntry:
    """One decision in an evolution chain, with how it changed and how it turned out."""

    memory: Memory
    evolves: list[tuple[str, str, str | None]] = field(default_factory=list)
    outcomes: list[Memory] = field(default_factory=list)
    implementations: list[Memory] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "memory": self.memory.to_dict(),
            "evolves": [{"relationship": r, "target": t, "reason": why}
                        for r, t, why in self.evolves],
            "outcomes": [m.to_dict() for m in self.outcomes],
            "implementations": [m.to_dict() for m in self.implementations],
        }


def evolution_chain(store: Store, project: str, topic: str) -> list[ChainEntry]:
    """"Why did we decide X?": every decision on ``topic`` plus decisions joined to them by
    evolution links (any topic), newest first, each with its outcomes and implementations."""
    base = Filters(project=project, types=(MemoryType.DECISION,), topic=topic)
    ids = [m.id for m in store.list(base, limit=None)]
    seen = set(ids)
    frontier = list(ids)
    for _ in range(EVOLUTION_MAX_DEPTH):
        nxt = []
        for ln in store.links_for(frontier, link_types=[LinkType.EVOLUTION]):
            for mid in (ln.from_id, ln.to_id):
                if mid not in seen:
                    seen.add(mid)
                    nxt.append(mid)
        if not nxt:
            break
        frontier = nxt
    if not seen:
        return []
    links = store.links_for(list(seen))
    others = {ln.from_id for ln in links} | {ln.to_id for ln in links}
    memories = store.get_many(list(seen | others))
    entries = {mid: ChainEntry(memories[mid]) for mid in seen if mid in memories}
    for ln in links:
        if ln.link_type is LinkType.EVOLUTION and ln.from_id in entries:
            entries[ln.from_id].evolves.append(
                (ln.relationship, ln.to_id, ln.metadata.get("reason"))
            )
        elif ln.link_type is LinkType.IMPLEMENTATION:
            decision, other = (ln.to_id, ln.from_id) if ln.to_id in entries else (
                ln.from_id, ln.to_id)
            if decision not in entries or other in entries or other not in memories:
                continue
            target = memories[other]
            bucket = (entries[decision].outcomes if target.type is MemoryType.OUTCOME
                      or ln.relationship == "outcome_of" else entries[decision].implementations)
            if target not in bucket:
                bucket.append(target)
    return sorted(entries.values(), key=lambda e: (-e.memory.created_at, e.memory.id))


def impact(
    store: Store, start_id: str, *, now_ms: int, window_ms: int, max_depth: int = MAX_DEPTH
) -> list[tuple[Memory, Reached]]:
    """"What happened after X?": memories created after ``start_id`` reached forward through
    implementation, evolution and temporal links; temporal hops only within ``window_ms``."""
    start = store.get_many([start_id])[start_id]
    horizon = start.created_at + window_ms
    found: dict[str, Reached] = {}
    frontier = {start_id: 1.0}
    created = {start_id: start.created_at}
    types = [LinkType.IMPLEMENTATION, LinkType.EVOLUTION, LinkType.TEMPORAL]
    for depth in range(1, min(max_depth, MAX_DEPTH) + 1):
        if not frontier:
            break
        links = store.links_for(list(frontier), link_types=types)
        ends = {ln.from_id for ln in links} | {ln.to_id for ln in links}
        unknown = [m for m in ends if m not in created]
        for mid, m in store.get_many(unknown).items():
            created[mid] = m.created_at
        following: dict[str, float] = {}
        for ln in links:
            for here, there in ((ln.from_id, ln.to_id), (ln.to_id, ln.from_id)):
                if here not in frontier or there == start_id or there in found:
                    continue
                when = created.get(there)
                if when is None or when < start.created_at:
                    continue
                if ln.link_type is LinkType.TEMPORAL and when > horizon:
                    continue
                conf = frontier[here] * decayed_confidence(
                    ln.confidence, ln.link_type.value, ln.created_at, now_ms
                )
                found[there] = Reached(there, depth, conf, ln)
                following[there] = conf
        frontier = following
    memories = store.get_many(list(found))
    ordered = sorted(found.values(), key=lambda r: (memories[r.memory_id].created_at, r.depth))
    return [(memories[r.memory_id], r) for r in ordered if r.memory_id in memories]
