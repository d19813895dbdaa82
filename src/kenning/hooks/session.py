"""Session-level hooks, which may load the facade: start (ingest, import, brief), pre-compact
(checkpoint) and end (learn, consolidate, extract, sync and curate MEMORY.md)."""

from __future__ import annotations

import os

from kenning import config, journal
from kenning.journal import fastjson
from kenning.places import lean

TYPE_CHECKING = False  # typing itself costs a start that answers from a prepared one ~8 ms
if TYPE_CHECKING:
    from typing import Any

    from kenning.automemory.options import AutoMemoryOptions
    from kenning.lifecycle import SessionReport

Settings = dict[str, object]


def _open(location: str, project: str, *, model: bool) -> Any:
    from kenning.facade import Kenning

    kw: dict[str, Any] = {"project": project}
    if not model:
        kw["embedder"] = None
    return Kenning(location, **kw)


def _root(payload: dict[str, object]) -> str | None:
    cwd = payload.get("cwd")
    if not isinstance(cwd, str):
        return None
    return lean.git_root(cwd) or os.path.realpath(cwd)


def _auto_options(settings: Settings) -> AutoMemoryOptions:
    """The ``[auto_memory]`` config section as the bridge's options."""
    from kenning.automemory.options import AutoMemoryOptions

    return AutoMemoryOptions.from_config(config.table(settings, "auto_memory") or {})


def start(payload: dict[str, object], settings: Settings, project: str, location: str,
          now_ms: int) -> str:
    """Answer with the session's briefing: the prepared start when it still holds
    (``kenning.journal.prepared``), else a full start (``Kenning.start_session``), which
    prepares the next one when nothing was left waiting."""
    from kenning.journal import detached, prepared, seen

    # the previous session's end may still be running: it gets a worker if it has none, and
    # the start waits for it only as long as configured (by default not at all)
    idle = detached.settle(location,
                           config.integer(settings, "session_start_wait_ms") / 1000)
    root = _root(payload)
    session_id = str(payload.get("session_id") or "")
    transcript = payload.get("transcript_path")
    key = prepared.key(settings)
    ready = prepared.restore(location, project, root, key, session_id, now_ms) if idle else None
    unended: list[dict[str, Any]] = []
    if ready is not None:
        briefing, shown, shown_ids = ready
    else:
        report = _full_start(root, settings, project, location, idle, session_id)
        briefing, shown, shown_ids, unended = (report.briefing, report.shown, report.shown_ids,
                                               report.unended)
        if report.prepared is not None:
            _keep(location, project, {**report.prepared, "key": key})
    # what the conversation now holds (a compaction starts it anew): prompts leave it out
    seen.write(seen.path(lean.journal_dir(location), session_id), shown, append=False)
    events: list[dict[str, object]] = [{
        "id": journal.new_event_id(now_ms), "session_id": session_id,
        "project": project, "at_ms": now_ms, "kind": "start",
        "data": {"source": str(payload.get("source") or ""),
                 **({"transcript": transcript} if isinstance(transcript, str) else {})},
    }]
    if shown_ids:  # what the model starts with: learning judges it by what follows
        events.append({
            "id": journal.new_event_id(now_ms), "session_id": session_id, "project": project,
            "at_ms": now_ms, "kind": "injected",
            "data": {"memories": [{"id": mid} for mid in shown_ids], "matched": [],
                     "channel": "start"}})
    journal.append(lean.journal_dir(location), events)
    if unended:
        # learned only after this briefing: the worker leaves what changed for the first
        # prompt of this conversation to show
        seen.write(seen.path(lean.journal_dir(location), session_id), [seen.UPDATE_DUE],
                   append=True)
        _end_unended(unended, payload, settings, project, location, now_ms, root,
                     update={"session_id": session_id, "since_ms": now_ms,
                             "shown": shown_ids})
    if not briefing:
        return ""
    return fastjson.dumps({"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": briefing,
    }})


def _keep(location: str, project: str, state: dict[str, object]) -> None:
    """Save a prepared start; one that cannot be written is logged, never in the way."""
    from kenning.journal import prepared

    try:
        prepared.save(location, project, state)
    except Exception as exc:  # optional work: the briefing is answered all the same
        from kenning.errorlog import log_error

        log_error("hook SessionStart: preparing the next start", exc)


