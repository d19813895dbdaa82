"""What Kenning does when a coding session starts, is compacted and ends, step by step.

The hooks call these through the facade (``Kenning.start_session`` and friends), and so can
anything else that wants "end of session" run: a script, a test, a later background worker.
Each step that fails is logged (``kenning doctor`` shows it) and the later steps still run, so
one bad transcript or auto-memory file never costs the rest of the session's learning.

``SessionService`` holds what those steps are made of: journal ingestion, judging a session's
trajectories, feedback and confidence history, the injection log, the briefing, checkpoints and
the prompt index. The facade builds it on each call with exactly what it needs."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from kenning import learning
from kenning import validation as v
from kenning.distil import is_track_record
from kenning.drift import drift_note
from kenning.errors import ValidationError
from kenning.filelock import DirLock
from kenning.models import Filters, MemoryType, OutcomeStatus, SessionEvent, iso
from kenning.ranking import recency
from kenning.sessions import Trajectory, trajectories
from kenning.usage import injection_factor
from kenning.weights import record

if TYPE_CHECKING:
    from kenning.automemory.options import AutoMemoryOptions
    from kenning.episodes import EpisodeOptions
    from kenning.facade import Kenning
    from kenning.models import Memory
    from kenning.store.base import Store


class Brief(NamedTuple):
    """A session-start briefing (``SessionService.brief``): its text, the memories it shows,
    those in force it leaves out because the model has their line already, and the first time
    after now at which a memory it weighed stops holding (None: none does), when the same
    briefing made later would differ."""

    text: str
    briefed: list[Memory]
    known: list[Memory]
    until: int | None


@dataclass
class SessionReport:
    """What each step of a session start or end returned, and which steps failed (step name ->
    ``"ErrorType: message"``). ``briefing`` is the start briefing ("" after an end); ``shown``
    the ids and line keys (``kenning.journal.seen.key``) of what the briefing and MEMORY.md put in
    front of the model, so prompt injections do not repeat them."""

    steps: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    briefing: str = ""
    shown: list[str] = field(default_factory=list)  # ids and line keys the start showed
    # the memories the briefing and MEMORY.md put in front of the model, for learning
    shown_ids: list[str] = field(default_factory=list)
    # sessions that started, never ended and went quiet: their end is still to run
    unended: list[dict[str, Any]] = field(default_factory=list)
    # a start asked to prepare: what a later start may answer from (``kenning.journal.prepared``:
    # the briefing, the store's markers and the files read), None when it may not
    prepared: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.errors


# Errors that bad data raises (a wrong type or value, a row breaking a constraint): an event
# failing with one of them is at fault itself, however many others fail the same way.
_DATA_ERRORS = (ValueError, TypeError, LookupError, AttributeError, ArithmeticError)
_DATA_ERROR_NAMES = ("DataError", "IntegrityError")  # sqlite3's and psycopg's


def _store_down(failed: Sequence[tuple[str, str, Exception]]) -> bool:
    """Whether failed events point at the store rather than at themselves: all failed with the
    same error, and not one that bad data raises (e.g. the database is locked or unreachable)."""
    first = failed[0][2]
    if isinstance(first, _DATA_ERRORS) or type(first).__name__ in _DATA_ERROR_NAMES:
        return False
    return all(error == failed[0][1] for _, error, _ in failed)


# Kinds that state how to work here: briefed whatever the prompt, while they hold.
_STANDING = (MemoryType.PREFERENCE, MemoryType.PATTERN)
UPDATE_CHARS = 1200  # the update after a briefing: a few lines, like a prompt's injection
UPDATE_NEW = 6  # memories made since the briefing, at most
_FIX = re.compile(r"\bFix: (?P<fix>.+?)(?:; then\b|\s+Why:|$)", re.S)
FIX_CHARS = 120  # of a gotcha's fix added to its briefing line


def _briefed(m: Memory) -> str:
    """What the briefing shows of a memory: its summary; for a gotcha whose summary was cut
    before the fix its content gives, the summary up to the fix and then the fix itself (the
    remedy is what the model needs from it, and a line without it can read as the old way)."""
    found = _FIX.search(m.content) if m.type is MemoryType.GOTCHA else None
    if found is None:
        return m.summary
    fix = " ".join(found.group("fix").split())
    if fix in m.summary:
        return m.summary
    head = m.summary.split(" Fix:")[0].rstrip()
    return f"{head} Fix: {fix if len(fix) <= FIX_CHARS else fix[: FIX_CHARS - 1] + '…'}"


# Session events Kenning writes about a session (its verdicts, the uses it found, the stored
# commands it confirmed), not the session's own activity.
_BOOKKEEPING = frozenset({"judged", "used", "confirmed"})


def _run(report: SessionReport, log_as: str, name: str, work: Callable[[], Any]) -> Any:
    try:
        result = work()
    except Exception as exc:
        from kenning.errorlog import log_error

        log_error(f"{log_as}: {name}", exc)
        report.errors[name] = f"{type(exc).__name__}: {exc}"
        return None
    report.steps[name] = result
    return result


def start(k: Kenning, project_root: Path | None, options: AutoMemoryOptions, *,
          briefing_k: int, max_chars: int, log_as: str, memory_md_loaded: bool = True,
          session_id: str | None = None, prepare: bool = False) -> SessionReport:
    """Ingest what hooks journalled, judge sessions abandoned without an end, import the
    auto-memory files a person changed, bring the prompt index up to date, and brief. The
    report lists the sessions other than ``session_id`` whose end never ran (``unended``): the
    caller runs their ends where the client does not wait for them. With ``prepare``, a start
    that a later one may stand in for also carries what that one needs to know it still holds
    (``prepared``, see ``kenning.journal.prepared``)."""
    report = SessionReport()
    _run(report, log_as, "ingest", k.ingest_journal)
    _run(report, log_as, "learn", k.learn_from_abandoned_sessions)
    report.unended = _run(report, log_as, "unended",
                          lambda: k._sessions().unended(session_id or "")) or []
    if project_root is not None and options.enabled:
        _run(report, log_as, "auto_import",
             lambda: k.auto_sync_if_due(project_root, options, "session-start"))
        _run(report, log_as, "agent_import", lambda: k.auto_agents(project_root, options))
    if project_root is not None:  # before the index: what changed in the code ranks down now
        _run(report, log_as, "drift", lambda: k.check_drift(project_root))
    _run(report, log_as, "prompt index", lambda: k.build_prompt_index(force=False))
    from kenning.journal.seen import key

    loaded: list[str] = []
    if project_root is not None and options.enabled and memory_md_loaded:
        loaded = _run(report, log_as, "memory keys",
                      lambda: memory_md_keys(k.auto_memory_dir(project_root) / "MEMORY.md")) or []
    ready = None
    if prepare and memory_md_loaded and not report.errors and not report.unended:
        try:
            ready = _preparation(k, project_root, options, session_id)
        except Exception as exc:  # optional work: the start itself stands
            from kenning.errorlog import log_error

            log_error(f"{log_as}: preparing the next start", exc)
    brief = k._sessions().brief(briefing_k, max_chars, set(loaded))
    report.briefing = brief.text
    # by line, not id: a briefed memory's detail may still come with a prompt it bears on
    report.shown = loaded + [key(m.summary) for m in brief.briefed]
    report.shown_ids = list(dict.fromkeys([m.id for m in brief.briefed]
                                          + [m.id for m in brief.known]))
    if ready is not None and not report.errors:
        report.prepared = {**ready, "until_ms": brief.until, "briefing": report.briefing,
                           "shown": report.shown, "shown_ids": report.shown_ids}
    return report


def _preparation(k: Kenning, project_root: Path | None, options: AutoMemoryOptions,
                 session_id: str | None) -> dict[str, Any] | None:
    """Taken after a start's steps and before its briefing: the store's markers, read first (a
    write landing after them makes the next start a full one), and the stamps of the files the
    steps read; None when the start may not be repeated from them (a server store, a
    conversation other than ``session_id`` still open, too many files to watch). Made for
    ``session_id``, it holds for that conversation's starts only (``session``), which come
    before its end."""
    from kenning.journal import prepared

    location = k.store.location
    if "://" in location or project_root is None:
        return None
    seen = prepared.markers(location)
    sessions = k._sessions()
    # a conversation without an end is learned from once it goes quiet: a full start sees to it
    if sessions.unended(session_id or "", idle_ms=0, limit=1) \
            or any(sid != session_id for sid in sessions.abandoned(idle_ms=0)):
        return None
    files, trees = _start_inputs(k, project_root, options)
    now_ns = prepared.file_system_now(os.path.join(k.journal_dir(), prepared.DIR))
    stamps = prepared.signature(files, trees, racy_after_ns=now_ns - prepared.RACY_NS)
    if stamps is None:
        return None
    return {"made_ms": k.clock(), "session": session_id or None, "markers": seen,
            "root": str(project_root), "files": files, "trees": trees, "signature": stamps}


def _start_inputs(k: Kenning, project_root: Path, options: AutoMemoryOptions
                  ) -> tuple[list[str], list[str]]:
    """What a start reads besides the store and the journal, as (files, directories): Claude
    Code's settings (whether auto memory is on, where it lives), the auto memory and agent
    memory directories it imports, the code files memories are anchored to and, when one of
    them is missing, the git HEAD (the drift check asks git where it went; for files that are
    there it needs only their size and time)."""
    from kenning.automemory.paths import claude_config_dir
    from kenning.drift.hook import ANCHORED_FILE

    root = str(project_root)
    config_dir = str(claude_config_dir())
    files = [os.path.join(config_dir, "settings.json"),
             os.path.join(root, ".claude", "settings.json"),
             os.path.join(root, ".claude", "settings.local.json"),
             # the list the drift service keeps of every anchored file
             os.path.join(k.journal_dir(), ANCHORED_FILE)]
    anchored = sorted({os.path.join(root, a.path) for a in k.store.anchors(project=k.project)})
    files += anchored
    if not all(os.path.isfile(path) for path in anchored):
        files += _git_head(root)
    trees = [os.path.join(root, ".claude", "agent-memory"),
             os.path.join(root, ".claude", "agent-memory-local"),
             os.path.join(config_dir, "agent-memory")]
    if options.enabled:
        trees.insert(0, str(k.auto_memory_dir(project_root)))
    return files, trees


def _git_head(root: str) -> list[str]:
    """The files naming a work tree's current commit: ``.git`` (a file in a linked work tree),
    its HEAD, the branch ref HEAD names and the packed refs."""
    git = os.path.join(root, ".git")
    out = [git]
    head = os.path.join(git, "HEAD")
    try:
        with open(head, encoding="utf-8") as f:
            text = f.read(512).strip()
    except OSError:
        return out
    out += [head, os.path.join(git, "packed-refs")]
    if text.startswith("ref: "):
        out.append(os.path.join(git, *text[5:].split("/")))
    return out


def memory_md_keys(path: Path) -> list[str]:
    """The line keys (``kenning.journal.seen.key``) of what the client loads of a MEMORY.md: its
    first 200 lines, at most 25,000 bytes; for a generated line, the text after its link."""
    from kenning.journal.seen import key

    try:
        raw = path.read_bytes()[:25_000]
    except FileNotFoundError:
        return []
    keys = []
    for line in raw.decode("utf-8", errors="ignore").splitlines()[:200]:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        text = text.split(" — ", 1)[1] if " — " in text else text.lstrip("-*+ ")
        if found := key(text):
            keys.append(found)
    return keys


def compact(k: Kenning, session_id: str, note: str | None) -> Memory:
    """Before the conversation is compacted: ingest, then save where the session stands."""
    k.ingest_journal()
    return k.checkpoint(session_id, note)


def end(k: Kenning, session_id: str, transcript: Path | None, project_root: Path | None,
        options: AutoMemoryOptions, episodes: EpisodeOptions, *, log_as: str) -> SessionReport:
    """Consolidate a session: ingest, mine its transcript (and the repository) for memories,
    judge its trajectories (after the mining, so what the session replaced is known), rebuild
    the graph, sync and curate Claude Code's auto memory, and rebuild the prompt index last,
    after every write of the session."""
    report = SessionReport()
    _run(report, log_as, "ingest", k.ingest_journal)
    if transcript is not None and transcript.is_file() and k.config.get("capture", "extract"):
        found = _run(report, log_as, "extract",
                     lambda: k.extract(transcript=transcript, repo=project_root, apply=True,
                                       episodes=episodes))
        if found and found.get("applied") and project_root is not None:
            # what the session learned, anchored to the symbols it names in the files it edited
            _run(report, log_as, "anchor",
                 lambda: k.anchor(found["applied"], session_id=session_id,
                                  project_root=project_root))
    # judged after the session's own changes are known: what it replaced is not credited
    _run(report, log_as, "learn", lambda: k.learn_from_session(session_id))
    _run(report, log_as, "prune episodes", lambda: k.prune_episodes(episodes))
    _run(report, log_as, "consolidate", k.consolidate)
    if project_root is not None and options.enabled:
        _run(report, log_as, "auto_sync", lambda: k.auto_sync(project_root, options))
        _run(report, log_as, "agent_sync",
             lambda: k.auto_agents(project_root, options, sync=True))
    _run(report, log_as, "prompt index", k.build_prompt_index)
    return report


def _in_project(data: dict[str, Any], cwd: object) -> dict[str, Any]:
    """A tool event's data with its ``file`` made relative to the project's root when it lies
    inside it. The directories above the project say nothing about what the session did: a
    project checked out as ``~/src/since-window`` would otherwise make every edit look like a
    use of any memory that mentions ``--since`` (``kenning.usage.referenced`` matches terms in
    these paths), and a checkpoint would list long absolute paths."""
    path = data.get("file")
    if not isinstance(path, str) or not os.path.isabs(path) or not isinstance(cwd, str) \
            or not cwd:
        return data
    from kenning.places.lean import git_root

    root = git_root(cwd) or os.path.realpath(cwd)
    real = os.path.realpath(path)
    if real.startswith(root.rstrip(os.sep) + os.sep):
        data["file"] = os.path.relpath(real, root).replace(os.sep, "/")
    return data


def _after_shown(steps: Sequence[Mapping[str, object]]) -> list[Mapping[str, object]]:
    """The tool steps of a trajectory from its memory's first injection on (none if it was
    never injected): what the session did once the memory was in front of the model."""
    shown = [cast(int, s["at"]) for s in steps if s["kind"] == "injected"]
    if not shown:
        return []
    return [s for s in steps if s["kind"] == "tool" and cast(int, s["at"]) >= min(shown)]


class SessionService:
    """A store's session learning and what the model is shown at session start.

    Built per call by the facade, so a changed clock, project or ``remember`` is seen at once.
    ``get`` (a memory by id or prefix), ``live`` (its confidence as of a time), ``remember``
    and ``record_subagent_stop`` are facade operations this service composes; they are passed
    in rather than the facade itself, so the service does not depend on it."""

    def __init__(
        self,
        *,
        store: Store,
        project: str,
        clock: Callable[[], int],
        get: Callable[[str], Memory],
        live: Callable[[Memory, int | None], Memory],
        remember: Callable[..., Memory],
        record_subagent_stop: Callable[[Mapping[str, Any]], Memory | None],
    ) -> None:
        self.store = store
        self.project = project
        self.clock = clock
        self.get = get
        self.live = live
        self.remember = remember
        self.record_subagent_stop = record_subagent_stop

    def feedback(self, memory_id: str, delta: float, reason: str) -> Memory:
        """Shift a memory's confidence by ``delta`` for ``reason``; the memory afterwards."""
        if not isinstance(delta, int | float) or not -1.0 <= delta <= 1.0:
            raise ValidationError("delta must be a number between -1 and 1")
        memory = self.get(memory_id)
        self.store.adjust_confidence([(memory.id, float(delta), v.source(reason) or "feedback")],
                                     self.clock())
        return self.get(memory.id)

    def confidence_history(self, memory_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """A memory's confidence changes with their reasons, oldest first."""
        memory = self.get(memory_id)
        return [{"at": iso(at), "at_ms": at, "confidence": round(c, 4), "reason": r}
                for at, c, r in self.store.confidence_history(memory.id, limit)]

    def journal_dir(self) -> str:
        """The directory the hooks journal into for this store."""
        from kenning.places.lean import journal_dir

        return journal_dir(self.store.location)

    def record_events(self, events: Sequence[SessionEvent | Mapping[str, Any]]) -> list[str]:
        """Store session events (new ones only); the memories a new injection showed that
        still exist count as retrieved together (co-access links). Being shown is not a use,
        so confidence is left alone: ``learn_from_session`` credits the memories the session
        went on to act on. Returns the new ids."""
        parsed = [e if isinstance(e, SessionEvent) else SessionEvent(
            id=str(e["id"]), session_id=str(e.get("session_id") or ""),
            project=str(e.get("project") or self._project_of(e.get("cwd"))),
            at_ms=int(e["at_ms"]), kind=str(e["kind"]),
            data=_in_project(dict(e.get("data") or {}), e.get("cwd")),
        ) for e in events]
        new = set(self.store.add_session_events(parsed))
        for e in parsed:  # memories a prompt brought together (not what every session starts with)
            if e.id in new and e.kind == "injected" and not e.data.get("channel"):
                ids = [str(m["id"]) for m in e.data.get("memories", []) if m.get("id")]
                known = self.store.get_many(ids)
                self.store.record_co_access([i for i in ids if i in known], e.at_ms)
        return [e.id for e in parsed if e.id in new]

    def _project_of(self, cwd: object) -> str:
        """The project a hook event's working directory belongs to (this one's if unknown, or
        when ``KENNING_PROJECT`` pins it)."""
        if os.environ.get("KENNING_PROJECT") or not isinstance(cwd, str) or not cwd:
            return self.project
        from kenning.places.paths import project_for

        return project_for(cwd, self.store.location)

    def ingest_journal(self) -> dict[str, int]:
        """Move journalled hook events into the store under the journal's lock: events are
        recorded, subagent reports become findings, pending memories are remembered.

        One bad event never blocks the rest: a line that is not an event, or an event the store
        refuses on its own, goes to the quarantine beside the journal and ingestion carries on;
        a file is deleted once each of its events is stored or quarantined. When the store
        itself fails (every event of a file the same way, e.g. it is locked) the file is kept
        for the next run and, after the other files, that error is raised."""
        from kenning import journal

        directory = self.journal_dir()
        counts = {"files": 0, "events": 0, "new": 0, "unreadable": 0, "remembered": 0,
                  "findings": 0, "quarantined": 0}
        lock = DirLock(directory)
        if not lock.acquire():
            return counts
        down: Exception | None = None
        try:
            for path in journal.claim(directory):
                entries, rejects = journal.scan(path)
                counts["files"] += 1
                counts["events"] += len(entries)
                counts["unreadable"] += len(rejects)
                failed, store_error = self._ingest_file(entries, counts)
                if store_error is not None:
                    down = down or store_error
                    continue
                bad = rejects + failed
                journal.quarantine(directory, bad, self.clock())
                counts["quarantined"] += len(bad)
                os.unlink(path)
        finally:
            lock.release()
        if down is not None:
            raise down
        return counts

    def _ingest_file(self, entries: list[tuple[str, dict[str, object]]], counts: dict[str, int]
                     ) -> tuple[list[tuple[str, str]], Exception | None]:
        """Ingest one file's events in one batch, or when the batch fails, one at a time.
        Returns the ``(line, error)`` of each event the store refused on its own, or the store's
        error when it refused them all alike (then nothing is to be quarantined)."""
        events = [e for _, e in entries]
        done: set[str] = set()
        recordable = [e for e in events if e["kind"] != "remember"]
        new: set[str] | None = None  # the batch's new ids; None when the batch did not say
        try:
            new = set(self.record_events(recordable))
            counts["new"] += len(new)
            for e in events:
                self._follow_up(e, new, counts)
                done.add(str(e["id"]))
            return [], None
        except Exception:  # the batch failed: each event not done yet is tried alone below
            pass
        failed: list[tuple[str, str, Exception]] = []
        stored = 0
        for line, e in entries:
            if str(e["id"]) in done:
                continue
            try:
                fresh = set() if e["kind"] == "remember" else set(self.record_events([e]))
                counts["new"] += len(fresh)
                # a subagent event the failed batch may have stored still needs its finding
                # (findings and memories of the same text are not stored twice)
                self._follow_up(e, fresh | (new if new is not None else {str(e["id"])}),
                                counts)
                stored += 1
            except Exception as exc:
                failed.append((line, f"{type(exc).__name__}: {exc}", exc))
                if not stored and len(failed) >= 2 and _store_down(failed):
                    return [], exc  # the store, not the events: try the file again next run
        if failed and not stored and _store_down(failed):
            return [], failed[0][2]
        return [(line, error) for line, error, _ in failed], None

    def _follow_up(self, e: Mapping[str, Any], new: set[str], counts: dict[str, int]) -> None:
        """What an event asks beyond being recorded: a new subagent event's report becomes a
        finding of that agent, a pending memory is remembered."""
        data = cast("dict[str, Any]", e["data"])
        if e["kind"] == "subagent" and e["id"] in new and data.get("report"):
            self.record_subagent_stop({**data, "last_assistant_message": data["report"]})
            counts["findings"] += 1
        elif e["kind"] == "remember":
            fields = dict(data)
            text = fields.pop("text")
            if text.strip():
                self.remember(text, **fields)
                counts["remembered"] += 1

    def session_trajectories(self, session_id: str) -> dict[str, Trajectory]:
        """Trajectories of the memories a session injected, or that this project recorded
        between its first and last event, save those drawn from another session's transcript
        (a killed session finished while this one ran: this session did not record them)."""
        events = self.store.session_events(session_id=session_id, limit=100_000)
        if not events:
            return {}
        start, end = events[0].at_ms, events[-1].at_ms
        recorded = [(m.id, m.created_at) for m in self.store.list(
            Filters(project=self.project, since=start, until=end + 1), limit=500)
            if (m.metadata.get("provenance") or {}).get("session_id") in (None, session_id)]
        return trajectories(events, recorded)

    def learn_from_session(self, session_id: str) -> dict[str, Any]:
        """Judge each trajectory of a session at most once (a ``judged`` event marks it) and
        apply the confidence changes the verdicts call for; an injected memory that the
        session's later edits, commands or checks referenced (``kenning.usage.referenced``)
        was used, and gains ``kenning.learning.ACCESS_BOOST`` once for this session. A memory
        only the session start showed (the briefing, MEMORY.md) is judged by the checks that
        followed only when the session used it: every session starts with the rules in force,
        and a check passing says nothing about a rule nobody acted on. A shown memory the
        session replaced loses, however it was shown: the change was made with it in view."""
        from kenning.usage import referenced

        now = self.clock()
        trajs = self.session_trajectories(session_id)
        judged: list[dict[str, Any]] = []
        shown = self.store.get_many(sorted(mid for mid, t in trajs.items() if t.used()))
        usage = {mid: mid in shown and referenced(shown[mid], _after_shown(t.steps))
                 for mid, t in trajs.items()}
        verdicts: dict[str, tuple[float, str]] = {}
        for mid, t in trajs.items():
            ended = shown[mid].valid_to if mid in shown else None
            replaced = ended is not None and ended >= t.begun_at
            if not t.used():
                verdicts[mid] = (0.0, "recorded in this session, not yet put to use")
            elif replaced:
                # the session that had it in front of it (a prompt's injection, or the start's
                # briefing and MEMORY.md) replaced it: evidence against it, whatever its checks
                # said afterwards (they ran on the replacement)
                verdicts[mid] = (-learning.FAIL_PENALTY, "replaced in this session")
            elif not t.prompted() and not usage[mid]:
                verdicts[mid] = (0.0, "shown at the start, not acted on")
            else:
                verdicts[mid] = t.verdict()
        # The mark keeps the verdict: consolidation distils a memory's track record from them.
        marks = [SessionEvent(f"judged:{session_id}:{mid}", session_id, self.project, now,
                              "judged", {"memory_id": mid, "delta": verdicts[mid][0],
                                         "checks": dict(trajs[mid].outcomes())})
                 for mid in trajs]
        fresh = set(self.store.add_session_events(marks))
        todo = {mid: t for mid, t in trajs.items() if f"judged:{session_id}:{mid}" in fresh}
        changes = []
        used: list[str] = []
        for mid, t in todo.items():
            delta, reason = verdicts[mid]
            if usage[mid]:
                used.append(mid)
            judged.append({"memory_id": mid, "delta": delta, "reason": reason,
                           "steps": len(t.steps), "begun_by": t.begun_by, "used": usage[mid]})
            if delta:
                changes.append((mid, delta, f"session {session_id[:8]}: {reason}"))
        applied = self.store.adjust_confidence(changes, now) if changes else {}
        if used:
            self.store.record_access(used, now, f"used in session {session_id[:8]}")
            self.store.add_session_events([  # what the prompt index's use rates count
                SessionEvent(f"used:{session_id}:{mid}", session_id, self.project, now, "used",
                             {"memory_id": mid}) for mid in used])
        return {"session_id": session_id, "trajectories": len(trajs), "judged": judged,
                "adjusted": applied, "used": used}

    def unended(self, current: str, idle_ms: int = 3_600_000, within_ms: int = 7 * 86_400_000,
                limit: int = 5) -> list[dict[str, Any]]:
        """Sessions of this project other than ``current`` that started in the last
        ``within_ms``, never ended and have been quiet for ``idle_ms`` (the client was killed,
        or the machine went down): what they said and did is still to be learned from. Each as
        its id and the transcript its start recorded (None if it recorded none), oldest first,
        at most ``limit``."""
        now = self.clock()
        starts = self.store.session_events(kinds=["start"], project=self.project, limit=200,
                                           newest_first=True)
        transcripts: dict[str, str | None] = {}
        for e in starts:
            if e.session_id and e.session_id != current and now - e.at_ms <= within_ms:
                found = e.data.get("transcript")
                if isinstance(found, str) or e.session_id not in transcripts:
                    transcripts[e.session_id] = found if isinstance(found, str) else None
        if not transcripts:
            return []
        # one read for the ends (most sessions have one), then one per session without
        ended = {e.session_id for e in self.store.session_events(
            kinds=["end"], project=self.project, limit=1000, newest_first=True)}
        out: list[dict[str, Any]] = []
        for sid, transcript in transcripts.items():
            if sid in ended or self.store.session_events(session_id=sid, kinds=["end"],
                                                         limit=1):
                continue
            # what the session itself did last: Kenning's own marks on it (a verdict on an
            # abandoned session judged a moment ago) are not activity
            newest = self.store.session_events(session_id=sid, limit=1, newest_first=True)
            if newest and newest[0].kind in _BOOKKEEPING:  # rare: look further back
                newest = self.store.session_events(session_id=sid, limit=200, newest_first=True)
            last = next((e for e in newest if e.kind not in _BOOKKEEPING), None)
            if last and now - last.at_ms >= idle_ms:
                out.append({"session_id": sid, "transcript": transcript,
                            "last_at_ms": last.at_ms})
        out.sort(key=lambda u: (u["last_at_ms"], u["session_id"]))
        return out[:limit]

    def learn_from_abandoned_sessions(self, idle_ms: int = 3_600_000) -> list[str]:
        """Judge recent injecting sessions of this project that never ended or were judged and
        have been quiet for ``idle_ms``; their ids."""
        done = self.abandoned(idle_ms)
        for sid in done:
            self.learn_from_session(sid)
        return done

    def abandoned(self, idle_ms: int = 3_600_000) -> list[str]:
        """Recent injecting sessions of this project that never ended nor were judged and have
        been quiet for ``idle_ms`` (0: any such session, however recent)."""
        now = self.clock()
        recent = self.store.session_events(kinds=["injected"], project=self.project, limit=500,
                                           newest_first=True)
        out: list[str] = []
        for sid in dict.fromkeys(e.session_id for e in recent if e.session_id):
            ended = self.store.session_events(session_id=sid, kinds=["end", "judged"], limit=1)
            last = self.store.session_events(session_id=sid, limit=1, newest_first=True)
            if not ended and last and now - last[0].at_ms >= idle_ms:
                out.append(sid)
        return out

    def injections(self, limit: int = 50) -> list[dict[str, Any]]:
        """The prompt hook's recent injections in this project, newest first, with each
        memory's summary (or "(forgotten)"), its score parts, whether the conversation had it
        already, and its use rate (sessions shown, sessions that acted on it)."""
        events = [e for e in self.store.session_events(
            kinds=["injected"], project=self.project, limit=v.positive_int(limit, "limit", 10_000),
            newest_first=True) if not e.data.get("channel")]
        ids = {str(m["id"]) for e in events for m in e.data.get("memories", [])}
        known = self.store.get_many(sorted(ids))
        rates = self.use_rates()
        out = []
        for e in events:
            shown = []
            for m in e.data.get("memories", []):
                mem = known.get(str(m["id"]))
                sessions, used = rates.get(str(m["id"]), (0, 0))
                shown.append({"id": m["id"], "summary": mem.summary if mem else "(forgotten)",
                              "type": mem.type.value if mem else None,
                              "score": m.get("score"), "parts": m.get("parts", {}),
                              "seen_before": bool(m.get("seen")),
                              "shown_sessions": sessions, "used_sessions": used})
            out.append({"at": iso(e.at_ms), "event": "UserPromptSubmit",
                        "session_id": e.session_id,
                        "prompt": "matched: " + ", ".join(e.data.get("matched", [])),
                        "matched": e.data.get("matched", []), "memories": shown})
        return out

    def briefing(self, k: int = 5, max_chars: int = 2400) -> str:
        """The session-start briefing as markdown, cut at whole lines to ``max_chars``; "" if
        there is nothing to say (``brief`` says what goes in it)."""
        return self.brief(k, max_chars).text

    def brief(self, k: int = 5, max_chars: int = 2400, exclude: Collection[str] = ()
              ) -> Brief:
        """The briefing, the memories it shows, the memories in force it leaves out because
        the model has their line already (from MEMORY.md), and when one of the memories it
        weighed stops holding (a successor that takes over later). The briefing: the latest
        checkpoint; the rules in force for this project (every current preference and pattern,
        most trusted first), whatever a prompt will be about; then the ``k`` best other
        memories in force (live confidence,
        PageRank, recency). Never a superseded or failed memory, one whose code is gone
        (obsolete), a record of a session, or a memory whose line is in ``exclude``
        (``seen.key`` of each line the model already has, e.g. from MEMORY.md); one whose code
        changed since it was recorded says so on its line."""
        from kenning.journal.seen import key

        k = v.positive_int(k, "k", 100)
        now = self.clock()
        lines: list[str] = []
        checkpoint = self.store.list(Filters(project=self.project,
                                             types=(MemoryType.CHECKPOINT,)), limit=1)
        if checkpoint and self._overtaken(checkpoint[0]):
            checkpoint = []
        if checkpoint:
            c = checkpoint[0]
            lines.append(f"Last checkpoint ({iso(c.created_at)[:16]}): {c.summary} (id {c.id})")
        scores = self.store.graph_scores()
        # the standing kinds whole (a project has tens of rules), the rest from its newest
        rest = tuple(t for t in MemoryType if t not in _STANDING and t is not MemoryType.CHECKPOINT)
        found = self.store.list(Filters(project=self.project, types=_STANDING), limit=300) \
            + self.store.list(Filters(project=self.project, types=rest), limit=500)
        held = [m for m in found
                if m.current_at(now)
                and not record(m.type.value, m.topic) and m.outcome is not OutcomeStatus.FAILED
                and m.drift != "obsolete"]  # the code it describes is gone
        known_lines: list[Memory] = []  # the model has their line already (MEMORY.md)
        pool: list[Memory] = []
        for m in held:
            if exclude and key(m.summary) in exclude:
                known_lines.append(m)
            else:
                pool.append(self.live(m, now))
        # a memory whose track record is a line of MEMORY.md: that line says its words already
        echoed = {str(m.metadata["subject"]) for m in known_lines if is_track_record(m)}
        known_lines += [m for m in pool if m.id in echoed]
        pool = [m for m in pool if m.id not in echoed]
        standing = sorted((m for m in pool if m.type in _STANDING),
                          key=lambda m: (-m.confidence, -m.created_at))
        # a track record repeats its memory's words: not worth a line of its own when the model
        # has that memory already (a rule in force above, or a line of MEMORY.md)
        known = {m.id for m in standing} | {m.id for m in known_lines}
        ranked = sorted(
            (m for m in pool if m.type not in _STANDING),
            key=lambda m: -(m.confidence + 2.0 * scores.get(m.id, (0.0, 0))[0]
                            + 0.2 * recency(m.created_at, now)))
        shown = known | {m.id for m in [r for r in ranked if not is_track_record(r)][:k]}
        holding = {m.id: m for m in held}

        def echo(m: Memory) -> bool:
            """A track record of a memory the model is shown anyway, or of one that no longer
            holds or whose code changed (it would show those words as current)."""
            if not is_track_record(m):
                return False
            tracked = holding.get(str(m.metadata["subject"]))
            return tracked is None or tracked.id in shown or bool(tracked.drift)

        others = [m for m in ranked if not echo(m)][:k]
        head = "Kenning memory briefing (details: kenning MCP tools `get`, `why`):\n"
        text = ""
        briefed: list[Memory] = []

        def section(title: str | None, items: list[tuple[str, Memory]], limit: int) -> None:
            """Add whole lines while they fit under ``limit`` characters (a shorter line further
            on may still fit); the title only above a line that fits."""
            nonlocal text
            for line, m in items:
                cost = len(line) + 1 + (len(title) + 1 if title else 0)
                if len(head) + len(text) + cost > limit:
                    continue
                if title:
                    text += title + "\n"
                    title = None
                text += line + "\n"
                briefed.append(m)

        if checkpoint:
            section(None, [(lines[0], checkpoint[0])], max_chars)
        # the rules take up to two thirds, so the rest of what matters still has room
        def changed(m: Memory) -> str:  # the code it describes changed since it was recorded
            return f"; {drift_note(m.drift_reason or m.drift)}" if m.drift else ""

        section("Rules in force for this project:",
                [(f"- {m.summary} (id {m.id}{changed(m)})", m) for m in standing],
                max_chars * 2 // 3)
        section("Key memories for this project:",
                [(f"- [{m.type.value}] {_briefed(m)} (id {m.id}{changed(m)})", m)
                 for m in others], max_chars)
        until = min((m.valid_to for m in [*checkpoint, *found]
                     if m.valid_to is not None and m.valid_to > now), default=None)
        if not briefed:
            return Brief("", [], known_lines, until)
        return Brief(head + text, briefed, known_lines, until)

    def _overtaken(self, checkpoint: Memory) -> bool:
        """Whether another session has started since a session's checkpoint was written: it
        said where that session stood, and the work has moved on since (its plan and the rules
        it restates may have changed). A compacted or resumed session is briefed with its own
        checkpoint; one saved by hand (no session) is always shown."""
        own = checkpoint.metadata.get("session_id")
        if not isinstance(own, str) or not own:
            return False
        starts = self.store.session_events(kinds=["start"], project=self.project, limit=20,
                                           newest_first=True)
        return any(e.session_id and e.session_id != own and e.at_ms > checkpoint.created_at
                   for e in starts)

    def since_briefing(self, shown_ids: Sequence[str], since_ms: int,
                       max_chars: int = UPDATE_CHARS) -> tuple[str, list[str]]:
        """What changed after a session's briefing was made at ``since_ms``, when an earlier
        session that never ended was learned from only then (its end ran detached, after the
        briefing): those among ``shown_ids`` (what the briefing and MEMORY.md showed) that no
        longer hold, then the memories made since (the rules in force first, then by confidence).
        The text to put in front of the model, whole lines within ``max_chars`` ("" when
        nothing changed), and the ids it shows."""
        now = self.clock()
        ended = [m for m in self.store.get_many(list(dict.fromkeys(shown_ids))).values()
                 if not m.current_at(now) or m.outcome is OutcomeStatus.FAILED
                 or m.drift == "obsolete"]
        made = [m for m in self.store.list(Filters(project=self.project, since=since_ms),
                                           limit=500)
                if m.created_at >= since_ms and m.current_at(now)
                and m.type is not MemoryType.CHECKPOINT and not record(m.type.value, m.topic)
                and not is_track_record(m) and m.outcome is not OutcomeStatus.FAILED]
        made.sort(key=lambda m: (m.type not in _STANDING, -m.confidence, -m.created_at))
        # what must not be followed any more first: it is what the briefing got wrong
        lines = [(f"- no longer current: {m.summary} (id {m.id}"
                  + (f"; replaced by {m.superseded_by})" if m.superseded_by else ")"), m.id)
                 for m in sorted(ended, key=lambda m: -m.confidence)]
        lines += [(f"- [{m.type.value}] {_briefed(m)} (id {m.id})", m.id)
                  for m in made[:UPDATE_NEW]]
        head = ("Kenning memory, since this conversation's briefing (an earlier session that "
                "ended without its wrap-up has been learned from):\n")
        text, ids = head, []
        for line, mid in lines:
            if len(text) + len(line) + 1 <= max_chars:
                text += line + "\n"
                ids.append(mid)
        return (text, ids) if ids else ("", [])

    def checkpoint(self, session_id: str, note: str | None = None) -> Memory:
        """Remember a summary of a session so far (files edited, commands and failures,
        memories used, ``note``) as a checkpoint memory."""
        events = self.store.session_events(session_id=session_id, limit=100_000)
        files = list(dict.fromkeys(str(e.data["file"]) for e in events
                                   if e.kind == "tool" and e.data.get("file")))
        commands = [e.data for e in events if e.kind == "tool" and e.data.get("cmd")]
        failed = [str(c["cmd"]) for c in commands if not c.get("ok")]
        parts = [f"Session {session_id[:8]} checkpoint"
                 + (f": {note.strip()}" if note and note.strip() else "")]
        if files:
            parts.append("Files edited: " + ", ".join(files[-20:]))
        if commands:
            parts.append(f"Commands run: {len(commands)}"
                         + (f" ({len(failed)} failed: {', '.join(failed[-5:])})" if failed else ""))
        injected = {str(m["id"]) for e in events if e.kind == "injected"
                    for m in e.data.get("memories", [])}
        if injected:
            parts.append(f"Memories used: {len(injected)}")
        return self.remember("\n".join(parts), type="checkpoint", source=f"session:{session_id}",
                             metadata={"session_id": session_id, "files": files[-50:]})

    def use_rates(self, limit: int = 20_000) -> dict[str, tuple[int, int]]:
        """Per memory, ``(sessions whose prompts were shown it, sessions that used it)``, from
        the newest ``limit`` injection and use events (``kenning.usage.use_counts``)."""
        from kenning.usage import use_counts

        events = self.store.session_events(kinds=["injected", "used"], limit=limit,
                                           newest_first=True)
        return use_counts(
            ((e.session_id, [str(m["id"]) for m in e.data.get("memories", [])
                             if isinstance(m, dict) and m.get("id") and not m.get("seen")])
             for e in events if e.kind == "injected" and e.data.get("channel") is None),
            ((e.session_id, str(e.data.get("memory_id"))) for e in events if e.kind == "used"))

    def build_prompt_index(self, *, force: bool = True) -> dict[str, Any]:
        """Write the per-prompt hook's index file atomically from every memory, its PageRank
        and when a successor superseded it; unless ``force``, keep a SQLite store's index that
        is still current. Track records are left out: each repeats its memory's words, which
        the index holds (with that memory's drift and end), and a prompt's few lines go to
        what was learned (``recall`` and ``why`` still show how a memory held up)."""
        from kenning import promptindex
        from kenning.files import atomic_write_bytes
        from kenning.promptindex.reader import index_path, load

        t0 = time.perf_counter()
        location = self.store.location
        path = Path(index_path(self.journal_dir()))
        if not force and "://" not in location and load(str(path), location) is not None:
            return {"path": str(path), "fresh": True}
        from kenning.places.lean import read_version, version_file

        # Read before the data: a write landing meanwhile leaves the index marked stale.
        version = read_version(version_file(location))
        memories = self.store.list(Filters(), limit=None, newest_first=False)
        scores = self.store.graph_scores()
        uses = self.use_rates()
        data = promptindex.build(
            (promptindex.Entry(
                id=m.id, project=m.project, scope=m.scope.value, type=m.type.value,
                topic=m.topic, summary=m.summary, content=m.content, tags=m.tags,
                outcome=m.outcome.value if m.outcome else None, confidence=m.confidence,
                pagerank=scores.get(m.id, (0.0, 0))[0],
                use=injection_factor(*uses.get(m.id, (0, 0))), created_at=m.created_at,
                updated_at=m.updated_at, last_accessed_at=m.last_accessed_at,
                valid_to=m.valid_to, drift=m.drift, drift_reason=m.drift_reason)
             for m in memories if not is_track_record(m)),
            version, self.clock())
        atomic_write_bytes(path, data, mode=0o600)
        return {"path": str(path), "memories": len(memories), "bytes": len(data),
                "ms": round((time.perf_counter() - t0) * 1000, 1)}
