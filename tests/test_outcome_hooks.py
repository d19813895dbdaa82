"""Learning from real checks, end to end: Claude Code's hook payloads through ``kenning-hook``
processes into a real SQLite store, judged at SessionEnd by the checks that followed each
injection (a fixed test suite raises a memory, an unrelated failing ``grep`` changes nothing)."""
# ruff: noqa: F811  (pytest fixtures come from tests.test_hooks)

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kenning import Kenning, journal, learning
from kenning.places.lean import journal_dir
from tests.test_hooks import DECISION, env, hook, payload, project, seeded  # noqa: F401

PROMPT = "Which isolation level does the billing ledger use for concurrent charges?"
PYTEST_FAIL = """\
tests/test_ledger.py ..F.........                                  [100%]
FAILED tests/test_ledger.py::test_double_booking - AssertionError: 2 charges booked
1 failed, 13 passed in 0.52s
"""
CARGO_FAIL = """\
running 3 tests
test ledger::tests::no_double_booking ... FAILED
test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
error: test failed, to rerun pass `--lib`
"""


def run(env: dict[str, str], project: Path, session: str, event: str, **fields: Any) -> str:
    result = hook(event, payload(event, project, session_id=session, **fields), env)
    assert result.returncode == 0 and not result.stderr, result.stderr
    return result.stdout.decode()


def bash_passed(env: dict[str, str], project: Path, session: str, command: str,
                stdout: str) -> None:
    run(env, project, session, "PostToolUse", tool_name="Bash",
        tool_input={"command": command, "description": "Run the checks"},
        tool_response={"stdout": stdout, "stderr": "", "interrupted": False,
                       "isImage": False})


def bash_failed(env: dict[str, str], project: Path, session: str, command: str, code: int,
                output: str) -> None:
    run(env, project, session, "PostToolUseFailure", tool_name="Bash",
        tool_input={"command": command, "description": "Run the checks"},
        error=f"Exit code {code}\n{output}", is_interrupt=False)


def session_with(env: dict[str, str], project: Path, session: str,
                 *tools: tuple[str, ...]) -> tuple[float, float, list[str]]:
    """One session: the ledger decision injected by a prompt, then ``tools`` (``("ok",
    command, stdout)`` or ``("fail", command, code, output)``), then SessionEnd. Returns the
    decision's confidence before and after, and its history's reasons."""
    with seeded(env, project) as k:
        decision = next(m for m in k.list(types="decision") if m.content == DECISION)
        before = k.get(decision.id).confidence
    out = run(env, project, session, "UserPromptSubmit", prompt=PROMPT)
    assert decision.id in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    for tool in tools:
        if tool[0] == "ok":
            bash_passed(env, project, session, tool[1], tool[2])
        else:
            bash_failed(env, project, session, tool[1], int(tool[2]), tool[3])
    run(env, project, session, "SessionEnd", reason="other")
    with Kenning(env["KENNING_DB"], embedder=None) as k:
        after = k.get(decision.id).confidence
        reasons = [h["reason"] for h in k.confidence_history(decision.id)]
    return before, after, reasons


def journal_lines(env: dict[str, str]) -> list[dict[str, Any]]:
    path = Path(journal_dir(env["KENNING_DB"])) / journal.FILE
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def test_a_suite_that_failed_then_passed_raises_the_injected_memory(env, project) -> None:
    before, after, reasons = session_with(
        env, project, "fixed",
        ("fail", "python -m pytest -q", "1", PYTEST_FAIL),
        ("ok", "python -m pytest -q", "..............\n14 passed in 0.31s\n"))
    assert after == pytest.approx(before + learning.PASS_BOOST)
    assert reasons[-1] == "session fixed: 1 passing test run(s) after it was injected (pytest)"


def test_an_unrelated_failing_grep_changes_nothing(env, project) -> None:
    before, after, reasons = session_with(
        env, project, "grep-only",
        ("fail", "grep -rn SERIALIZABLE src/ledger", "1", ""),
        ("fail", "ls build/", "2", "ls: cannot access 'build/': No such file or directory"))
    assert after == pytest.approx(before)
    assert not any(r.startswith("session grep-onl") for r in reasons)


def test_a_cargo_suite_that_ends_failing_lowers_the_injected_memory(env, project) -> None:
    passed = ("running 3 tests\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; "
              "0 filtered out; finished in 0.01s\n")
    before, after, reasons = session_with(
        env, project, "broken",
        ("ok", "cargo test", passed),
        ("fail", "cd ledger && cargo test 2>&1 | tail -40; exit ${PIPESTATUS[0]}", "101",
         CARGO_FAIL))
    assert after == pytest.approx(before - learning.FAIL_PENALTY)
    assert reasons[-1] == "session broken: 1 failing command(s) after it was injected (cargo test)"


def test_checks_are_journalled_with_suite_and_summary_and_no_arguments(env, project) -> None:
    token = "sk-ant-api03-" + "Z" * 40
    seeded(env, project).close()
    bash_failed(env, project, "j", f"cd api && API_TOKEN={token} python -m pytest -q "
                                   "tests/test_ledger.py", 1, PYTEST_FAIL + token)
    bash_passed(env, project, "j", "python -m pytest -q tests/test_ledger.py | tail -5",
                PYTEST_FAIL)  # the pipe exits 0: the summary says the tests failed
    bash_passed(env, project, "j", "npx jest --ci", "Tests:       13 passed, 13 total\n")
    bash_failed(env, project, "j", "pytest -k nothing", 5, "no tests ran in 0.01s\n")
    bash_failed(env, project, "j", "grep -rn isolation src", 1, "")
    raw = (Path(journal_dir(env["KENNING_DB"])) / journal.FILE).read_text()
    for private in (token, "test_ledger", "double_booking", "AssertionError", "--ci", "nothing",
                    "isolation"):
        assert private not in raw
    assert [e["data"] for e in journal_lines(env)] == [
        {"tool": "Bash", "cmd": "pytest", "check": "test", "suite": "pytest",
         "summary": "1 failed, 13 passed", "ok": False},
        {"tool": "Bash", "cmd": "pytest", "check": "test", "suite": "pytest",
         "summary": "1 failed, 13 passed", "ok": False},
        {"tool": "Bash", "cmd": "npx jest", "check": "test", "suite": "jest",
         "summary": "13 passed", "ok": True},
        {"tool": "Bash", "cmd": "pytest", "check": "test", "suite": "pytest",
         "summary": "no tests ran"},  # no verdict: neither a pass nor a failure
        {"tool": "Bash", "ok": False, "cmd": "grep"},
    ]


def test_events_from_an_older_hook_are_judged_by_their_command_head(k: Kenning, clock) -> None:
    m = k.remember("Run the ledger tests against a real PostgreSQL", type="decision",
                   confidence=0.6)
    t = clock()
    k.record_events([
        {"id": "i", "session_id": "old", "at_ms": t, "kind": "injected",
         "data": {"memories": [{"id": m.id, "score": 0.8}]}},
        {"id": "a", "session_id": "old", "at_ms": t + 1, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "grep", "ok": False}},
        {"id": "b", "session_id": "old", "at_ms": t + 2, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "npm test", "ok": False}},
        {"id": "c", "session_id": "old", "at_ms": t + 3, "kind": "tool",
         "data": {"tool": "Bash", "cmd": "npm test", "ok": True}},
    ])
    before = k.get(m.id).confidence
    [judged] = k.learn_from_session("old")["judged"]
    assert judged["delta"] == pytest.approx(learning.PASS_BOOST)
    assert k.get(m.id).confidence == pytest.approx(before + learning.PASS_BOOST)
