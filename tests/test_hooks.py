"""The Claude Code hooks through their real entry point: real JSON on stdin, Claude Code's output
protocol on stdout, exit 0 whatever happens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from kenning import Kenning, journal
from kenning.places.lean import journal_dir
from tests.sessionend import wait_for_session_ends

HOOK = Path(sys.executable).parent / "kenning-hook"
KENNING = Path(sys.executable).parent / "kenning"
DECISION = ("The billing ledger uses PostgreSQL with SERIALIZABLE isolation so concurrent "
            "charges cannot double-book")


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
    return json.dumps({"session_id": "sess-1", "transcript_path": str(project / "t.jsonl"),
                       "cwd": str(project), "hook_event_name": event, **fields})


def hook(event: str, stdin: str | bytes, env: dict[str, str], *, via_cli: bool = False
         ) -> subprocess.CompletedProcess[bytes]:
    """Run one hook process; after a SessionEnd, also wait for the background worker it
    started, so the test sees the finished session end."""
    cmd = [str(KENNING), "hook", event] if via_cli else [str(HOOK), event]
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(cmd, input=data, env=env, capture_output=True, timeout=60)
    if event == "SessionEnd" and env.get("KENNING_DB"):
        wait_for_session_ends(env["KENNING_DB"])
    return done


def seeded(env: dict[str, str], project: Path) -> Kenning:
    from kenning.places.keys import project_key

    k = Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())), embedder=None)
    k.remember(DECISION, type="decision", topic="ledger_db")
    k.remember("The navbar component lives in src/ui/Navbar.tsx", type="context")
    return k


def context_of(result: subprocess.CompletedProcess[bytes]) -> str:
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return ""
    out = json.loads(result.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    return out["hookSpecificOutput"]["additionalContext"]


def errors(env: dict[str, str]) -> list[dict[str, Any]]:
    path = Path(env["KENNING_HOME"]) / "errors.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def test_prompt_gets_related_memories_with_ids_and_nothing_for_unrelated(env, project) -> None:
    with seeded(env, project) as k:
        decision = k.list(types="decision")[0]
    text = context_of(hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, prompt="How should the billing ledger handle simultaneous "
        "charges?"), env))
    assert DECISION in text and decision.id in text and "Navbar" not in text
    assert context_of(hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, prompt="make the button blue please"), env)) == ""
    # what was injected is journalled (ids and score parts, no prompt text)
    lines = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text().splitlines()
    [event] = [json.loads(x) for x in lines]
    assert event["kind"] == "injected" and event["data"]["memories"][0]["id"] == decision.id
    assert "simultaneous" not in json.dumps(event)  # prompt words not in the store: not kept
    assert not errors(env)


def test_prompt_index_is_used_and_a_store_write_makes_it_stale(env, project) -> None:
    with seeded(env, project) as k:
        built = k.build_prompt_index()
        assert built["memories"] == 2
    question = payload("UserPromptSubmit", project, prompt="which isolation does the ledger use?")
    via_index = context_of(hook("UserPromptSubmit", question, env))
    assert DECISION in via_index
    with seeded(env, project) as k:  # a write after the build: the hook must not miss it
        k.remember("Ledger isolation was raised after the March double-charge incident",
                   type="insight")
        assert k.build_prompt_index(force=False).get("fresh") is None  # stale, so rebuilt
    fresh = context_of(hook("UserPromptSubmit", question, env))
    # the same conversation already has the decision: only what is new is injected
    assert "March double-charge" in fresh and DECISION not in fresh
    elsewhere = context_of(hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, session_id="sess-2",
        prompt="which isolation does the ledger use?"), env))
    assert "March double-charge" in elsewhere and DECISION in elsewhere


def test_kenning_hook_command_is_the_same_entry_point(env, project) -> None:
    seeded(env, project).close()
    out = hook("user-prompt-submit", payload("UserPromptSubmit", project,
                                             prompt="billing ledger isolation"), env, via_cli=True)
    assert DECISION in context_of(out)


@pytest.mark.parametrize("stdin", [b"not json", b"", b"[1, 2]", b'{"prompt": 42}',
                                   b"\xff\xfe\x00garbage"])
def test_bad_payloads_exit_zero_with_no_output(env, project, stdin: bytes) -> None:
    seeded(env, project).close()
    for event in ("UserPromptSubmit", "PostToolUse", "SessionStart", "PreCompact", "SessionEnd"):
        result = hook(event, stdin, env)
        assert (result.returncode, result.stdout) == (0, b""), (event, result.stderr)


def test_malformed_json_is_logged_where_doctor_shows_it(env, project) -> None:
    hook("PostToolUse", "{not json", env)
    [err] = errors(env)
    assert err["where"] == "hook PostToolUse" and "property name" in err["error"]
    doctor = subprocess.run([str(KENNING), "doctor"], env=env, capture_output=True, text=True)
    assert "hook PostToolUse" in doctor.stdout


def test_ten_megabyte_prompt_exits_zero(env, project) -> None:
    """Answered or cut off by its budget, never an error (its time: benchmarks/bench_hooks.py)."""
    seeded(env, project).close()
    env = dict(env, KENNING_HOOKS_PROMPT_BUDGET_MS="1500")
    big = "billing ledger " + "lorem ipsum dolor " * 600_000  # ~10.8 MB
    result = hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt=big), env)
    assert result.returncode == 0
    assert result.stdout == b"" or DECISION in context_of(result)


def test_unreadable_store_exits_zero_and_logs(env, project, tmp_path: Path) -> None:
    bad = tmp_path / "garbage.db"
    bad.write_bytes(b"this is not a sqlite database" * 100)
    env = dict(env, KENNING_DB=str(bad))
    for event, body in (("UserPromptSubmit", {"prompt": "billing ledger"}),
                        ("SessionStart", {"source": "startup"}), ("SessionEnd", {})):
        result = hook(event, payload(event, project, **body), env)
        assert (result.returncode, result.stdout) == (0, b"")
    assert len(errors(env)) >= 2
    assert bad.read_bytes() == b"this is not a sqlite database" * 100  # left exactly as it was


def test_tool_outcomes_are_journalled_without_arguments_or_output(env, project) -> None:
    secret = "sk-ant-api03-" + "A" * 40
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Bash",
                                tool_input={"command": f"export ANTHROPIC_API_KEY={secret}"},
                                tool_response={"stdout": secret, "stderr": "",
                                               "interrupted": False}), env)
    hook("PostToolUseFailure", payload("PostToolUseFailure", project, tool_name="Bash",
                                       tool_input={"command": "npm test -- --ci"},
                                       error="exit code 1"), env)
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit",
                                tool_input={"file_path": str(project / "a.py")},
                                tool_response={"filePath": str(project / "a.py")}), env)
    raw = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text()
    assert secret not in raw
    events = [json.loads(x)["data"] for x in raw.splitlines()]
    assert events[0] == {"tool": "Bash", "ok": True, "cmd": "export"}
    assert events[1]["ok"] is False and events[1]["cmd"] == "npm test"
    assert events[2] == {"tool": "Edit", "ok": True, "file": str(project / "a.py")}


def test_a_passing_chain_journals_every_check_it_passed(env, project) -> None:
    """The journal keeps a command's head, not its line: a passing `&&` chain lists the other
    checks it passed beside the one that names it, so learning sees the format check that
    failed earlier pass again."""
    chain = "uv run ruff format --check . && uv run mypy && uv run pytest -q"
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Bash",
                                tool_input={"command": chain},
                                tool_response={"stdout": "11 files already formatted\nSuccess: "
                                               "no issues found in 6 source files\n5 passed in "
                                               "0.71s", "stderr": "", "interrupted": False}),
         env)
    raw = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text()
    [event] = [json.loads(x)["data"] for x in raw.splitlines()]
    assert event["suite"] == "pytest" and event["ok"] is True
    assert event["also"] == ["ruff format", "mypy"]


def test_parallel_hooks_never_interleave_journal_lines(env, project) -> None:
    body = payload("PostToolUse", project, tool_name="Bash", tool_input={"command": "make build"},
                   tool_response={"stdout": "", "stderr": "", "interrupted": False})
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: hook("PostToolUse", body, env), range(32)))
    assert all(r.returncode == 0 for r in results)
    events, bad = journal.read(str(Path(journal_dir(env["KENNING_DB"])) / journal.FILE))
    assert (len(events), bad) == (32, 0) and len({e["id"] for e in events}) == 32


def test_session_loop_ingests_brief_learns_and_checkpoints(env, project) -> None:
    with seeded(env, project) as k:
        decision = k.list(types="decision")[0]
    start = hook("SessionStart", payload("SessionStart", project, source="startup"), env)
    brief = json.loads(start.stdout)["hookSpecificOutput"]
    assert brief["hookEventName"] == "SessionStart" and decision.id in brief["additionalContext"]
    context_of(hook("UserPromptSubmit", payload("UserPromptSubmit", project,
                                                prompt="billing ledger isolation level?"), env))
    hook("PostToolUseFailure", payload("PostToolUseFailure", project, tool_name="Bash",
                                       tool_input={"command": "pytest tests/ledger"},
                                       error="1 failed"), env)
    assert hook("PreCompact", payload("PreCompact", project, trigger="manual",
                                      custom_instructions="keep the ledger work"),
                env).returncode == 0
    assert hook("SessionEnd", payload("SessionEnd", project, reason="other"), env).returncode == 0
    assert not errors(env), errors(env)
    doctor = subprocess.run([str(KENNING), "doctor", "--json"], env=env, capture_output=True,
                            text=True)
    hooks = json.loads(doctor.stdout)["hooks"]
    assert hooks["journal_pending_bytes"] == 0 and hooks["prompt_index"] == "current"
    assert hooks["last_session_event"] is not None
    with seeded(env, project) as k:
        got = k.get(decision.id)
        assert got.access_count == 0  # shown, then nothing it names was touched: not a use
        reasons = [h["reason"] for h in k.confidence_history(decision.id)]
        assert len(reasons) == 1 and "failing command" in reasons[0]
        [cp] = k.list(types="checkpoint")
        assert "keep the ledger work" in cp.content and "pytest" in cp.content
        assert k.injections()[0]["memories"][0]["id"] == decision.id
    assert not (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).exists()  # all ingested


def test_file_only_fallback_keeps_events_until_the_store_is_healthy(env, project, tmp_path
                                                                    ) -> None:
    db = Path(env["KENNING_DB"])
    db.write_bytes(b"not yet a database")  # e.g. a half-copied file, a disk problem
    hook("PostToolUse", payload("PostToolUse", project, tool_name="Edit",
                                tool_input={"file_path": str(project / "x.py")}), env)
    hook("PreCompact", payload("PreCompact", project, trigger="manual",
                               custom_instructions="remember the x.py refactor"), env)
    events, _ = journal.read(str(Path(journal_dir(str(db))) / journal.FILE))
    assert [e["kind"] for e in events] == ["tool", "remember"]
    db.unlink()  # the store is healthy again (here: recreated)
    start = hook("SessionStart", payload("SessionStart", project, source="startup"), env)
    assert start.returncode == 0
    with seeded(env, project) as k:
        [cp] = k.list(types="checkpoint")
        assert "remember the x.py refactor" in cp.content
        assert [e.kind for e in k.store.session_events(session_id="sess-1")][:1] == ["tool"]


def test_unknown_event_is_a_usage_error(env) -> None:
    result = hook("NoSuchEvent", "{}", env)
    assert result.returncode == 2 and b"usage: kenning hook" in result.stderr


def test_disabled_hooks_do_nothing(env, project) -> None:
    seeded(env, project).close()
    (project / "kenning.toml").write_text("[hooks]\nenabled = false\n")
    result = hook("UserPromptSubmit", payload("UserPromptSubmit", project,
                                              prompt="billing ledger"), env)
    assert (result.returncode, result.stdout) == (0, b"")


def test_subagent_report_becomes_a_redacted_finding_of_that_agent(env, project) -> None:
    secret = "ghp_" + "x" * 36
    report = (f"Found that the ledger tests need the advisory-lock fixture; token {secret} "
              "was in the old CI config")
    hook("SubagentStop", payload("SubagentStop", project, agent_id="a1", agent_type="reviewer",
                                 last_assistant_message=report, stop_hook_active=False), env)
    raw = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text()
    assert secret not in raw
    assert hook("SessionEnd", payload("SessionEnd", project, reason="other"),
                env).returncode == 0
    with seeded(env, project) as k:
        [finding] = [m for m in k.list() if "advisory-lock" in m.content]
        assert secret not in finding.content and finding.agent == "reviewer"
        assert "agent:reviewer" in json.dumps(finding.metadata)


def test_a_hook_past_its_budget_exits_zero_silently_and_says_so(env, project) -> None:
    seeded(env, project).close()
    slow = dict(env, KENNING_HOOKS_SESSION_START_BUDGET_MS="1")  # nothing finishes in 1 ms
    result = hook("SessionStart", payload("SessionStart", project, source="startup"), slow)
    assert (result.returncode, result.stdout) == (0, b"")
    assert any(e["where"] == "hook SessionStart" and "budget" in e["error"] for e in errors(env))


def _tool_call(project: Path, tool_use_id: str) -> str:
    return payload("PostToolUse", project, tool_name="Bash", tool_use_id=tool_use_id,
                   tool_input={"command": "pytest -q"},
                   tool_response={"stdout": "3 passed", "stderr": "", "interrupted": False})


def _journalled_tool_calls(env: dict[str, str]) -> list[str]:
    path = Path(journal_dir(env["KENNING_DB"])) / journal.FILE
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(ln)["data"].get("tool_use_id") for ln in lines]


def test_a_tool_call_past_its_budget_is_journalled_before_the_hook_gives_up(env, project
                                                                             ) -> None:
    """The budget cuts the optional work, never the event learning reads: a hook whose
    budget runs out before its journal line still writes it, then exits 0 silently."""
    starved = dict(env, KENNING_HOOKS_TOOL_BUDGET_MS="1")  # over before the line is written
    result = hook("PostToolUse", _tool_call(project, "toolu_starved"), starved)
    assert (result.returncode, result.stdout) == (0, b"")
    assert _journalled_tool_calls(env) == ["toolu_starved"]
    assert any(e["where"] == "hook PostToolUse" and "budget" in e["error"] for e in errors(env))


def test_a_payload_written_late_by_a_starved_client_is_still_journalled(env, project) -> None:
    """The time the client takes to write the payload is not the hook's: one written after
    the hook's whole budget has gone by is journalled all the same."""
    import time

    from kenning.config import DEFAULTS

    proc = subprocess.Popen([str(HOOK), "PostToolUse"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    # the client is slow, not the hook: more than the hook's whole budget goes by
    time.sleep(1.5 * int(DEFAULTS["hooks"]["tool_budget_ms"]) / 1000)
    out, _ = proc.communicate(_tool_call(project, "toolu_late").encode(), timeout=60)
    assert (proc.returncode, out) == (0, b"")
    assert _journalled_tool_calls(env) == ["toolu_late"]


@pytest.mark.parametrize("extra", [
    {}, {"KENNING_HOME": "~/kh"}, {"XDG_DATA_HOME": "/srv/xdg"}, {"KENNING_DB": "~/x/k.db"},
    {"KENNING_DB": "postgresql://u:pw@db.example/kenning"},
])
def test_lean_paths_answer_as_kenning_paths(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                            extra: dict[str, str]) -> None:
    """The hooks' os.path copies of data dir, store and project must never drift."""
    from kenning.places import lean, paths

    for name in ("KENNING_HOME", "XDG_DATA_HOME", "KENNING_DB", "KENNING_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    for name, value in extra.items():
        monkeypatch.setenv(name, value)
    repo = tmp_path / "we ird.repo" / "sub"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo.parent)], check=True)
    assert lean.data_dir() == str(paths.data_dir())
    assert lean.store_location() == str(paths.default_db_path())
    assert lean.project_for(str(repo)) == paths.project_key(paths.project_root(repo))


