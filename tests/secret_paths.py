"""Every way a secret can reach Kenning, run with the secret corpus, and the check that none of
the secrets is anywhere in what Kenning wrote or printed.

Each write path is a function ``(sandbox, samples) -> attempts``: it pushes every sample through
one way in (the Python API field by field, links, the CLI, the MCP server, the hooks of a whole
Claude Code session, ``kenning extract`` in dry run and apply, the auto memory import, the
dashboard, the error log, the hook journal). :func:`leaks` then reads the raw bytes of every file
under the sandbox (the database and its WAL, the journal and its quarantine, the prompt index,
Claude Code's memory files, the error log) plus everything the commands printed, and names the
samples found there. The suite runs a few samples per path (``tests/test_secrets_at_rest.py``);
``benchmarks/bench_security.py`` runs the whole corpus and counts leaks per kind and per path.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.secret_corpus import SecretSample

BIN = Path(sys.executable).parent
PROJECT = "leak-proj"


@dataclass
class Sandbox:
    """A fresh home for one write path: Kenning's data dir, a store, a git project, the
    client's config dir; ``printed`` keeps what commands wrote on stdout and stderr."""

    root: Path
    printed: list[bytes] = field(default_factory=list)
    # Files a person or the client wrote with the secrets in them (a transcript, a memory file
    # of their own): not Kenning's writing, so left out of the scan.
    theirs: list[Path] = field(default_factory=list)

    def __post_init__(self) -> None:
        for d in (self.home, self.data, self.project, self.claude):
            d.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", "-b", "main", str(self.project)], check=True)
        for key, value in (("user.email", "dev@acme.test"), ("user.name", "Dev")):
            subprocess.run(["git", "-C", str(self.project), "config", key, value], check=True)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def data(self) -> Path:
        return self.root / "kenning-data"

    @property
    def db(self) -> Path:
        return self.root / "store" / "k.db"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def claude(self) -> Path:
        return self.home / ".claude"

    def env(self) -> dict[str, str]:
        out = {k: v for k, v in os.environ.items()
               if not k.startswith(("KENNING_", "ANTHROPIC_", "CLAUDE_"))}
        out.update(HOME=str(self.home), KENNING_HOME=str(self.data), KENNING_DB=str(self.db),
                   KENNING_PROJECT=PROJECT, KENNING_EMBEDDER="none",
                   CLAUDE_CONFIG_DIR=str(self.claude))
        return out

    @contextlib.contextmanager
    def environ(self) -> Iterator[None]:
        """This sandbox's environment for code run in this process."""
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(self.env())
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def run(self, *args: str, stdin: str | None = None, cwd: Path | None = None
            ) -> subprocess.CompletedProcess[bytes]:
        """A ``kenning`` command (or ``kenning-hook`` when the first argument is ``hook``)."""
        cmd = [str(BIN / "kenning-hook"), *args[1:]] if args[0] == "hook" else [
            str(BIN / "kenning"), *args]
        proc = subprocess.run(cmd, input=None if stdin is None else stdin.encode(),
                              env=self.env(), cwd=str(cwd or self.project),
                              capture_output=True, timeout=300, check=False)
        self.printed += [proc.stdout, proc.stderr]
        return proc

    def kenning(self) -> Any:
        from kenning import Kenning

        self.db.parent.mkdir(parents=True, exist_ok=True)
        return Kenning(self.db, project=PROJECT, embedder=None)

    def raw(self) -> bytes:
        """Every byte Kenning could have written under the sandbox, and every byte printed."""
        parts = list(self.printed)
        for path in sorted(self.root.rglob("*")):
            if path in self.theirs or ".git" in path.parts:
                continue
            if path.is_file() and not path.is_symlink():
                with contextlib.suppress(OSError):
                    parts.append(path.read_bytes())
        return b"\n".join(parts)


_RUN_RE = re.compile(r"[A-Za-z0-9]{12,}")


def needles(secret: str) -> list[bytes]:
    """What finding ``secret`` means: the secret itself, as JSON escapes it, in lower case (a
    normalised link word) and any run of 12+ letters and digits of it (a partial leak, a
    full-text index token); all compared in lower case."""
    out = {secret, json.dumps(secret)[1:-1]}
    out.update(_RUN_RE.findall(secret))
    return sorted({s.lower().encode() for s in out})


def leaks(sandbox: Sandbox, samples: list[SecretSample]) -> list[str]:
    """Names of the samples whose secret is anywhere in what the sandbox holds or printed."""
    raw = sandbox.raw().lower()
    return [s.name for s in samples if any(n in raw for n in needles(s.secret))]


