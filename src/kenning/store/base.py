"""The store contract every engine (SQLite, PostgreSQL) implements and the contract tests check."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kenning.errors import ValidationError
from kenning.models import Anchor, CreatedBy, Filters, Link, LinkType, Memory, SessionEvent

if TYPE_CHECKING:
    import numpy as np

SCHEMA_VERSION = 5

# Columns the facade may change through ``update``; everything else is fixed at creation.
UPDATABLE = frozenset(
    {
        "type", "topic", "summary", "content", "category", "tags", "source", "confidence",
        "outcome", "outcome_reason", "project", "scope", "agent", "metadata", "content_hash",
        "updated_at",
    }
)


# -- validity: what ``supersedes`` links mean for the memories they point at --------------------
# Both engines apply these rules in the same transaction as the link change, so every path that
# makes or removes a supersedes link (remember, link, unlink, supersede, merge, migrate...)
# has the same effect.

def is_supersedes(link: Link) -> bool:
    """Whether a link says its source supersedes its target (by its canonical relation)."""
    return (link.link_type is LinkType.EVOLUTION
            and link.metadata.get("canonical", link.relationship) == "supersedes")


def validity(rows: Iterable[tuple[str, str, int, int]]) -> dict[str, tuple[int, str]]:
    """``old id -> (valid_to, superseded_by)`` from ``(old id, successor id, link created_at,
    successor created_at)`` rows of supersedes links. A memory stops being true when its
    successor was made, or when the link was made if that is later; with several successors
    the latest supersession counts (ties by successor id). A memory without rows is current."""
    out: dict[str, tuple[int, str]] = {}
    for old, new, linked_at, new_created in rows:
        ends = (max(int(linked_at), int(new_created)), new)
        if old not in out or ends > out[old]:
            out[old] = ends
    return out


def reject_cycles(links: Sequence[Link],
                  successors: Callable[[builtins.list[str]], Iterable[tuple[str, str]]]
                  ) -> builtins.list[Link]:
    """``links`` without the supersedes links that would close a cycle (A supersedes B
    supersedes A, directly or through others). ``successors(ids)`` gives the stored
    ``(from, to)`` supersedes links out of ``ids``. An automatic link that would close one is
    dropped; one a person or an agent asked for raises ValidationError."""
    added: dict[str, set[str]] = {}
    kept: builtins.list[Link] = []
    for ln in links:
        if ln.from_id == ln.to_id or not is_supersedes(ln):
            kept.append(ln)
            continue
        if _reaches(ln.to_id, ln.from_id, added, successors):
            if ln.created_by is CreatedBy.SYSTEM:
                continue
            raise ValidationError(
                f"{ln.from_id} cannot supersede {ln.to_id}: {ln.to_id} already supersedes "
                f"{ln.from_id} (directly or through others), and supersession cannot go in a "
                "circle")
        added.setdefault(ln.from_id, set()).add(ln.to_id)
        kept.append(ln)
    return kept


def _reaches(start: str, goal: str, added: dict[str, set[str]],
             successors: Callable[[builtins.list[str]], Iterable[tuple[str, str]]]) -> bool:
    """Whether ``goal`` can be reached from ``start`` along supersedes links."""
    seen = {start}
    frontier = [start]
    while frontier:
        if goal in seen:
            return True
        found = [b for a in frontier for b in added.get(a, ())]
        found += [b for _, b in successors(frontier)]
        frontier = [b for b in dict.fromkeys(found) if b not in seen]
        seen.update(frontier)
    return goal in seen


# -- code drift: what a memory's anchors say about it -------------------------------------------

_SEVERITY = {"fresh": 0, "stale": 1, "obsolete": 2}


def drift_of(anchors: Sequence[Anchor]) -> tuple[str | None, str | None]:
    """A memory's ``(drift, drift_reason)`` from its anchors: the worst state (obsolete over
    stale; None when every anchor is fresh) and that anchor's reason (the first by path)."""
    worst: Anchor | None = None
    for a in anchors:
        rank = _SEVERITY.get(a.state, 0)
        if rank and (worst is None or rank > _SEVERITY[worst.state]):
            worst = a
    return (None, None) if worst is None else (worst.state, worst.reason)