def test_the_budget_alarm_is_cancelled_once_the_answer_is_ready(env, project, monkeypatch
                                                                 ) -> None:
    """A hook that printed its answer must not be killed by its alarm afterwards (the client
    would drop the injection): the timer is off when the entry point returns."""
    import signal

    from kenning.hooks import run

    with seeded(env, project):
        pass
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    try:
        rc = run.main(["UserPromptSubmit"], stdin=payload(
            "UserPromptSubmit", project, prompt="How does the billing ledger handle charges?"),
            budget=True)
        remaining = signal.getitimer(signal.ITIMER_REAL)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    assert rc == 0 and remaining == (0.0, 0.0)


def test_session_start_keeps_the_prompt_index_when_only_events_arrived(env, project) -> None:
    """Ingesting the previous session's events (tool calls, its start) changes no memory, so
    the next conversation's start, a full one (that session is still open), reuses the prompt
    index instead of rebuilding it."""
    from kenning.promptindex.reader import index_path

    seeded(env, project).close()
    start = payload("SessionStart", project, source="startup")
    assert hook("SessionStart", start, env).returncode == 0
    index = Path(index_path(journal_dir(env["KENNING_DB"])))
    built = index.stat().st_mtime_ns
    tool = payload("PostToolUse", project, tool_name="Bash",
                   tool_input={"command": "ls"}, tool_response={"stdout": "a\n"})
    assert hook("PostToolUse", tool, env).returncode == 0
    start = start.replace('"sess-1"', '"sess-2"')
    assert hook("SessionStart", start, env).returncode == 0
    assert index.stat().st_mtime_ns == built
    with seeded(env, project) as k:  # the events did arrive
        assert k.store.session_events(kinds=["tool"], limit=10)
    assert not errors(env)


def test_a_subagent_report_is_redacted_before_it_is_cut(env, project) -> None:
    """A secret that straddles where a long report is cut leaves no fragment behind."""
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    report = "x" * (20_000 - 27) + f" see {secret} done"  # 22 of its characters before
    seeded(env, project).close()
    assert hook("SubagentStop", payload("SubagentStop", project, agent_type="reviewer",
                                        agent_id="a1", last_assistant_message=report),
                env).returncode == 0
    line = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text()
    assert secret[:12] not in line and "ghp_A1b2" not in line
