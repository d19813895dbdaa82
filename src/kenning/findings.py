"""Multi-agent findings: agents recording at once, de-duplicated by meaning
(cosine >= 0.85) and attributed to every source that found them. A lock makes "look for a
near-duplicate, then write" atomic: the server's own lock for a shared store (machines share no
files), else a lock file next to the store."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning import validation as v
from kenning.errors import ValidationError
from kenning.filelock import FileLock
from kenning.insights import episode, episode_of, in_scope
from kenning.models import Filters, Hit, Memory, MemoryType
from kenning.places.paths import data_dir
from kenning.redact import redact
from kenning.text import embedding_text, make_summary

if TYPE_CHECKING:
    from kenning.embed import Embedder
    from kenning.store.base import Store

SIMILAR = 0.85  # the same finding (a near-duplicate) at or above this cosine
MAX_SOURCES = 64
CORROBORATION = 0.05  # confidence gained per additional independent source
MAX_CORROBORATED = 0.95
_SOURCE = re.compile(r"^[A-Za-z][\w.-]*(:[\w.@/-]+)*$")


# A report's opening that only says what the agent did ("Traced the report path."), and the
# sentence that gives its conclusion ("Fix: ...", "Root cause: ...").
_PREAMBLE = re.compile(r"^(?:i\s+)?(?:traced|looked (?:at|into|through)|searched|checked|read|"
                       r"went through|investigated|reviewed|audited|grepped|explored)\b"
                       r"[^:;,]{0,60}[.!]$", re.I)
_CONCLUSION = re.compile(r"^(?:fix|the fix|root cause|cause|conclusion|recommendation|in short|"
                         r"bottom line|tl;?dr)\s*:", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)\s+(?=\S)")
REPORT_SUMMARY_MAX = 360


def report_summary(report: str) -> str:
    """A subagent report's summary: its first finding (an opening that only says what the
    agent did is skipped) and, when it states one further on, its conclusion ("Fix: ..."),
    which a first line alone would leave out; a list report as ``make_summary`` reads it."""
    lines = [ln.strip() for ln in report.splitlines() if ln.strip()]
    if not lines or lines[0].endswith(":"):
        return make_summary(report)
    said = _SENTENCE_END.split(" ".join(lines))
    while len(said) > 1 and _PREAMBLE.match(said[0]):
        said = said[1:]
    end = next((x for x in said[1:] if _CONCLUSION.match(x)), None)
    if end is None or len(said[0]) + len(end) + 1 > REPORT_SUMMARY_MAX:
        return make_summary(" ".join(said))
    return make_summary(f"{said[0]} {end}", REPORT_SUMMARY_MAX)


def source(value: object) -> str:
    """A finding's source: ``agent:<type>``, ``swarm:<id>:<agent>``, ``mcp``, ``user``..."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("source is empty: use agent:<type> or swarm:<id>:<agent>")
    s = value.strip()
    if len(s) > 200 or not _SOURCE.match(s):
        raise ValidationError(f"source {s[:40]!r} is not like agent:<type> or swarm:<id>:<agent>")
    if s.startswith("swarm:") and s.count(":") != 2:
        raise ValidationError("a swarm source is swarm:<id>:<agent>")
    return s


def lock_file(store_location: str) -> Path:
    """The lock for a store: beside its file when it is one, else in the data directory."""
    p = Path(store_location)
    if p.parent.is_dir() and not store_location.startswith(("postgres", ":memory:")):
        return p.with_name(p.name + ".findings.lock")
    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    return d / "findings.lock"


def lock(store: Any) -> AbstractContextManager[None]:
    """The lock that serialises findings on ``store``: its ``exclusive("findings")`` when it
    has one (PostgreSQL: an advisory lock every machine sees), else the lock file beside it."""
    store_lock = getattr(store, "exclusive", None)
    if store_lock is not None:
        held: AbstractContextManager[None] = store_lock("findings")
        return held
    return FileLock(lock_file(store.location))


def merged_sources(existing: object, new: str) -> list[str]:
    """The sources list with ``new`` added once (oldest first, bounded)."""
    out = [s for s in existing if isinstance(s, str)] if isinstance(existing, list) else []
    if new not in out:
        out.append(new)
    return out[-MAX_SOURCES:]


def corroborated(current: float, incoming: float, new_source: bool) -> float:
    """An independent source agreeing raises confidence a little (never past 0.95); the same
    source saying it again changes nothing but can still raise it to what it reported."""
    base = max(current, incoming)
    return max(base, min(MAX_CORROBORATED, base + CORROBORATION)) if new_source else base


_source = source  # ``FindingsService.record`` takes a ``source`` argument that hides the check