PENDING_LINKS = "links-pending:"  # meta key prefix: a memory whose vector and links are to come
"""The meta rows ``<prefix><memory id>`` hold what a memory written without waiting for the
model needs to be linked once its vector is computed."""


@runtime_checkable
class Store(Protocol):
    """Persistence for memories, their vectors and links. Every method is one transaction."""

    @property
    def location(self) -> str:
        """Where the data lives (a file path or a redacted DSN)."""
        ...

    @property
    def engine(self) -> str:
        """Engine name: ``sqlite`` or ``postgresql``."""
        ...

    def schema_version(self) -> int: ...

    def insert(
        self, memories: Sequence[Memory], vectors: np.ndarray | None, embedder_id: str | None,
        redactions: int = 0, links: Sequence[Link] = (),
        pending_links: Mapping[str, str] | None = None,
    ) -> list[Memory]:
        """Insert memories, their vectors and links in one transaction; a duplicate returns the
        stored one with ``is_new=False`` (links naming it attach to the stored id).
        ``redactions`` is added to the store's redaction counter. ``pending_links`` (memory id
        -> what its automatic links need, as JSON) marks new memories whose vector and links
        come later, in the same transaction, so a killed process leaves the mark behind."""
        ...

    def pending_links(self, limit: int) -> builtins.list[tuple[str, str]]:
        """(memory id, JSON) of memories still waiting for their vector and links, oldest id
        first."""
        ...

    def settle_links(
        self, embedder_id: str, vectors: Sequence[tuple[str, np.ndarray]],
        links: Sequence[Link], done: Sequence[str],
    ) -> None:
        """In one transaction: store the vectors and links of memories that still exist and
        clear the pending mark of ``done`` (a memory deleted meanwhile is simply done)."""
        ...

    def get_many(self, ids: Sequence[str]) -> dict[str, Memory]: ...

    def resolve_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        """Ids starting with ``prefix`` (case-insensitive), so people can type short ids."""
        ...

    def update(
        self, memory_id: str, fields: dict[str, Any], vector: np.ndarray | None,
        embedder_id: str | None, redactions: int = 0,
    ) -> Memory:
        """Change the given fields; with a vector, replace the memory's vector too. Raises
        ValidationError when the change would duplicate another memory's text."""
        ...

    def delete(self, memory_id: str) -> bool:
        """Remove a memory, its vectors and its links. False when it did not exist."""
        ...

    def list(
        self,
        filters: Filters,
        *,
        limit: int | None = 50,
        offset: int = 0,
        newest_first: bool = True,
    ) -> list[Memory]: ...

    def scan(self, after: str | None, limit: int) -> builtins.list[Memory]:
        """Every memory in id order, ``limit`` at a time after the id ``after`` (keyset paging:
        each page costs the same however deep, unlike an OFFSET)."""
        ...

    def count(self, filters: Filters) -> int: ...

    def keyword_search(
        self, query: str, filters: Filters, limit: int
    ) -> builtins.list[tuple[str, float]]:
        """Ids and keyword scores (higher is better), best first."""
        ...

    def vector_search(
        self, vector: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> builtins.list[tuple[str, float]]:
        """Ids and cosine similarities for vectors of ``embedder_id`` only, best first."""
        ...

    def vector_search_many(
        self, vectors: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> builtins.list[builtins.list[tuple[str, float]]]:
        """``vector_search`` for a batch of query vectors (one pass over the index)."""
        ...

    def adjacent(
        self, ids: Sequence[str], filters: Filters, width: int, reach_ms: int
    ) -> dict[str, builtins.list[tuple[str, int]]]:
        """Each of ``ids`` (that exists) mapped to the memories passing ``filters`` created
        nearest before it and nearest after it, ``width`` on each side and at most
        ``reach_ms`` away (memories of the same instant count on either side), as ``(id, its
        created_at minus the memory's)``, nearest first: the turns around a memory, for
        recall's neighbourhood context. The reach bounds the index walk when few memories
        pass the filters."""
        ...

    def vectors_of(self, ids: Sequence[str], embedder_id: str) -> dict[str, np.ndarray]:
        """The stored vector of each id that has one from ``embedder_id``."""
        ...

    def record_access(self, ids: Sequence[str], at_ms: int, reason: str = "accessed") -> None:
        """Count a use of each id (a repeated id counts each time) and apply the learning
        rule atomically in the database (decay first for episodic kinds, then
        ``kenning.learning.ACCESS_BOOST`` per use, capped at ``CEILING``); log the new
        confidence with ``reason``; count the first few ids as used together."""
        ...

    def record_co_access(self, ids: Sequence[str], at_ms: int) -> None:
        """Count the first few ids as retrieved together (the graph's co-access links grow
        from these counts) without touching their confidence or access statistics."""
        ...

    def adjust_confidence(
        self, changes: Sequence[tuple[str, float, str]], at_ms: int
    ) -> dict[str, float]:
        """Apply feedback ``(memory_id, delta, reason)`` atomically (decay first, then
        ``delta``, kept within [0, 1]), log each with its reason and move ``updated_at`` to
        ``at_ms``; unknown ids are skipped. Returns the new confidences."""
        ...

    def confidence_history(
        self, memory_id: str, limit: int = 200
    ) -> builtins.list[tuple[int, float, str]]:
        """``(at_ms, confidence, reason)`` of a memory's logged confidence changes, oldest first."""
        ...

    def add_session_events(self, events: Sequence[SessionEvent]) -> builtins.list[str]:
        """Store hook session events; ids already stored are ignored. Returns the new ids."""
        ...

    def session_events(
        self, *, session_id: str | None = None, kinds: Sequence[str] | None = None,
        project: str | None = None, limit: int = 1000, newest_first: bool = False,
    ) -> builtins.list[SessionEvent]:
        """Session events matching every given filter, by time (oldest first by default)."""
        ...

    def missing_vectors(self, embedder_id: str, limit: int) -> builtins.list[tuple[str, str]]:
        """(id, text to embed) for memories without a vector from ``embedder_id``."""
        ...

    def count_missing_vectors(self, embedder_id: str) -> int: ...

    def put_vectors(self, embedder_id: str, items: Sequence[tuple[str, np.ndarray]]) -> None: ...

    def drop_other_vectors(self, embedder_id: str) -> int:
        """Delete vectors made by any other embedder; returns how many went."""
        ...

    def vector_counts(self) -> dict[str, int]:
        """Number of stored vectors per embedder id."""
        ...

    def add_link(self, link: Link) -> Link:
        """Store a link; an existing link with the same ends, type and relationship is returned.
        A supersedes link ends its target's validity (``validity``); one that would close a
        cycle is refused (``reject_cycles``). Removing a link, or a memory with its links,
        recomputes the validity of the memories it superseded."""
        ...

    def add_links(self, links: Sequence[Link]) -> builtins.list[Link]:
        """Store many links in one transaction (existing ones are kept and returned)."""
        ...

    def links_of(self, memory_id: str) -> builtins.list[Link]:
        """Links into and out of a memory."""
        ...

    def links_for(
        self, ids: Sequence[str], *, link_types: Sequence[LinkType] | None = None,
        direction: str = "both",
    ) -> builtins.list[Link]:
        """Links touching any of ``ids`` (``out``: from them, ``in``: to them), in one batch."""
        ...

    def link_rows(self) -> builtins.list[tuple[str, str, str, float, int, str, str]]:
        """Every link as (from, to, core type, confidence, created_at, relationship, created_by),
        light enough to build the whole graph from."""
        ...

    def link_ids_for_pruning(self) -> builtins.list[tuple[str, str, float, int, str]]:
        """(id, core type, confidence, created_at, created_by) of automatic, decaying links."""
        ...

    def node_rows(self, filters: Filters) -> builtins.list[tuple[str, str, str | None, int, float]]:
        """(id, type, topic, created_at, confidence) of the memories passing ``filters``."""
        ...

    def delete_link(self, link_id: str) -> bool: ...

    def delete_links(self, link_ids: Sequence[str]) -> int: ...

    def update_link(
        self, link_id: str, *, confidence: float | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Link: ...

    def rename_relationship(self, old: str, new: str, link_type: LinkType) -> int:
        """Merge a relationship word into another (keeping ``merged_from`` in metadata)."""
        ...

    def link_summary(self, filters: Filters) -> dict[str, dict[str, int]]:
        """Counts of the links leaving memories that pass ``filters``: ``by_core_type``,
        ``by_kind`` (the ``kind`` in a link's metadata: ``reference`` when absent,
        ``similar``, ``temporal``, ``co-accessed``, ``causal``) and ``by_creator``."""
        ...

    def links_with_relationships(self, words: Sequence[str]) -> builtins.list[Link]:
        """Links whose relationship word is one of ``words``."""
        ...

    def relationship_canonical(self, word: str) -> str | None:
        """The canonical relation recorded when ``word`` was first linked, if any."""
        ...

    def relationship_stats(self) -> builtins.list[tuple[str, int, float, int, str]]:
        """(relationship, usage count, average confidence, last used ms, core type), most used
        first."""
        ...

    def put_graph_scores(
        self, rows: Sequence[tuple[str, float, float, int]], computed_at: int
    ) -> None:
        """Store (memory id, PageRank, normalised PageRank, community) rows, replacing the
        earlier scores of those memories."""
        ...

    def graph_scores(self, ids: Sequence[str] | None = None) -> dict[str, tuple[float, int]]:
        """Normalised PageRank and community per memory id (all when ``ids`` is None)."""
        ...

    def co_access_pairs(self, min_count: int) -> builtins.list[tuple[str, str, int, int]]:
        """(a, b, times recalled together, last time) for pairs seen at least ``min_count``."""
        ...

    def co_access_rows(self, ids: Sequence[str]) -> builtins.list[tuple[str, str, int, int]]:
        """Every co-access counter (a, b, count, last time) whose ``a`` (the smaller id) is one
        of ``ids``, in (a, b) order: each pair once when paging over all ids (for migrate)."""
        ...

    def put_co_access(self, rows: Sequence[tuple[str, str, int, int]]) -> int:
        """Store co-access counters in one transaction, pairs in either order; a pair already
        there keeps the higher count and later time. Rows naming a memory not in the store are
        skipped; returns how many were stored."""
        ...

    def confidence_log_rows(self, ids: Sequence[str]) -> builtins.list[tuple[str, int, float, str]]:
        """(memory id, at_ms, confidence, reason) of every logged confidence change of ``ids``,
        by memory id and then in logged order (for migrate)."""
        ...

    def put_confidence_log(self, rows: Sequence[tuple[str, int, float, str]]) -> int:
        """Append confidence-log rows, in the given order, in one transaction; rows of a memory
        not in the store are skipped. Returns how many were appended."""
        ...

    def set_anchors(self, anchors: Mapping[str, Sequence[Anchor]]) -> int:
        """Replace the anchors of each memory named (an empty list removes them) and set its
        ``drift`` and ``drift_reason`` from them (``drift_of``), in one transaction; memories
        not in the store are skipped. Only a change of drift counts as a change of the memory
        (caches, the prompt index). Returns how many memories' drift changed."""
        ...

    def anchors(
        self, *, project: str | None = None, paths: Sequence[str] | None = None,
        memory_ids: Sequence[str] | None = None,
    ) -> builtins.list[Anchor]:
        """Stored anchors matching every given filter (memories of ``project``, anchors on
        ``paths``, of ``memory_ids``), by memory id, path and symbol."""
        ...

    def watermark(self) -> str:
        """A cheap value that changes whenever memories are added, changed or deleted."""
        ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def stats(self) -> dict[str, Any]:
        """Counts for ``doctor``: memories by type, links, vectors, redactions, size."""
        ...

    def close(self) -> None: ...
