"""Replaying a story through Kenning as Claude Code would drive it.

Per story: a fresh HOME and a scratch git project holding the story's files, ``kenning init``
run in it, then every session event sent to the hook commands that init registered in
``.claude/settings.local.json`` (honouring each matcher), each as its own process with the event's
JSON on stdin, while the transcript file grows as the client writes it. Each hook process runs
at the story's time (``clockshim``); after SessionEnd and SessionStart the replay waits until
every process the hook left behind has exited, so detached work is allowed to finish (the next
event is seconds to a day later on the story's clock).

What the model would see is captured per session: the SessionStart context, MEMORY.md as the
client loads it, and each prompt's UserPromptSubmit context."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replaykit.scoring import (
    Epoch,
    PromptView,
    SessionView,
    SystemRun,
    memory_md_as_loaded,
    split_units,
)
from replaykit.story import (
    Bash,
    Commit,
    Compact,
    Edit,
    Probe,
    Read,
    Say,
    Session,
    Story,
    Subagent,
    User,
    Write,
)
from replaykit.transcript import SessionWriter, stable_uuid

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
CLOCKSHIM = Path(__file__).resolve().parent / "clockshim"
SETTLE_TIMEOUT_S = 300.0


def client_key(path: str) -> str:
    """The client's project key: every character outside ``[A-Za-z0-9]`` becomes ``-``."""
    return re.sub(r"[^A-Za-z0-9]", "-", path)