# Kinds a detector can only tell from their context (the key that names them, the URL around
# them); a short field that has room for such a secret but not for its context gets none.
CONTEXT_KINDS = frozenset({"password", "token", "api_key", "secret", "aws_secret_key",
                           "url_password", "authorization", "cookie", "azure_key"})


def line_of(sample: SecretSample, limit: int) -> str | None:
    """The sample's line that holds the secret when it fits ``limit`` characters (for short
    fields: topics, tags, link words), else the secret with as much of what precedes it on its
    line as fits (the key that names it), else None. A secret that needs its context gets
    None when fewer than 12 characters of it fit."""
    at = sample.text.index(sample.secret)
    start = sample.text.rfind("\n", 0, at) + 1
    end = sample.text.find("\n", at + len(sample.secret))
    line_end = len(sample.text) if end < 0 else end
    line = sample.text[start:line_end].strip()
    if sample.secret in line and len(line) <= limit:
        return line
    spare = limit - len(sample.secret)
    if "\n" in sample.secret or spare < 0 or (sample.kind in CONTEXT_KINDS and spare < 12):
        return None
    before = min(at - start, spare)
    after = min(line_end - at - len(sample.secret), spare - before)
    return sample.text[at - before: at + len(sample.secret) + after].strip()


# -- the write paths ---------------------------------------------------------------------------

Path_ = Callable[[Sandbox, list[SecretSample]], int]


def _each(sandbox: Sandbox, samples: list[SecretSample],
          write: Callable[[Any, int, SecretSample], bool]) -> int:
    """Run ``write(k, n, sample)`` for each sample through the Python API; bad input refused
    with ValidationError counts as no attempt. Builds the prompt index at the end."""
    from kenning.errors import ValidationError

    attempts = 0
    with sandbox.environ(), sandbox.kenning() as k:
        for n, s in enumerate(samples):
            with contextlib.suppress(ValidationError):
                attempts += bool(write(k, n, s))
        k.build_prompt_index()
    return attempts


def _pair(k: Any, n: int) -> tuple[str, str]:
    a = k.remember(f"Memory A number {n} about the deploy pipeline")
    b = k.remember(f"Memory B number {n} about the release checklist")
    return a.id, b.id


def api_text(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: k.remember(s.text, type="gotcha") is not None)


def api_summary(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: (v := line_of(s, 500)) is not None and bool(
        k.remember(f"Deploy note {n}", summary=v)))


def api_topic(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: (v := line_of(s, 200)) is not None and bool(
        k.remember(f"Decision number {n}", type="decision", topic=v)))


def api_tags(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: (v := line_of(s, 64)) is not None and bool(
        k.remember(f"Tagged note {n}", tags=["deploy", v])))


def api_metadata(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(k.remember(
        f"Note with metadata {n}", metadata={"note": s.text, "items": [s.text],
                                             "nested": {"value": s.text}})))


def api_source(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: (v := line_of(s, 500)) is not None and bool(
        k.remember(f"Sourced note {n}", source=v)))


def api_remember_links(sb: Sandbox, samples: list[SecretSample]) -> int:
    def write(k: Any, n: int, s: SecretSample) -> bool:
        word = line_of(s, 100)
        if word is None:
            return False
        a, _ = _pair(k, n)
        tag = line_of(s, 64)
        return bool(k.remember(f"Linked note {n}", supersedes=[a], reason=s.text, links=[
            {"to_id": a, "relationship": word, "reason": s.text,
             "tags": [tag] if tag else []}]))
    return _each(sb, samples, write)


def api_link_word(sb: Sandbox, samples: list[SecretSample]) -> int:
    def write(k: Any, n: int, s: SecretSample) -> bool:
        word = line_of(s, 100)
        return word is not None and bool(k.link(*_pair(k, n), word))
    return _each(sb, samples, write)


def _bare_word(s: SecretSample) -> str | None:
    """A link word that repeats the bare secret, without the words that mark it as one: only
    the reason beside it says what it is."""
    word = f"unlocks with {s.secret}"
    return None if "\n" in s.secret or len(word) > 100 else word


def api_link_word_beside_reason(sb: Sandbox, samples: list[SecretSample]) -> int:
    def write(k: Any, n: int, s: SecretSample) -> bool:
        word = _bare_word(s)
        return word is not None and bool(k.link(*_pair(k, n), word, reason=s.text))
    return _each(sb, samples, write)


