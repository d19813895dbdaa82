"""The data Kenning keeps: memories, links between them, and recall hits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NamedTuple, overload


class MemoryType(StrEnum):
    """What kind of thing a memory records (decisions, checkpoints and insights, plus the
    episode kinds agent sessions produce: patterns, gotchas, outcomes, discoveries...)."""

    DECISION = "decision"
    CHECKPOINT = "checkpoint"
    INSIGHT = "insight"
    CONTEXT = "context"
    PATTERN = "pattern"
    GOTCHA = "gotcha"
    OUTCOME = "outcome"
    DISCOVERY = "discovery"
    SESSION = "session"
    PREFERENCE = "preference"


class Category(StrEnum):
    """Auto memory categories: the sections of MEMORY.md and the topic files."""

    PROJECT_PATTERNS = "project-patterns"
    DEBUGGING = "debugging"
    ARCHITECTURE = "architecture"
    PREFERENCES = "preferences"
    PERFORMANCE = "performance"
    SECURITY = "security"


class OutcomeStatus(StrEnum):
    """How a decision turned out."""

    SUCCESS = "success"
    FAILED = "failed"
    PARTIAL = "partial"


class Scope(StrEnum):
    """Where a memory applies: this project (shared), this checkout only, or the user everywhere."""

    PROJECT = "project"
    LOCAL = "local"
    USER = "user"


class LinkType(StrEnum):
    """The four core link types of the storage layer; every free relationship word maps onto
    one of them."""

    EVOLUTION = "evolution"
    IMPLEMENTATION = "implementation"
    ASSOCIATION = "association"
    TEMPORAL = "temporal"


class CreatedBy(StrEnum):
    """Who made a link."""

    USER = "user"
    SYSTEM = "system"
    LLM = "llm"


# Default category per type, so MEMORY.md sections stay meaningful without the user choosing.
DEFAULT_CATEGORY: dict[MemoryType, Category] = {
    MemoryType.DECISION: Category.ARCHITECTURE,
    MemoryType.CHECKPOINT: Category.PROJECT_PATTERNS,
    MemoryType.INSIGHT: Category.PROJECT_PATTERNS,
    MemoryType.CONTEXT: Category.PROJECT_PATTERNS,
    MemoryType.PATTERN: Category.PROJECT_PATTERNS,
    MemoryType.GOTCHA: Category.DEBUGGING,
    MemoryType.OUTCOME: Category.PROJECT_PATTERNS,
    MemoryType.DISCOVERY: Category.ARCHITECTURE,
    MemoryType.SESSION: Category.PROJECT_PATTERNS,
    MemoryType.PREFERENCE: Category.PREFERENCES,
}

# Starting confidence per type when the caller gives none: decisions and gotchas are deliberate.
DEFAULT_CONFIDENCE: dict[MemoryType, float] = {
    MemoryType.DECISION: 0.8,
    MemoryType.GOTCHA: 0.75,
    MemoryType.PREFERENCE: 0.8,
    MemoryType.PATTERN: 0.7,
}
BASE_CONFIDENCE = 0.6


@overload
def iso(ms: int) -> str: ...
@overload
def iso(ms: None) -> None: ...
@overload
def iso(ms: int | None) -> str | None: ...
def iso(ms: int | None) -> str | None:
    """Unix milliseconds to ISO 8601 with a trailing Z (the JSON form)."""
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z"
    )


# ``Memory.valid_from`` when none is given: the memory's own ``created_at`` is used.
SINCE_CREATED = -(2**63)


@dataclass(frozen=True, slots=True)
class Memory:
    """One remembered thing. Times are Unix milliseconds (UTC); ``*_time`` give datetimes."""

    id: str
    type: MemoryType
    topic: str | None
    summary: str
    content: str
    category: Category
    tags: tuple[str, ...]
    source: str | None
    confidence: float
    outcome: OutcomeStatus | None
    outcome_reason: str | None
    project: str
    scope: Scope
    agent: str | None
    created_at: int
    updated_at: int
    last_accessed_at: int | None
    access_count: int
    content_hash: str
    metadata: dict[str, Any] = field(default_factory=dict)
    is_new: bool = field(default=True, compare=False)
    # When it became true (its creation unless stated), when it stopped (the time a successor
    # superseded it) and that successor's id. The store keeps the last two from the
    # ``supersedes`` links into the memory; nobody sets them by hand.
    valid_from: int = SINCE_CREATED
    valid_to: int | None = None
    superseded_by: str | None = None
    # Whether the code it describes changed since it was recorded (``kenning.drift``):
    # "stale" (an anchored file or symbol changed) or "obsolete" (it was deleted), and why.
    # The store keeps both from the memory's anchors; nobody sets them by hand.
    drift: str | None = None
    drift_reason: str | None = None

    def __post_init__(self) -> None:
        if self.valid_from == SINCE_CREATED:
            object.__setattr__(self, "valid_from", self.created_at)

    @property
    def created_time(self) -> datetime:
        return datetime.fromtimestamp(self.created_at / 1000, tz=UTC)

    @property
    def current(self) -> bool:
        """Whether nothing supersedes it."""
        return self.valid_to is None

    @property
    def user_rule(self) -> bool:
        """Whether it holds a rule or decision the user stated (stored with the rule the
        detector read): such a memory is in force until it is changed or fails, whatever its
        confidence; confidence ranks it, never leaves it out."""
        rule = self.metadata.get("rule")
        return isinstance(rule, dict) and rule.get("speaker") == "user"

    @property
    def stale(self) -> bool:
        """Whether code it describes changed or went since it was recorded."""
        return self.drift is not None

    def current_at(self, now_ms: int) -> bool:
        """Whether it still holds at ``now_ms``: nothing superseded it, or the successor takes
        over only later. Ranking, the prompt hook, the briefing and MEMORY.md use this."""
        return self.valid_to is None or self.valid_to > now_ms

    def to_dict(self) -> dict[str, Any]:
        """Stable JSON form used by the CLI's ``--json`` and the other adapters."""
        return {
            "id": self.id,
            "type": self.type.value,
            "topic": self.topic,
            "summary": self.summary,
            "content": self.content,
            "category": self.category.value,
            "tags": list(self.tags),
            "source": self.source,
            "confidence": round(self.confidence, 4),
            "outcome": self.outcome.value if self.outcome else None,
            "outcome_reason": self.outcome_reason,
            "project": self.project,
            "scope": self.scope.value,
            "agent": self.agent,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "last_accessed_at": iso(self.last_accessed_at),
            "access_count": self.access_count,
            "content_hash": self.content_hash,
            "metadata": self.metadata,
            "valid_from": iso(self.valid_from),
            "valid_to": iso(self.valid_to),
            "superseded_by": self.superseded_by,
            "current": self.current,
            "stale": self.drift is not None,
            "stale_reason": self.drift_reason,
            "obsolete": self.drift == "obsolete",
        }