def load_memory_md(path: Path) -> str:
    """MEMORY.md as the client puts it in front of the model."""
    try:
        return memory_md_as_loaded(path.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return ""


@dataclass
class HookCommand:
    matcher: str | None
    command: str
    timeout_s: float

    def applies_to(self, tool: str | None) -> bool:
        if not self.matcher or self.matcher == "*" or tool is None:
            return True
        return re.fullmatch(self.matcher, tool) is not None


def registered_hooks(settings_path: Path) -> dict[str, list[HookCommand]]:
    """The hook commands a settings file registers, by event."""
    data = json.loads(settings_path.read_text())
    out: dict[str, list[HookCommand]] = {}
    for event, groups in (data.get("hooks") or {}).items():
        for group in groups:
            for hook in group.get("hooks", []):
                if hook.get("type") == "command":
                    out.setdefault(event, []).append(HookCommand(
                        group.get("matcher"), hook["command"], float(hook.get("timeout", 60))))
    return out


def hook_env(home: Path, token: str) -> dict[str, str]:
    """The environment of every process the replay starts: the caller's, with a fresh HOME and
    none of the settings that would point Kenning or the client elsewhere."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KENNING_", "XDG_", "CLAUDE", "PYTHONDONTWRITEBYTECODE"))}
    env["HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(CLOCKSHIM), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["REPLAY_TOKEN"] = token
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


def processes_with(token: str) -> list[int]:
    """Pids of live processes whose environment carries ``REPLAY_TOKEN=token`` (Linux /proc;
    elsewhere nothing is found and session-end work is assumed done when the hook exits)."""
    needle = f"REPLAY_TOKEN={token}".encode()
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if needle in fh.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


@dataclass
class StoryReplay:
    """One story's replay state and what it observed."""

    story: Story
    work: Path
    kenning: Path
    start_ms: int
    run: SystemRun = field(default_factory=SystemRun)
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    now_ms: int = 0

    def __post_init__(self) -> None:
        self.home = self.work / "home"
        self.proj = self.work / "proj"
        self.home.mkdir(parents=True)
        self.proj.mkdir(parents=True)
        self.env = hook_env(self.home, self.token)
        self.files = dict(self.story.project.files)
        self.rng = random.Random(self.story.id)

    # -- processes ----------------------------------------------------------------------------

    def _env_at(self, at_ms: int) -> dict[str, str]:
        return {**self.env, "REPLAY_NOW_MS": str(at_ms)}

    def _git(self, *args: str, at_ms: int) -> str:
        stamp = f"@{at_ms // 1000} +0000"
        env = {**self._env_at(at_ms), "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp,
               "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
               "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com"}
        done = subprocess.run(["git", *args], cwd=self.proj, env=env, capture_output=True,
                              text=True, check=True)
        return done.stdout.strip()

    def fire(self, event: str, payload: dict[str, Any], tool: str | None = None) -> str:
        """Run every hook command registered for ``event`` (that matches ``tool``) with the
        payload on stdin, as the client does; returns the context they added for the model."""
        contexts = []
        for hook in self.hooks.get(event, []):
            if not hook.applies_to(tool):
                continue
            began = time.perf_counter()
            try:
                done = subprocess.run(hook.command, shell=True, cwd=self.proj,
                                      env=self._env_at(self.now_ms), input=json.dumps(payload),
                                      capture_output=True, text=True, timeout=hook.timeout_s)
                out, code = done.stdout, done.returncode
            except subprocess.TimeoutExpired:
                out, code = "", -1
                self.run.hook_timeouts += 1
            self.run.latencies.setdefault(event, []).append(
                (time.perf_counter() - began) * 1000)
            if code not in (0, -1):
                self.run.hook_failures += 1
            contexts.append(hook_context(event, out))
        return "\n".join(c for c in contexts if c)

    def settle(self) -> None:
        """Wait until no process started by this story's hooks is still running (seen so on
        two looks 50 ms apart: a process in the middle of exec can show no environment)."""
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        quiet = 0
        while quiet < 2 and time.monotonic() < deadline:
            quiet = 0 if processes_with(self.token) else quiet + 1
            time.sleep(0.05)

    # -- the story ----------------------------------------------------------------------------

    def setup(self) -> None:
        for rel, content in self.files.items():
            target = self.proj / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)
        self._git("init", "-q", "-b", "main", at_ms=self.start_ms)
        self._git("add", "-A", at_ms=self.start_ms)
        self._git("commit", "-q", "-m", "Initial commit", at_ms=self.start_ms)
        subprocess.run([str(self.kenning), "init"], cwd=self.proj, env=self._env_at(
            self.start_ms), capture_output=True, text=True, check=True)
        self.hooks = registered_hooks(self.proj / ".claude" / "settings.local.json")
        doctor = subprocess.run([str(self.kenning), "doctor", "--json"], cwd=self.proj,
                                env=self._env_at(self.start_ms), capture_output=True,
                                text=True, check=True)
        info = json.loads(doctor.stdout)
        self.store_path = str(info["store"])
        self.error_log = Path(str(info["error_log"]))
        self.key = client_key(os.path.realpath(self.proj))
        self.kenning_project = str(info["project"])
        self.client_dir = self.home / ".claude" / "projects" / self.key
        self.memory_md = self.client_dir / "memory" / "MEMORY.md"

    def replay(self, snapshot: Callable[[StoryReplay, int], dict[str, tuple[str, float, str]]]
               ) -> SystemRun:
        """Replay every session; ``snapshot(self, at_ms)`` reads the store: memory id ->
        (text, confidence as of ``at_ms``)."""
        self.setup()
        self.snapshot = snapshot
        for index, session in enumerate(self.story.sessions):
            self.session(index, session)
        errors = self.error_log.read_text().splitlines() if self.error_log.exists() else []
        # the log also holds notices (a decision worth a second look, no failure): not errors
        logged = [json.loads(x) for x in errors if x.strip()]
        self.run.hook_errors = [e for e in logged if not e.get("notice")]
        self.run.ended = kenning_ended(self)
        self.run.supersessions = kenning_supersessions(self)
        return self.run

    def session(self, index: int, session: Session) -> None:
        planned = self.start_ms + int(session.day * DAY_MS) + 9 * HOUR_MS \
            + self.rng.randint(0, 40) * 60_000
        self.now_ms = max(planned, self.now_ms + 60_000)
        for note in session.notes:
            self.memory_md.parent.mkdir(parents=True, exist_ok=True)
            with self.memory_md.open("a") as fh:
                fh.write(note.text.rstrip("\n") + "\n")
        sid = stable_uuid(self.story.id, index)
        transcript = self.client_dir / f"{sid}.jsonl"
        transcript.parent.mkdir(parents=True, exist_ok=True)
        writer = SessionWriter(sid, str(transcript), str(self.proj))
        view = SessionView(index=index, day=session.day, noise=session.noise)
        self.run.sessions.append(view)
        ends_at = self.now_ms + 3 * HOUR_MS  # the instant both confidence readings refer to
        view.epochs.append(self._epoch(writer.session_start(session.source), writer))
        before = self.snapshot(self, ends_at) if session.judge else {}
        turn_open = False

        def append(records: list[dict[str, Any]]) -> None:
            with transcript.open("a") as fh:
                for rec in records:
                    fh.write(json.dumps(rec) + "\n")

        for ev in session.events:
            self.now_ms += self._gap(ev)
            if isinstance(ev, User):
                if turn_open:
                    self.fire("Stop", writer.stop())
                records, payload = writer.user(ev.text, self.now_ms)
                append(records)
                context = self.fire("UserPromptSubmit", payload)
                probe = ev if isinstance(ev, Probe) else None
                view.epochs[-1].prompts.append(PromptView(
                    text=ev.text, units=split_units(context), context_chars=len(context),
                    needs=tuple(probe.needs) if probe else (),
                    stale=self.story.stale_for(index, probe) if probe else ()))
                turn_open = True
            elif isinstance(ev, Say):
                append(writer.say(ev.text, self.now_ms))
            elif isinstance(ev, Compact):
                self.fire("PreCompact", writer.pre_compact(ev.instructions))
                summary = ev.instructions or "Summary of the work so far."
                self.fire("SubagentStop", writer.compact_stop(summary))
                append(writer.compact_summary(summary, self.now_ms))
                view.epochs.append(self._epoch(writer.session_start("compact"), writer))
            elif isinstance(ev, Subagent):
                calls, results, stop = writer.task(ev.agent_type, ev.report, self.now_ms)
                append(calls)
                self.fire("SubagentStop", stop)
                append(results)
            else:
                self._tool(ev, writer, append)
        if turn_open:
            self.fire("Stop", writer.stop())
        if session.end is not None:
            self.now_ms += 30_000
            self.fire("SessionEnd", writer.session_end(session.end))
            self.settle()
        after = self.snapshot(self, ends_at)
        stored, judged = self.run.stored, self.run.judged
        assert stored is not None and judged is not None
        for mid, (text, _conf, kind) in after.items():
            stored[mid] = text
            self.run.stored_kinds[mid] = kind
        for lid, direction in session.judge.items():
            lesson = self.story.by_id[lid]
            # kept user turns are raw records, not learned memories: they are not judged
            carriers = [mid for mid, (text, _, kind) in before.items()
                        if kind != "episodic" and lesson.found_in(text)]
            judged.append({
                "story": self.story.id, "session": index, "lesson": lid,
                "direction": direction, "memories": len(carriers),
                "before": max((before[m][1] for m in carriers), default=None),
                # the same memories afterwards; one that is gone counts as confidence 0
                "after": max((after[m][1] if m in after else 0.0 for m in carriers),
                             default=None),
            })

    def _epoch(self, payload: dict[str, Any], writer: SessionWriter) -> Epoch:
        context = self.fire("SessionStart", payload)
        memory = load_memory_md(self.memory_md)
        # Work the start left running in the background (finishing a session that ended without
        # SessionEnd) is done before the next event: on the story's clock that comes 40 s or
        # more later, far longer than the work takes. MEMORY.md is read before it, as the
        # client reads it at the start.
        self.settle()
        return Epoch(start_units=split_units(context), memory_units=split_units(memory),
                     start_chars=len(context), memory_chars=len(memory))

    def _gap(self, ev: object) -> int:
        if isinstance(ev, User):
            return self.rng.randint(40, 180) * 1000
        if isinstance(ev, Say):
            return self.rng.randint(5, 30) * 1000
        return self.rng.randint(3, 25) * 1000

    def _tool(self, ev: object, writer: SessionWriter,
              append: Callable[[list[dict[str, Any]]], None]) -> None:
        if isinstance(ev, Bash):
            calls, results, (event, payload) = writer.bash(
                ev.command, ev.out, ev.ok, ev.exit, ev.description, self.now_ms,
                duration_ms=self.rng.randint(200, 4000))
            tool = "Bash"
        elif isinstance(ev, Commit):
            self._git("add", "-A", at_ms=self.now_ms)
            out = self._git("commit", "-m", ev.message, at_ms=self.now_ms)
            calls, results, (event, payload) = writer.bash(
                f'git add -A && git commit -m "{ev.message}"', out, True, 0,
                "Commit the change", self.now_ms, duration_ms=300)
            tool = "Bash"
        elif isinstance(ev, Edit):
            original = self.files[ev.path]
            if ev.old not in original:
                raise ValueError(f"{self.story.id}: Edit of {ev.path}: old text not found")
            self._put(ev.path, original.replace(ev.old, ev.new, 1))
            calls, results, (event, payload) = writer.edit(
                str(self.proj / ev.path), ev.old, ev.new, original, self.now_ms)
            tool = "Edit"
        elif isinstance(ev, Write):
            previous = self.files.get(ev.path)
            self._put(ev.path, ev.content)
            calls, results, (event, payload) = writer.write(
                str(self.proj / ev.path), ev.content, previous, self.now_ms)
            tool = "Write"
        elif isinstance(ev, Read):
            calls, results, (event, payload) = writer.read(
                str(self.proj / ev.path), self.files[ev.path], self.now_ms)
            tool = "Read"
        else:
            raise TypeError(f"unknown event {ev!r}")
        append(calls)
        self.fire(event, payload, tool=tool)
        append(results)

    def _put(self, rel: str, content: str) -> None:
        self.files[rel] = content
        target = self.proj / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)


