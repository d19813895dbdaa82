"""Zero-LLM capture (M36) on a recorded transcript and a real git repository, the CLI, and the
optional LLM refinement against the fake Anthropic server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.errors import ValidationError
from kenning.extract.candidates import command_key, error_line, main_segment
from kenning.extract.transcript import parse_lines
from tests.mcp_fixtures import NPM_FAIL, TranscriptWriter, kenning_command, recorded_session

CHATTER = ("weather", "thanks", "nice work", "lol", "hey!")


def kinds(result: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for c in result["candidates"]:
        out.setdefault(c["kind"], []).append(c)
    return out


def test_recorded_transcript_gives_gotcha_with_fix_and_preference_not_chatter(
        tmp_path: Path, k: Kenning) -> None:
    path = recorded_session(tmp_path / "session.jsonl")
    result = k.extract(path)
    by = kinds(result)
    assert set(by) == {"gotcha", "preference"}
    (gotcha,) = by["gotcha"]  # one memory: the error, its cause and the fix
    assert "Tests failed: ● getUser › returns the profile" in gotcha["text"]
    assert "TypeError: Cannot read properties of undefined" in gotcha["text"]
    assert "Cause: getUser dereferences a missing user." in gotcha["text"]
    assert "Fix: `src/user.js`: `return db.users[id].profile.id` -> " in gotcha["text"]
    assert gotcha["text"].endswith("then it passed.")
    assert gotcha["type"] == "gotcha" and gotcha["provenance"]["lines"][0] == 4
    (pref,) = by["preference"]
    assert pref["text"].startswith("Use pnpm, not npm.")
    assert pref["type"] == "preference" and pref["confidence"] >= 0.8
    # Neither the npm run the user corrected away from nor the plain `pnpm test` that then
    # worked is proposed as the project's test command: the preference says it all.
    for c in result["candidates"]:
        assert not any(word in c["text"].lower() for word in CHATTER), c
        assert c["provenance"]["session_id"] == "5764c944-1b2f-4c1e-9d55-0f6a1c2b3d4e"
    assert result["sources"]["transcript"]["skipped_lines"] == 1
    assert result["applied"] == [] and k.count() == 0  # a dry run writes nothing


def test_apply_stores_once_then_everything_is_a_duplicate(tmp_path: Path, k: Kenning) -> None:
    path = recorded_session(tmp_path / "session.jsonl")
    first = k.extract(path, apply=True)
    assert len(first["applied"]) == 2 and first["session_insight"]
    stored = {m.id: m for m in k.list(limit=50)}
    gotcha = next(m for m in stored.values() if m.type.value == "gotcha")
    assert gotcha.metadata["provenance"]["via"] == "transcript"
    assert gotcha.metadata["episode"] == "gotcha" and "extracted" in gotcha.tags
    session = stored[first["session_insight"]]
    assert session.metadata["episode"] == "session_insight"
    again = k.extract(path, apply=True)
    assert again["new"] == 0 and again["duplicates"] == 2 and again["applied"] == []
    assert again["recurred"] == []  # the same session is not evidence twice
    assert all(c["duplicate_of"] in stored for c in again["candidates"])
    assert k.count() == len(stored)


def test_a_paraphrase_already_stored_is_marked_duplicate(tmp_path: Path, k: Kenning) -> None:
    known = k.remember("The user prefers pnpm over npm for this project", type="preference")
    result = k.extract(recorded_session(tmp_path / "s.jsonl"))
    pref = kinds(result)["preference"][0]
    # the same rule on the same subject, in other words: a restatement, not a new memory
    assert pref["duplicate_of"] == known.id and pref["similarity"] >= 0.75
    assert result["new"] == 1


def test_failed_command_fixed_by_a_different_command(tmp_path: Path, k: Kenning) -> None:
    t = TranscriptWriter()
    t.user("install the deps and build")
    t.bash("cd /tmp/proj-shop && npm run build:prod", "sh: 1: tsc: not found\nExit code 127",
           ok=False)
    t.bash("npm install --save-dev typescript", "added 1 package")
    t.bash("cd /tmp/proj-shop && npm run build:prod", "built in 2.1s")
    t.user("Please always run the linter before committing.")
    result = k.extract(t.write(tmp_path / "t.jsonl"))
    by = kinds(result)
    assert "The build failed: sh: 1: tsc: not found" in by["gotcha"][0]["text"]
    assert "Fix: ran `npm install --save-dev typescript`; then it passed." in \
        by["gotcha"][0]["text"]
    assert by["preference"][0]["text"] == (
        "Always run the linter before committing.\n"
        '(as the user put it: "Please always run the linter before committing.")')
    assert by["pattern"][0]["text"] == "Project build command: `npm run build:prod` (worked in a " \
                                       "session)"


def test_rules_on_command_lines() -> None:
    assert main_segment("cd app && CI=1 pnpm test -- --watch=false | tee log") == \
        "CI=1 pnpm test -- --watch=false"
    assert command_key("cd app && CI=1 pnpm test") == ("pnpm", "test")
    assert command_key("python -m pytest tests -q") == ("python", "pytest")
    assert command_key("npm run lint") == ("npm", "lint")
    assert command_key("uv run pytest -q") == ("pytest", "")
    assert error_line(NPM_FAIL).startswith("● getUser › returns the profile: TypeError: Cannot")
    assert error_line("Exit code 2\n") == "non-zero exit"
    # a log line's date and time is not part of the error
    assert error_line("2024/06/03 09:14:52 goose run: ERROR 0002_refunds.sql: column \"total\" "
                      "contains null values\n") == ('goose run: ERROR 0002_refunds.sql: column '
                                                    '"total" contains null values')
    assert error_line("[2026-03-02T09:00:01.250Z] Error: connect ECONNREFUSED") == \
        "Error: connect ECONNREFUSED"
    broken = parse_lines(["{", "[1,2]", '{"type":"user","message":"x"}', "null"])
    assert broken.events == [] and broken.skipped_lines == 3


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "d@example.com",
           "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "d@example.com"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")

    def commit(message: str, files: dict[str, str]) -> None:
        for name, text in files.items():
            p = r / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        git(r, "add", "-A")
        git(r, "commit", "-q", "-m", message)

    commit("Initial commit", {"README": "shop"})
    commit("Add user model", {"src/user.js": "a", "src/api.js": "b"})
    commit("Switch from npm to pnpm workspaces\n\nnpm hoisting broke the api package.",
           {"pnpm-workspace.yaml": "packages: [src]"})
    commit("fix: guard missing user in getUser\n\nUndefined users crashed the profile page.",
           {"src/user.js": "a2", "src/api.js": "b2"})
    commit("Tweak wording", {"README": "the shop"})
    commit("fix: the package name in the README badge and the install docs",
           {"README.md": "# shop", "docs/install.md": "pip install shop"})
    return r


def test_commits_give_decisions_fixes_and_files_changed_together(repo: Path, k: Kenning
                                                                 ) -> None:
    result = k.extract(repo=repo, since="HEAD~5")
    by = kinds(result)
    assert result["sources"]["git"]["commits"] == 5
    assert by["decision"][0]["text"] == ("Switch from npm to pnpm workspaces — npm hoisting "
                                         "broke the api package.")
    assert by["decision"][0]["provenance"]["via"] == "git"
    # a fix says where it lives; one to the docs alone is no lesson about the code
    assert [f["text"] for f in by["fix"]] == [
        "Fixed: guard missing user in getUser (in `src/api.js`, `src/user.js`) — Undefined "
        "users crashed the profile page."]
    assert "`src/api.js` and `src/user.js` usually change together (2 commits)" in \
        by["co_edit"][0]["text"]
    assert not any("Tweak" in c["text"] or "Initial" in c["text"]
                   for c in result["candidates"])
    assert len(k.extract(repo=repo, since="HEAD~2")["candidates"]) == 0
    with pytest.raises(ValidationError, match="unknown revision"):
        k.extract(repo=repo, since="HEAD~99")
    with pytest.raises(ValidationError, match="revision"):
        k.extract(repo=repo, since="--output=/tmp/x")
    with pytest.raises(ValidationError, match="not a directory"):
        k.extract(repo=repo / "nope")


def test_cli_dry_run_then_apply_then_insights(tmp_path: Path, repo: Path,
                                              cli_env: dict[str, str]) -> None:
    path = recorded_session(tmp_path / "s.jsonl")
    cmd = kenning_command()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cmd, *args], env=cli_env, cwd=repo, capture_output=True,
                              text=True, timeout=120)

    dry = run("extract", "--since", "HEAD~5", "--transcript", str(path), "--json")
    assert dry.returncode == 0, dry.stderr
    data = json.loads(dry.stdout)
    assert {c["kind"] for c in data["candidates"]} == {
        "gotcha", "fix", "preference", "decision", "co_edit"}
    assert data["applied"] == []
    applied = run("extract", "--since", "HEAD~5", "--transcript", str(path), "--apply")
    assert applied.returncode == 0 and "stored" in applied.stdout
    shown = run("insights")
    assert shown.returncode == 0
    assert "gotchas  Tests failed: ● getUser › returns the profile: TypeError" in \
        shown.stdout
    assert "failed " not in shown.stdout  # the gotcha is shown once
    assert "can you run the tests and fix whatever is broken?" in shown.stdout  # no "hey!"
    assert "next     Use pnpm, not npm." in shown.stdout
    missing = run("extract", "--transcript", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 1 and missing.stderr.startswith("error: transcript")


@pytest.fixture
def fake_anthropic(tmp_path: Path) -> Iterator[Callable[[dict], tuple[str, Path]]]:
    """Start the fake Anthropic server with a script; yields (base URL, request log)."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(script: dict) -> tuple[str, Path]:
        (tmp_path / "script.json").write_text(json.dumps(script))
        log, port_file = tmp_path / "requests.jsonl", tmp_path / "port.txt"
        server = Path(__file__).with_name("fake_anthropic.py")  # the shared harness copy
        procs.append(subprocess.Popen(
            [sys.executable, str(server), "--port", "0", "--log", str(log), "--script",
             str(tmp_path / "script.json"), "--port-file", str(port_file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 120  # a hang guard, not a speed bound
        while not port_file.exists():
            assert time.monotonic() < deadline, "fake server did not start"
            time.sleep(0.05)
        return f"http://127.0.0.1:{port_file.read_text().strip()}", log

    yield start
    for p in procs:
        p.terminate()
        p.wait(timeout=10)


def test_llm_refines_candidates_only_when_opted_in(
        tmp_path: Path, k: Kenning, monkeypatch: pytest.MonkeyPatch,
        fake_anthropic: Callable[[dict], tuple[str, Path]]) -> None:
    pytest.importorskip("anthropic")
    path = recorded_session(tmp_path / "s.jsonl")
    plain = k.extract(path)
    texts = [c["text"] for c in plain["candidates"]]
    gi = next(i for i, c in enumerate(plain["candidates"]) if c["kind"] == "gotcha")
    answer = {"keep": [{"i": gi, "text": "npm test crashes on a missing user in getUser "
                        "(src/user.js): guard with optional chaining.", "confidence": 0.9}]}
    base, log = fake_anthropic({"__no_tools__": [{"text": json.dumps(answer)}]})
    monkeypatch.setenv("ANTHROPIC_BASE_URL", base)
    monkeypatch.delenv("KENNING_LLM_EXTRACT", raising=False)

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert k.extract(path, llm=True)["llm"] is None  # opted in, but no key
    monkeypatch.setenv("ANTHROPIC_API_KEY", "dummy")
    assert k.extract(path)["llm"] is None  # a key, but no opt-in
    assert not log.exists()

    refined = k.extract(path, llm=True, llm_budget=2000)
    report = refined["llm"]
    assert report["sent"] == len(texts) and report["dropped"] == len(texts) - 1
    assert report["input_tokens"] > 0 and "error" not in report
    (only,) = refined["candidates"]
    assert only["refined"] is True and only["confidence"] == 0.9
    assert only["text"].startswith("npm test crashes on a missing user")
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    body = requests[-1]["body"]
    assert body["max_tokens"] <= 500 and "tools" not in body
    prompt = body["messages"][0]["content"]
    rows = json.loads(prompt.split("\n", 1)[1])
    assert [r["text"] for r in rows] == texts

    # A small budget sends only what fits; the rest passes through unrefined.
    small = k.extract(path, llm=True, llm_budget=360)
    assert 0 < small["llm"]["sent"] < len(texts), small["llm"]
    assert any(not c["refined"] for c in small["candidates"])

    monkeypatch.setenv("KENNING_LLM_EXTRACT", "1")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # nothing listens
    failed = k.extract(path)
    assert "error" in failed["llm"]
    assert [c["text"] for c in failed["candidates"]] == texts  # rules' output kept


@pytest.mark.parametrize(("said", "expected"), [
    ("no, use pnpm", "Use pnpm, not npm."),
    ("Don't use var, use const", "Don't use var, use const."),
    ("do not use yarn here", None),  # "here": this once, not a standing rule
    ("Actually, prefer httpx over requests", "Prefer httpx over requests."),
    ("Please always run the linter before committing.",
     "Always run the linter before committing."),
    ("no worries, use whatever you like", None),
    ("thanks, looks great!", None),
    ("can you run the tests?", None),
    ("no", None),
    ("what's the weather like? lol", None),
])
def test_corrections_and_chatter(said: str, expected: str | None) -> None:
    t = TranscriptWriter()
    t.bash("npm test", "ok")
    t.user(said)
    from kenning.extract.candidates import preferences

    found = preferences(parse_lines([json.dumps(r) for r in t.lines]))
    if expected is None:
        assert found == []
    else:
        assert found[0].text.startswith(expected)


def test_a_project_without_git_keeps_the_transcript_candidates(tmp_path: Path, k: Kenning
                                                               ) -> None:
    plain = tmp_path / "no-git"
    plain.mkdir()
    result = k.extract(recorded_session(tmp_path / "s.jsonl"), repo=plain, apply=True)
    assert "not a git repository" in result["sources"]["git"]["error"]
    assert len(result["applied"]) == 2
    with pytest.raises(ValidationError, match="git"):
        k.extract(repo=plain)
