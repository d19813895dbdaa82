"""Conventions stated in plain words, and their later change, captured end to end: transcripts
written the way Claude Code writes them, ``kenning-hook SessionEnd`` processes on a real SQLite
store, then what the next prompt's injection shows."""
# ruff: noqa: F811  (pytest fixtures come from tests.test_hooks)

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.places.keys import project_key
from tests.mcp_fixtures import TranscriptWriter
from tests.test_hooks import env, hook, payload, project  # noqa: F401

FIRST = ("morning! one thing first: in this repo we use pnpm for installing packages, never "
         "npm. ok so the navbar is broken on mobile, can you look?")
LATER = ("heads-up: the team moved to bun last week, so from now on use bun instead of pnpm "
         "for installs and scripts. anyway, the footer needs a dark mode.")
CHATTER = ["thanks, that's perfect!", "Always happy to help.", "nice, ship it"]


def _session_end(env: dict[str, str], project: Path, t: TranscriptWriter, session: str) -> None:
    """Write the session's transcript and run the real SessionEnd hook on it."""
    path = t.write(project / f"{session}.jsonl")
    result = hook("SessionEnd", payload("SessionEnd", project, session_id=session,
                                        transcript_path=str(path), reason="other"), env)
    assert result.returncode == 0 and not result.stderr, result.stderr


def _end(env: dict[str, str], project: Path, session: str, *turns: str) -> None:
    t = TranscriptWriter(cwd=str(project), session=session)
    for text in turns:
        t.user(text)
        t.say("On it.")
    _session_end(env, project, t, session)


def _ran(env: dict[str, str], project: Path, session: str, turns: list[str],
         commands: list[str], passed: str = "Tests: 12 passed, 12 total\n") -> None:
    """A session that ends after the user's turns and the commands run, each passing."""
    t = TranscriptWriter(cwd=str(project), session=session)
    for text in turns:
        t.user(text)
    for command in commands:
        t.bash(command, passed if "test" in command else "ok\n")
    t.say("Done.")
    _session_end(env, project, t, session)


def _lessons(env: dict[str, str], project: Path) -> list[dict]:
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        return [m.to_dict() for m in k.list(limit=None)
                if m.type.value in ("preference", "decision")]


def test_a_stated_convention_and_its_change_reach_the_agent_current(env, project) -> None:
    _end(env, project, "s-1", FIRST, *CHATTER)
    (rule,) = _lessons(env, project)
    assert rule["summary"] == "Use pnpm for installing packages, never npm."
    assert rule["current"] and rule["valid_to"] is None
    assert not any("happy to help" in m["content"] or "navbar" in m["summary"]
                   for m in _lessons(env, project))

    _end(env, project, "s-2", LATER)
    by_summary = {m["summary"]: m for m in _lessons(env, project)}
    new = by_summary["Use bun instead of pnpm for installs and scripts."]
    old = by_summary["Use pnpm for installing packages, never npm."]
    assert old["superseded_by"] == new["id"] and old["valid_to"] and not old["current"]
    assert new["current"]

    result = hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, prompt="which package manager do we use for installs?"),
        env)
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Use bun instead of pnpm" in context
    assert "Use pnpm for installing packages" not in context


def test_a_commit_that_replaces_a_tool_supersedes_the_rule_it_changes(env, project) -> None:
    import subprocess

    _end(env, project, "s-1", "one thing: we log through structlog here, "
         "`log = structlog.get_logger()` at the top of the module and key=value events.")
    (project / "app.py").write_text("import logging\nlogger = logging.getLogger(__name__)\n")
    git = ["git", "-C", str(project), "-c", "user.name=Dev", "-c", "user.email=d@example.com"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "Replace structlog with stdlib logging"], check=True)
    _end(env, project, "s-2", "thanks, ship it")
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        [old] = [m for m in k.list(limit=None, types="preference") if "structlog" in m.summary]
        [commit] = [m for m in k.list(limit=None, types="decision")
                    if m.summary.startswith("Replace structlog")]
        assert old.superseded_by == commit.id and not old.current_at(k.clock())


def test_a_commit_that_drops_a_library_ends_the_decision_that_chose_it(env, project) -> None:
    import subprocess

    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        chose = k.remember("Go with hashicorp/go-retryablehttp rather than hand-rolling "
                           "backoff: 4 retries on 5xx", type="decision")
        unrelated = k.remember("Deploys go through the API client in internal/client",
                               type="decision")
    (project / "client.go").write_text("package client\n")
    git = ["git", "-C", str(project), "-c", "user.name=Dev", "-c", "user.email=d@example.com"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "client: drop go-retryablehttp; retry GETs only, "
                    "Idempotency-Key on POST"], check=True)
    _end(env, project, "s-1", "thanks, ship it")
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        now = k.clock()
        [commit] = [m for m in k.list(limit=None, types="decision")
                    if m.summary.startswith("client: drop")]
        assert k.get(chose.id).superseded_by == commit.id
        assert k.get(unrelated.id).current_at(now)