@dataclass(frozen=True, slots=True)
class Link:
    """A typed, confidence-weighted edge; ``metadata`` is the expression layer (the agent's own
    relationship word, reason and tags, kept beside the core ``link_type``)."""

    id: str
    from_id: str
    to_id: str
    link_type: LinkType
    confidence: float
    created_by: CreatedBy
    metadata: dict[str, Any]
    created_at: int

    @property
    def relationship(self) -> str:
        """The words the creator used (``original_relationship``), else the core type."""
        return str(self.metadata.get("original_relationship") or self.link_type.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from_id": self.from_id,
            "to_id": self.to_id,
            "link_type": self.link_type.value,
            "relationship": self.relationship,
            "confidence": round(self.confidence, 4),
            "created_by": self.created_by.value,
            "metadata": self.metadata,
            "created_at": iso(self.created_at),
        }


@dataclass(frozen=True, slots=True)
class Hit:
    """A recall result: the memory, its final score and (with ``explain``) the score's parts."""

    memory: Memory
    score: float
    parts: dict[str, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"score": round(self.score, 6), "memory": self.memory.to_dict()}
        if self.parts is not None:
            out["explain"] = {k: round(v, 6) for k, v in self.parts.items()}
        return out


@dataclass(frozen=True, slots=True)
class Filters:
    """Recall and list filters, shared by every store engine."""

    project: str | None = None
    types: tuple[MemoryType, ...] | None = None
    topic: str | None = None
    since: int | None = None
    until: int | None = None
    scopes: tuple[Scope, ...] | None = None
    agent: str | None = None


class Anchor(NamedTuple):
    """A place in the code a memory describes: a repo-relative ``path``, a ``symbol`` in it
    ("" for the whole file), the ``fingerprint`` of that code when it was anchored or last
    confirmed, the ``commit`` checked out then (None outside git), the file's ``stat``
    ("size:mtime_ns", so unchanged files are not re-read) and what a check found: ``state``
    fresh, stale or obsolete, and ``reason``. A named tuple: a session start reads a thousand
    of them, and a frozen dataclass takes several times longer to build."""

    memory_id: str
    path: str
    symbol: str
    fingerprint: str
    commit: str | None
    stat: str
    state: str = "fresh"
    reason: str | None = None
    anchored_at: int = 0
    checked_at: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "symbol": self.symbol or None,
                "fingerprint": self.fingerprint, "commit": self.commit, "state": self.state,
                "reason": self.reason, "anchored_at": iso(self.anchored_at),
                "checked_at": iso(self.checked_at)}


@dataclass(frozen=True)
class SessionEvent:
    """One thing that happened in an agent session (a prompt, an injection, a tool outcome),
    recorded by the hooks; ``id`` is unique so journals can be ingested twice harmlessly."""

    id: str
    session_id: str
    project: str
    at_ms: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