def api_remember_link_word_beside_reason(sb: Sandbox, samples: list[SecretSample]) -> int:
    def write(k: Any, n: int, s: SecretSample) -> bool:
        word = _bare_word(s)
        if word is None:
            return False
        a, _ = _pair(k, n)
        return bool(k.remember(f"Linked note {n}", links=[
            {"to_id": a, "relationship": word, "reason": s.text, "tags": [s.secret[:64]]}]))
    return _each(sb, samples, write)


def api_link_reason(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(
        k.link(*_pair(k, n), "depends_on", reason=s.text)))


def api_link_tags(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: (v := line_of(s, 64)) is not None and bool(
        k.link(*_pair(k, n), "depends_on", tags=[v])))


def api_link_metadata(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(
        k.link(*_pair(k, n), "depends_on", metadata={"note": s.text, "why": [s.text]})))


def api_update(sb: Sandbox, samples: list[SecretSample]) -> int:
    def write(k: Any, n: int, s: SecretSample) -> bool:
        m = k.remember(f"To be updated {n}")
        fields: dict[str, Any] = {"text": s.text, "metadata": {"note": s.text}}
        for key, limit in (("topic", 200), ("summary", 500), ("source", 500)):
            if (v := line_of(s, limit)) is not None:
                fields[key] = v
        if (tag := line_of(s, 64)) is not None:
            fields["tags"] = [tag]
        return bool(k.update(m.id, **fields))
    return _each(sb, samples, write)


def api_outcome(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(k.outcome(
        k.remember(f"Decision to judge {n}", type="decision").id, "failed", s.text)))


def api_feedback(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(k.feedback(
        k.remember(f"Feedback target {n}").id, -0.05, s.text)))


def api_finding(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(k.record_finding(
        s.text, source="agent:reviewer", topic=line_of(s, 200))))


def api_insight(sb: Sandbox, samples: list[SecretSample]) -> int:
    return _each(sb, samples, lambda k, n, s: bool(k.save_insight({
        "task": line_of(s, 200) or f"task {n}", "what_worked": [s.text],
        "gotchas_encountered": [s.text], "files_understood": {f"src/f{n}.py": s.text}})))


def api_error_log(sb: Sandbox, samples: list[SecretSample]) -> int:
    from kenning.errorlog import log_error

    with sb.environ():
        for s in samples:
            try:
                raise RuntimeError(f"the deploy failed with {s.text}")
            except RuntimeError as exc:
                log_error("leak-test", exc)
    return len(samples)


def api_journal(sb: Sandbox, samples: list[SecretSample]) -> int:
    """Journal lines as a hook would append them (an event with a secret in its data, and a
    line ingestion must set aside), then ingestion into the store and the quarantine."""
    from kenning import journal

    with sb.environ(), sb.kenning() as k:
        events: list[dict[str, object]] = []
        for n, s in enumerate(samples):
            events.append({"id": journal.new_event_id(1_780_000_000_000 + n), "session_id": "s1",
                           "project": PROJECT, "at_ms": 1_780_000_000_000 + n, "kind": "tool",
                           "data": {"tool": "Bash", "ok": True, "cmd": s.text[:500],
                                    "note": s.text}})
        journal.append(k.journal_dir(), events)
        with open(os.path.join(k.journal_dir(), journal.FILE), "a", encoding="utf-8") as f:
            for s in samples:
                f.write(json.dumps({"id": "bad", "kind": 7, "text": s.text}) + "\n")
        k.ingest_journal()
    return len(samples)


def api_automemory(sb: Sandbox, samples: list[SecretSample]) -> int:
    """A person's lines in MEMORY.md (each sample's line), imported and curated by a sync."""
    from kenning.automemory.paths import auto_memory_dir

    with sb.environ():
        target = auto_memory_dir(sb.project)
        target.mkdir(parents=True, exist_ok=True)
        lines = [f"- {v}" for s in samples if (v := line_of(s, 300)) is not None]
        (target / "MEMORY.md").write_text("# Notes\n\n" + "\n".join(lines) + "\n")
        sb.theirs.append(target / "deploy-notes.md")
        (target / "deploy-notes.md").write_text(
            "---\nname: deploy-notes\ndescription: deploy notes\nmetadata:\n  type: project\n---"
            "\n\n" + "\n\n".join(s.text for s in samples) + "\n")
        with sb.kenning() as k:
            k.auto_sync(sb.project)
    return len(lines)