def test_a_check_command_in_a_new_spelling_replaces_the_old_one(env, project) -> None:
    """The project moved from yarn to pnpm: once `pnpm test` works, `yarn test --ci` is no
    longer the project's test command (an unrelated command of another kind stays). A check
    in its plain form (`npm run build`) is not worth a memory, unless, like `pnpm test`, it
    replaces one."""
    for session, commands in (("s-1", ["yarn test --ci", "yarn lint:ci", "npm run build"]),
                              ("s-2", ["pnpm test"])):
        _ran(env, project, session, ["run the checks please"], commands)
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        by = {m.metadata.get("command"): m for m in k.list(limit=None, types="pattern")}
        assert set(by) == {"yarn test --ci", "yarn lint:ci", "pnpm test"}
        assert by["yarn test --ci"].superseded_by == by["pnpm test"].id
        assert by["pnpm test"].current_at(k.clock()) and by["yarn lint:ci"].current_at(k.clock())


def test_a_stated_change_naming_the_new_commands_retires_the_old_ones(env, project) -> None:
    """"from now on tests are `uv run pytest`, and lint is `uv run ruff check .`": the
    project's `make test` and `make lint` commands and the rule to run `make lint` before
    pushing are no longer current (nothing joins `make` to `uv`); its build command stays. The
    user's earlier words telling to run `make test` are no longer shown as current either."""
    for session, turns, commands in (
            ("s-1", ["run `make lint` before pushing anything, please",
                     "when you're done run make test, that's exactly what CI runs.",
                     "the build is make build, keep it that way."],
             ["make test", "make lint", "make build"]),
            ("s-2", ["we moved the repo to uv. from now on tests are `uv run pytest`, and lint "
                     "is `uv run ruff check .`; the Makefile goes away."], ["uv run pytest -q"])):
        _ran(env, project, session, turns, commands, passed="12 passed in 0.3s\n")
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        now = k.clock()
        by = {m.metadata.get("command"): m for m in k.list(limit=None, types="pattern")}
        assert not by["make test"].current_at(now) and not by["make lint"].current_at(now)
        assert by["uv run pytest -q"].current_at(now) and by["make build"].current_at(now)
        [before_push] = [m for m in k.list(limit=None, types="preference")
                         if "make lint" in m.summary]
        assert not before_push.current_at(now)
        said = {m.content: m for m in k.list(limit=None, types="context")}
        assert not said["when you're done run make test, that's exactly what CI runs."
                        ].current_at(now)
        assert said["the build is make build, keep it that way."].current_at(now)


def test_a_stated_move_to_another_tool_retires_the_old_tools_command(env, project) -> None:
    """"let's move to vitest ... and drop jest": the project's `npx jest` command is no longer
    current; a command of another family (the type check) stays."""
    for session, turns, commands in (
            ("s-1", ["run the checks"], ["npx jest --coverage", "npx tsc --noEmit --strict"]),
            ("s-2", ["ok, I've had it with ts-jest. let's move to vitest: `npm test` should "
                     "just be `vitest run`, and drop jest, ts-jest and @types/jest."], [])):
        _ran(env, project, session, turns, commands)
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        by = {m.metadata.get("command"): m for m in k.list(limit=None, types="pattern")}
        [move] = [m for m in k.list(limit=None, types="decision") if "vitest" in m.summary]
        assert by["npx jest --coverage"].superseded_by == move.id
        assert by["npx tsc --noEmit --strict"].current_at(k.clock())


def _killed_session(env: dict[str, str], project: Path, said: str, command: str,
                    shown: str | None = None) -> None:
    """A session whose client was killed 3 hours ago: its transcript (the user said ``said``)
    and what its hooks journalled (its start, the memory ``shown`` at the start if any, and
    ``command`` run), but no SessionEnd."""
    t = TranscriptWriter(cwd=str(project), session="crashed")
    t.user(said)
    t.say("On it.")
    crashed = t.write(project / "crashed.jsonl")
    hours_ago = int(__import__("time").time() * 1000) - 3 * 3_600_000
    events: list[dict] = [
        {"id": "c-start", "session_id": "crashed", "at_ms": hours_ago, "kind": "start",
         "data": {"source": "startup", "transcript": str(crashed)}},
        {"id": "c-tool", "session_id": "crashed", "at_ms": hours_ago + 60_000,
         "kind": "tool", "data": {"tool": "Bash", "cmd": command, "ok": True}}]
    if shown is not None:
        events.append({"id": "c-shown", "session_id": "crashed", "at_ms": hours_ago,
                       "kind": "injected",
                       "data": {"memories": [{"id": shown}], "channel": "start"}})
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        k.record_events(events)


