"""The whole loop in the real Claude Code CLI, against the scripted fake model server: a decision
recorded in session 1 is in the UserPromptSubmit context of session 2 for a related prompt, not
for an unrelated one; MEMORY.md written by Kenning is what the client loads."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kenning.places.keys import project_key
from tests.claude_harness import fake_model, find_claude, run_claude, session_requests, texts
from tests.sessionend import wait_for_session_ends

CLAUDE = find_claude()
KENNING = Path(sys.executable).parent / "kenning"
DECISION = ("The billing ledger uses PostgreSQL with SERIALIZABLE isolation to stop double "
            "charges")
S1, S2, S3 = ("aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222",
              "cccccccc-3333-4333-8333-333333333333")
WHY = ("Why: two workers charged one invoice twice in March; open ledger transactions with "
       "ledger.db.serializable()")
UPS = "UserPromptSubmit hook additional context:"
AUTO_RECORD = "Ledger tests need the pg_advisory_lock fixture or they deadlock"
# what the billing ledger did before the decision: the decision supersedes it in session one
REPLACED = "The billing ledger uses MySQL with READ COMMITTED isolation for concurrent charges"

NO_CLAUDE = ("Claude Code CLI not installed (.ci/run installs it from npm; locally set "
             "KENNING_CLAUDE_BIN, see the README)")
if CLAUDE is None and os.environ.get("KENNING_REQUIRE_E2E"):
    raise RuntimeError(f"KENNING_REQUIRE_E2E is set but the {NO_CLAUDE}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CLAUDE is None, reason=NO_CLAUDE)]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    work = tmp_path_factory.mktemp("claude-e2e")
    home, project, data = work / "home", work / "proj", work / "kdata"
    home.mkdir()
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    # The workspace was never trusted: what init writes to .claude/settings.local.json still
    # allows the MCP tools in claude -p (the committed .claude/settings.json would not).
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_HOME=str(data), HOME=str(home))
    init = subprocess.run([str(KENNING), "init"], cwd=project, env=env, capture_output=True,
                          text=True)
    assert init.returncode == 0, init.stderr
    before = subprocess.run([str(KENNING), "remember", REPLACED, "--type", "decision",
                             "--topic", "ledger_db", "--json"], cwd=project, env=env,
                            capture_output=True, text=True)
    assert before.returncode == 0, before.stderr
    replaced_id = json.loads(before.stdout)["id"]
    record = (f'{KENNING} remember "{DECISION}. {WHY}" --summary "{DECISION}" --type decision '
              f"--topic ledger_db --supersedes {replaced_id}")
    scripts = {
        "one": [{"tool_use": {"name": "Bash", "input": {"command": record,
                                                         "description": "record the decision"}}},
                # MCP tools are deferred in Claude Code: load them through ToolSearch first.
                {"tool_use": {"name": "ToolSearch", "input": {
                    "query": "select:mcp__kenning__memory_auto_record,mcp__kenning__recall"}}},
                {"tool_use": {"name": "mcp__kenning__memory_auto_record", "input": {
                    "category": "debugging", "summary": AUTO_RECORD}}},
                {"tool_use": {"name": "mcp__kenning__recall", "input": {
                    "query": "billing ledger isolation"}}},
                {"text": "recorded"}],
        "two": [{"text": "use the ledger's isolation"}],
        "three": [{"text": "done"}],
    }
    with fake_model(work, scripts) as server:
        runs = {}
        for sid, prompt in ((S1, "[[script:one]] record our ledger database decision"),
                            (S2, "[[script:two]] how should the billing ledger handle "
                                 "concurrent writes?"),
                            (S3, "[[script:three]] make the navbar button blue")):
            runs[sid] = run_claude(CLAUDE, project, home, server.port, prompt, session_id=sid,
                                   env=env, extra=["--allowedTools", "Bash"])
            # `claude -p` returns before Kenning's detached session end is done; the client
            # reads MEMORY.md at its next start without waiting for it, so a person who starts
            # the next session at once gets the MEMORY.md before (the briefing does wait)
            wait_for_session_ends(str(data / "kenning.db"))
            if sid == S1:
                listed = subprocess.run([str(KENNING), "list", "--json"], cwd=project, env=env,
                                        capture_output=True, text=True)
                runs["stored after one"] = listed
        requests = {sid: session_requests(server, sid) for sid in (S1, S2, S3)}
    errors = data / "errors.jsonl"
    return {"runs": runs, "requests": requests, "home": home, "project": project, "data": data,
            "errors": errors.read_text() if errors.exists() else ""}


def first_request_text(sessions: dict[str, object], sid: str) -> str:
    reqs = sessions["requests"][sid]  # type: ignore[index]
    assert reqs, f"no model request for session {sid}"
    return "\n".join(texts(reqs[0]["body"]["messages"]))


def test_sessions_ran_and_hooks_logged_no_errors(sessions) -> None:
    for sid, run in sessions["runs"].items():
        assert run.returncode == 0, (sid, run.stderr[-2000:])
    assert "Traceback" not in sessions["errors"], sessions["errors"]


def test_decision_from_session_one_is_injected_for_a_related_prompt(sessions) -> None:
    text = first_request_text(sessions, S2)
    assert UPS in text
    injected = text.split(UPS, 1)[1][:2000]
    assert DECISION in injected and "Kenning memory" in injected
    assert WHY in injected  # the best match brings its detail, not just its one line


def test_a_superseded_decision_never_reaches_the_model_as_current(sessions) -> None:
    text = first_request_text(sessions, S2)  # MEMORY.md, the briefing and the injection
    assert DECISION in text
    for line in text.splitlines():
        if "READ COMMITTED" in line:
            assert re.search(r"replaced|superseded", line, re.I), line


def test_nothing_is_injected_for_an_unrelated_prompt(sessions) -> None:
    text = first_request_text(sessions, S3)
    assert not any("Kenning memory" in part for part in text.split(UPS)[1:])


def test_memory_md_written_by_kenning_is_what_the_client_loads(sessions) -> None:
    home, project = sessions["home"], sessions["project"]
    memdir = home / ".claude" / "projects" / project_key(str(project.resolve())) / "memory"
    memory_md = (memdir / "MEMORY.md").read_text()
    assert "billing ledger" in memory_md.lower()
    lines = memory_md.splitlines()
    assert len(lines) <= 200 and len(memory_md.encode()) <= 25_000
    loaded = first_request_text(sessions, S2)
    assert f"Contents of {memdir}/MEMORY.md" in loaded
    assert memory_md.strip() in loaded


def tool_results(sessions: dict[str, object], sid: str) -> list[str]:
    """The tool_result contents the model got back, in order."""
    last = sessions["requests"][sid][-1]  # type: ignore[index]
    out = []
    for msg in last["body"]["messages"]:
        content = msg.get("content")
        if isinstance(content, list):
            out += ["\n".join(texts(b.get("content"))) for b in content
                    if isinstance(b, dict) and b.get("type") == "tool_result"]
    return out


def test_the_client_calls_kenning_mcp_tools(sessions) -> None:
    results = tool_results(sessions, S1)
    assert len(results) == 4, results
    recorded, recalled = results[2], results[3]
    assert '\\"is_new\\":true' in recorded and '\\"in_auto_memory\\":true' in recorded, recorded
    assert DECISION[:40] in recalled  # recall found the decision Bash stored a moment earlier
    stored = json.loads(sessions["runs"]["stored after one"].stdout)
    assert AUTO_RECORD in {m["content"] for m in stored["memories"]}
