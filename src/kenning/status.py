"""The store's state at a glance, behind the facade: what ``kenning doctor`` and the dashboard
show (where the store is, its engine and schema, the embedder or why there is none, counts,
recent errors, and the Claude Code hooks' journal and prompt index).

``Kenning.status`` keeps its signature and documentation and builds a ``StatusService`` on each
call with the store, project and embedder it has at that moment.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kenning.embed import MINILM_ID
from kenning.models import Filters, iso

if TYPE_CHECKING:
    from kenning.embed import Embedder
    from kenning.store.base import Store


class StatusService:
    """A report on one store for one project.

    Every dependency is explicit: the store, the project, the embedder (or None) and
    ``journal_dir`` (where the hooks journal for this store, owned by the session side) and
    ``use_rates`` (per memory, sessions shown and sessions used, also the session side's)."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        embedder: Embedder | None,
        journal_dir: Callable[[], str],
        use_rates: Callable[[], dict[str, tuple[int, int]]] = dict,
    ) -> None:
        self.store = store
        self.project = project
        self.embedder = embedder
        self.journal_dir = journal_dir
        self.use_rates = use_rates

    def status(self) -> dict[str, Any]:
        """Location, engine, schema version, project, embedder (or the reason it is missing
        and the keyword fallback), counts, vectors still to embed, recent errors, hooks."""
        from kenning.embed import EmbedderUnavailable, find_minilm
        from kenning.errorlog import log_path, recent_errors

        stats = self.store.stats()
        emb: dict[str, Any]
        if self.embedder is not None:
            emb = {"id": self.embedder.id, "dim": self.embedder.dim, "available": True}
        else:
            try:
                find_minilm()
                reason = "disabled (KENNING_EMBEDDER=none)"
            except EmbedderUnavailable as exc:
                reason = str(exc)
            emb = {"id": None, "available": False, "reason": reason,
                   "fallback": "keyword recall (FTS5 BM25)" if self.store.engine == "sqlite"
                   else "keyword recall (tsvector ts_rank)"}
        missing = (
            self.store.count_missing_vectors(self.embedder.id)
            if self.embedder is not None else None
        )
        return {
            "store": self.store.location,
            "engine": self.store.engine,
            "schema_version": self.store.schema_version(),
            "project": self.project,
            "embedder": emb,
            "memories": stats["memories"],
            "memories_by_type": stats["by_type"],
            "project_memories": self.store.count(Filters(project=self.project)),
            "links": stats["links"],
            "vectors": stats["vectors"],
            "vectors_missing": missing,
            "redactions": stats["redactions"],
            "size_bytes": stats["size_bytes"],
            "disk_free_bytes": free_space(self.store.location)
            if self.store.engine == "sqlite" else None,
            "error_log": str(log_path()),
            "recent_errors": recent_errors(5),
            "default_model": MINILM_ID,
            "hooks": self.hook_status(),
            "code_drift": self.drift_status(),
            **({"postgres": stats["postgres"]} if "postgres" in stats else {}),
        }

    def drift_status(self, shown: int = 10) -> dict[str, Any]:
        """This project's anchors: how many, on how many files, and the memories whose code
        changed (stale) or went (obsolete), the first ``shown`` of each with why."""
        anchors = self.store.anchors(project=self.project)
        flagged: dict[str, dict[str, dict[str, str | None]]] = {"stale": {}, "obsolete": {}}
        for a in anchors:
            if a.state in flagged:
                flagged[a.state].setdefault(a.memory_id, {"id": a.memory_id, "reason": a.reason})
        obsolete = flagged["obsolete"]
        stale = {mid: r for mid, r in flagged["stale"].items() if mid not in obsolete}
        return {"anchors": len(anchors), "files": len({a.path for a in anchors}),
                "memories": len({a.memory_id for a in anchors}),
                "stale": len(stale), "obsolete": len(obsolete),
                "stale_memories": list(stale.values())[:shown],
                "obsolete_memories": list(obsolete.values())[:shown]}

    def hook_status(self) -> dict[str, Any]:
        """The hooks' side of the store: bytes of journal not yet ingested, the events ingestion
        set aside (how many, the newest one's error, where), whether the prompt index is
        missing, current or stale, and when a session last started or ended."""
        from kenning import journal
        from kenning.promptindex import reader as pindex

        directory = self.journal_dir()
        pending = 0
        if os.path.isdir(directory):
            pending = sum(os.path.getsize(os.path.join(directory, n)) for n in os.listdir(directory)
                          if n == journal.FILE or n.startswith("claimed-"))
        path = pindex.index_path(directory)
        state = "missing"
        if os.path.exists(path):
            state = "current" if pindex.load(path, self.store.location) is not None else "stale"
        last = self.store.session_events(kinds=["start", "end"], limit=1, newest_first=True)
        held = journal.quarantined(directory)
        quarantine = {"path": held["path"], "events": held["events"],
                      "newest_error": held["newest_error"],
                      "newest_at": iso(held["newest_at_ms"])
                      if isinstance(held["newest_at_ms"], int) else None}
        from kenning.journal import detached
        from kenning.usage import MIN_SHOWN

        rates = self.use_rates()
        often = [mid for mid, (shown, used) in rates.items() if shown >= MIN_SHOWN and not used]
        use = {"memories_shown": len(rates),
               "memories_used": sum(1 for _, used in rates.values() if used),
               "use_rate": round(sum(u for _, u in rates.values())
                                 / max(1, sum(s for s, _ in rates.values())), 3),
               "shown_often_never_used": len(often), "examples": sorted(often)[:5]}
        return {"journal": directory, "journal_pending_bytes": pending, "quarantine": quarantine,
                "prompt_index": state, "last_session_event": iso(last[0].at_ms) if last else None,
                "session_ends_pending": len(detached.pending(self.store.location)),
                "injection_use": use}


LOW_DISK_BYTES = 50_000_000  # below this much free space beside the store, doctor warns


def free_space(location: str) -> int | None:
    """Bytes free on the disk that holds a store file (None when it cannot be told): a full
    disk fails every write, and says so only then."""
    import shutil

    try:
        return shutil.disk_usage(os.path.dirname(os.path.abspath(location))).free
    except OSError:
        return None

