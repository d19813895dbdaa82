"""What Kenning does when a coding session starts, is compacted and ends, step by step.

The hooks call these through the facade (``Kenning.start_session`` and friends), and so can
anything else that wants "end of session" run: a script, a test, a later background worker.
Each step that fails is logged (``kenning doctor`` shows it) and the later steps still run, so
one bad transcript or auto-memory file never costs the rest of the session's learning."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kenning.automemory.options import AutoMemoryOptions
    from kenning.facade import Kenning
    from kenning.models import Memory


@dataclass
class SessionReport:
    """What each step of a session start or end returned, and which steps failed (step name ->
    ``"ErrorType: message"``). ``briefing`` is the start briefing ("" after an end)."""

    steps: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    briefing: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors


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
          briefing_k: int, max_chars: int, log_as: str) -> SessionReport:
    """Ingest what hooks journalled, judge sessions abandoned without an end, import the
    auto-memory files a person changed, bring the prompt index up to date, and brief."""
    report = SessionReport()
    _run(report, log_as, "ingest", k.ingest_journal)
    _run(report, log_as, "learn", k.learn_from_abandoned_sessions)
    if project_root is not None and options.enabled:
        _run(report, log_as, "auto_import", lambda: k.auto_import(project_root, options))
    _run(report, log_as, "prompt index", lambda: k.build_prompt_index(force=False))
    report.briefing = k.briefing(briefing_k, max_chars)
    return report


def compact(k: Kenning, session_id: str, note: str | None) -> Memory:
    """Before the conversation is compacted: ingest, then save where the session stands."""
    k.ingest_journal()
    return k.checkpoint(session_id, note)


def end(k: Kenning, session_id: str, transcript: Path | None, project_root: Path | None,
        options: AutoMemoryOptions, *, log_as: str) -> SessionReport:
    """Consolidate a session: ingest, judge its trajectories, mine its transcript (and the
    repository) for memories, rebuild the graph, sync and curate Claude Code's auto memory, and
    rebuild the prompt index last, after every write of the session."""
    report = SessionReport()
    _run(report, log_as, "ingest", k.ingest_journal)
    _run(report, log_as, "learn", lambda: k.learn_from_session(session_id))
    if transcript is not None and transcript.is_file():
        _run(report, log_as, "extract",
             lambda: k.extract(transcript=transcript, repo=project_root, apply=True))
    _run(report, log_as, "consolidate", k.consolidate)
    if project_root is not None and options.enabled:
        _run(report, log_as, "auto_sync", lambda: k.auto_sync(project_root, options))
    _run(report, log_as, "prompt index", k.build_prompt_index)
    return report