def api_dashboard(sb: Sandbox, samples: list[SecretSample]) -> int:
    """The dashboard's write that stores words: merging a relationship word into another."""
    from starlette.testclient import TestClient

    from kenning.web import create_app

    attempts = 0
    with sb.environ(), sb.kenning() as k:
        client = TestClient(create_app(k, allow_writes=True), base_url="http://127.0.0.1:7077")
        for n, s in enumerate(samples):
            word = line_of(s, 100)
            if word is None:
                continue
            k.link(*_pair(k, n), f"old_word_{n}")
            r = client.post("/api/relationships/merge", json={"word": f"old_word_{n}",
                                                              "into": word},
                            headers={"Origin": "http://127.0.0.1:7077"})
            sb.printed.append(r.content)
            attempts += r.status_code == 200
    return attempts


def cli_remember(sb: Sandbox, samples: list[SecretSample]) -> int:
    for s in samples:
        args = ["remember", s.text]
        for flag, limit in (("--topic", 200), ("--tag", 64), ("--source", 500)):
            if (v := line_of(s, limit)) is not None:
                args += [flag, v]
        sb.run(*args)
        sb.run("list", "--json")
    sb.run("list")
    return len(samples)


def cli_errors(sb: Sandbox, samples: list[SecretSample]) -> int:
    """Commands refused for bad input: what they print must not echo the secret."""
    for s in samples:
        v = line_of(s, 200) or s.secret
        sb.run("remember", "x", "--agent", v)
        sb.run("show", v)
        sb.run("remember", "y", "--type", v)
    return len(samples)


