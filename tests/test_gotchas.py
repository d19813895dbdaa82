"""Gotchas from recovered failures: the meaningful error line (never a runner's banner), the
cause the assistant gave, the fix that was made, one memory per failure across sessions (its
evidence counted), and a session insight whose task is the work the user asked for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.extract.candidates import (
    code_places,
    failed_then_passed,
    patterns,
    preferences,
    session_summary,
    stated_constraints,
)
from kenning.extract.transcript import AssistantText, ToolCall, UserText, parse_lines
from kenning.outcomes import check_of
from tests.mcp_fixtures import TranscriptWriter
from tests.sessionend import wait_for_session_ends

HOOK = Path(sys.executable).parent / "kenning-hook"
CWD = "/tmp/proj-ledger"

PYTEST_FAIL = """Exit code 1
..F.                                                                     [100%]
=================================== FAILURES ===================================
_____________________________ test_round_half_even _____________________________

    def test_round_half_even():
>       assert to_cents(Decimal("0.125")) == {want}
E       AssertionError: assert 13 == {want}
E        +  where 13 = to_cents(Decimal('0.125'))

tests/test_money.py:{line}: AssertionError
=========================== short test summary info ============================
FAILED tests/test_money.py::test_round_half_even - AssertionError: assert 13 == {want}
1 failed, 3 passed in 0.0{line}s"""

EXPLAINED = ("Let me look at the money module. I see the problem: to_cents truncates with "
             "int(); amounts must round half-even. I'll switch it to quantize.")


def ledger_session(session: str, *, line: int = 8, explain: str | None = EXPLAINED,
                   greeting: str = "morning! the ledger rounds cents wrong, can you fix it?"
                   ) -> TranscriptWriter:
    """A session where ``uv run pytest -q`` fails on rounding, the assistant explains (or
    not), edits money.py, and the run passes."""
    t = TranscriptWriter(cwd=CWD, session=session)
    t.user(greeting)
    t.bash("cd /tmp/proj-ledger && uv run pytest -q",
           PYTEST_FAIL.format(want=12, line=line), ok=False)
    t.tool("Read", {"file_path": f"{CWD}/src/ledger/money.py"},
           "def to_cents(amount):\n    return int(amount * 100)", extra={"type": "text"})
    if explain:
        t.say(explain)
    t.edit(f"{CWD}/src/ledger/money.py", "def to_cents(amount):\n    return int(amount * 100)",
           "def to_cents(amount):\n    return int((amount * 100).quantize(Decimal(1), "
           "rounding=ROUND_HALF_EVEN))")
    t.bash("uv run pytest -q", "....                                   [100%]\n4 passed in 0.05s")
    t.say("All tests pass now.")
    return t


def parsed(t: TranscriptWriter):  # type: ignore[no-untyped-def]
    return parse_lines([json.dumps(r) for r in t.lines], "t.jsonl")


def test_assistant_text_is_kept_in_order_and_preferences_skip_it() -> None:
    t = ledger_session("s-1")
    t.user("no, use poetry")
    tr = parsed(t)
    kinds = [type(e) for e in tr.events]
    assert kinds[:3] == [UserText, ToolCall, ToolCall]
    assert kinds[3] is AssistantText and tr.assistant_texts[0].text == EXPLAINED
    assert [a.text for a in tr.assistant_texts][-1] == "All tests pass now."
    prefs = preferences(tr)
    # the assistant's explanations are not its commitments: only the user's rule is a candidate
    assert [p.text for p in prefs] == ['Use poetry.\n(as the user put it: "no, use poetry")']


def test_pytest_banner_gives_the_failed_test_the_cause_and_the_fix() -> None:
    tr = parsed(ledger_session("s-1"))
    (gotcha,) = failed_then_passed(tr)  # one memory: no separate "fix" insight
    assert gotcha.kind == gotcha.type == "gotcha"
    assert gotcha.text == (
        "Tests failed: tests/test_money.py::test_round_half_even - "
        "AssertionError: assert 13 == 12. Cause: to_cents truncates with int(); amounts must "
        "round half-even. Fix: `src/ledger/money.py`: `return int(amount * 100)` -> "
        "`return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))`; "
        "then it passed.")
    assert "=====" not in gotcha.text and "FAILURES" not in gotcha.text
    meta = gotcha.extra
    assert meta["signature"] == "pytest|AssertionError|test_round_half_even"
    assert meta["cause"].startswith("to_cents truncates") and meta["evidence"] == 1
    assert meta["files"] == ["src/ledger/money.py"] and meta["command"] == "uv run pytest -q"
    assert meta["sessions"] == ["s-1"]


def test_a_narrowed_run_failing_then_the_suite_passing_is_one_recovery() -> None:
    t = TranscriptWriter()
    t.bash("python3 -m pytest tests/test_db.py -q",
           "Exit code 2\n==== ERRORS ====\n____ ERROR collecting tests/test_db.py ____\n"
           "ERROR tests/test_db.py - ModuleNotFoundError: No module named 'psycopg'\n"
           "!!!! Interrupted: 1 error during collection !!!!", ok=False)
    t.say("psycopg is not installed in this environment, so the test module cannot import.")
    t.bash("uv add psycopg", "Resolved 12 packages")
    t.bash("uv run pytest", "12 passed in 0.4s")
    (gotcha,) = failed_then_passed(parsed(t))
    assert gotcha.text == (
        "Tests failed: ERROR tests/test_db.py - "
        "ModuleNotFoundError: No module named 'psycopg'. Cause: psycopg is not installed in "
        "this environment, so the test module cannot import. Fix: ran `uv add psycopg`; used "
        "`uv run pytest` instead; then `uv run pytest` passed.")
    assert gotcha.extra["signature"] == \
        "pytest|ModuleNotFoundError|No module named 'psycopg'"


def test_without_an_explanation_the_gotcha_has_no_cause_and_a_retry_is_flaky() -> None:
    (plain,) = failed_then_passed(parsed(ledger_session("s-1", explain="Let me check.")))
    assert "Cause:" not in plain.text and plain.extra["cause"] is None
    assert plain.confidence < 0.8
    t = TranscriptWriter()
    t.bash("npm test", "FAIL src/a.test.js\n  ● api › times out\n\n    Error: timeout of 5000ms",
           ok=False)
    t.bash("npm test", "PASS src/a.test.js")
    (flaky,) = failed_then_passed(parsed(t))
    assert flaky.confidence == 0.55 and flaky.extra["flaky"] is True
    assert "(flaky?)" in flaky.text and "● api › times out" in flaky.text
    t = TranscriptWriter()
    t.bash("docker compose up -d db", "Cannot connect to the Docker daemon at "
           "unix:///var/run/docker.sock. Is the docker daemon running?", ok=False)
    t.bash("docker compose up -d db", "Container stockroom-db-1  Started")
    assert failed_then_passed(parsed(t)) == []  # the machine was starting: not a lesson


def test_a_file_moved_with_git_is_the_fix_not_a_flaky_retry() -> None:
    t = TranscriptWriter()
    t.bash("npx jest", "Error: Jest: Failed to load ESM at /p/jest.config.js\nReferenceError: "
           "module is not defined in ES module scope", ok=False)
    t.say("package.json now says \"type\": \"module\", so jest.config.js loads as ESM and "
          "module.exports is not defined. Renaming it to jest.config.cjs fixes that.")
    t.bash("git status", "On branch main")
    t.bash("git mv jest.config.js jest.config.cjs", "")
    t.bash("npx jest", "Tests:       6 passed, 6 total")
    [gotcha] = failed_then_passed(parsed(t))
    assert not gotcha.extra.get("flaky")
    assert "ran `git mv jest.config.js jest.config.cjs`" in gotcha.text


RUST = """   Compiling calc v0.1.0 (/tmp/calc)
error[E0308]: mismatched types
 --> src/main.rs:{n}:18
  |
{n} |     let total: i32 = "five";
  |                ---   ^^^^^^ expected `i32`, found `&str`

