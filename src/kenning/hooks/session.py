"""Session-level hooks, which may load the facade: start (ingest, import, brief), pre-compact
(checkpoint) and end (learn, consolidate, extract, sync and curate MEMORY.md)."""

from __future__ import annotations

import os
from typing import Any

from kenning.hooks import fastjson, journal, locate

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
    return locate.git_root(cwd) or os.path.realpath(cwd)


def _auto_options(settings: Settings) -> Any:
    """The ``[auto_memory]`` config section as the bridge's options."""
    from kenning.config import auto_memory_options

    return auto_memory_options(settings["auto_memory"])  # type: ignore[arg-type]


def start(payload: dict[str, object], settings: Settings, project: str, location: str,
          now_ms: int) -> str:
    """Ingest what earlier hooks journalled, import changed auto-memory files, and brief."""
    from pathlib import Path

    root = _root(payload)
    k = _open(location, project, model=True)
    try:
        _step("ingest", k.ingest_journal, "SessionStart")
        _step("learn", k.learn_from_abandoned_sessions, "SessionStart")
        options = _auto_options(settings)
        if root and options.enabled:
            _step("auto_import", lambda: k.auto_import(Path(root), options), "SessionStart")
        _step("prompt index", lambda: k.build_prompt_index(force=False), "SessionStart")
        text = k.briefing(int(settings["briefing_k"]), int(settings["max_chars"]))  # type: ignore[call-overload]
    finally:
        k.close()
    journal.append(locate.journal_dir(location), [{
        "id": journal.new_event_id(now_ms), "session_id": str(payload.get("session_id") or ""),
        "project": project, "at_ms": now_ms, "kind": "start",
        "data": {"source": str(payload.get("source") or "")},
    }])
    if not text:
        return ""
    return fastjson.dumps({"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": text,
    }})


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
        journal.append(locate.journal_dir(location), [{
            "id": journal.new_event_id(now_ms), "session_id": session_id, "project": project,
            "at_ms": now_ms, "kind": "remember",
            "data": {"text": redact(text).text, "type": "checkpoint",
                     "source": f"session:{session_id}"},
        }])
        raise
    try:
        k.ingest_journal()
        k.checkpoint(session_id, note)
    finally:
        k.close()


def end(payload: dict[str, object], settings: Settings, project: str, location: str,
        now_ms: int) -> None:
    """Consolidate the session: ingest, judge its trajectories, mine it for memories, rebuild
    the graph, then sync and curate Claude Code's auto memory."""
    from pathlib import Path

    session_id = str(payload.get("session_id") or "")
    root = _root(payload)
    journal.append(locate.journal_dir(location), [{
        "id": journal.new_event_id(now_ms), "session_id": session_id, "project": project,
        "at_ms": now_ms, "kind": "end", "data": {"reason": str(payload.get("reason") or "")},
    }])
    k = _open(location, project, model=True)
    try:
        _step("ingest", k.ingest_journal)
        _step("learn", lambda: k.learn_from_session(session_id))
        transcript = payload.get("transcript_path")
        if isinstance(transcript, str) and os.path.isfile(transcript):
            _step("extract", lambda: k.extract(transcript=Path(transcript),
                                               repo=Path(root) if root else None, apply=True))
        _step("consolidate", k.consolidate)
        options = _auto_options(settings)
        if root and options.enabled:  # imports what changed, writes files, curates MEMORY.md
            _step("auto_sync", lambda: k.auto_sync(Path(root), options))
        _step("prompt index", k.build_prompt_index)  # last: after every write of this session
    finally:
        k.close()


def _step(name: str, work: Any, event: str = "SessionEnd") -> Any:
    """Run one step of a session hook; a failure is logged and the later steps still run."""
    try:
        return work()
    except Exception as exc:
        from kenning.errorlog import log_error

        log_error(f"hook {event}: {name}", exc)
        return None