class FindingsService:
    """What agents report and how they see each other's work: findings merged by meaning,
    a subagent's final report as a finding, sharing a scoped memory, and recall within a
    scope (spec/worktree, agent, episode).

    Built per call by ``Kenning`` from exactly what it uses: the store, the project, the
    clock, the embedder (or None), the content limit, and the facade's own operations it
    leans on (keeping the vector index current, remember, update, get, recall)."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        clock: Callable[[], int],
        embedder: Embedder | None,
        max_content_chars: int,
        ensure_index: Callable[[], None],
        remember: Callable[..., Memory],
        update: Callable[..., Memory],
        get: Callable[[str], Memory],
        recall: Callable[..., list[Hit]],
    ) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.embedder = embedder
        self.max_content_chars = max_content_chars
        self._ensure_index = ensure_index
        self._remember = remember
        self._update = update
        self._get = get
        self._recall = recall

    def similar(self, text: str, threshold: float, *, spec: str | None = None,
                limit: int = 5) -> tuple[Memory, float] | None:
        """The stored memory of this project most similar to ``text`` at or above
        ``threshold`` cosine (a near-duplicate), within ``spec``'s scope; None without an
        embedder."""
        if self.embedder is None:
            return None
        self._ensure_index()
        red = redact(text).text
        qvec = self.embedder.embed([embedding_text(None, make_summary(red), red)])[0]
        hits = self.store.vector_search(qvec, self.embedder.id, Filters(project=self.project),
                                        limit)
        found = self.store.get_many([mid for mid, score in hits if score >= threshold])
        for mid, score in hits:
            m = found.get(mid)
            if m is not None and in_scope(m, spec=spec, include_shared=False):
                return m, score
        return None

    def record(
        self,
        text: str,
        *,
        source: str,
        type: MemoryType | str = MemoryType.INSIGHT,
        category: str | None = None,
        topic: str | None = None,
        summary: str | None = None,
        confidence: float | None = None,
        tags: Iterable[str] | str = (),
        agent: str | None = None,
        spec: str | None = None,
        shared: bool = False,
        metadata: Mapping[str, Any] | None = None,
        threshold: float = SIMILAR,
    ) -> Memory:
        """Record a finding, or merge it into the stored near-duplicate (one memory, every
        source listed, confidence corroborated), under the findings lock so that looking
        for the duplicate and writing happen as one step."""
        src = _source(source)
        body = v.content(text, self.max_content_chars)
        threshold = v.confidence(threshold)
        conf = None if confidence is None else v.confidence(confidence)
        meta = v.metadata(dict(metadata) if metadata else None)
        if spec is not None:
            meta["spec"] = v.topic(spec)
        if shared:
            meta["shared"] = True
        fields = dict(type=type, category=category, topic=topic, summary=summary,
                      confidence=conf, tags=tags, agent=agent, source=src)
        with lock(self.store):
            match = self.similar(body, threshold, spec=meta.get("spec"))
            if match is None:
                stored = self._remember(body, **fields, metadata={**meta, "sources": [src]})
                if stored.is_new:
                    return stored
                match = (stored, 1.0)
            m, sim = match
            known = m.metadata.get("sources")
            known = known if isinstance(known, list) else ([m.source] if m.source else [])
            merged = {**m.metadata, "sources": merged_sources(known, src),
                      "findings": int(m.metadata.get("findings", 1) or 1) + 1,
                      "last_similarity": round(float(sim), 4)}
            new_conf = corroborated(m.confidence, conf or 0.0, src not in known)
            return replace(self._update(m.id, metadata=merged, confidence=new_conf),
                           is_new=False)

    def subagent_stop(self, payload: Mapping[str, Any], *, swarm: str | None = None
                      ) -> Memory | None:
        """A SubagentStop payload's final report recorded as a finding of its agent; None
        when there is no named agent or the report is too short to be one."""
        if not isinstance(payload, Mapping):
            raise ValidationError("payload must be an object")
        agent_type = payload.get("agent_type")
        text = payload.get("last_assistant_message")
        if not isinstance(agent_type, str) or not agent_type.strip():
            return None
        if not isinstance(text, str) or len(text.strip()) < 20:
            return None
        name = agent_type.strip().replace(" ", "-")
        src = f"swarm:{swarm}:{name}" if swarm else f"agent:{name}"
        return self.record(text, source=src, agent=name, summary=report_summary(text),
                           metadata={"agent_id": str(payload.get("agent_id") or "")})

    def share(self, memory_id: str, shared: bool = True) -> Memory:
        """Set or clear a memory's ``shared`` mark, which puts it in every scope."""
        m = self._get(memory_id)
        meta = {k: val for k, val in m.metadata.items() if k != "shared"}
        if shared:
            meta["shared"] = True
        return self._update(m.id, metadata=meta)

    def scoped_recall(
        self,
        query: str,
        *,
        k: int = 10,
        spec: str | None = None,
        agent: str | None = None,
        include_shared: bool = True,
        episodes: Sequence[str] | None = None,
        **kw: Any,
    ) -> list[Hit]:
        """Recall a wider pool untracked, keep the hits in scope (and of the wanted
        episodes), and count only the ``k`` that are returned as retrieved together (retrieval
        never changes confidence)."""
        wanted = {episode(e) for e in episodes} if episodes else None
        v.positive_int(k, "k", 1000)
        filtering = spec is not None or agent is not None or wanted is not None
        track = kw.pop("track", True)
        hits = self._recall(query, k=min(1000, 5 * k) if filtering else k, track=False, **kw)
        out = [h for h in hits
               if in_scope(h.memory, spec=spec, agent=agent, include_shared=include_shared)
               and (wanted is None or episode_of(h.memory) in wanted)][:k]
        if track and len(out) > 1:
            self.store.record_co_access([h.memory.id for h in out], self.clock())
        return out