def test_a_session_the_client_never_ended_is_still_learned_from(env, project) -> None:
    """A session whose client was killed (no SessionEnd) is ended by a later session's start,
    in the background: the rule its user stated is captured, and it is ended only once. The
    verdict the start gives first on what that session was shown does not make it look
    active."""
    from tests.sessionend import wait_for_session_ends

    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        shown = k.remember("The lockfile is committed", type="context")
    _killed_session(env, project, FIRST, "pnpm install", shown=shown.id)
    assert _lessons(env, project) == []

    start = hook("SessionStart", payload("SessionStart", project, session_id="next",
                                         source="startup"), env)
    assert start.returncode == 0 and not start.stderr, start.stderr
    wait_for_session_ends(env["KENNING_DB"])
    assert [m["summary"] for m in _lessons(env, project)] == [
        "Use pnpm for installing packages, never npm."]

    again = hook("SessionStart", payload("SessionStart", project, session_id="third",
                                         source="startup"), env)
    assert again.returncode == 0
    from kenning.journal import detached

    assert detached.pending(env["KENNING_DB"]) == []  # nothing queued a second time
    assert len(_lessons(env, project)) == 1


def test_what_a_killed_session_changed_reaches_the_next_conversations_first_prompt(
        env, project) -> None:
    """The client was killed in the session where the user moved from pnpm to bun: the next
    session's briefing is made before that session is learned from (in the background), so it
    still shows pnpm. Its first prompt gets what changed since, the new rule and the old one
    marked no longer current, once."""
    from tests.sessionend import wait_for_session_ends

    _end(env, project, "s-1", FIRST)
    _killed_session(env, project, LATER, "bun install")
    start = hook("SessionStart", payload("SessionStart", project, session_id="next",
                                         source="startup"), env)
    assert start.returncode == 0 and not start.stderr, start.stderr
    assert b"bun" not in start.stdout  # MEMORY.md shows the pnpm rule, the briefing no bun
    wait_for_session_ends(env["KENNING_DB"])

    def prompt(text: str) -> str:
        out = hook("UserPromptSubmit", payload("UserPromptSubmit", project, session_id="next",
                                               prompt=text), env)
        assert out.returncode == 0 and not out.stderr, out.stderr
        return json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"] \
            if out.stdout.strip() else ""

    first = prompt("ok, where were we?")
    assert "since this conversation's briefing" in first
    [new] = [ln for ln in first.splitlines() if "bun instead of pnpm" in ln]
    assert new.startswith("- [preference] ")
    [old] = [ln for ln in first.splitlines() if "Use pnpm for installing packages" in ln]
    assert old.startswith("- no longer current: ")  # first: what the briefing got wrong
    assert first.splitlines().index(old) < first.splitlines().index(new)
    assert old.endswith(f"; replaced by {new.rsplit('(id ', 1)[1]}")
    assert "since this conversation's briefing" not in prompt("and the footer dark mode?")
    # a session whose start had nothing left to learn gets no such update
    hook("SessionStart", payload("SessionStart", project, session_id="third",
                                 source="startup"), env)
    out = hook("UserPromptSubmit", payload("UserPromptSubmit", project, session_id="third",
                                           prompt="ok, where were we?"), env)
    assert b"since this conversation" not in out.stdout


