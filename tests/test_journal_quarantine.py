"""A journal that cannot be poisoned: whatever a hook receives or an older version journalled,
ingestion carries on, later events are stored and checkpoints are saved. Bad events are set
aside in a quarantine that ``kenning doctor`` shows; a store that is down keeps the journal."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kenning import Kenning, journal
from kenning.places.keys import project_key
from kenning.places.lean import journal_dir

HOOK = Path(sys.executable).parent / "kenning-hook"
KENNING = Path(sys.executable).parent / "kenning"
DECISION = ("The billing ledger uses PostgreSQL with SERIALIZABLE isolation so concurrent "
            "charges cannot double-book")
CUT_EMOJI = "\ud83d"  # the first half of a surrogate pair: a message cut in the middle of 😀


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    out = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    out.update(KENNING_HOME=str(tmp_path / "kdata"), KENNING_DB=str(tmp_path / "k.db"),
               KENNING_EMBEDDER="none", HOME=str(home))
    return out


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "proj"
    p.mkdir()
    subprocess.run(["git", "init", "-q", str(p)], check=True)
    return p


def payload(event: str, project: Path, **fields: Any) -> str:
    """Claude Code's JSON, ``\\ud83d`` escapes and all (json.dumps writes a lone surrogate so)."""
    return json.dumps({"session_id": "sess-1", "transcript_path": str(project / "t.jsonl"),
                       "cwd": str(project), "hook_event_name": event, **fields})


def hook(event: str, stdin: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    result = subprocess.run([str(HOOK), event], input=stdin.encode(), env=env,
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def errors(env: dict[str, str]) -> list[dict[str, Any]]:
    """Logged failures of a whole hook or of journal ingestion (other session steps aside)."""
    path = Path(env["KENNING_HOME"]) / "errors.jsonl"
    logged = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    return [e for e in logged if ":" not in e["where"] or e["where"].endswith(": ingest")]


def doctor(env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run([str(KENNING), "doctor", "--json"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    hooks: dict[str, Any] = json.loads(out.stdout)["hooks"]
    return hooks


def opened(env: dict[str, str], project: Path) -> Kenning:
    return Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())), embedder=None)


def jdir(env: dict[str, str]) -> Path:
    return Path(journal_dir(env["KENNING_DB"]))


def pending(env: dict[str, str]) -> list[str]:
    """Journal files not yet ingested (the live one and any claimed ones)."""
    d = jdir(env)
    return sorted(n for n in os.listdir(d) if n == journal.FILE or n.startswith("claimed-")) \
        if d.exists() else []


def event_line(kind: str, data: object, *, at_ms: object = 1_780_000_000_000,
               event_id: str | None = None) -> str:
    return json.dumps({"id": event_id or journal.new_event_id(1_780_000_000_000),
                       "session_id": "sess-1", "project": "", "at_ms": at_ms, "kind": kind,
                       "data": data})


def test_cut_emoji_and_nul_in_hook_input_never_block_later_learning(env, project) -> None:
    with opened(env, project) as k:
        k.remember(DECISION, type="decision", topic="ledger_db")
    bad = f"{CUT_EMOJI}\u0000"
    hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt_id=f"p{bad}1",
                                     prompt=f"billing ledger isolation level?{bad}"), env)
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit", tool_use_id=f"t{bad}",
                                tool_input={"file_path": str(project / f"cut{bad}.py")}), env)
    hook("SubagentStop", payload("SubagentStop", project, agent_id="a1", agent_type="reviewer",
                                 last_assistant_message=f"The ledger tests need the advisory "
                                 f"lock fixture {bad}", stop_hook_active=False), env)
    raw = (jdir(env) / journal.FILE).read_text()
    assert "\\ud83d" not in raw and "\\u0000" not in raw and "\\ufffd" in raw
    # later, ordinary events
    hook("PostToolUseFailure", payload("PostToolUseFailure", project, tool_name="Bash",
                                       tool_input={"command": "pytest tests/ledger"},
                                       error="1 failed"), env)
    start = hook("SessionStart", payload("SessionStart", project, source="compact"), env)
    assert DECISION in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    hook("PreCompact", payload("PreCompact", project, trigger="manual",
                               custom_instructions="keep the ledger work"), env)
    assert not errors(env), errors(env)
    assert pending(env) == []
    hooks = doctor(env)
    assert hooks["quarantine"]["events"] == 0 and hooks["journal_pending_bytes"] == 0
    with opened(env, project) as k:
        kinds = [e.kind for e in k.store.session_events(session_id="sess-1")]
        assert kinds[:4] == ["injected", "tool", "subagent", "tool"]
        [cp] = k.list(types="checkpoint")
        assert "keep the ledger work" in cp.content and "pytest" in cp.content
        assert "cut\ufffd.py" in cp.content  # the file, its cut character made visible
        [finding] = [m for m in k.list() if "advisory lock" in m.content]
        assert finding.agent == "reviewer" and "\x00" not in finding.content
        assert k.injections()[0]["memories"][0]["summary"].startswith("The billing ledger")