def mcp_tools(sb: Sandbox, samples: list[SecretSample]) -> int:
    """Every MCP tool that stores text, through the official client and ``kenning mcp``."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=str(BIN / "kenning"), args=["mcp"], env=sb.env(),
                                   cwd=str(sb.project))

    async def scenario() -> int:
        attempts = 0
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            base = json.loads((await session.call_tool(
                "save", {"text": "Base decision for links", "type": "decision"})).content[0].text)
            for n, s in enumerate(samples):
                line = line_of(s, 200)
                tag = line_of(s, 64)
                calls = [
                    ("save", {"text": s.text, "type": "decision", "reasoning": s.text[:4000],
                              "supersedes": [base["id"]],
                              **({"topic": line, "summary": line, "spec": line} if line else {}),
                              **({"tags": [tag]} if tag else {}),
                              "links": [{"to_id": base["id"], "relationship": line or "relates",
                                         "reason": s.text[:2000], "tags": [tag] if tag else []}]}),
                    ("record_gotcha", {"gotcha": s.text[:4000], "context": s.text[:4000]}),
                    ("record_finding", {"text": s.text[:4000], "source": "agent:reviewer"}),
                    ("evolve_outcome", {"memory_id": base["id"], "status": "failed",
                                        "reason": s.text[:4000], "note": s.text}),
                    ("save_session_insight", {"task": line or f"task {n}",
                                              "what_worked": [s.text[:4000]],
                                              "gotchas_encountered": [s.text[:4000]]}),
                    ("memory_auto_record", {"category": "security",
                                            "summary": line or f"note {n}",
                                            "detail": s.text[:4000]}),
                ]
                for name, args in calls:
                    res = await session.call_tool(name, args)
                    text = "".join(getattr(c, "text", "") for c in res.content)
                    sb.printed.append(text.encode())
                    attempts += not res.is_error
        return attempts

    with sb.environ():
        return asyncio.run(scenario())


def _transcript(sb: Sandbox, samples: list[SecretSample]) -> Path:
    from tests.mcp_fixtures import TranscriptWriter

    t = TranscriptWriter(cwd=str(sb.project), session="leak-session")
    for s in samples:
        t.user(f"please remember this for the deploy: {s.text}")
        t.bash(f"echo {json.dumps(s.text)}", s.text, ok=False)
        t.say(f"We decided to keep using it: {s.text}")
    path = sb.root / "transcript.jsonl"
    t.write(path)
    sb.theirs.append(path)
    return path


def hooks_session(sb: Sandbox, samples: list[SecretSample]) -> int:
    """A whole Claude Code session through the real hook entry point: prompts, tool calls and
    failures, a subagent's report, a compaction note, and the end of the session (journal
    ingestion, extraction from the transcript, kept user turns, the prompt index, MEMORY.md)."""
    sb.run("init")
    transcript = _transcript(sb, samples)

    def payload(event: str, **fields: Any) -> str:
        return json.dumps({"session_id": "leak-session", "transcript_path": str(transcript),
                           "cwd": str(sb.project), "hook_event_name": event, **fields})

    sb.run("hook", "SessionStart", stdin=payload("SessionStart", source="startup"))
    for s in samples:
        sb.run("hook", "UserPromptSubmit", stdin=payload("UserPromptSubmit", prompt=s.text))
        sb.run("hook", "PostToolUse", stdin=payload(
            "PostToolUse", tool_name="Bash", tool_input={"command": s.text},
            tool_response={"stdout": s.text, "stderr": "", "interrupted": False}))
        sb.run("hook", "PostToolUseFailure", stdin=payload(
            "PostToolUseFailure", tool_name="Bash", tool_input={"command": f"pytest -k {s.text}"},
            error=f"Exit code 1\n{s.text}"))
        sb.run("hook", "SubagentStop", stdin=payload(
            "SubagentStop", agent_id="a1", agent_type="reviewer", stop_hook_active=False,
            last_assistant_message=f"Found the deploy credentials: {s.text}"))
    sb.run("hook", "PreCompact", stdin=payload(
        "PreCompact", trigger="manual",
        custom_instructions="keep these: " + " ".join(s.text for s in samples)[:20_000]))
    sb.run("hook", "SessionEnd", stdin=payload("SessionEnd", reason="other"))
    return len(samples)


def _commits(sb: Sandbox, samples: list[SecretSample]) -> None:
    for n, s in enumerate(samples):
        (sb.project / f"f{n}.txt").write_text(f"change {n}\n")
        subprocess.run(["git", "-C", str(sb.project), "add", "."], check=True)
        subprocess.run(["git", "-C", str(sb.project), "commit", "-q", "-m",
                        f"Decided to switch the deploy config\n\n{s.text}"], check=True,
                       env={**sb.env(), "GIT_AUTHOR_DATE": "2026-05-01T10:00:00Z",
                            "GIT_COMMITTER_DATE": "2026-05-01T10:00:00Z"})


def extract_dry_run(sb: Sandbox, samples: list[SecretSample]) -> int:
    """``kenning extract`` in its default dry run over commits and a transcript: printed only.
    (The repository itself holds the secrets, so only what Kenning wrote and printed counts:
    the project's files are left out of the scan.)"""
    _commits(sb, samples)
    transcript = _transcript(sb, samples)
    sb.run("extract", "--since", "2026-01-01", "--repo", str(sb.project))
    sb.run("extract", "--since", "2026-01-01", "--repo", str(sb.project), "--json")
    sb.run("extract", "--transcript", str(transcript), "--repo", str(sb.project), "--json")
    return len(samples)


def extract_apply(sb: Sandbox, samples: list[SecretSample]) -> int:
    _commits(sb, samples)
    transcript = _transcript(sb, samples)
    sb.run("extract", "--since", "2026-01-01", "--repo", str(sb.project), "--apply", "--json")
    sb.run("extract", "--transcript", str(transcript), "--repo", str(sb.project), "--apply")
    return len(samples)


PATHS: dict[str, Path_] = {
    "api.remember.text": api_text,
    "api.remember.summary": api_summary,
    "api.remember.topic": api_topic,
    "api.remember.tags": api_tags,
    "api.remember.metadata": api_metadata,
    "api.remember.source": api_source,
    "api.remember.links": api_remember_links,
    "api.link.word": api_link_word,
    "api.link.reason": api_link_reason,
    "api.link.word_beside_reason": api_link_word_beside_reason,
    "api.remember.link_word_beside_reason": api_remember_link_word_beside_reason,
    "api.link.tags": api_link_tags,
    "api.link.metadata": api_link_metadata,
    "api.update": api_update,
    "api.outcome": api_outcome,
    "api.feedback": api_feedback,
    "api.finding": api_finding,
    "api.insight": api_insight,
    "api.error_log": api_error_log,
    "api.journal": api_journal,
    "automemory.import": api_automemory,
    "dashboard.merge": api_dashboard,
    "cli.remember": cli_remember,
    "cli.errors": cli_errors,
    "mcp.tools": mcp_tools,
    "hooks.session": hooks_session,
    "extract.dry_run": extract_dry_run,
    "extract.apply": extract_apply,
}
"""Every write path, by name."""

# Paths whose scan leaves the project out: the git repository itself holds the secrets there.
PROJECT_HOLDS_SECRETS = frozenset({"extract.dry_run", "extract.apply"})


def run_path(name: str, root: Path, samples: list[SecretSample]) -> dict[str, Any]:
    """Run one path in a fresh sandbox under ``root``; attempts and the leaked sample names."""
    sb = Sandbox(root)
    attempts = PATHS[name](sb, samples)
    if name in PROJECT_HOLDS_SECRETS:
        subprocess.run(["rm", "-rf", str(sb.project)], check=True)
    return {"attempts": attempts, "leaked": leaks(sb, samples)}
