"""``Kenning``: the one facade. The CLI, hooks, MCP tools and web routes are thin layers over it."""

from __future__ import annotations

import builtins
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from kenning import learning
from kenning import validation as v
from kenning.embed import Embedder, default_embedder
from kenning.graph.rules import LinkRules
from kenning.models import (
    Anchor,
    CreatedBy,
    Filters,
    Hit,
    Link,
    Memory,
    MemoryType,
    OutcomeStatus,
    Scope,
    SessionEvent,
)
from kenning.places.paths import current_project, default_db_path
from kenning.ranking import RankWeights
from kenning.recall import READ_BACKLOG, Mode, Progress, RecallService
from kenning.store.base import Store
from kenning.times import now_ms

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from kenning.automemory.options import AutoMemoryOptions
    from kenning.automemory.service import AutoMemoryService
    from kenning.config import Config
    from kenning.drift.service import DriftService
    from kenning.episodes import EpisodeOptions
    from kenning.extract.service import ExtractionService
    from kenning.findings import FindingsService
    from kenning.graph.service import GraphService
    from kenning.graph.traversal import ChainEntry, Reached
    from kenning.insights import InsightService
    from kenning.lifecycle import SessionReport, SessionService
    from kenning.relations import RelationshipResolver
    from kenning.sessions import Trajectory
    from kenning.status import StatusService
    from kenning.writing import WritingService

_DEFAULT = object()


SETTLE_DELAY_S = 0.2  # how long a write waits for company before vectors are computed
BACKGROUND_BATCH = 32  # memories a background thread settles between looks at ``close``