def hook_context(event: str, stdout: str) -> str:
    """The context a hook's stdout adds for the model: ``additionalContext`` of its JSON, or
    (SessionStart and UserPromptSubmit only) plain text."""
    text = stdout.strip()
    if not text or event not in ("SessionStart", "UserPromptSubmit"):
        return ""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if not isinstance(data, dict):
        return text
    spec = data.get("hookSpecificOutput")
    if isinstance(spec, dict) and isinstance(spec.get("additionalContext"), str):
        return str(spec["additionalContext"])
    return ""


def kenning_snapshot(replay: StoryReplay, at_ms: int) -> dict[str, tuple[str, float, str]]:
    """Every memory of the story's project: id -> (summary and content, confidence as of
    ``at_ms``, its type or "episodic" for a kept user turn), read through Kenning's public API
    without an embedder."""
    from kenning import Kenning

    if not os.path.exists(replay.store_path):
        return {}
    with Kenning(replay.store_path, project=replay.kenning_project, embedder=None,
                 clock=lambda: at_ms) as k:
        return {m.id: (f"{m.summary}\n{m.content}", m.confidence,
                       "episodic" if "episodic" in m.tags else m.type.value)
                for m in k.list(limit=None)}


def kenning_ended(replay: StoryReplay) -> list[str]:
    """The ids of the story's memories that are no longer current (their validity closed:
    superseded, failed or retired), read through Kenning's public API without an embedder."""
    from kenning import Kenning

    if not os.path.exists(replay.store_path):
        return []
    with Kenning(replay.store_path, project=replay.kenning_project, embedder=None,
                 clock=lambda: replay.now_ms) as k:
        return sorted(m.id for m in k.list(limit=None) if m.valid_to is not None)