def test_a_stated_change_ends_the_earlier_words_that_named_what_it_drops(env, project) -> None:
    """"scratch the assert_cmd + predicates checks": what the user said in an earlier session
    about testing through assert_cmd is no longer shown as current; what they said about
    something else stays."""
    old_way = ("and re tests: the way we do things here is end-to-end through the binary in "
               "tests/cli.rs, assert_cmd plus predicates, rather than unit tests poking at "
               "render(). keeps us honest about what people actually see.")
    other = "the table should show local wall-clock time, HH:MM:SS, that's all"
    colours = ("I'd like you to use owo-colors for the level column, it's tiny and has no "
               "deps.")
    _end(env, project, "s-1", old_way, other, colours)
    _end(env, project, "s-2", "so I'd like to change how we test output: scratch the "
         "assert_cmd + predicates checks for anything that prints. from now on CLI output "
         "tests are insta snapshots (insta-cmd).", "and we no longer want owo-colors plus our "
         "own detection: from now on colour output goes through anstream.")
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        now = k.clock()
        said = {m.content: m for m in k.list(limit=None, types="context")}
        assert not said[old_way].current_at(now)
        assert said[other].current_at(now)
        [scratch] = [m for m in k.list(limit=None, types=["preference", "decision"])
                     if "scratch the assert_cmd" in m.summary]
        assert said[old_way].superseded_by == scratch.id
        [owo] = [m for m in k.list(limit=None, types=["preference", "decision"])
                 if m.summary.startswith("Use owo-colors")]
        assert not owo.current_at(now) and not said[colours].current_at(now)


def test_a_stated_change_ends_a_pattern_too(env, project) -> None:
    """A pattern (a line a person wrote in MEMORY.md is imported as one) that a later stated
    change contradicts is replaced like a convention: "Run `npm test` before pushing" ends when
    the user moves the project to pnpm."""
    key = project_key(str(project.resolve()))
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        old = k.remember("Run `npm test` before pushing", type="pattern")
    _end(env, project, "s-2", "from now on we use pnpm instead of npm for everything: "
         "installs and scripts.")
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        ended = k.get(old.id)
        assert ended.superseded_by is not None and not ended.current_at(k.clock())
        assert "pnpm" in k.get(ended.superseded_by).summary


def test_a_decision_naming_what_it_replaces_ends_the_discovery_that_described_it(
        env, project) -> None:
    """"Drop task_always_eager and run task tests through a real worker", agreed by the user:
    the discovery that the tests run tasks eagerly no longer describes the project (the next
    session must not be told so as current); a discovery about something else stays."""
    key = project_key(str(project.resolve()))
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        eager = k.remember("tests/conftest.py sets task_always_eager = True on the Celery app, "
                           "so .delay() runs the task inline: no broker needed.",
                           type="discovery")
        other = k.remember("All Celery tasks live in src/orderdesk/worker.py.",
                           type="discovery")
    t = TranscriptWriter(cwd=str(project), session="s-2")
    t.user("ugh, so the test setup lied to us. I don't want that to happen again, what are "
           "the options?")
    t.say("Drop task_always_eager and run task tests through a real worker: "
          "celery.contrib.testing's start_worker runs an in-process worker thread, and with the "
          "memory:// broker every .delay() goes through the same JSON serialisation as "
          "production.")
    t.user("yes, do it. slower tests are fine if they're honest")
    t.say("Done.")
    _session_end(env, project, t, "s-2")
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        now = k.clock()
        [drop] = [m for m in k.list(limit=None, types="decision")
                  if m.summary.startswith("Drop task_always_eager")]
        assert k.get(eager.id).superseded_by == drop.id
        assert not k.get(eager.id).current_at(now) and k.get(other.id).current_at(now)


def test_a_change_whose_edits_take_out_the_old_code_ends_the_decision_that_put_it_in(
        env, project) -> None:
    """A decision that prescribed `engine='pyarrow'`, then a session that goes back to
    pandas' C parser and takes `engine="pyarrow"` out of the code: the old decision ends,
    replaced by the change; a decision whose code the session kept stays current."""
    key = project_key(str(project.resolve()))
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        pyarrow = k.remember("Switch read_csv to the pyarrow engine (engine='pyarrow'), which "
                             "parses multithreaded and is several times faster.",
                             type="decision")
        kept = k.remember("Parse timestamps with parse_dates=['ts'] in read_readings.",
                          type="decision")
    t = TranscriptWriter(cwd=str(project), session="s-2")
    t.user("ingest blew up on the new Brest export: the v3 files start with four # lines")
    t.say("That was the workaround for the pyarrow engine having no comment= option. I'd go "
          "back to pandas' default C parser with comment='#', which handles any number of them, "
          "with explicit dtype= per column instead of letting pandas infer the types.")
    t.edit(str(project / "src/tidepool/io.py"),
           '    return pd.read_csv(path, engine="pyarrow", skiprows=1, parse_dates=["ts"])\n',
           '    return pd.read_csv(path, comment="#", dtype=DTYPES, parse_dates=["ts"])\n')
    t.bash("pytest -q", "6 passed in 0.84s")
    t.say("All green.")
    _session_end(env, project, t, "s-2")
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        now = k.clock()
        [back] = [m for m in k.list(limit=None, types="decision")
                  if "C parser" in m.summary]
        assert k.get(pyarrow.id).superseded_by == back.id
        assert not k.get(pyarrow.id).current_at(now) and k.get(kept.id).current_at(now)


