"""The store contract every engine (SQLite, PostgreSQL) implements and the contract tests check."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kenning.models import Filters, Link, Memory

if TYPE_CHECKING:
    import numpy as np

SCHEMA_VERSION = 1

# Columns the facade may change through ``update``; everything else is fixed at creation.
UPDATABLE = frozenset(
    {
        "type", "topic", "summary", "content", "category", "tags", "source", "confidence",
        "outcome", "outcome_reason", "scope", "agent", "metadata", "content_hash", "updated_at",
    }
)


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
        redactions: int = 0,
    ) -> list[Memory]:
        """Insert memories (and their vectors) atomically; a duplicate returns the stored one
        with ``is_new=False``. ``redactions`` is added to the store's redaction counter."""
        ...

    def get_many(self, ids: Sequence[str]) -> dict[str, Memory]: ...

    def resolve_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        """Ids starting with ``prefix`` (case-insensitive), so people can type short ids."""
        ...

    def update(
        self, memory_id: str, fields: dict[str, Any], vector: np.ndarray | None,
        embedder_id: str | None, redactions: int = 0,
    ) -> Memory:
        """Change the given fields; with a vector, replace the memory's vector too."""
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

    def count(self, filters: Filters) -> int: ...

    def keyword_search(self, query: str, filters: Filters, limit: int) -> list[tuple[str, float]]:
        """Ids and keyword scores (higher is better), best first."""
        ...

    def vector_search(
        self, vector: np.ndarray, embedder_id: str, filters: Filters, limit: int
    ) -> list[tuple[str, float]]:
        """Ids and cosine similarities for vectors of ``embedder_id`` only, best first."""
        ...

    def record_access(self, ids: Sequence[str], at_ms: int) -> None: ...

    def missing_vectors(self, embedder_id: str, limit: int) -> list[tuple[str, str]]:
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
        """Store a link; an existing link with the same ends, type and relationship is returned."""
        ...

    def links_of(self, memory_id: str) -> list[Link]:
        """Links into and out of a memory."""
        ...

    def delete_link(self, link_id: str) -> bool: ...

    def watermark(self) -> str:
        """A cheap value that changes whenever memories are added, changed or deleted."""
        ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def stats(self) -> dict[str, Any]:
        """Counts for ``doctor``: memories by type, links, vectors, redactions, size."""
        ...

    def close(self) -> None: ...