def kenning_supersessions(replay: StoryReplay) -> list[list[str]]:
    """Every supersession the story's store holds, as (old id, new id, how it was decided):
    the reason's opening words ("changed in a later session", "replaced by a later statement"),
    which name the mechanism that made it. Read through Kenning's public API."""
    from kenning import Kenning

    if not os.path.exists(replay.store_path):
        return []
    with Kenning(replay.store_path, project=replay.kenning_project, embedder=None,
                 clock=lambda: replay.now_ms) as k:
        ended = [m.id for m in k.list(limit=None) if m.valid_to is not None]
        return sorted([link.to_id, link.from_id, mechanism(str(link.metadata.get("reason") or ""))]
                      for mid in ended for link in k.links(mid)
                      if link.to_id == mid and link.relationship == "supersedes")


def mechanism(reason: str) -> str:
    """How a supersession was decided, from its reason: its own words before the first colon,
    parenthesis or code span, at most ``MECHANISM_WORDS`` of them ("replaced by a later
    statement (judged 0.71): ..." -> "replaced by a later statement"; "the project now runs
    `...`" -> "the project now runs"); "stated" when there are none (one a person or an agent
    made). Never anything the story said: a held-out run's figures are keyed by it."""
    head = re.split(r"[:(`]", reason, maxsplit=1)[0].split()[:MECHANISM_WORDS]
    return " ".join(head) or "stated"


MECHANISM_WORDS = 8