class Kenning:
    """Memory for coding agents over one store.

    Each method delegates to a service (writing, recall, sessions, graph, status, auto memory,
    findings, insights, extraction) built on each call from this object's current store,
    project, clock and embedder, so a later change to any of them is honoured. State that lives
    across calls (caches, the vector index watermark, the background worker) stays here.

    >>> with Kenning("/tmp/k.db") as k:
    ...     m = k.remember("Use JWT for auth", type="decision", topic="auth_strategy")
    ...     hits = k.recall("why JWT?")
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        project: str | None = None,
        embedder: Embedder | object | None = _DEFAULT,
        store: Store | None = None,
        clock: Callable[[], int] = now_ms,
        weights: RankWeights | None = None,
        max_content_chars: int = v.MAX_CONTENT_CHARS,
        link_rules: LinkRules | None = None,
        auto_link: bool | None = None,
        relations: RelationshipResolver | None = None,
        config: Config | None = None,
        defer_vectors: bool = True,
    ) -> None:
        if store is None:
            from kenning.store.engines import open_store

            store = open_store(path if path is not None else default_db_path())
        self.store: Store = store
        self.project = project if project is not None else current_project(store.location)
        self.embedder: Embedder | None = (
            default_embedder() if embedder is _DEFAULT else embedder  # type: ignore[assignment]
        )
        self.clock = clock
        self.weights = weights or RankWeights()
        self.max_content_chars = max_content_chars
        self.on_progress: Progress | None = None
        self._indexed_at: str | None = None
        self._executor: ThreadPoolExecutor | None = None
        self.link_rules = link_rules or LinkRules()
        self._config = config
        self._auto_link = auto_link
        # The project's directory, when the adapter knows it (auto memory syncs after writes).
        self.project_root: Path | None = None
        self._relations = relations
        self._traversals: dict[tuple[Any, ...], Any] = {}
        self._traversal_mark: tuple[str | None, str] | None = None
        self._known_words: tuple[str | None, dict[str, str]] | None = None
        # Writes do not wait for the model: vectors and automatic links follow in batches,
        # on a background thread shortly after (``_settle_soon``), or before anything that
        # needs them, or in the next process.
        self.defer_vectors = defer_vectors
        self._settle_lock = threading.RLock()
        self._settler: threading.Thread | None = None
        self._closing = threading.Event()

    # -- configuration -------------------------------------------------------------------------

    @property
    def config(self) -> Config:
        """The effective configuration every entry point shares (``kenning.toml`` of the user
        and of the project, then ``KENNING_<SECTION>_<KEY>`` variables): the one given to the
        constructor (or set here), else the current directory's project's, loaded on first use.
        A bad value is a one-line error naming the file and key."""
        if self._config is None:
            from kenning.config import ConfigError, load
            from kenning.errors import ValidationError
            from kenning.places.paths import project_root

            try:
                self._config = load(str(project_root()))
            except ConfigError as exc:
                raise ValidationError(str(exc)) from None
        return self._config

    @config.setter
    def config(self, value: Config) -> None:
        self._config = value

    @property
    def auto_link(self) -> bool:
        """Whether new memories are linked automatically: the constructor's ``auto_link``,
        else ``[graph] auto_link``."""
        if self._auto_link is None:
            return bool(self.config.get("graph", "auto_link"))
        return self._auto_link

    @auto_link.setter
    def auto_link(self, value: bool) -> None:
        self._auto_link = value

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Finish background work and close the store (also on leaving a ``with`` block).
        Vectors not computed yet are left for the next process (a batch under way is
        finished first), so closing never waits for the model to load."""
        self._closing.set()
        if self._settler is not None:
            self._settler.join()
            self._settler = None
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.store.close()

    def _worker(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kenning")
        return self._executor

    def __enter__(self) -> Kenning:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------

    def _writing(self) -> WritingService:
        """Writing; the relationship resolver is loaded only when a link needs it."""
        from kenning.writing import WritingService

        return WritingService(
            store=self.store, project=self.project, clock=self.clock, embedder=self.embedder,
            max_content_chars=self.max_content_chars, link_rules=self.link_rules,
            auto_link=self.auto_link, get=self.get, embed=self._embed,
            known_relationships=self._known_relationships, relations=lambda: self.relations)

    def remember(self, text: str, **fields: Any) -> Memory:
        """Store one memory (secrets redacted first). Same text in the same project, scope and
        agent returns the stored memory with ``is_new=False`` instead of a duplicate. In the
        ``on-write`` (or a due ``periodic``) sync mode, a confident one reaches MEMORY.md now.
        It does not wait for the model: the vector and the automatic links follow (``settle``)."""
        m = self._writing().remember(text, defer=self._defers(), **fields)
        self._settle_soon()
        self._anchor([m])
        self._after_write([m])
        return m

    def remember_many(self, items: Iterable[Mapping[str, Any]]) -> list[Memory]:
        """Store many memories in one transaction with one batched embedding pass.

        All items are validated before anything is written: one bad item writes nothing.
        """
        out = self._writing().remember_many(items, defer=self._defers())
        self._settle_soon()
        self._anchor(out)
        self._after_write(out)
        return out

    def update(self, memory_id: str, **fields: Any) -> Memory:
        """Change a memory's fields (``text``/``content``, ``summary``, ``topic``, ``type``,
        ``category``, ``tags``, ``source``, ``confidence``, ``metadata``, ``scope``, ``agent``,
        ``outcome``, ``outcome_reason``). Content changes are re-hashed and re-embedded."""
        m = self._update(memory_id, **fields)
        self._after_write([m])
        return m

    # The writers the services compose: they never sync auto memory themselves (a pipeline
    # such as the session end writes many memories, then syncs once), and they wait for the
    # model, after settling what is pending: what a pipeline writes next (a briefing, MEMORY.md,
    # the prompt index) reads validity that inferred links decide.
    def _remember(self, text: str, **fields: Any) -> Memory:
        self._settle()
        m = self._writing().remember(text, **fields)
        self._anchor([m])
        return m

    def _remember_many(self, items: Iterable[Mapping[str, Any]]) -> list[Memory]:
        self._settle()
        out = self._writing().remember_many(items)
        self._anchor(out)
        return out

    def _defers(self) -> bool:
        return self.defer_vectors and self.embedder is not None

    def settle(self) -> int:
        """Compute now the vectors and automatic links of memories written without waiting
        for the model (by this process or one that ended first); how many there were. Reads
        that need them do this themselves; call it to have everything in place at a known
        moment (a benchmark, before copying the store file)."""
        return self._settle()

    def _settle(self, limit: int | None = None, progress: Progress | None = None) -> int:
        """``settle``, for the reads that need every vector and link in place; with ``limit``
        (a read that must not wait for a backlog) at most that many, and none while another
        thread of this process is settling. ``progress(done, total)`` after each batch."""
        if self.embedder is None:
            return 0
        if limit is None:
            with self._settle_lock:
                return self._writing().settle(progress=progress)
        if not self._settle_lock.acquire(blocking=False):
            return 0
        try:
            return self._writing().settle(limit=limit)
        finally:
            self._settle_lock.release()

    def _settle_soon(self, delay_s: float = SETTLE_DELAY_S) -> None:
        """Start the background thread that settles what is pending (this process's writes,
        or a backlog a bounded read left), unless it runs."""
        if self.embedder is None or self._closing.is_set():
            return
        if self._settler is not None and self._settler.is_alive():
            return
        self._settler = threading.Thread(target=self._settle_in_background, args=(delay_s,),
                                         name="kenning-vectors", daemon=True)
        self._settler.start()

    def _settle_in_background(self, delay_s: float) -> None:
        """Wait ``delay_s`` for more writes to batch with (a process that closes within it,
        such as one CLI command, leaves them to the next process), then settle until nothing
        is pending. Errors are logged; the marks stay for the next try."""
        if self._closing.wait(delay_s):
            return
        try:
            with self._settle_lock:
                # small batches: closing waits for the one under way
                self._writing().settle(batch=BACKGROUND_BATCH, stop=self._closing.is_set)
        except Exception as exc:
            from kenning.errorlog import log_error

            log_error("computing vectors and links after a write", exc)

    def _update(self, memory_id: str, **fields: Any) -> Memory:
        m = self._writing().update(memory_id, **fields)
        if {"text", "content", "topic"} & fields.keys():  # re-worded: re-anchored
            self._anchor([replace(m, is_new=False)])
        return m

    # -- code drift ----------------------------------------------------------------------------

    def _drift(self, project_root: Path | None = None) -> DriftService:
        """Code drift over ``project_root`` (else the adapter's ``project_root``, else the
        current directory when it is this project's)."""
        from kenning.drift.repo import Repo
        from kenning.drift.service import DriftService

        root = project_root or self._auto_root()
        return DriftService(self.store, self.project, self.clock,
                            Repo(root) if root is not None else None, self.journal_dir())

    def _anchor(self, memories: Sequence[Memory], hints: Iterable[str] = ()) -> None:
        """Anchor written memories to the code they name; a failure is logged, the write
        stands. A new memory that names no file and no code costs two regular expressions."""
        from kenning.drift.code import may_name_code, may_name_files

        hints = list(hints)
        if not memories or (not hints and all(
                m.is_new and not any(may_name_files(t) or may_name_code(t)
                                     for t in (m.content, m.topic or ""))
                for m in memories)):
            return
        try:
            self._drift().anchor(memories, hints)
        except Exception as exc:
            from kenning.errorlog import log_error

            log_error("anchoring memories to code", exc)

    def anchor(self, memory_ids: Sequence[str], hints: Iterable[str] = (), *,
               session_id: str | None = None, project_root: Path | None = None
               ) -> dict[str, int]:
        """Anchor stored memories to the files and symbols they name, and to symbols they name
        that are defined in ``hints``: files edited while they were recorded (with
        ``session_id``, also the files that session's Edit and Write calls touched). Returns how
        many anchors each memory has now."""
        hints = list(hints)
        if session_id:
            hints += [str(e.data["file"]) for e in self.store.session_events(
                session_id=session_id, kinds=["tool"], limit=5000)
                if isinstance(e.data.get("file"), str)]
        found = self.store.get_many(list(memory_ids))
        return self._drift(project_root).anchor(
            [replace(m, is_new=False) for m in found.values()], dict.fromkeys(hints))

    def check_drift(self, project_root: Path | None = None,
                    paths: Sequence[str] | None = None) -> dict[str, Any]:
        """Compare the code memories are anchored to with the files now (only ``paths`` when
        given) and mark those whose code changed stale, or obsolete when it went. Only
        anchored files are looked at, and only those whose size or time changed are read."""
        return self._drift(project_root).check(paths).to_dict()

    def stale(self, limit: int = 100) -> builtins.list[dict[str, Any]]:
        """This project's memories whose code changed (stale) or went (obsolete), obsolete
        first: each memory's JSON form with its anchors."""
        return [{**m.to_dict(), "anchors": [a.to_dict() for a in anchors]}
                for m, anchors in self._drift().drifted(limit)]

    def confirm(self, memory_id: str) -> Memory:
        """Say a memory still holds for the code as it is now: it is re-anchored (today's
        fingerprints; anchors whose code went are dropped) and no longer stale. A file it gives
        that has moved since is given by its new path in its text (and topic)."""
        from kenning.drift.code import with_path

        m = self.get(memory_id)
        moves = self._drift().moves(m)
        if moves:
            content, topic = m.content, m.topic or ""
            for old, new in moves.items():
                content, topic = with_path(content, old, new), with_path(topic, old, new)
            changed = {k: v for k, v in (("content", content), ("topic", topic or None))
                       if v != getattr(m, k)}
            if changed:
                m = self.update(m.id, **changed)
        self._drift().confirm(m)
        return self.get(m.id)

    def anchors(self, memory_id: str) -> builtins.list[Anchor]:
        """The places in the code a memory is anchored to, with what the last check found."""
        return self.store.anchors(memory_ids=[self.get(memory_id).id])

    def _after_write(self, memories: Sequence[Memory]) -> None:
        """Sync Claude Code's auto memory after a write when the sync mode asks for it:
        ``on-write`` when a memory of the auto memory's (no agent) reached ``min_confidence``,
        ``periodic`` when the interval has passed. Needs the project's directory (set
        ``project_root``, or run inside the project). A failing sync is logged, never raised:
        the write itself stands."""
        if not memories:
            return
        try:
            opts = self._auto_options(None)
            if not opts.enabled or opts.sync_mode == "on-session-end":
                return
            if opts.sync_mode == "on-write" and not any(
                    m.agent is None and m.confidence >= opts.min_confidence for m in memories):
                return
            root = self._auto_root()
            if root is not None:
                self.auto_sync_if_due(root, opts, "write")
        except Exception as exc:
            from kenning.errorlog import log_error

            log_error("auto memory sync after a write", exc)

    def _auto_root(self) -> Path | None:
        """The project directory whose auto memory this facade's project is: ``project_root``
        when an adapter set it, else the current directory's project when it is this one."""
        if self.project_root is not None:
            return self.project_root
        from kenning.places.paths import project_for, project_root

        root = project_root()
        return root if project_for(root, self.store.location) == self.project else None

    def outcome(
        self, memory_id: str, status: OutcomeStatus | str, reason: str | None = None
    ) -> Memory:
        """Record how a decision turned out: success, failed or partial, with a reason."""
        return self._writing().outcome(memory_id, status, reason)

    def forget(self, memory_id: str) -> Memory:
        """Delete a memory with its vectors and links; returns what was deleted."""
        return self._writing().forget(memory_id)

    # -- reading -------------------------------------------------------------------------------

    def _recall(self) -> RecallService:
        """Reading and recall, with the vector index watermark and the worker kept here."""
        return RecallService(
            store=self.store, project=self.project, clock=self.clock, embedder=self.embedder,
            weights=self.weights, live=self._live, neighbourhood=self._neighbourhood,
            worker=self._worker, indexed_at=lambda: self._indexed_at,
            set_indexed_at=lambda mark: setattr(self, "_indexed_at", mark),
            on_progress=lambda: self.on_progress, settle=self._settle,
            backlog=lambda: self._settle_soon(0.0),
        )

    def get(self, memory_id: str, *, touch: bool = False) -> Memory:
        """The memory with this id, or with this unique id prefix (at least 6 characters).
        ``touch=True`` says an agent fetched it to use it (the MCP ``get`` tool): that use
        raises its confidence by ``kenning.learning.ACCESS_BOOST``; a person reading it does
        not."""
        return self._recall().get(memory_id, touch=touch)

    def _filters(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
    ) -> Filters:
        """Store filters for this project from checked user input."""
        return self._recall().filters(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )

    def list(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
        limit: int | None = 50,
        offset: int = 0,
        newest_first: bool = True,
    ) -> list[Memory]:
        """Memories of this project (and the user's), newest first, filtered."""
        return self._recall().list(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent,
            limit=limit, offset=offset, newest_first=newest_first,
        )

    def count(
        self,
        *,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
    ) -> int:
        """How many memories match the filters."""
        return self._recall().count(
            types=types, topic=topic, since=since, until=until, scope=scope, agent=agent
        )

    def recall(
        self,
        query: str,
        *,
        k: int = 10,
        types: Sequence[MemoryType | str] | MemoryType | str | None = None,
        topic: str | None = None,
        since: object = None,
        until: object = None,
        scope: Sequence[Scope | str] | Scope | str | None = None,
        agent: str | None = None,
        explain: bool = False,
        mode: Mode = "hybrid",
        track: bool = True,
        context: str | None = None,
        weak: bool = False,
    ) -> builtins.list[Hit]:
        """Hybrid recall: keyword (BM25) and vector candidates fused by relative score,
        widened by context (the memories recorded around and linked to the strongest hits,
        the query vector moved toward them, the memories that mention a name the query names
        ranked by what it asks about it: ``kenning.expansion``), then weighed by
        confidence, recency, outcome, a date the query names and (once consolidated)
        PageRank. Only
        relevant memories come back (a keyword match, or cosine similarity at least
        ``kenning.recall.MIN_SIMILARITY``), so an unrelated query finds nothing; ``weak``
        returns the ``k`` best regardless. ``context`` names a memory whose graph neighbours
        are boosted (contextual search); ``mode`` picks one side alone; ``track`` counts the
        head of the result as retrieved together (for co-access links). Recall never changes
        a memory's confidence: use does."""
        return self._recall().recall(
            query, k=k, types=types, topic=topic, since=since, until=until, scope=scope,
            agent=agent, explain=explain, mode=mode, track=track, context=context, weak=weak,
        )

    # -- learning and sessions: live confidence, feedback, session trajectories ----------------

    def _live(self, m: Memory, now: int | None = None) -> Memory:
        """``m`` with its confidence as of now: stored values of episodic kinds decay from
        their last touch, standing kinds keep theirs (``kenning.learning.decays``)."""
        conf = learning.decayed(
            m.confidence, learning.anchor_ms(m.created_at, m.updated_at, m.last_accessed_at),
            self.clock() if now is None else now, m.type.value,
        )
        return m if conf == m.confidence else replace(m, confidence=conf)

    def _sessions(self) -> SessionService:
        """The journal, learning from sessions, briefings, checkpoints, the prompt index."""
        from kenning.lifecycle import SessionService

        return SessionService(store=self.store, project=self.project, clock=self.clock,
                              get=self.get, live=self._live, remember=self._remember,
                              record_subagent_stop=self.record_subagent_stop)

    def feedback(self, memory_id: str, delta: float, reason: str) -> Memory:
        """Raise or lower a memory's confidence by ``delta`` (after decay) for ``reason``."""
        return self._sessions().feedback(memory_id, delta, reason)

    def confidence_history(self, memory_id: str, limit: int = 200) -> builtins.list[dict[str, Any]]:
        """How a memory's confidence changed and why, oldest first (``at`` is ISO time)."""
        return self._sessions().confidence_history(memory_id, limit)

    def journal_dir(self) -> str:
        """Where hooks append this store's session events (beside a SQLite file)."""
        return self._sessions().journal_dir()

    def record_events(
        self, events: Sequence[SessionEvent | Mapping[str, Any]]
    ) -> builtins.list[str]:
        """Store session events (the memories each new injection showed count as retrieved
        together, for co-access links; an injection alone does not change confidence). Returns
        the ids that were new."""
        return self._sessions().record_events(events)

    def ingest_journal(self) -> dict[str, int]:
        """Move what hooks appended to the journal into the store (idempotent; when the store
        refuses everything the journal stays for the next healthy run, while a single event it
        cannot take is quarantined, counted in ``quarantined``). Pending memories hooks could not
        store are remembered now, and so are those the CLI and the MCP server kept while the
        store was unavailable (``pending_remembered``), each in the project it was said in."""
        from kenning import fileonly

        out = self._sessions().ingest_journal()
        out.update({f"pending_{key}": n for key, n in fileonly.ingest_pending(self).items()})
        return out

    def session_trajectories(self, session_id: str) -> dict[str, Trajectory]:
        """Each memory's trajectory in a session: begun when recorded or injected, with the
        injections and tool outcomes that followed."""
        return self._sessions().session_trajectories(session_id)

    def learn_from_session(self, session_id: str) -> dict[str, Any]:
        """Complete and judge a session's trajectories once: a check suite (tests, a build, a
        linter) that ends failing after a memory was injected lowers it, one that ends passing
        raises it (``kenning.learning.judge``), and a memory the session's later edits or
        commands referenced (``kenning.usage.referenced``) counts as used
        (+``kenning.learning.ACCESS_BOOST``)."""
        return self._sessions().learn_from_session(session_id)

    def learn_from_abandoned_sessions(self, idle_ms: int = 3_600_000) -> builtins.list[str]:
        """Judge sessions that injected memories but never reached SessionEnd (a crash, a
        killed terminal) once they have been idle for ``idle_ms``. Returns their ids."""
        return self._sessions().learn_from_abandoned_sessions(idle_ms)

    def injections(self, limit: int = 50) -> builtins.list[dict[str, Any]]:
        """What the prompt hook put in front of the model recently, and why, newest first."""
        return self._sessions().injections(limit)

    def briefing(self, k: int = 5, max_chars: int = 2400) -> str:
        """A short session-start briefing: the latest checkpoint, then the project's most
        central and trusted memories (PageRank, confidence), as markdown with ids."""
        return self._sessions().briefing(k, max_chars)

    def start_session(self, project_root: Path | None = None,
                      options: AutoMemoryOptions | None = None, *, briefing_k: int = 5,
                      max_chars: int = 2400, log_as: str = "session start",
                      memory_md_loaded: bool = True,
                      session_id: str | None = None, prepare: bool = False) -> SessionReport:
        """Everything a session start does (``kenning.lifecycle.start``): ingest the journal,
        judge abandoned sessions, import changed auto-memory files of ``project_root``, bring
        the prompt index up to date; the report carries the briefing, which leaves out what
        MEMORY.md says unless ``memory_md_loaded`` is False (a session end rewrote MEMORY.md
        while the client was starting, so the client may hold an older one), and the sessions
        other than ``session_id`` that never ended (``unended``: run ``end_session`` for each,
        away from the client). With ``prepare``, also what a later start needs to repeat this
        one without opening the store (``prepared``, see ``kenning.journal.prepared``)."""
        from kenning import lifecycle

        return lifecycle.start(self, project_root, self._auto_options(options),
                               briefing_k=briefing_k, max_chars=max_chars, log_as=log_as,
                               memory_md_loaded=memory_md_loaded, session_id=session_id,
                               prepare=prepare)

    def compact_session(self, session_id: str, note: str | None = None) -> Memory:
        """Before a conversation is compacted: ingest the journal and save a checkpoint."""
        from kenning import lifecycle

        return lifecycle.compact(self, session_id, note)

    def end_session(self, session_id: str, *, transcript: Path | None = None,
                    project_root: Path | None = None, options: AutoMemoryOptions | None = None,
                    episodes: EpisodeOptions | None = None,
                    log_as: str = "session end") -> SessionReport:
        """Everything a session end does (``kenning.lifecycle.end``): ingest, learn, extract
        from ``transcript`` (keeping the user's turns as episodes unless ``episodes.keep`` is
        off), prune old episodes, consolidate, sync auto memory, rebuild the prompt index. A
        failing step is logged and reported; the later steps still run."""
        from kenning import lifecycle

        return lifecycle.end(self, session_id, transcript, project_root,
                             self._auto_options(options), episodes or _episode_options(),
                             log_as=log_as)

    def checkpoint(self, session_id: str, note: str | None = None) -> Memory:
        """Save where a session stands (before compaction): prompts, files edited, commands and
        their outcomes so far, plus ``note``."""
        return self._sessions().checkpoint(session_id, note)

    def build_prompt_index(self, *, force: bool = True) -> dict[str, Any]:
        """Write the prompt index the per-prompt hook reads (``kenning.promptindex``): every
        memory with its PageRank and supersession, as of now. Atomic; without ``force``, a
        SQLite store's index that is still current is kept."""
        return self._sessions().build_prompt_index(force=force)

    # -- links and the graph -------------------------------------------------------------------

    def _graph(self, *, settled: bool = True) -> GraphService:
        """Links and the graph; its caches (traversals, words in use, resolver) stay here.
        ``settled``: pending automatic links are made first, so links, traversals and
        consolidation see them (the relationship words a write resolves need not wait)."""
        from kenning.graph.service import GraphService

        if settled:
            self._settle()
        return GraphService(
            store=self.store, project=self.project, clock=self.clock,
            link_rules=self.link_rules, get=self.get, traversals=self._traversals,
            traversal_mark=lambda: self._traversal_mark,
            set_traversal_mark=lambda mark: setattr(self, "_traversal_mark", mark),
            known_words=lambda: self._known_words,
            set_known_words=lambda words: setattr(self, "_known_words", words),
            resolver=lambda: self._relations,
            set_resolver=lambda resolver: setattr(self, "_relations", resolver),
            remember_many=self._remember_many, update=self._update,
        )

    @property
    def relations(self) -> RelationshipResolver:
        """The relationship-word resolver (its multilingual model loads only for unknown words)."""
        return self._graph(settled=False).relations()

    def _known_relationships(self) -> dict[str, str]:
        """Relationship words already in use, with their core types (cached until links
        change: the scan is a GROUP BY over every link)."""
        return self._graph(settled=False).known_relationships()

    def link(
        self,
        from_id: str,
        to_id: str,
        relationship: str = "relates_to",
        *,
        confidence: float | None = None,
        reason: str | None = None,
        tags: Sequence[str] = (),
        created_by: CreatedBy | str = CreatedBy.USER,
        metadata: Mapping[str, Any] | None = None,
    ) -> Link:
        """Link two memories with any relationship words, in any language. Known words and
        their synonyms map to a canonical relation and core type; the words as said are kept."""
        return self._graph().link(from_id, to_id, relationship, confidence=confidence,
                                  reason=reason, tags=tags, created_by=created_by,
                                  metadata=metadata)

    def supersede(self, new_id: str, old_id: str, reason: str | None = None) -> Link:
        """Record that ``new_id`` replaces ``old_id``: a ``supersedes`` link and, in the same
        transaction, the old memory's ``valid_to`` and ``superseded_by``. From then on recall
        ranks the old one far below, and the prompt hook, the briefing and MEMORY.md leave it
        out. ``unlink`` of that link makes it current again; a cycle is refused."""
        return self._graph().supersede(new_id, old_id, reason)

    def links(self, memory_id: str) -> builtins.list[Link]:
        """Links into and out of a memory, oldest first."""
        return self._graph().links(memory_id)

    def unlink(self, link_id: str) -> bool:
        """Delete one link (by its id)."""
        return self._graph().unlink(link_id)

    def why(self, topic: str) -> builtins.list[ChainEntry]:
        """"Why did we decide X?": the evolution chain of a topic (or of a memory's topic when
        given an id), newest first, with outcomes and implementations."""
        return self._graph().why(topic)

    def impact(self, memory_id: str, *, window: object = "7d", depth: int = 5
               ) -> builtins.list[tuple[Memory, Reached]]:
        """"What happened after X?": later memories reached through implementation, evolution
        and temporal links (temporal ones only within ``window`` of X)."""
        return self._graph().impact(memory_id, window=window, depth=depth)

    def related(self, memory_id: str, *, depth: int = 2, min_confidence: float = 0.3
                ) -> builtins.list[tuple[Memory, Reached]]:
        """Memories within ``depth`` links of this one, most confidently connected first."""
        return self._graph().related(memory_id, depth=depth, min_confidence=min_confidence)

    def _neighbourhood(self, memory_id: str, depth: int, min_confidence: float
                       ) -> dict[str, Reached]:
        """Memories near one memory, from the traversal cache kept here (recall uses it too)."""
        return self._graph().neighbourhood(memory_id, depth, min_confidence)

    def consolidate(self) -> dict[str, Any]:
        """Maintain the graph: distil repeated episodes into one memory (``kenning.distil``),
        co-accessed links from recall statistics, prune weak automatic links, then PageRank and
        communities, stored for recall and hooks to read."""
        return self._graph().consolidate()

    def graph_stats(self) -> dict[str, Any]:
        """Sizes of the graph: links by core type, by edge kind and by creator."""
        return self._graph().graph_stats()

    def top(self, k: int = 10) -> builtins.list[tuple[Memory, float, int]]:
        """The most central memories by stored PageRank: (memory, normalised rank, community)."""
        return self._graph().top(k)

    def communities(self, *, limit: int = 20, sample: int = 3) -> builtins.list[dict[str, Any]]:
        """Communities found by label propagation, largest first, with their central members."""
        return self._graph().communities(limit=limit, sample=sample)

    def health(self) -> dict[str, Any]:
        """Graph health: components, isolated memories, orphaned relationship words,
        link storage share and recommendations (merge synonyms, archive orphans)."""
        return self._graph().health()

    def links_by_relationship(self, relationship: str) -> builtins.list[Link]:
        """Links said with these words or any synonym of them, in any language (fuzzy query
        expansion): "motivated by" also finds "inspired_by" and "영감을_받은"."""
        return self._graph().links_by_relationship(relationship)

    def merge_relationship(self, word: str, into: str) -> int:
        """Act on a health recommendation: file every link said with ``word`` under ``into``."""
        return self._graph().merge_relationship(word, into)

    # -- vectors -------------------------------------------------------------------------------

    def _embed(self, texts: Sequence[str]) -> np.ndarray | None:
        """Vectors for ``texts`` from the current embedder; None without one or without texts."""
        return self._recall().embed(texts)

    def _ensure_index(self) -> None:
        """Embed memories that have no vector from the current embedder (written by a process
        without the model, or by another embedder): never mix vector spaces."""
        self._recall().ensure_index()

    def reindex(self, *, progress: Progress | None = None, batch: int = 256) -> int:
        """Compute the vectors and links of writes still waiting for them (``settle``), then
        embed every other memory missing a vector from the current embedder and drop vectors
        of other embedders; how many were done. ``progress(done, total)`` is called after each
        batch; every batch is committed, so an interrupted run leaves the rest for the next."""
        if self.embedder is None:
            return self._recall().reindex(progress=progress, batch=batch)  # says why not
        return (self._settle(progress=progress)
                + self._recall().reindex(progress=progress, batch=batch))

    # -- status --------------------------------------------------------------------------------

    def _status(self) -> StatusService:
        """What ``kenning doctor`` reports, after computing a bounded part of the vectors still
        pending (``recall.READ_BACKLOG``): it counts what is left, and ``reindex`` does the
        rest with progress, never doctor in silence."""
        from kenning.status import StatusService

        self._settle(READ_BACKLOG)
        return StatusService(store=self.store, project=self.project, embedder=self.embedder,
                             journal_dir=self.journal_dir,
                             use_rates=lambda: self._sessions().use_rates())

    def status(self) -> dict[str, Any]:
        """What ``kenning doctor`` prints: where, what version, which embedder, how much."""
        return self._status().status()

    # -- dashboard -----------------------------------------------------------------------------

    def downvote_link(self, link_id: str, step: float = 0.2) -> Link:
        """A user's "this link is wrong-ish": lower its confidence by ``step`` (not below 0) and
        count the down-vote in its metadata, so decay and pruning can finish the job."""
        return self._graph().downvote_link(link_id, step)

    def links_with_word(self, relationship: str) -> builtins.list[Link]:
        """Links said with exactly these relationship words (no synonym expansion), oldest
        first: what a health recommendation about one word is about."""
        return self._graph().links_with_word(relationship)

    def topics(self, limit: int = 500) -> builtins.list[dict[str, Any]]:
        """Topics of this project's memories, most used first, with how many are decisions."""
        return self._graph().topics(limit)

    # -- Claude Code auto memory bridge and agent memory scopes --------------------------------

    def _automemory(self) -> AutoMemoryService:
        """Claude Code's auto memory (its modules load only when auto memory is used)."""
        from kenning.automemory.service import AutoMemoryService

        return AutoMemoryService(store=self.store, project=self.project, clock=self.clock,
                                 remember_many=self._remember_many, get=self.get,
                                 update=self._update, live=self._live)

    def _auto_options(self, options: AutoMemoryOptions | None) -> AutoMemoryOptions:
        """``options`` when given, else ``[auto_memory]`` of the configuration."""
        if options is not None:
            return options
        from kenning.automemory.options import AutoMemoryOptions
        from kenning.config import ConfigError
        from kenning.errors import ValidationError

        try:
            return AutoMemoryOptions.from_config(self.config.section("auto_memory"))
        except ConfigError as exc:
            raise ValidationError(str(exc)) from None

    def auto_memory_dir(self, project_root: Path | None = None) -> Path:
        """Claude Code's auto memory directory for the project (git root's real path, keyed as
        the client keys it, under ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)."""
        return self._automemory().memory_dir(project_root)

    def agent_memory_dir(self, scope: str, project_root: Path | None = None) -> Path:
        """The memory directory of ``project:<agent>``, ``local:<agent>`` or ``user:<agent>``."""
        return self._automemory().agent_memory_dir(scope, project_root)

    def auto_import(self, project_root: Path | None = None,
                    options: AutoMemoryOptions | None = None, *, scope: str | None = None
                    ) -> dict[str, Any]:
        """Import changed MEMORY.md lines, client memory files and topic files (of the auto
        memory, or of an agent ``scope``); counts: files, imported, updated, unchanged, skipped."""
        return self._automemory().import_files(project_root, self._auto_options(options), scope)

    def auto_sync(self, project_root: Path | None = None,
                  options: AutoMemoryOptions | None = None, *, scope: str | None = None,
                  categories: Sequence[str] | None = None) -> dict[str, Any]:
        """Import first, then write memories >= min confidence as client memory files (or
        topic files) and curate MEMORY.md; journalled, atomic and idempotent. ``categories``
        syncs only those (``debugging``, ``architecture``...): others stay as they are."""
        return self._automemory().sync(project_root, self._auto_options(options), scope,
                                       categories)

    def auto_sync_if_due(self, project_root: Path | None = None,
                         options: AutoMemoryOptions | None = None, event: str = "write",
                         *, scope: str | None = None) -> dict[str, Any]:
        """What the sync mode calls for on ``event`` (``write``, ``session-start``,
        ``session-end``): a sync when due (``synced`` True), else at a session start the
        import alone; nothing for a write that is not due."""
        return self._automemory().sync_if_due(project_root, self._auto_options(options), event,
                                              scope)

    def auto_status(self, project_root: Path | None = None,
                    options: AutoMemoryOptions | None = None, *, scope: str | None = None
                    ) -> dict[str, Any]:
        """MEMORY.md against the client's limits, files by origin, pending changes."""
        return self._automemory().status(project_root, self._auto_options(options), scope)

    def curate(self, project_root: Path | None = None, options: AutoMemoryOptions | None = None,
               write: bool = True, *, scope: str | None = None) -> dict[str, Any]:
        """Rewrite MEMORY.md within ``max_index_lines`` (180) and 25,000 bytes, most valuable
        lines first, a person's lines imported and kept; ``write=False`` only previews."""
        return self._automemory().curate(project_root, self._auto_options(options), write, scope)

    def curate_preview(self, project_root: Path | None = None,
                       options: AutoMemoryOptions | None = None, *, scope: str | None = None
                       ) -> dict[str, Any]:
        """The MEMORY.md curation would write (what Claude Code will load): path, text, lines,
        bytes, max_lines, max_bytes. Writes nothing."""
        return self._automemory().curate_preview(project_root, self._auto_options(options),
                                                 scope)

    def agent_scopes(self, project_root: Path | None = None) -> builtins.list[dict[str, Any]]:
        """Agent memory scopes known from the store, from disk and from agent definitions."""
        return self._automemory().agent_scopes(project_root)

    def auto_agents(self, project_root: Path | None = None,
                    options: AutoMemoryOptions | None = None, *, sync: bool = False
                    ) -> dict[str, Any]:
        """Agent memory at a session boundary: import every agent memory directory on disk
        (subagents with a ``memory`` scope write there); with ``sync`` also write the scopes
        agent definitions ask for and those of the agent named by ``CLAUDE_CODE_AGENT_NAME``."""
        return self._automemory().agents(project_root, self._auto_options(options), sync=sync,
                                         running=os.environ.get("CLAUDE_CODE_AGENT_NAME"))

    def transfer(self, from_scope: str, to_scope: str, min_confidence: float = 0.8
                 ) -> dict[str, Any]:
        """Copy an agent scope's memories whose confidence now (decay applied) is above
        ``min_confidence`` to another scope (``user:reviewer``...), at that confidence,
        de-duplicated, with provenance."""
        return self._automemory().transfer(from_scope, to_scope, min_confidence)

    # -- agents: findings, session insights, scoping, extraction -------------------------------

    def _findings(self) -> FindingsService:
        """Findings of agents, subagent reports, sharing and scoped recall."""
        from kenning.findings import FindingsService

        return FindingsService(
            store=self.store, project=self.project, clock=self.clock, embedder=self.embedder,
            max_content_chars=self.max_content_chars, ensure_index=self._ensure_index,
            remember=self._remember, update=self._update, get=self.get, recall=self.recall)

    def _insights(self) -> InsightService:
        """Session insights and what earlier sessions learned."""
        from kenning.insights import InsightService

        return InsightService(remember_many=self._remember_many, list_memories=self.list,
                              scoped_recall=self.scoped_recall)

    def _extraction(self) -> ExtractionService:
        """Zero-LLM capture from transcripts and git history."""
        from kenning.extract.service import ExtractionService

        return ExtractionService(store=self.store, project=self.project,
                                 embedder=self.embedder, ensure_index=self._ensure_index,
                                 remember_many=self._remember_many, update=self._update,
                                 supersede=self.supersede, clock=self.clock)

    def record_finding(
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
        threshold: float = 0.85,
    ) -> Memory:
        """Record what an agent found; several agents may record at once. The same finding
        said in other words (cosine >= ``threshold``) is merged into the stored one: one
        memory, every source in ``metadata.sources``. Safe with many processes and machines
        at once (``findings.lock``)."""
        m = self._findings().record(
            text, source=source, type=type, category=category, topic=topic, summary=summary,
            confidence=confidence, tags=tags, agent=agent, spec=spec, shared=shared,
            metadata=metadata, threshold=threshold)
        self._after_write([m])
        return m

    def record_subagent_stop(self, payload: Mapping[str, Any], *, swarm: str | None = None
                             ) -> Memory | None:
        """A SubagentStop hook payload's final report as a finding from ``agent:<type>`` (or
        ``swarm:<id>:<type>``); None for compaction's unnamed agent or an empty report."""
        return self._findings().subagent_stop(payload, swarm=swarm)

    def share(self, memory_id: str, shared: bool = True) -> Memory:
        """Make a spec-, worktree- or agent-scoped memory visible everywhere in the project
        (explicit sharing overrides the scope), or take that back."""
        return self._findings().share(memory_id, shared)

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
    ) -> builtins.list[Hit]:
        """``recall`` within a scope: a spec/worktree's and project-wide memories, an
        agent's own and un-owned ones, shared ones always; optionally only some episodes."""
        return self._findings().scoped_recall(query, k=k, spec=spec, agent=agent,
                                              include_shared=include_shared,
                                              episodes=episodes, **kw)

    def save_insight(
        self,
        insight: Mapping[str, Any],
        *,
        spec: str | None = None,
        agent: str | None = None,
        source: str | None = None,
        shared: bool = False,
        children: bool = True,
    ) -> builtins.list[Memory]:
        """Store what an agent session learned: one session_insight memory plus a
        pattern, gotcha, codebase_discovery and task_outcome memory per finding, in one
        transaction. The session memory comes first in the result."""
        out = self._insights().save(insight, spec=spec, agent=agent, source=source,
                                    shared=shared, children=children)
        self._after_write(out)
        return out

    def session_history(self, limit: int = 5, *, spec: str | None = None,
                        agent: str | None = None) -> builtins.list[Memory]:
        """The latest session_insight memories, newest first (retrieval by time, not meaning)."""
        return self._insights().history(limit, spec=spec, agent=agent)

    def similar_outcomes(self, task: str, k: int = 5, *, spec: str | None = None,
                         agent: str | None = None) -> builtins.list[Hit]:
        """Past task outcomes, QA results and sessions most like ``task`` (retrieval by
        similar task): what succeeded or failed before."""
        return self._insights().similar_outcomes(task, k, spec=spec, agent=agent)

    def session_context(self, task: str | None = None, *, k: int = 5, history: int = 3,
                        spec: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """What an agent should know before starting ``task``: relevant
        memories, gotchas, similar past outcomes and the latest sessions' insights."""
        return self._insights().context(task, k=k, history=history, spec=spec, agent=agent)

    def insights(self, limit: int = 5, *, spec: str | None = None) -> builtins.list[dict[str, Any]]:
        """The last sessions' insights as worked / failed / gotchas / next."""
        return self._insights().views(limit, spec=spec)

    def extract(
        self,
        transcript: str | os.PathLike[str] | None = None,
        repo: str | os.PathLike[str] | None = None,
        since: str | None = None,
        apply: bool = False,
        *,
        llm: bool | None = None,
        llm_budget: int | None = None,
        threshold: float = 0.85,
        episodes: EpisodeOptions | None = None,
    ) -> dict[str, Any]:
        """Mine a Claude Code transcript and git history for candidate memories by rules
        (no LLM needed), drop near-duplicates of each other and of what is stored (cosine >=
        ``threshold``), optionally refine them with an LLM (opt-in, budget-capped), and with
        ``apply`` store the new ones plus a session_insight, in one transaction. A gotcha
        whose failure a stored gotcha already records counts the session as its evidence.
        With ``apply`` and ``episodes`` (``keep``), the user's turns are kept as episodes
        (``kenning.episodes``). The report is redacted like everything Kenning stores (a dry
        run would otherwise print the secrets commits and transcripts hold)."""
        from kenning.redact import redact_obj

        report = self._extraction().extract(transcript, repo, since, apply, llm=llm,
                                            llm_budget=llm_budget, threshold=threshold,
                                            episodes=episodes)
        return cast("dict[str, Any]", redact_obj(report)[0])

    def prune_episodes(self, options: EpisodeOptions | None = None) -> int:
        """Drop this project's episodes older than ``keep_days`` and the oldest beyond
        ``max_per_project`` (``kenning.episodes``); how many were dropped."""
        return self._extraction().prune_episodes(options or _episode_options(), self.clock())


def _episode_options() -> EpisodeOptions:
    from kenning.episodes import EpisodeOptions

    return EpisodeOptions()