def test_bad_lines_of_an_older_journal_are_quarantined_and_never_block(env, project) -> None:
    opened(env, project).close()
    d = jdir(env)
    d.mkdir(parents=True, exist_ok=True)
    old = [  # what an older version could have journalled, or a hand edit
        event_line("tool", {"tool": "Edit", "ok": True, "file": f"old{CUT_EMOJI}\u0000.py"}),
        event_line("tool", ["Edit", True]),  # data is a list
        event_line("tool", {"tool": "Bash", "ok": "yes"}),  # a field of the wrong type
        event_line("stop", {}, at_ms="yesterday"),
        event_line("remember", {"text": "Ledger retries need an idempotency key",
                                "type": "no-such-type"}),  # the store refuses this one alone
        '{"id": "torn", "session_id": "sess-1", "ki',  # a torn last write
    ]
    (d / journal.FILE).write_text("".join(line + "\n" for line in old))
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit",
                                tool_input={"file_path": str(project / "later.py")}), env)
    hook("SessionStart", payload("SessionStart", project, source="startup"), env)
    hook("PreCompact", payload("PreCompact", project, trigger="manual"), env)
    assert pending(env) == []
    hooks = doctor(env)
    held = hooks["quarantine"]
    assert held["events"] == 5 and held["path"] == str(d / journal.QUARANTINE)
    assert held["newest_error"] and held["newest_at"] is not None
    quarantined = [json.loads(x) for x in (d / journal.QUARANTINE).read_text().splitlines()]
    assert {q["line"] for q in quarantined} == set(old[1:])
    assert any("data is list" in q["error"] for q in quarantined)
    assert any("ValidationError" in q["error"] for q in quarantined)
    text = subprocess.run([str(KENNING), "doctor"], env=env, capture_output=True, text=True,
                          timeout=120).stdout
    assert "quarantine" in text and "5 journal events set aside" in text
    with opened(env, project) as k:
        files = [e.data.get("file") for e in k.store.session_events(session_id="sess-1")
                 if e.kind == "tool"]
        assert files == ["old\ufffd.py", "later.py"]  # inside the project: relative
        [cp] = k.list(types="checkpoint")
        assert "later.py" in cp.content
    # the next run: new events go straight in, nothing is set aside again
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit",
                                tool_input={"file_path": str(project / "next.py")}), env)
    hook("SessionStart", payload("SessionStart", project, source="resume"), env)
    hook("PreCompact", payload("PreCompact", project, trigger="auto"), env)
    assert pending(env) == [] and doctor(env)["quarantine"]["events"] == 5
    with opened(env, project) as k:
        assert "next.py" in [e.data.get("file") for e in k.store.session_events(
            session_id="sess-1") if e.kind == "tool"]
    assert not errors(env), errors(env)


def test_a_locked_store_keeps_the_journal_for_the_next_run(env, project, monkeypatch) -> None:
    from kenning.store import sqlite as engine

    monkeypatch.setattr(engine, "BUSY_TIMEOUT_MS", 200)  # give up on the lock quickly
    for name in ("KENNING_HOME", "KENNING_DB"):
        monkeypatch.setenv(name, env[name])
    opened(env, project).close()
    for n in range(3):
        hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit",
                                    tool_input={"file_path": str(project / f"f{n}.py")}), env)
    with (jdir(env) / journal.FILE).open("a") as f:
        f.write(event_line("tool", ["not", "an", "object"]) + "\n")
    holder = sqlite3.connect(env["KENNING_DB"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with opened(env, project) as k, pytest.raises(sqlite3.OperationalError, match="locked"):
            k.ingest_journal()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(pending(env)) == 1  # kept whole: a store that is down is no event's fault
    assert not (jdir(env) / journal.QUARANTINE).exists()
    with opened(env, project) as k:
        counts = k.ingest_journal()
        assert (counts["new"], counts["quarantined"]) == (3, 1)
        assert len(k.store.session_events(session_id="sess-1")) == 3
    assert pending(env) == []


def test_quarantine_keeps_only_the_newest_entries(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(journal, "MAX_QUARANTINE_BYTES", 4000)
    for n in range(100):
        journal.quarantine(str(tmp_path), [(f'{{"id": "line-{n:03d}"}}', "bad shape")], 1000 + n)
    size = (tmp_path / journal.QUARANTINE).stat().st_size
    held = journal.quarantined(str(tmp_path))
    assert size <= 4000 and 20 < held["events"] < 100
    assert held["newest_at_ms"] == 1099
    lines = [json.loads(x)["line"] for x in (tmp_path / journal.QUARANTINE).read_text()
             .splitlines()]
    assert lines[-1] == '{"id": "line-099"}' and lines == sorted(lines)
