"""The auto memory bridge's options with their defaults; ``kenning.toml`` builds one of these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from kenning.config import LAYOUTS, PRUNE_STRATEGIES, SYNC_MODES, ConfigError
from kenning.errors import ValidationError
from kenning.models import Category

__all__ = ["LAYOUTS", "PRUNE_STRATEGIES", "SYNC_MODES", "AutoMemoryOptions"]

# What Claude Code loads of MEMORY.md (2.1.330): the first 200 lines, about 25,000 bytes.
CLIENT_MAX_LINES = 200
CLIENT_MAX_BYTES = 25_000

# Topic name -> topic file. Import reads these files' entries into the category below.
DEFAULT_TOPIC_MAPPING: dict[str, str] = {
    "patterns": "patterns.md",
    "debugging": "debugging.md",
    "architecture": "architecture.md",
    "performance": "performance.md",
    "security": "security.md",
    "preferences": "preferences.md",
    "swarm-results": "swarm-results.md",
}

# Topic names of the mapping that are not Category values themselves.
TOPIC_CATEGORY: dict[str, Category] = {
    "patterns": Category.PROJECT_PATTERNS,
    "swarm-results": Category.PROJECT_PATTERNS,
}


@dataclass(frozen=True)
class AutoMemoryOptions:
    """How the bridge imports, syncs and curates. MEMORY.md is kept to 180 lines (headroom
    under the 200 Claude Code loads) and 25,000 bytes (what it loads). ``layout`` is how synced
    memories are written: ``per-fact`` (one file per memory, the client's own format) or
    ``topic-files`` (one file per category, ``debugging.md``...)."""

    enabled: bool = True
    sync_mode: str = "on-session-end"
    sync_interval_ms: int = 300_000
    layout: str = "per-fact"
    max_index_lines: int = 180
    max_index_bytes: int = 25_000
    max_line_chars: int = 200
    min_confidence: float = 0.7
    topic_mapping: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_TOPIC_MAPPING))
    prune_strategy: str = "confidence-weighted"
    max_topic_file_lines: int = 500
    max_files: int = 500
    import_confidence: float = 0.8
    max_import_bytes: int = 1_000_000
    lock_timeout_s: float = 10.0

    def __post_init__(self) -> None:
        if self.sync_mode not in SYNC_MODES:
            raise ValidationError(
                f"sync mode {self.sync_mode!r} is not one of {', '.join(SYNC_MODES)}")
        if self.prune_strategy not in PRUNE_STRATEGIES:
            raise ValidationError(
                f"prune strategy {self.prune_strategy!r} is not one of "
                f"{', '.join(PRUNE_STRATEGIES)}")
        if self.layout not in LAYOUTS:
            raise ValidationError(f"layout {self.layout!r} is not one of {', '.join(LAYOUTS)}")
        for name, low in (("max_index_lines", 1), ("max_index_bytes", 64), ("max_line_chars", 40),
                          ("max_topic_file_lines", 1), ("max_files", 0),
                          ("sync_interval_ms", 1000), ("max_import_bytes", 1024)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValidationError(f"{name} must be an integer >= {low}, got {value!r}")
        for name in ("min_confidence", "import_confidence"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    0.0 <= value <= 1.0):
                raise ValidationError(f"{name} must be a number in [0, 1], got {value!r}")
        if not isinstance(self.topic_mapping, dict) or not all(
                isinstance(k, str) and isinstance(f, str) and f.endswith(".md")
                and "/" not in f and "\\" not in f and f != "MEMORY.md"
                for k, f in self.topic_mapping.items()):
            raise ValidationError("topic_mapping must map names to plain '<file>.md' names")

    @classmethod
    def from_config(cls, section: Mapping[str, object]) -> AutoMemoryOptions:
        """The ``[auto_memory]`` section of the configuration as options (its topic mapping
        adds to the default one). A value the options refuse is a ``ConfigError``."""
        names = {f.name for f in fields(cls)}
        # config.load() has coerced every value to its default's type, so each fits its field.
        kw: dict[str, Any] = {k: v for k, v in section.items() if k in names}
        mapping = section.get("topic_mapping")
        kw["topic_mapping"] = {**DEFAULT_TOPIC_MAPPING,
                               **(dict(mapping) if isinstance(mapping, Mapping) else {})}
        try:
            return cls(**kw)
        except ValidationError as exc:
            raise ConfigError(f"auto_memory: {exc}") from None

    def file_for_category(self, category: Category) -> str:
        """The topic file a category's memories go to in the ``topic-files`` layout: the first
        mapping entry naming that category, else ``<category>.md``."""
        for topic, name in self.topic_mapping.items():
            if topic_category(topic) is category:
                return name
        return f"{category.value}.md"

    def category_for_file(self, filename: str) -> Category | None:
        """The category of a topic file, through the topic mapping (None when unmapped)."""
        for topic, name in self.topic_mapping.items():
            if name == filename:
                return topic_category(topic)
        return topic_category(filename.removesuffix(".md"))

    def sync_due(self, event: str, last_sync_ms: int | None, now_ms: int) -> bool:
        """Whether an ``event`` (``write``, ``session-start``, ``session-end``, ``tick``)
        should sync now: ``on-session-end`` at session end only; ``on-write`` at each write
        and at session start and end (what was written meanwhile); ``periodic`` at session
        end and on any event once ``sync_interval_ms`` has passed since the last sync."""
        if self.sync_mode == "on-write":
            return event in ("write", "session-start", "session-end")
        if self.sync_mode == "on-session-end":
            return event == "session-end"
        return event == "session-end" or last_sync_ms is None or (
            now_ms - last_sync_ms >= self.sync_interval_ms)

    def to_dict(self) -> dict[str, Any]:
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in self.__dict__.items()}


def topic_category(topic: str) -> Category | None:
    """A topic name (``debugging``, ``patterns``) as a Category, when it names one."""
    if topic in TOPIC_CATEGORY:
        return TOPIC_CATEGORY[topic]
    try:
        return Category(topic)
    except ValueError:
        return None
