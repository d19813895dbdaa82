"""A session's start, compaction and end run from the facade, without a hook process: the
pipeline the hooks call (``Kenning.start_session`` / ``compact_session`` / ``end_session``)."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.automemory.options import AutoMemoryOptions
from kenning.errorlog import log_path
from kenning.models import Filters, MemoryType
from tests.automemory_fixtures import home, kk, repo  # noqa: F401
from tests.mcp_fixtures import recorded_session

SID = "sess-lifecycle-1"


def injected_then_passed(k: Kenning, memory_id: str, at: int) -> None:
    """What the hooks journal: a memory injected, then a passing test run."""
    k.record_events([
        {"id": "e1", "session_id": SID, "project": k.project, "at_ms": at, "kind": "injected",
         "data": {"memories": [{"id": memory_id, "score": 1.0, "parts": {}}]}},
        {"id": "e2", "session_id": SID, "project": k.project, "at_ms": at + 1000, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "pnpm test", "ok": True}},
    ])


def test_end_session_learns_extracts_syncs_and_indexes(kk: Kenning, repo: Path,
                                                        tmp_path: Path) -> None:
    rule = kk.remember("Guard getUser against missing users with optional chaining",
                       type="pattern", confidence=0.8)
    injected_then_passed(kk, rule.id, kk.clock())
    transcript = recorded_session(tmp_path / f"{SID}.jsonl")

    report = kk.end_session(SID, transcript=transcript, project_root=repo)

    assert report.ok, report.errors
    assert list(report.steps) == ["ingest", "extract", "anchor", "learn", "prune episodes",
                                  "consolidate", "auto_sync", "agent_sync", "prompt index"]
    assert kk.get(rule.id).confidence > 0.8  # the passing run after its injection
    extracted = kk.store.list(Filters(project=kk.project), limit=100)
    assert any("pnpm" in m.content for m in extracted)  # mined from the transcript
    assert (kk.auto_memory_dir(repo) / "MEMORY.md").is_file()
    assert kk.status()["hooks"]["prompt_index"] == "current"


def test_a_failing_step_is_logged_and_the_later_steps_still_run(
        kk: Kenning, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("graph exploded")

    monkeypatch.setattr(kk, "consolidate", broken)
    report = kk.end_session(SID, project_root=repo, log_as="hook SessionEnd")

    assert report.errors == {"consolidate": "RuntimeError: graph exploded"}
    assert "auto_sync" in report.steps and "prompt index" in report.steps
    logged = [json.loads(line) for line in log_path().read_text().splitlines()]
    assert logged[-1]["where"] == "hook SessionEnd: consolidate"


def test_start_session_imports_a_persons_lines_and_briefs(kk: Kenning, repo: Path) -> None:
    kk.remember("Deploys go through make release, never by hand", type="decision",
                confidence=0.9)
    memory_md = kk.auto_memory_dir(repo) / "MEMORY.md"
    memory_md.parent.mkdir(parents=True)
    memory_md.write_text("- Staging database is reset every Sunday night\n")

    report = kk.start_session(repo, AutoMemoryOptions(), briefing_k=5, max_chars=2400)

    assert report.ok, report.errors
    assert report.steps["auto_import"]["imported"] == 1
    assert "make release" in report.briefing
    assert any("Sunday" in m.content for m in kk.list(limit=None))
    assert kk.status()["hooks"]["prompt_index"] == "current"


def test_compact_session_saves_a_checkpoint_of_the_journalled_work(kk: Kenning) -> None:
    injected_then_passed(kk, kk.remember("a rule", type="pattern").id, kk.clock())
    checkpoint = kk.compact_session(SID, "keep the pnpm rule")
    assert checkpoint.type is MemoryType.CHECKPOINT
    assert "keep the pnpm rule" in checkpoint.content
    assert "Commands run: 1" in checkpoint.content