def test_what_a_sessions_passing_checks_confirm_unasked_gains_once_per_session(
        env, project) -> None:
    """`uv run ruff check .` and `uv run mypy` worked in one session, where the user also said
    how the project runs them, and again in the next, where nothing put them in front of the
    model: the outcome confirms the stored commands and the rule (+0.03 each), once for that
    session however often its transcript is read. A rule whose checks did not all run is
    not confirmed."""
    key = project_key(str(project.resolve()))
    _ran(env, project, "s-1", ["going forward, lint is `uv run ruff check .` and `uv run "
                               "mypy`.", "from now on tests are `uv run pytest -q`."],
         ["uv run ruff check .", "uv run mypy"])
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        [lint] = [m for m in k.list(limit=None, types="pattern")
                  if m.metadata.get("command") == "uv run ruff check ."]
        [rule] = [m for m in k.list(limit=None, types=["preference", "decision"])
                  if "uv run mypy" in m.summary]
        [tests] = [m for m in k.list(limit=None, types=["preference", "decision"])
                   if "uv run pytest" in m.summary]
        before = {m.id: m.confidence for m in (lint, rule, tests)}
    for _ in range(2):
        _ran(env, project, "s-2", ["lint again before I push"],
             ["uv run ruff check . && uv run mypy"])
    with Kenning(env["KENNING_DB"], project=key, embedder=None) as k:
        for m in (lint, rule):
            assert k.get(m.id).confidence == pytest.approx(before[m.id] + 0.03)
            assert any("checks passed" in reason for _, _, reason in
                       k.store.confidence_history(m.id))
        assert k.get(tests.id).confidence == pytest.approx(before[tests.id])


@pytest.fixture
def model_env(env: dict[str, str]) -> dict[str, str]:
    """The hook environment with the shipped embedding model (the learned detector and the
    pair judge read what the user said through it)."""
    return {k: v for k, v in env.items() if k != "KENNING_EMBEDDER"}


def _current(env: dict[str, str], project: Path, needle: str) -> list[dict]:
    """The stored rules (any kind a statement is kept as) whose content names ``needle``."""
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        return [m.to_dict() for m in k.list(limit=None)
                if needle in m.content and m.type.value != "context"]


def test_a_change_to_one_job_of_a_tool_leaves_the_rules_for_its_other_jobs(model_env, project
                                                                           ) -> None:
    """A later statement about how one command of a tool runs now ("installs are now
    `yarn install --immutable`") says nothing of the tool's other jobs: the rule that gets
    the workspace ready with another of its commands stays in force, and the next prompt about
    it still shows it. Ending it would hide a rule the user never changed."""
    _end(model_env, project, "s-1", "contributor note: after pulling, prepare the workspace "
         "with `yarn workspace:bootstrap` before building anything.", *CHATTER)
    before = _current(model_env, project, "workspace:bootstrap")
    assert before and all(m["current"] for m in before)

    _end(model_env, project, "s-2", "oh and the install step in the contributing guide is now "
         "`yarn install --immutable` to install the dependencies, so the lockfile stays "
         "untouched.")
    kept = _current(model_env, project, "workspace:bootstrap")
    assert kept and all(m["current"] and m["valid_to"] is None for m in kept), kept
    assert _current(model_env, project, "yarn install --immutable")
    result = hook("UserPromptSubmit", payload(
        "UserPromptSubmit", project, prompt="I just pulled, how do I get the workspace ready?"),
        model_env)
    assert "workspace:bootstrap" in json.loads(result.stdout)[
        "hookSpecificOutput"]["additionalContext"]


def test_a_new_version_of_a_tool_leaves_the_rules_that_run_it(model_env, project) -> None:
    """Moving to a new major version of a tool ("we're on yarn 4 now") changes which version
    is used, not the commands the project runs with it: a rule prescribing `yarn docs:serve`
    stays current."""
    _end(model_env, project, "s-1", "for the docs site, always preview changes locally with "
         "`yarn docs:serve` before you open a PR.", *CHATTER)
    before = _current(model_env, project, "docs:serve")
    assert before and all(m["current"] for m in before)

    _end(model_env, project, "s-2", "fyi we moved to yarn 4 for package management now, yarn 1 "
         "is gone.")
    kept = _current(model_env, project, "docs:serve")
    assert kept and all(m["current"] and m["valid_to"] is None for m in kept), kept