def _full_start(root: str | None, settings: Settings, project: str, location: str, idle: bool,
                session_id: str) -> SessionReport:
    """Every step of a session start, preparing the next one when nothing was waiting for a
    worker (``idle``: then MEMORY.md is the one the last session end wrote)."""
    from pathlib import Path

    k = _open(location, project, model=True)
    try:
        report: SessionReport = k.start_session(
            Path(root) if root else None, _auto_options(settings),
            briefing_k=config.integer(settings, "briefing_k"),
            max_chars=config.integer(settings, "briefing_max_chars"),
            log_as="hook SessionStart", memory_md_loaded=idle, session_id=session_id,
            prepare=idle)
    finally:
        k.close()
    return report


def _end_request(session_id: str, project: str, root: str | None, transcript: object,
                 settings: Settings) -> dict[str, object]:
    """What the session-end worker needs to end one session, and to prepare the next start
    (``kenning.journal.prepared``) once it has nothing left to do."""
    from kenning.journal import prepared

    return {"session_id": session_id, "project": project, "root": root,
            "transcript": transcript if isinstance(transcript, str) else None,
            "auto_memory": settings["auto_memory"], "episodes": settings.get("episodes") or {},
            "start": {"key": prepared.key(settings),
                      "briefing_k": config.integer(settings, "briefing_k"),
                      "max_chars": config.integer(settings, "briefing_max_chars")}}


def _end_unended(unended: list[dict[str, Any]], payload: dict[str, object], settings: Settings,
                 project: str, location: str, now_ms: int, root: str | None,
                 update: dict[str, object] | None = None) -> None:
    """Queue the session end of each session that never had one (its client was killed), as
    its SessionEnd hook would have, for the detached worker: what it said and did is learned
    without this start waiting. A session whose start recorded no transcript is looked for
    beside this session's (the client keeps a project's transcripts in one folder). The last
    request carries ``update`` (the starting session, when its briefing was made and what it
    showed): after the ends, the worker writes what changed since (``detached.finish``)."""
    from kenning.journal import detached

    here = payload.get("transcript_path")
    folder = os.path.dirname(here) if isinstance(here, str) else None
    for i, left in enumerate(unended):
        sid = str(left["session_id"])
        transcript = left.get("transcript")
        if not isinstance(transcript, str) and folder:
            transcript = os.path.join(folder, f"{sid}.jsonl")
        event_id = journal.new_event_id(now_ms + i)
        request = _end_request(sid, project, root, transcript, settings)
        if update is not None and i == len(unended) - 1:
            request["update"] = update
        detached.queue(location, request, event_id)
        # ended now, so the next start does not queue it again
        journal.append(lean.journal_dir(location), [{
            "id": event_id, "session_id": sid, "project": project, "at_ms": now_ms,
            "kind": "end", "data": {"reason": "abandoned"},
        }])
    detached.spawn(location)


def pre_compact(payload: dict[str, object], settings: Settings, project: str, location: str,
                now_ms: int) -> None:
    """Save a checkpoint before the conversation is compacted; if the store cannot be opened,
    journal it as a pending memory for the next healthy run."""
    session_id = str(payload.get("session_id") or "")
    note = payload.get("custom_instructions") if isinstance(
        payload.get("custom_instructions"), str) else None
    try:
        k = _open(location, project, model=False)
    except Exception:
        from kenning.redact import redact

        text = f"Session {session_id[:8]} checkpoint before compaction" + (
            f": {note}" if note else "")
        journal.append(lean.journal_dir(location), [{
            "id": journal.new_event_id(now_ms), "session_id": session_id, "project": project,
            "at_ms": now_ms, "kind": "remember",
            "data": {"text": redact(text).text, "type": "checkpoint",
                     "source": f"session:{session_id}"},
        }])
        raise
    try:
        k.compact_session(session_id, note)
    finally:
        k.close()


def end(payload: dict[str, object], settings: Settings, project: str, location: str,
        now_ms: int) -> None:
    """Journal the end, then run the session end (``Kenning.end_session``): queued for a
    detached worker (``kenning.journal.detached``) so the client does not wait, or here when
    ``[hooks] detach_session_end`` is off."""
    from kenning.journal import detached

    session_id = str(payload.get("session_id") or "")
    root = _root(payload)
    event_id = journal.new_event_id(now_ms)
    journal.append(lean.journal_dir(location), [{
        "id": event_id, "session_id": session_id, "project": project,
        "at_ms": now_ms, "kind": "end", "data": {"reason": str(payload.get("reason") or "")},
    }])
    request = _end_request(session_id, project, root, payload.get("transcript_path"), settings)
    if settings.get("detach_session_end", True):
        detached.queue(location, request, event_id)
        detached.spawn(location)
    else:
        detached.finish(location, request)
