"""Working from files when the store cannot be used: a corrupt file, a lock held past the busy
timeout, a server that does not answer.

What is remembered then goes to ``pending.jsonl`` beside the hooks' journal (redacted and
checked first, so bad input is still a clear error); the next run that finds the store healthy
stores it in the project it was said in (``Kenning.ingest_journal``, which every session start
and end runs, and the CLI and the MCP server as soon as the store answers again). Recall reads
those pending memories and Claude Code's auto memory files (``MEMORY.md``, topic files and
memory files) by keyword. ``kenning doctor`` reports everything that does not need the store.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning import journal
from kenning import validation as v
from kenning.errors import KenningError, StoreError, disk_full
from kenning.places.lean import journal_dir

if TYPE_CHECKING:
    from kenning.facade import Kenning
    from kenning.models import Hit, Memory

PENDING = "pending.jsonl"
CLAIMED = "pending-claimed-"
# remember() fields a pending memory may carry (links to ids are checked when it is stored).
FIELDS = ("type", "topic", "summary", "category", "tags", "source", "confidence", "scope",
          "agent", "metadata", "created_at", "reason", "links", "supersedes", "refines",
          "improves", "implements", "outcome_of")


class StoreUnavailable(KenningError):
    """The store cannot be used now; what needs it waits (``reason`` says why)."""


# sqlite3's words for a file that cannot be read or written (other errors are bugs or data).
_UNUSABLE = ("malformed", "not a database", "disk i/o", "unable to open", "readonly",
             "disk is full", "file is encrypted")


def unavailable(exc: BaseException) -> str | None:
    """Why ``exc`` means the store cannot be used (corrupt, locked, unreachable), or None when
    it is something else (bad input, a bug)."""
    import sqlite3

    if disk_full(exc):
        return ("the disk is full: the store is as it was, and nothing more can be written to "
                "it until space is freed")
    if isinstance(exc, StoreError):
        return str(exc)
    if type(exc) in (sqlite3.OperationalError, sqlite3.DatabaseError):  # not constraint errors
        text = str(exc)
        if "locked" in text or "busy" in text:
            return f"the store is locked by another process ({text})"
        if any(cue in text.lower() for cue in _UNUSABLE):
            return f"the store cannot be used ({text})"
        return None
    if type(exc).__name__ in ("OperationalError", "InterfaceError", "PoolTimeout") and (
            type(exc).__module__.startswith("psycopg")):
        return f"the database server does not answer ({exc})"
    return None


def _dir(location: str) -> str:
    return journal_dir(str(location))


def remember(location: str, project: str, text: str, fields: Mapping[str, Any], now_ms: int
             ) -> dict[str, Any]:
    """Keep a memory for the store in ``pending.jsonl``: checked and redacted as ``remember``
    would (a bad value is a ``ValidationError`` and nothing is kept). Returns what was kept."""
    from kenning.redact import redact, redact_obj

    body = redact(v.content(text, v.MAX_CONTENT_CHARS)).text
    data: dict[str, Any] = {"text": body}
    for key in FIELDS:
        value = fields.get(key)
        if value is None or value == () or value == []:
            continue
        data[key] = value
    mtype = v.memory_type(data.get("type", "insight")).value
    data["type"] = mtype
    if "confidence" in data:
        data["confidence"] = v.confidence(data["confidence"])
    if "category" in data:
        data["category"] = v.category(data["category"]).value
    if "scope" in data:
        data["scope"] = v.scope(data["scope"]).value
    if "agent" in data:
        data["agent"] = v.agent(data["agent"])
    if "tags" in data:
        data["tags"] = list(v.tags(data["tags"]))
    for key in ("summary", "topic", "source", "reason"):
        if isinstance(data.get(key), str):
            data[key] = redact(data[key]).text
    if "metadata" in data:
        data["metadata"] = redact_obj(v.metadata(dict(data["metadata"])))[0]
    # When it was said, not when the store took it ("7d" means a week before now, not before
    # the ingestion).
    from kenning.times import to_ms

    data["created_at"] = to_ms(data.get("created_at", now_ms), now_ms, name="created_at")
    event = {"id": journal.new_event_id(now_ms), "session_id": "", "project": project,
             "at_ms": now_ms, "kind": "remember", "data": data}
    directory = _dir(location)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    _append(os.path.join(directory, PENDING), event)
    return {"id": event["id"], "pending": True, "journal": os.path.join(directory, PENDING),
            "type": mtype, "text": body}


def _append(path: str, event: Mapping[str, Any]) -> None:
    from kenning.journal import fastjson

    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, (fastjson.dumps(dict(event)) + "\n").encode())
    finally:
        os.close(fd)


def pending(location: str, project: str | None = None) -> list[dict[str, Any]]:
    """Memories waiting for the store (of ``project`` and the user's, or all), oldest first."""
    directory = _dir(location)
    try:
        names = sorted(n for n in os.listdir(directory)
                       if n == PENDING or n.startswith(CLAIMED))
    except FileNotFoundError:
        return []
    out = []
    for name in names:
        events, _ = journal.scan(os.path.join(directory, name))
        for _, e in events:
            data = e.get("data")
            if e.get("kind") != "remember" or not isinstance(data, dict):
                continue
            if project is None or e.get("project") == project or data.get("scope") == "user":
                out.append(e)
    return sorted(out, key=lambda e: str(e["id"]))


def ingest_pending(k: Kenning) -> dict[str, int]:
    """Store the pending memories (each in the project it was said in); one the store refuses
    on its own goes to the quarantine, the rest carry on. When the store fails them all alike
    they stay for the next run."""
    directory = _dir(k.store.location)
    counts = {"remembered": 0, "quarantined": 0}
    live = os.path.join(directory, PENDING)
    if not os.path.exists(live) and not any(
            n.startswith(CLAIMED) for n in _listdir(directory)):
        return counts
    claimed = os.path.join(directory, f"{CLAIMED}{journal.new_event_id(k.clock())}.jsonl")
    with contextlib.suppress(FileNotFoundError):
        os.replace(live, claimed)
    for name in sorted(n for n in _listdir(directory) if n.startswith(CLAIMED)):
        path = os.path.join(directory, name)
        events, rejects = journal.scan(path)
        bad = list(rejects)
        failed: list[Exception] = []
        for line, e in events:
            kept = e["data"]
            if not isinstance(kept, dict) or "text" not in kept:
                bad.append((line, "a pending memory without its text"))
                continue
            data = dict(kept)
            text = data.pop("text")
            try:
                _in_project(k, str(e.get("project") or k.project),
                            lambda: k._remember(text, **data))  # noqa: B023
                counts["remembered"] += 1
            except Exception as exc:  # each one alone: a bad one never blocks the others
                if unavailable(exc) is not None:
                    failed.append(exc)
                    break
                bad.append((line, f"{type(exc).__name__}: {exc}"))
        if failed:
            raise failed[0]  # the store went away: the file stays for the next run
        journal.quarantine(directory, bad, k.clock())
        counts["quarantined"] += len(bad)
        os.unlink(path)
    return counts


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except FileNotFoundError:
        return []


def _in_project(k: Kenning, project: str, work: Callable[[], Any]) -> Any:
    """Run ``work`` with the facade writing into ``project`` (services read it per call)."""
    old = k.project
    k.project = project
    try:
        return work()
    finally:
        k.project = old


# -- reading from files ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileHit:
    """A memory found without the store: where it is, its text, how well it matched."""

    id: str
    text: str
    where: str
    score: float
    type: str = "insight"


def _entries(auto_dir: Path | None) -> list[tuple[str, str]]:
    """``(where, text)`` for the lines of MEMORY.md and the entries of the other files."""
    from kenning.automemory.files import parse_index, parse_topic, split_frontmatter

    out: list[tuple[str, str]] = []
    if auto_dir is None or not auto_dir.is_dir():
        return out
    for path in sorted(auto_dir.glob("*.md")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if path.name == "MEMORY.md":
            out += [(f"{path.name}:{ln.number}", ln.fact) for ln in parse_index(text)
                    if ln.kind in ("entry", "pointer")]
            continue
        fm, body = split_frontmatter(text)
        if fm and ("name" in fm or "description" in fm):
            out.append((path.name, body.strip() or str(fm.get("description") or "")))
        else:
            out += [(path.name, e.text) for e in parse_topic(text)]
    return out


def recall(query: str, location: str, project: str, auto_dir: Path | None, k: int = 10
           ) -> list[FileHit]:
    """The pending memories and auto memory entries that share the most words with
    ``query`` (stems, stopwords left out), best first."""
    from kenning.promptindex.format import stem
    from kenning.words import query_terms, words

    terms = {stem(t) for t in query_terms(query)}
    if not terms:
        return []
    found: list[FileHit] = []

    def score(text: str) -> float:
        have = {stem(w) for w in words(text)}
        return len(terms & have) / len(terms)

    for e in pending(location, project):
        data = e["data"]
        s = score(str(data["text"]))
        if s > 0:
            found.append(FileHit(f"pending:{e['id']}", str(data["text"]),
                                 "waiting for the store", s, str(data.get("type") or "insight")))
    for where, text in _entries(auto_dir):
        s = score(text)
        if s > 0:
            found.append(FileHit(f"file:{where}", text, where, s))
    found.sort(key=lambda h: (-h.score, h.id))
    return found[:k]


def as_memory(h: FileHit, project: str, now_ms: int) -> Memory:
    """A file hit in the shape recall results have (for adapters that print memories)."""
    from kenning.models import Category, Memory, MemoryType, Scope
    from kenning.text import content_hash

    first = h.text.strip().splitlines()[0] if h.text.strip() else ""
    return Memory(id=h.id, type=MemoryType(h.type), topic=None, summary=first[:200],
                  content=h.text, category=Category.PROJECT_PATTERNS, tags=(),
                  source=h.where, confidence=0.0, outcome=None, outcome_reason=None,
                  project=project, scope=Scope.PROJECT, agent=None, created_at=now_ms,
                  updated_at=now_ms, last_accessed_at=None, access_count=0,
                  content_hash=content_hash(h.text))


# -- the MCP server with or without a store -----------------------------------------------------


class Resilient:
    """What the MCP server talks to: the facade while the store answers; while it cannot be
    used (at start, or when a call finds it locked or gone), ``remember`` and
    ``record_finding`` keep pending memories, ``recall`` and ``scoped_recall`` read files, and
    anything else says the store is unavailable. Each call tries the store again; once it
    answers, the pending memories are stored first."""

    def __init__(self, location: str, project: str, open_store: Callable[[], Kenning],
                 clock: Callable[[], int]) -> None:
        self.location = location
        self.project = project
        self.reason = ""
        self._root: Path | None = None
        self._open = open_store
        self._clock = clock
        self._real: Kenning | None = None
        self.real()

    def real(self) -> Kenning | None:
        """The facade, when the store answers (pending memories stored first)."""
        if self._real is None:
            try:
                k = self._open()
            except Exception as exc:
                self.reason = _why(exc)
                return None
            if self._root is not None:
                k.project_root = self._root
            try:
                ingest_pending(k)
            except Exception as exc:
                k.close()
                self.reason = _why(exc)
                return None
            self._real = k
        return self._real

    @property
    def project_root(self) -> Path | None:
        """The project's directory (auto memory), handed on to the facade."""
        return self._root

    @project_root.setter
    def project_root(self, value: Path | None) -> None:
        self._root = value
        if self._real is not None:
            self._real.project_root = value

    @property
    def config(self) -> Any:
        if (real := self.real()) is not None:
            return real.config
        from kenning import config

        return config.load(os.getcwd())

    def _refuse(self) -> StoreUnavailable:
        return StoreUnavailable(
            f"the store is unavailable ({self.reason}); until it is back, save, "
            "record_finding and recall work from files, the other tools need the store")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        real = self.real()
        if real is None:
            def refuse(*_: Any, **__: Any) -> Any:
                raise self._refuse()
            return refuse
        attr = getattr(real, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kw: Any) -> Any:
            try:
                return attr(*args, **kw)
            except Exception as exc:
                if unavailable(exc) is None:
                    raise
                self.reason = _why(exc)
                raise self._refuse() from exc
        return call

    def _try(self, work: Callable[[Kenning], Any]) -> tuple[bool, Any]:
        """``work`` on the facade: (True, its result), or (False, None) when the store cannot
        be used now."""
        real = self.real()
        if real is None:
            return False, None
        try:
            return True, work(real)
        except Exception as exc:
            if unavailable(exc) is None:
                raise
            self.reason = _why(exc)
            return False, None

    def remember(self, text: str, **fields: Any) -> Any:
        ok, m = self._try(lambda real: real.remember(text, **fields))
        if ok:
            return m
        kept = remember(self.location, self.project, text, fields, self._clock())
        hit = FileHit(f"pending:{kept['id']}", kept["text"], "waiting for the store", 1.0,
                      kept["type"])
        return as_memory(hit, self.project, self._clock())

    def record_finding(self, text: str, *, source: str, **fields: Any) -> Any:
        ok, m = self._try(lambda real: real.record_finding(text, source=source, **fields))
        if ok:
            return m
        fields.pop("threshold", None)
        spec, shared = fields.pop("spec", None), fields.pop("shared", False)
        meta = dict(fields.pop("metadata", None) or {})
        if spec:
            meta["spec"] = spec
        if shared:
            meta["shared"] = True
        return self.remember(text, source=source, metadata=meta or None, **fields)

    def links(self, memory_id: str) -> list[Any]:
        if memory_id.startswith(("pending:", "file:")) or self._real is None:
            return []
        ok, out = self._try(lambda real: real.links(memory_id))
        return out if ok else []

    def recall(self, query: str, *, k: int = 10, **kw: Any) -> list[Hit]:
        ok, hits = self._try(lambda real: real.recall(query, k=k, **kw))
        return hits if ok else self._file_hits(query, k)

    def scoped_recall(self, query: str, *, k: int = 10, **kw: Any) -> list[Hit]:
        ok, hits = self._try(lambda real: real.scoped_recall(query, k=k, **kw))
        return hits if ok else self._file_hits(query, k)

    def _file_hits(self, query: str, k: int) -> list[Hit]:
        from kenning.automemory.paths import auto_memory_dir
        from kenning.models import Hit

        now = self._clock()
        directory = auto_memory_dir(self.project_root) if self.project_root else None
        return [Hit(as_memory(h, self.project, now), h.score, {"file_only": 1.0})
                for h in recall(query, self.location, self.project, directory, k)]

    def close(self) -> None:
        if self._real is not None:
            self._real.close()
            self._real = None


def _why(exc: BaseException) -> str:
    """``unavailable(exc)``, re-raising anything that is not about the store."""
    why = unavailable(exc)
    if why is None:
        raise exc
    return why


def status(location: str, project: str, reason: str, auto_dir: Path | None) -> dict[str, Any]:
    """What ``kenning doctor`` can say without the store: why it is unavailable, what waits
    for it, the hooks' journal and quarantine, the configuration files and the error log."""
    from kenning import config
    from kenning.errorlog import log_path, recent_errors

    directory = _dir(location)
    waiting = sum(os.path.getsize(os.path.join(directory, n)) for n in _listdir(directory)
                  if n == journal.FILE or n.startswith("claimed-"))
    held = journal.quarantined(directory)
    try:
        files: Sequence[str] = config.load(os.getcwd()).files
    except config.ConfigError as exc:
        files = [f"error: {exc}"]
    return {
        "store": location, "store_ok": False, "store_error": reason, "project": project,
        "pending_memories": len(pending(location)),
        "pending_file": os.path.join(directory, PENDING),
        "hooks": {"journal": directory, "journal_pending_bytes": waiting,
                  "quarantine": {"path": held["path"], "events": held["events"],
                                 "newest_error": held["newest_error"]}},
        "auto_memory_dir": str(auto_dir) if auto_dir else None,
        "config_files": list(files),
        "error_log": str(log_path()), "recent_errors": recent_errors(5),
    }


# -- what the CLI does without the store -------------------------------------------------------


def _here(db: str | os.PathLike[str] | None) -> tuple[str, str, Path | None]:
    """The store location, the project and its auto memory directory for a CLI command."""
    from kenning.automemory.paths import auto_memory_dir
    from kenning.places.paths import current_project, default_db_path

    location = str(db) if db else str(default_db_path())
    try:
        auto: Path | None = auto_memory_dir()
    except Exception:  # no usable directory to read: recall reads the pending memories alone
        auto = None
    return location, current_project(location), auto


def cli_remember(db: str | os.PathLike[str] | None, text: str, fields: Mapping[str, Any],
                 why: str) -> dict[str, Any]:
    """``kenning remember`` while the store is unavailable: keep it for the store."""
    from kenning.times import now_ms

    location, project, _ = _here(db)
    return {**remember(location, project, text, fields, now_ms()), "project": project}


def cli_recall(db: str | os.PathLike[str] | None, query: str, k: int) -> list[FileHit]:
    """``kenning recall`` while the store is unavailable: the files' best matches."""
    location, project, auto = _here(db)
    return recall(query, location, project, auto, k)


def cli_status(db: str | os.PathLike[str] | None, why: str) -> dict[str, Any]:
    """``kenning doctor`` while the store is unavailable."""
    location, project, auto = _here(db)
    return status(location, project, why, auto)