error: could not compile `calc` (bin "calc") due to 1 previous error"""
TSC = ("src/ledger.ts({n},7): error TS2322: Type 'string' is not assignable to type "
       "'number'.\n\nFound 1 error in src/ledger.ts:{n}")
GO = ("--- FAIL: TestAdd (0.00s)\n    add_test.go:{n}: Add(2, 2) = 5; want 4\nFAIL\n"
      "FAIL\texample.com/calc\t0.00{n}s")
JEST = """> shop@1.0.0 test
> jest

FAIL src/sum.test.js
  ● sum › adds two numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: 4
    Received: 5

      at Object.<anonymous> (src/sum.test.js:{n}:19)

Tests:       1 failed, 1 total"""


KIND_NAMES = {"test": "Tests", "build": "The build", "lint": "Lint",
              "typecheck": "The type check", "format": "The format check"}


def test_a_gotcha_names_the_kind_of_check_not_the_command_line() -> None:
    """The failure and its fix outlive the command: `make test` gives way to `uv run pytest`,
    the gotcha stays true; a command that is no check keeps its own name."""
    for command, head in (("make test", "Tests failed: "), ("make lint", "Lint failed: "),
                          ("alembic upgrade head", "`alembic upgrade head` failed: ")):
        t = TranscriptWriter()
        t.bash(command, "Exit code 1\nerror: boom", ok=False)
        t.say("The config file is missing its [db] section.")
        t.edit(f"{t.cwd}/setup.cfg", "[tool]", "[tool]\n[db]")
        t.bash(command, "ok")
        (gotcha,) = failed_then_passed(parsed(t))
        assert gotcha.text.startswith(head) and gotcha.extra["command"] == command


def test_where_things_live_is_kept_as_the_assistant_found_it() -> None:
    """A place the assistant named after reading ("All Celery tasks live in
    src/orderdesk/worker.py") is a codebase discovery (it holds until the code changes); a plan
    ("I'll put it in ...") or a bug's location is not."""
    t = TranscriptWriter()
    t.say("Found it. All Celery tasks live in src/orderdesk/worker.py (the app is "
          "orderdesk.worker). I'll add send_tracking_email there.")
    t.say("I'll put the new helper in src/orderdesk/mail.py. The bug is in src/orderdesk/api.py "
          "where we divide by zero.")
    t.say("`filter::apply` in src/filter.rs compares the timestamps as strings.")
    t.say("The zone of each station's exports is already in STATIONS in "
          "src/tidepool/stations.py (IANA names).")
    found = [(c.type, c.text) for c in code_places(parsed(t))]
    assert found == [
        ("discovery", "All Celery tasks live in src/orderdesk/worker.py (the app is "
                    "orderdesk.worker)."),
        ("discovery", "`filter::apply` in src/filter.rs compares the timestamps as strings."),
        ("discovery", "The zone of each station's exports is already in STATIONS in "
                    "src/tidepool/stations.py (IANA names).")]
    t = TranscriptWriter()
    t.say("Clippy's complaint is in src/output.rs, which this change doesn't touch.")
    assert code_places(parsed(t)) == []  # a report of a warning, not where something lives


def test_a_file_things_go_through_or_a_file_named_first_is_a_place() -> None:
    """"All deploy-API calls go through internal/client/client.go", "Config comes from the
    Settings class in src/orderdesk/settings.py", "src/index.ts is the package's public
    surface": where things live, said three more ways; a plan to route something is not."""
    t = TranscriptWriter()
    t.say("All deploy-API calls go through internal/client/client.go (Client, with StartDeploy "
          "as the only call so far), so that's the one place to add retries.")
    t.say("I'll route the new call through src/api/client.ts.")
    t.say("Config comes from the Settings class in src/orderdesk/settings.py (pydantic-settings)"
          ", and every variable has the ORDERDESK_ prefix.")
    t.say("Right: src/index.ts is the package's public surface. Only what it re-exports is "
          "public.")
    assert [c.extra["path"] for c in code_places(parsed(t))] == [
        "internal/client/client.go", "src/orderdesk/settings.py", "src/index.ts"]
    t = TranscriptWriter()
    t.say("The build is fine: tsup.config.ts builds src/index.ts as cjs and esm.")
    t.say("tests/conftest.py sets task_always_eager = True on the Celery app, so .delay() runs "
          "the task inline: no broker needed.")
    t.say("The session-scoped `engine` fixture in tests/conftest.py builds the test database "
          "with Base.metadata.create_all straight from the models.")
    assert [c.extra["path"] for c in code_places(parsed(t))] == [
        "tsup.config.ts", "tests/conftest.py"]
    assert "task_always_eager" in code_places(parsed(t))[1].text


def test_where_things_live_as_the_user_tells_it_in_passing_is_a_place() -> None:
    """"those live in tests/integration and run with pnpm test:int ...", said in lower case in
    the middle of a request, is a discovery in the user's words; where a bug is, or a guess
    asked as a question, is not."""
    from kenning.extract.candidates import told_places

    t = TranscriptWriter()
    t.user("can you add that, with an integration test against a real database? those live in "
           "tests/integration and run with pnpm test:int against the crewboard_test db.")
    t.user("the bug is in src/api/ somewhere. is it in src/lib/ maybe?")
    assert [(c.type, c.text) for c in told_places(parsed(t))] == [
        ("discovery", "Those live in tests/integration and run with pnpm test:int against the "
                      "crewboard_test db.")]
    # "it" after a statement: the statement says what it is
    t = TranscriptWriter()
    t.user("the new reporting job needs its own connection pool against the staging database. "
           "it lives in cmd/reporter and only runs a couple of big SELECTs an hour. can you set "
           "up main.go for it?")
    assert [c.text for c in told_places(parsed(t))] == [
        "The new reporting job needs its own connection pool against the staging database; it "
        "lives in cmd/reporter and only runs a couple of big SELECTs an hour."]


def test_each_check_of_a_passing_chain_is_the_project_command_of_its_kind() -> None:
    """"go test ./... && go vet ./..." passing: the test command is `go test ./...` and the
    lint command `go vet ./...` (the chain's last part is not the test command)."""
    t = TranscriptWriter()
    t.bash("cd svc && go test ./... && go vet ./... | tee vet.log", "ok")
    t.bash("go mod tidy", "")
    found = {c.text for c in patterns(parsed(t), [])}
    assert found == {"Project test command: `go test ./...` (worked in a session)",
                     "Project lint command: `go vet ./...` (worked in a session)"}


@pytest.mark.parametrize(("command", "output", "line", "signature"), [
    ("cargo build", RUST, "error[E0308]: mismatched types --> src/main.rs:{n}:18",
     "rust|E0308|mismatched types"),
    ("npx tsc --noEmit", TSC, "src/ledger.ts({n},7): error TS2322: Type 'string' is not "
     "assignable to type 'number'.", "tsc|TS2322|Type 'string' is not assignable to type "
     "'number'"),
    ("go test ./...", GO, "TestAdd: add_test.go:{n}: Add(2, 2) = 5; want 4",
     "go|FAIL|TestAdd"),
    ("npm test", JEST, "● sum › adds two numbers: Expected: 4; Received: 5",
     "jest|failed|sum › adds two numbers"),
])
def test_other_runners_give_their_meaningful_line_and_a_stable_signature(
        command: str, output: str, line: str, signature: str) -> None:
    found = []
    for n in (4, 9):  # the same failure in two runs: other line numbers, the same signature
        t = TranscriptWriter()
        t.bash(command, "Exit code 1\n" + output.format(n=n), ok=False)
        t.say("The fixture returns the wrong type because the parser is never called.")
        t.edit(f"{t.cwd}/src/calc.rs", "let total = parse(x)", "let total = parse(x)?")
        t.bash(command, "ok")
        (gotcha,) = failed_then_passed(parsed(t))
        assert gotcha.text.startswith(f"{KIND_NAMES[check_of(command).kind]} failed: "
                                      f"{line.format(n=n)}")
        assert "Cause: The fixture returns the wrong type because the parser is never " \
               "called." in gotcha.text
        assert "Fix: `src/calc.rs`: `let total = parse(x)` -> `let total = parse(x)?`" in \
            gotcha.text
        found.append(gotcha.extra["signature"])
    assert found == [signature, signature]


def test_raising_a_limit_ends_the_rule_and_the_gotcha_of_the_old_one(tmp_path: Path,
                                                                     k: Kenning) -> None:
    """A size check fails over the 2 kB budget and the work is trimmed to pass; a later
    session raises the budget to 2.5 kB: the old rule and that gotcha are no longer current,
    both replaced by the new decision."""
    over = ("Size limit: 2 kB\nSize: 2.14 kB with all dependencies, minified and brotlied\n"
            "Package size limit has exceeded by 143 B")
    t = TranscriptWriter(cwd=CWD, session="s-size-1")
    t.user("keep an eye on size: the README promises 'under 2 kB' and `npm run size:check` "
           "checks it, CI fails if we go over.")
    t.bash("npm run size:check", over, ok=False)
    t.say("Abort support takes the bundle to 2.14 kB, 143 B over the 2 kB budget.")
    t.edit(f"{CWD}/src/abort.ts", "export function onAbort(signal, fn) {\n  long body\n}",
           "export function onAbort(signal, fn) {\n  short body\n}")
    t.bash("npm run size:check", "Size limit: 2 kB\nSize: 1.98 kB")
    k.extract(t.write(tmp_path / "one.jsonl"), repo=tmp_path, apply=True)
    [rule] = k.list(types="preference")
    [gotcha] = k.list(types="gotcha")
    t = TranscriptWriter(cwd=CWD, session="s-size-2")
    t.user("abort support is worth a few bytes. let's raise the budget to 2.5 kB, and update "
           "the README line too.")
    k.extract(t.write(tmp_path / "two.jsonl"), repo=tmp_path, apply=True)
    [raised] = [m for m in k.list(types=["preference", "decision"]) if "2.5 kB" in m.content]
    now = k.clock()
    assert not k.get(rule.id).current_at(now) and not k.get(gotcha.id).current_at(now)
    assert k.get(rule.id).superseded_by == raised.id == k.get(gotcha.id).superseded_by


def test_a_decision_the_assistant_proposed_and_the_user_approved_is_held_surely() -> None:
    """"Cheapest win: an in-process cache ..." then "sounds reasonable, go with 30s": the
    project's decision, as sure as one the user stated; one never answered stays an
    assistant's low-confidence decision, and one the user turned down is none."""
    from kenning.extract.candidates import APPROVED_CONFIDENCE

    def offered(answer: str | None) -> list[tuple[str, float]]:
        t = TranscriptWriter()
        t.user("grafana says GET /orders/{id} is 70% of our database load. any cheap win here?")
        t.say("Cheapest win: an in-process cache in front of GetOrder, a map with a 30s TTL in "
              "internal/api/cache.go wrapping the Store.")
        if answer is not None:
            t.user(answer)
        return [(c.text, c.confidence) for c in preferences(parsed(t)) if c.kind == "decision"]

    text = ("An in-process cache in front of GetOrder, a map with a 30s TTL in "
            "internal/api/cache.go wrapping the Store.")
    assert offered("sounds reasonable, go with 30s.") == [(text, APPROVED_CONFIDENCE)]
    [(said, confidence)] = offered(None)
    assert said == text and confidence < APPROVED_CONFIDENCE
    assert offered("no, rather not: a cache is one more thing to invalidate") == []


def test_a_missing_import_added_is_not_a_gotcha_but_a_changed_one_is() -> None:
    """`cannot find type StatusCode`, fixed by adding `use axum::http::StatusCode;`: nothing a
    later session needs. Replacing an import (v1 `validator` by v2 `field_validator`) may be a
    lesson, and stays one."""
    def fixed(old: str, new: str) -> list[str]:
        t = TranscriptWriter(cwd=CWD)
        t.user("add the DELETE route")
        t.bash("cargo test", "error[E0412]: cannot find type `StatusCode` in this scope\n"
               " --> src/routes.rs:40:13", ok=False)
        t.edit(f"{CWD}/src/routes.rs", old, new)
        t.bash("cargo test", "test result: ok. 12 passed; 0 failed")
        return [c.text for c in failed_then_passed(parsed(t))]

    assert fixed("use axum::Router;", "use axum::Router;\nuse axum::http::StatusCode;") == []
    assert len(fixed("from pydantic import validator", "from pydantic import field_validator")
               ) == 1
    assert len(fixed("let n = items.len();", "let n = items.len();\nuse_it(n);")) == 1


def test_a_format_diff_fixed_by_running_the_formatter_is_not_a_gotcha() -> None:
    """`make check` fails on rustfmt's diff and passes after `cargo fmt`: the check did its job
    and the fix was mechanical. The same failure fixed by an edit, or by a command that is not
    the formatter, is still one."""
    def fixed(*between: tuple[str, str]) -> list[str]:
        t = TranscriptWriter(cwd=CWD)
        t.user("add the DELETE route")
        t.bash("make check", "cargo fmt --check\nDiff in /home/jonas/work/stockroom/src/error.rs "
               "at line 21:\n-    Ok(x)\n+    Ok( x )\nmake: *** [Makefile:4: check] Error 1",
               ok=False)
        for kind, what in between:
            if kind == "bash":
                t.bash(what, "")
            else:
                t.edit(f"{CWD}/src/error.rs", "Ok( x )", what)
        t.bash("make check", "test result: ok. 12 passed; 0 failed")
        return [c.text for c in failed_then_passed(parsed(t))]

    assert fixed(("bash", "cargo fmt")) == []
    assert fixed(("bash", "git diff --stat"), ("bash", "cargo fmt --all")) == []
    assert len(fixed(("edit", "Ok(x)"))) == 1
    assert len(fixed(("bash", "cargo update -p serde"))) == 1


@pytest.mark.parametrize(("command", "plain"), [
    ("go test ./...", True), ("go test -count=1 ./...", True), ("npm test", True),
    ("python -m pytest -q --tb=short", True), ("golangci-lint run", True),
    ("make test", False), ("go test -race ./...", False), ("uv run pytest -q", False),
    ("env -u DATABASE_URL cargo nextest run", False), ("pnpm test:e2e", False),
    ("pnpm typecheck", True), ("npm run typecheck", True), ("pnpm typecheck:strict", False),
    ("npx jest", True), ("npx vitest run", True), ("npx jest --coverage", False),
    ("cargo build --release", True), ("cargo +1.74 check --all-targets", False),
])
def test_a_check_in_its_plain_form_is_told_apart(command: str, plain: bool) -> None:
    """What any agent runs unprompted is not worth a memory; a wrapper, another runner, an
    environment or a flag that changes what is checked is."""
    from kenning.extract.candidates import plain_check

    assert plain_check(command) is plain


def test_what_the_assistant_offered_to_do_is_a_decision_once_the_user_agrees() -> None:
    """Asked for options, the assistant opens with "Drop task_always_eager and run task tests
    through a real worker: ..."; "yes, do it" makes it the project's decision, naming what it
    drops. Without a yes it is nothing."""
    def answer(reply: str) -> list[tuple[str, float, str | None]]:
        t = TranscriptWriter()
        t.user("so the test setup lied to us. what are the options?")
        t.say("Drop task_always_eager and run task tests through a real worker: "
              "celery.contrib.testing's start_worker runs an in-process worker thread.")
        t.user(reply)
        return [(c.text, c.confidence, c.extra.get("avoid")) for c in preferences(parsed(t))
                if c.kind == "decision"]

    [(text, confidence, avoid)] = answer("yes, do it.")
    assert text.startswith("Drop task_always_eager and run task tests through a real worker")
    assert confidence == 0.7 and avoid == "task_always_eager"
    assert answer("hmm, let me think about it") == []


def test_session_insight_task_skips_greetings() -> None:
    tr = parsed(ledger_session("s-1", greeting="hi"))
    insight = session_summary(tr, failed_then_passed(tr))
    assert insight is not None and insight["task"] is None  # only "hi": no work stated
    t = TranscriptWriter(cwd=CWD, session="s-2")
    t.user("hi")
    t.user("thanks!")
    t.user("Morning! the ledger rounds cents wrong, can you fix it?")
    for rec in ledger_session("s-2").lines[1:]:
        t.lines.append(rec)
    tr = parsed(t)
    insight = session_summary(tr, failed_then_passed(tr))
    assert insight is not None
    assert insight["task"] == "the ledger rounds cents wrong, can you fix it?"
    # the gotcha holds the failure: it is not listed again as what failed; what worked
    # names the command that passed, which the gotcha names only by its kind
    [gotcha] = insight["gotchas_encountered"]
    assert gotcha.startswith("Tests failed: ") and "Fix: `src/ledger/money.py`" in gotcha
    assert "what_failed" not in insight
    assert insight["what_worked"][0].startswith("`uv run pytest -q` passed after: "
                                                "`src/ledger/money.py`")
    assert session_summary(parsed(TranscriptWriter()), []) is None


def test_session_insight_task_skips_small_talk_before_the_work() -> None:
    t = TranscriptWriter(cwd=CWD, session="s-3")
    t.user("slow day, I'm mostly in roadmap meetings.")
    t.user("hope your weekend was better than mine, I spent all of saturday assembling a "
           "wardrobe with 214 screws. anyway. the ledger rounds cents wrong, can you fix it? "
           "thanks!")
    for rec in ledger_session("s-3").lines[1:]:
        t.lines.append(rec)
    tr = parsed(t)
    insight = session_summary(tr, failed_then_passed(tr))
    assert insight is not None
    assert insight["task"] == "the ledger rounds cents wrong, can you fix it?"


def test_the_same_failure_in_two_sessions_is_one_gotcha_with_evidence_two(
        tmp_path: Path, k: Kenning) -> None:
    first = ledger_session("sess-a", line=8, explain="Let me look.").write(
        tmp_path / "a.jsonl")
    second = ledger_session("sess-b", line=11).write(tmp_path / "b.jsonl")
    one = k.extract(first, repo=tmp_path, apply=True)
    assert len(one["applied"]) == 2 and one["recurred"] == []  # the gotcha, the pattern
    [stored] = k.list(types="gotcha")
    assert "Cause:" not in stored.content and stored.metadata["evidence"] == 1
    two = k.extract(second, repo=tmp_path, apply=True)
    assert two["applied"] == [] and two["recurred"] == [stored.id]
    [gotcha] = k.list(types="gotcha")
    assert gotcha.id == stored.id
    assert gotcha.metadata["evidence"] == 2
    assert gotcha.metadata["sessions"] == ["sess-a", "sess-b"]
    # The first session said no cause; the second did: its text, cause and fix are kept.
    assert "Cause: to_cents truncates with int(); amounts must round half-even." in \
        gotcha.content
    assert "Fix: `src/ledger/money.py`: `return int(amount * 100)` -> " in gotcha.content
    assert not any(m.metadata.get("kind") == "fix" for m in k.list())
    # The same session extracted again is not new evidence.
    again = k.extract(second, repo=tmp_path, apply=True)
    assert again["recurred"] == [] and k.get(stored.id).metadata["evidence"] == 2


def test_session_end_hook_counts_a_recurring_gotcha_once(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    env.update(KENNING_HOME=str(tmp_path / "kdata"), KENNING_DB=str(tmp_path / "k.db"),
               KENNING_EMBEDDER="none", HOME=str(home))
    transcript = project / "t.jsonl"
    for session in ("sess-a", "sess-b"):
        ledger_session(session).write(transcript)
        body = json.dumps({"session_id": session, "transcript_path": str(transcript),
                           "cwd": str(project), "hook_event_name": "SessionEnd",
                           "reason": "other"})
        done = subprocess.run([str(HOOK), "SessionEnd"], input=body.encode(), env=env,
                              capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr
        wait_for_session_ends(env["KENNING_DB"])
    errors = Path(env["KENNING_HOME"]) / "errors.jsonl"
    assert not errors.exists(), errors.read_text()
    from kenning.places.keys import project_key

    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        [gotcha] = k.list(types="gotcha")
        assert gotcha.metadata["evidence"] == 2
        assert gotcha.metadata["sessions"] == ["sess-a", "sess-b"]
        assert "Cause: to_cents truncates" in gotcha.content and "Fix: " in gotcha.content
        insights = [m for m in k.list() if m.metadata.get("episode") == "session_insight"]
        assert insights
        for insight in insights:
            assert "the ledger rounds cents wrong, can you fix it?" in insight.content
            assert "morning" not in insight.content.lower()


def test_a_constraint_the_assistant_found_is_a_gotcha_with_its_why() -> None:
    """"Task arguments have to be plain data", with the sentence before it that says why; a
    plan of the assistant's own or advice to the user is not one."""
    t = TranscriptWriter()
    t.say("The task gets the ORM Order object itself. Celery serialises task arguments to JSON, "
          "and an Order isn't JSON-serialisable, hence kombu's EncodeError. Task arguments have "
          "to be plain data: pass str(order.id) and load the order inside the task.")
    t.say("I have to check the logs first. You must restart the server. Sure, that works.")
    t.say("Careful: Prisma can't tell a rename from a drop plus an add, so the generated SQL "
          "drops `location`.")
    found = [(c.type, c.text) for c in stated_constraints(parsed(t))]
    assert found == [
        ("gotcha", "Celery serialises task arguments to JSON, and an Order isn't "
                   "JSON-serialisable, hence kombu's EncodeError. Task arguments have to be "
                   "plain data: pass str(order.id) and load the order inside the task."),
        ("gotcha", "Careful: Prisma can't tell a rename from a drop plus an add, so the "
                   "generated SQL drops `location`.")]


def test_a_constraint_said_in_two_sentences_or_as_the_fix_is_one_gotcha() -> None:
    """"The catch is the URL scheme: ... The URL has to say postgresql+psycopg://" is one
    gotcha (without the unrelated sentence before it); "The robust fix is to ...", "It has to
    be -X ..." after its why, and "X only exists since Node 22" are gotchas too."""
    t = TranscriptWriter()
    t.say("Config comes from src/orderdesk/settings.py. The catch is the URL scheme: with a bare "
          "postgresql:// SQLAlchemy picks its default driver, psycopg2, which isn't installed. "
          "The URL has to say postgresql+psycopg://.")
    t.say("The linker's -X needs the full import path of the package, and it silently ignores "
          "a name that doesn't exist. It has to be -X github.com/acme/shipctl/cmd.version=1.")
    t.say("State leaks between tests. The robust fix is to build the command tree in a "
          "NewRootCmd() function and give every test a fresh one.")
    found = [c.text for c in stated_constraints(parsed(t))]
    assert found == [
        "The catch is the URL scheme: with a bare postgresql:// SQLAlchemy picks its default "
        "driver, psycopg2, which isn't installed. The URL has to say postgresql+psycopg://.",
        "The linker's -X needs the full import path of the package, and it silently ignores a "
        "name that doesn't exist. It has to be -X github.com/acme/shipctl/cmd.version=1.",
        "The robust fix is to build the command tree in a NewRootCmd() function and give every "
        "test a fresh one."]
    t = TranscriptWriter()
    t.say("Promise.withResolvers only exists since Node 22. It works here because you're on 22.")
    assert [c.text for c in stated_constraints(parsed(t))] == [
        "Promise.withResolvers only exists since Node 22."]
    t = TranscriptWriter()  # the plan said after it is the fix; a plan to look further is not
    t.say("Promise.withResolvers only exists since Node 22. I'll check the CI logs first. I'll "
          "build the promise by hand and pin tsconfig's lib to ES2022, which Node 18 supports.")
    assert [c.text for c in stated_constraints(parsed(t))] == [
        "Promise.withResolvers only exists since Node 22. Fix: Build the promise by hand and pin "
        "tsconfig's lib to ES2022, which Node 18 supports."]


def test_a_long_why_follows_the_constraint_it_explains() -> None:
    """A why long enough to push the constraint past where a summary is cut comes after it, so
    the line the model reads says what holds ("its own database, crewboard_e2e")."""
    t = TranscriptWriter()
    t.say("The page rendered, it just has no 'Pantry sorting' shift: the dev server reads your "
          "dev database, which holds whatever was last clicked together. E2E needs known data, "
          "so the tests must run against their own database, crewboard_e2e, reset by "
          "e2e/global-setup.ts before every run.")
    [gotcha] = stated_constraints(parsed(t))
    assert gotcha.text.startswith("E2E needs known data, so the tests must run against their "
                                  "own database, crewboard_e2e")
    assert gotcha.text.endswith("Why: The page rendered, it just has no 'Pantry sorting' "
                                "shift: the dev server reads your dev database, which holds "
                                "whatever was last clicked together.")
    t = TranscriptWriter()  # one that goes on from the sentence before: that one leads
    t.say("It's the mmap: copytruncate shrinks the file while we have it mapped, and touching a "
          "mapped page past the new end raises SIGBUS in the reader thread. And a pipe can't be "
          "mapped at all, so `-` for stdin is impossible with mmap.")
    [mmap] = stated_constraints(parsed(t))
    assert mmap.text.startswith("It's the mmap: copytruncate shrinks the file")


def test_a_constraint_keeps_the_remedy_the_assistant_chose_with_it() -> None:
    """The assistant finds why mmap crashes and proposes going back to a buffered reader in the
    same message: the gotcha says both, without the acknowledgement it opened with, so it is
    never shown as if mmap were still the way."""
    t = TranscriptWriter()
    t.say("Reproduced, and yes, it's the mmap: copytruncate shrinks the file while it is mapped "
          "and a mapped page past the new end raises SIGBUS. And a pipe can't be mapped at all, "
          "so `-` for stdin is impossible with mmap. I'd revert memmap2 and go back to "
          "streaming: `BufReader::with_capacity(64 * 1024)` over the file or stdin.")
    t.say("Green. Careful: the `--since` argument and a line's `ts` can carry different UTC "
          "offsets, so comparing them as strings is wrong.")
    gotcha, offsets = stated_constraints(parsed(t))
    assert offsets.text.startswith("Careful: the `--since` argument")
    assert gotcha.text.startswith("It's the mmap: copytruncate shrinks the file")
    assert gotcha.text.endswith("Fix: Revert memmap2 and go back to streaming: "
                                "`BufReader::with_capacity(64 * 1024)` over the file or stdin.")


def test_a_timed_or_narrowed_run_is_not_spelled_as_the_project_command() -> None:
    """`time make test` is the project's `make test`, timed; `go test ./cmd/ -v -count=1` and
    `gofmt -l ./internal/` run the check on one directory, which is not how the project runs
    it."""
    t = TranscriptWriter()
    t.bash("time make test", "ok")
    t.bash("go test ./cmd/ -v -count=1", "ok")
    t.bash("gofmt -l ./internal/", "")
    assert {c.text for c in patterns(parsed(t), [])} == {
        "Project test command: `make test` (worked in a session)"}


def test_code_taken_out_is_what_no_edit_of_the_session_put_back() -> None:
    """A line an edit removes counts as taken out unless the session wrote it again somewhere
    (code moved is not code gone); the code a memory names reads the same in either quote."""
    from kenning.extract.candidates import code_taken_out, named_code

    t = TranscriptWriter()
    t.edit("/tmp/p/io.py", 'df = pd.read_csv(path, engine="pyarrow")\nMOVED = helper_fn(x)\n',
           "df = pd.read_csv(path, comment='#')\n")
    t.edit("/tmp/p/util.py", "", "MOVED = helper_fn(x)\n")
    removed, added = code_taken_out(parsed(t))
    gone = [n for n in named_code("Use engine='pyarrow' in pd.read_csv; helper_fn feeds MOVED")
            if n in removed and n not in added]
    assert gone == ['engine="pyarrow"']


GO_UNDEFINED = ("# shipctl/internal/client [shipctl/internal/client.test]\n"
                "internal/client/client_test.go:13:15: undefined: retryWaitMin\n"
                "FAIL\tshipctl/internal/client [build failed]\nFAIL")


def _slip_session(cause: str | None, edited_first: bool = True) -> TranscriptWriter:
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("rename the retry knobs to retryDelay and retryMax")
    if edited_first:
        t.edit("/tmp/p/internal/client/client.go", "var retryWaitMin = time.Second\n",
               "var retryDelay = time.Second\n")
        t.edit("/tmp/p/internal/client/client_test.go", "func TestRetry(t *testing.T) {\n",
               "func TestRetryGivesUp(t *testing.T) {\n")
    t.bash("go test ./...", GO_UNDEFINED, ok=False)
    if cause:
        t.say(cause)
    t.edit("/tmp/p/internal/client/client_test.go",
           "func init() { retryWaitMin = time.Millisecond }\n",
           "func init() { retryDelay = time.Millisecond }\n")
    t.bash("go test ./...", "ok  \tshipctl/internal/client\t0.012s")
    return t


def test_a_slip_in_code_the_session_just_wrote_is_not_a_gotcha() -> None:
    """A rename the session made and then missed in a test it had edited, fixed there with no
    cause said (or one the assistant calls its own slip): nothing a later session needs. A
    cause that explains something about the project, or a failure in code the session had not
    touched, is still a gotcha."""
    assert failed_then_passed(parsed(_slip_session(None))) == []
    assert failed_then_passed(parsed(_slip_session(
        "My bug: I renamed the variable but missed the test's init."))) == []
    [kept] = failed_then_passed(parsed(_slip_session(
        "The client tests set the package-level retry delay in init() so they run fast; it "
        "has to follow the rename.")))
    assert "Cause: The client tests set the package-level retry delay" in kept.text
    [untouched] = failed_then_passed(parsed(_slip_session(None, edited_first=False)))
    assert "undefined: retryWaitMin" in untouched.text


RUST_MISSING_FIELD = ("error[E0063]: missing field `items` in initializer of `AppState`\n"
                      " --> tests/api.rs:9:30\n  |\n9 |     let state = AppState { pool };\n"
                      "  |                 ^^^^^^^^ missing `items`\n\n"
                      "error: could not compile `stockroom` (test \"api\") due to 1 previous "
                      "error")


def _new_field_session(added: str) -> TranscriptWriter:
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("cache items in memory for a minute, the scanner app hammers GET /items")
    t.edit("/tmp/p/src/main.rs", "pub struct AppState {\n    pub pool: PgPool,\n}\n",
           f"pub struct AppState {{\n    pub pool: PgPool,\n    pub {added}: Cache,\n}}\n")
    t.bash("cargo test", RUST_MISSING_FIELD, ok=False)
    t.edit("/tmp/p/tests/api.rs", "let state = AppState { pool };\n",
           "let state = AppState { pool, items: Cache::new(60) };\n")
    t.bash("cargo test", "test result: ok. 6 passed; 0 failed; 0 ignored")
    return t


def test_an_error_naming_code_the_session_just_changed_is_its_own_slip() -> None:
    """A field the session added that a test's initializer now lacks fails in a file the
    session never touched, and the fix goes there: still the session's own slip, not a
    gotcha. The same failure naming code the session did not change is a gotcha."""
    assert failed_then_passed(parsed(_new_field_session("items"))) == []
    [kept] = failed_then_passed(parsed(_new_field_session("cache")))
    assert "missing field `items`" in kept.text


def test_the_cause_keeps_the_sentence_naming_what_the_fix_put_in() -> None:
    """The first sentence of an explanation often only says what went wrong; the sentence
    naming the code the fix put in says what a later session must do."""
    t = TranscriptWriter(cwd="/tmp/rw")
    t.user("switch the retry tests to fake timers")
    t.edit("/tmp/rw/test/retry.test.ts", "  it(", "  beforeEach(() => jest.useFakeTimers());\n"
           "  it(")
    t.bash("npx jest test/retry.test.ts", "● retry › retries until fn succeeds\n\n"
           '    thrown: "Exceeded timeout of 5000 ms for a test.\n\nTests:       1 failed, '
           "3 passed, 4 total", ok=False)
    t.say("jest.advanceTimersByTime is synchronous. When it runs, retry() hasn't scheduled its "
          "sleep yet, so the test hangs until jest's 5s timeout. "
          "jest.advanceTimersByTimeAsync flushes pending promises between timers; it has to "
          "be awaited.")
    t.edit("/tmp/rw/test/retry.test.ts", "    jest.advanceTimersByTime(1500);\n",
           "    await jest.advanceTimersByTimeAsync(1500);\n")
    t.bash("npx jest test/retry.test.ts", "Tests:       4 passed, 4 total")
    [gotcha] = failed_then_passed(parsed(t))
    assert gotcha.extra["cause"] == (
        "jest.advanceTimersByTime is synchronous. jest.advanceTimersByTimeAsync flushes "
        "pending promises between timers; it has to be awaited.")


def test_the_cause_starts_after_a_bare_reproduced() -> None:
    """"Reproduced." says the assistant saw it fail too: the cause is what comes after, and a
    gotcha's line has no room for the word."""
    t = TranscriptWriter(cwd="/tmp/orders")
    t.bash("go test ./...", "--- FAIL: TestGetOrderNotFound (0.00s)\n    orders_test.go:66: "
           "status = 500, want 404\nFAIL", ok=False)
    t.say("Reproduced. sqlc's :one queries scan a single row, and when there is none pgx "
          "returns pgx.ErrNoRows; getOrder treats every error as a 500.")
    t.edit("/tmp/orders/internal/api/orders.go", "if err != nil {",
           "if errors.Is(err, pgx.ErrNoRows) {")
    t.bash("go test ./...", "ok  \torders/internal/api\t0.210s")
    [gotcha] = failed_then_passed(parsed(t))
    assert gotcha.text.startswith(
        "Tests failed: TestGetOrderNotFound: orders_test.go:66: status = 500, want 404. "
        "Cause: sqlc's :one queries scan a single row")


def test_a_session_that_only_ran_the_checks_again_has_no_insight() -> None:
    """"can you check git status?" and a green `make test`: the command is remembered on its
    own; a session note would only repeat the question."""
    t = TranscriptWriter(cwd=CWD, session="s-4")
    t.user("can you check git status? I think I left something uncommitted on friday")
    t.bash("git status", "nothing to commit, working tree clean")
    t.bash("make test", "ok  \torders/internal/api\t0.210s")
    tr = parsed(t)
    cands = patterns(tr, [])
    assert cands and all(c.kind == "pattern" for c in cands)
    assert session_summary(tr, cands) is None


def test_a_session_that_only_found_where_something_lives_has_no_note() -> None:
    """The place is remembered on its own; a note would only repeat the user's request, which
    is kept as it was said."""
    from kenning.extract.candidates import told_places

    t = TranscriptWriter(cwd=CWD, session="s-6")
    t.user("the new reporting job needs its own connection pool. it lives in cmd/reporter and "
           "only runs a couple of big SELECTs an hour. can you set up main.go for it?")
    tr = parsed(t)
    cands = told_places(tr)
    assert [c.type for c in cands] == ["discovery"]
    assert session_summary(tr, cands) is None


def test_a_bare_ask_takes_the_problem_its_message_told_before_it() -> None:
    t = TranscriptWriter(cwd=CWD, session="s-5")
    t.user("ugh. two problems with the paging. one: page 300 and beyond takes 9 seconds. "
           "two: people scrolling see the same order twice. can you dig in?")
    for rec in ledger_session("s-5").lines[1:]:
        t.lines.append(rec)
    tr = parsed(t)
    insight = session_summary(tr, failed_then_passed(tr))
    assert insight is not None
    assert insight["task"].startswith("ugh. two problems with the paging. one: page 300")


def test_a_narrowed_command_the_user_gave_is_the_project_command() -> None:
    """"the way to run them is: ... go test -tags=integration ./internal/db/...": a run on one
    directory is the project's command when the user dictated it, spelled as they gave it."""
    url = "postgres://orders:orders@localhost:5433/orders_test?sslmode=disable"
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("could you write integration tests for the sqlc queries? the way to run them is: "
           f"compose postgres up, then\n\nTEST_DATABASE_URL={url} go test -tags=integration "
           "./internal/db/...\n\nthe compose db listens on 5433.")
    t.bash(f"TEST_DATABASE_URL='{url}' go test -count=3 -tags=integration ./internal/db/...",
           "ok  \torders/internal/db\t0.412s")
    t.bash(f"TEST_DATABASE_URL='{url}' go test -tags=integration ./internal/db/...",
           "ok  \torders/internal/db\t0.398s")
    t.bash("go test ./internal/api/...", "ok  \torders/internal/api\t0.101s")
    [command] = patterns(parsed(t), [])
    assert command.extra["command"] == (
        f"TEST_DATABASE_URL='{url}' go test -tags=integration ./internal/db/...")
    # the command itself first, so that a line cut short for an index still says what runs
    assert command.text == ("Project test command: `go test -tags=integration "
                            f"./internal/db/...` with `TEST_DATABASE_URL='{url}'` set (worked "
                            "in a session)")


def test_a_rule_said_while_agreeing_keeps_the_approach_agreed() -> None:
    """"do it, switch to keyset with a next_cursor": what keyset means here is in the
    assistant's proposal, so the memory keeps the sentence of it that the rule is about."""
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("page 300 takes 9 seconds and people see the same order twice. can you dig in?")
    t.say("OFFSET makes Postgres walk every skipped row. Keyset pagination fixes both: sort by "
          "(created_at, id) and ask for rows strictly before the last one the client saw, "
          "handed back as an opaque cursor.")
    t.user("do it, switch to keyset with a next_cursor in the response.")
    [rule] = preferences(parsed(t))
    assert rule.text == (
        "Switch to keyset with a next_cursor in the response.\n(the approach agreed: \"Keyset "
        "pagination fixes both: sort by (created_at, id) and ask for rows strictly before the "
        "last one the client saw, handed back as an opaque cursor.\")")
    t.user("also, use keyset for the customers list.")
    assert "approach agreed" not in preferences(parsed(t))[-1].text  # no yes, no approach


GOOSE_NOOP = ("goose -dir db/migrations postgres up\n"
              "2024/06/03 09:14:52 goose: no migrations to run. current version: 1")


def test_a_run_that_did_nothing_after_a_change_is_a_gotcha_with_its_cause() -> None:
    """"goose: no migrations to run" right after editing an applied migration: the run passed,
    but the lesson (goose never re-runs an applied migration) is as real as a failure's."""
    from kenning.extract.candidates import did_nothing

    def session(explain: str | None, edit_first: bool = True) -> TranscriptWriter:
        t = TranscriptWriter(cwd="/tmp/p")
        t.user("add cancelled_at to orders")
        if edit_first:
            t.edit("/tmp/p/db/migrations/0001_orders.sql", "created_at TIMESTAMPTZ\n);",
                   "created_at TIMESTAMPTZ,\n cancelled_at TIMESTAMPTZ\n);")
        t.bash("make migrate", GOOSE_NOOP)
        if explain:
            t.say(explain)
        t.tool("Write", {"file_path": "/tmp/p/db/migrations/0002_cancelled_at.sql",
                         "content": "-- +goose Up\n"}, "File created")
        return t

    [gotcha] = did_nothing(parsed(session(
        "0001 is already applied to this database, and goose tracks applied version numbers, "
        "not file contents, so it will never run it again. I'll revert it and put the change "
        "in a new file, 0002_cancelled_at.sql.")))
    assert gotcha.text == (
        "`make migrate` ran but did nothing (goose: no migrations to run. "  # no log time
        "current version: 1). Cause: 0001 is already applied to this database, and goose "
        "tracks applied version numbers, not file contents, so it will never run it again. "
        "Fix: Revert it and put the change in a new file, 0002_cancelled_at.sql.")
    insight = session_summary(parsed(session("x")), [gotcha])
    assert insight is not None and insight["gotchas_encountered"] == [gotcha.text]
    assert did_nothing(parsed(session(None))) == []  # no cause said: nothing learned
    assert did_nothing(parsed(session("Up to date.", edit_first=False))) == []


def test_only_the_rule_said_with_the_yes_keeps_the_approach() -> None:
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("logsift is slow on 8 GB files. any quick wins on the reading side?")
    t.say("Quick win: memory-map the file with memmap2 and let serde_json parse straight from "
          "the mapped bytes (`from_slice`), splitting on newlines.")
    t.user("sounds good, go for it. make sure every file operation gets a `.with_context()` "
           "naming the path.")
    rules = preferences(parsed(t))
    assert rules and all("approach agreed" not in r.text for r in rules)


@pytest.mark.parametrize(("new", "old", "replaces"), [
    ("pnpm test", "npm test", True),
    ("go test -race ./...", "go test ./...", True),
    ("go test ./...", "TEST_DATABASE_URL=x go test -tags=integration ./internal/db/...", False),
    ("cargo nextest run", "cargo test", False),
])
def test_a_command_stands_in_for_another_only_when_it_runs_the_same_suite(
        new: str, old: str, replaces: bool) -> None:
    """The plain `go test ./...` working again does not end the integration suite's command."""
    from kenning.extract.candidates import replaces_command

    assert replaces_command(new, old) is replaces


def test_the_fix_shows_the_code_that_changed_not_a_reworded_comment() -> None:
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("the discount is off by a cent")
    t.bash("go test ./...", "--- FAIL: TestApplyDiscount (0.00s)\n    discount_test.go:9: got "
           "1850, want 1849\nFAIL", ok=False)
    t.say("Integer division truncates: 1999*750/10000 drops the .925.")
    t.edit("/tmp/p/internal/orders/discount.go",
           "// ApplyDiscount returns totalCents reduced by bps.\nfunc ApplyDiscount(t, bps int64) "
           "int64 {\n\treturn t - t*bps/10000\n}\n",
           "// ApplyDiscount returns totalCents reduced by bps, rounded half up.\nfunc "
           "ApplyDiscount(t, bps int64) int64 {\n\treturn t - (t*bps+5000)/10000\n}\n")
    t.bash("go test ./...", "ok  \torders/internal/orders\t0.004s")
    [gotcha] = failed_then_passed(parsed(t))
    assert ("`internal/orders/discount.go`: `return t - t*bps/10000` -> "
            "`return t - (t*bps+5000)/10000`") in gotcha.text


def test_a_rule_that_breaks_loses_nothing_else_and_is_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in one rule (here: the no-op miner raising) must not lose the session's other
    findings; it is logged where `kenning doctor` shows it."""
    from kenning.errorlog import recent_errors
    from kenning.extract import candidates

    monkeypatch.setenv("KENNING_HOME", str(tmp_path))

    def broken(t: object) -> list[object]:
        raise KeyError("passed")

    monkeypatch.setattr(candidates, "did_nothing", broken)
    t = TranscriptWriter(cwd="/tmp/p")
    t.user("going forward, every handler logs through zerolog")
    found = candidates.from_transcript(parsed(t))
    assert [c.kind for c in found] == ["decision"]  # the rule, kept
    assert recent_errors()[-1]["where"] == "extract: broken"


def test_a_proposal_the_user_turns_down_is_no_decision() -> None:
    def session(answer: str) -> list[str]:
        t = TranscriptWriter(cwd="/tmp/p")
        t.user("can you rename Shift.location to venue?")
        t.say("Since add_shift_location is only a few days old, the simplest route is to change "
              "that migration to create `venue` directly, update the schema, and reset the dev "
              "database.")
        t.user(answer)
        return [c.text for c in preferences(parsed(t))]

    turned_down = session("no no, please don't ever edit a migration that's already been "
                          "applied. always add a new migration for changes like this.")
    assert not any("create `venue` directly" in text for text in turned_down)
    assert any("add a new migration" in text for text in turned_down)
    assert any("create `venue` directly" in text for text in session("sure, sounds good"))


REDIS_DOWN = ("FAILED tests/test_orders.py::test_create_and_get_order - "
              "redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. "
              "Connection refused.\n1 failed, 3 passed in 0.41s")


def test_a_run_that_needed_a_service_up_is_a_setup_step_not_a_gotcha(tmp_path: Path,
                                                                      k: Kenning) -> None:
    """Tests fail with "Connection refused" until `docker compose up -d redis` runs, and no
    code changes: nothing was wrong with the code. What a later session needs is the step, not
    the failure; and a step the project's memories already give is not stored again."""
    t = TranscriptWriter(cwd=CWD, session="s-redis")
    t.user("can you add a read-through cache for orders?")
    t.bash("python -m pytest -q", REDIS_DOWN, ok=False)
    t.say("Redis isn't running locally, so every cached read fails on connect.")
    t.bash("docker compose up -d redis", " ✔ Container orderdesk-redis-1  Started")
    t.bash("python -m pytest -q", "4 passed in 0.40s")
    [setup] = [c for c in failed_then_passed(parsed(t))]
    assert setup.kind == "setup" and setup.type == "pattern"
    assert setup.text.startswith("The tests need `docker compose up -d redis` first; without "
                                 "it: tests/test_orders.py::test_create_and_get_order")
    k.extract(t.write(tmp_path / "one.jsonl"), repo=tmp_path, apply=True)
    assert [m.summary for m in k.list(types="gotcha")] == []
    assert any("`docker compose up -d redis` first" in m.summary
               for m in k.list(types="pattern"))
    # the same step in a later session, and one the user had stated: nothing new
    k.remember("Dev DB: `docker compose up -d db` (Postgres 16 on localhost:5433)",
               type="pattern")
    t = TranscriptWriter(cwd=CWD, session="s-db")
    t.bash("sqlx migrate run", "error: error communicating with database: Connection refused "
           "(os error 111)", ok=False)
    t.bash("docker compose up -d db", " ✔ Container stockroom-db-1  Started")
    t.bash("sqlx migrate run", "Applied 20240311093000/migrate create items (4.2ms)")
    t.bash("python -m pytest -q", REDIS_DOWN, ok=False)
    t.bash("docker compose up -d redis", " ✔ Container orderdesk-redis-1  Started")
    t.bash("python -m pytest -q", "4 passed in 0.40s")
    before = len(k.list(limit=None))
    found = k.extract(t.write(tmp_path / "two.jsonl"), repo=tmp_path, apply=True)
    assert not [c for c in found["candidates"] if c["kind"] in ("setup", "gotcha")]
    assert len([m for m in k.list(limit=None) if m.topic != "conversation"]) <= before


def test_the_cause_is_the_sentence_that_names_the_failures_error() -> None:
    """"... refuses to guess which occurrence is which (AmbiguousTimeError)" is why this test
    failed, in words no causal cue marks; a later "doesn't exist" is about something else."""
    t = TranscriptWriter(cwd=CWD)
    t.bash("python -m pytest -q", "FAILED tests/test_transform.py::test_fall_back_hour - "
           "pytz.exceptions.AmbiguousTimeError: Cannot infer dst time from 2023-11-05 01:30:00"
           "\n1 failed, 9 passed in 0.61s", ok=False)
    t.say("That's the fall-back night: 01:00-01:59 happens twice in Boston, and tz_localize "
          "refuses to guess which occurrence is which (AmbiguousTimeError). The spring-forward "
          "gap is the mirror image (02:xx doesn't exist), which nonexistent='shift_forward' "
          "handles.")
    t.edit(f"{CWD}/src/tidepool/transform.py", "tz_localize(zone)",
           "tz_localize(zone, ambiguous='infer')")
    t.bash("python -m pytest -q", "10 passed in 0.58s")
    [gotcha] = failed_then_passed(parsed(t))
    assert gotcha.extra["cause"].startswith("That's the fall-back night")
