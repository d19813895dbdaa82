"""SessionEnd never makes the client wait: the hook queues the session end and returns while a
detached worker runs it; a worker that is killed leaves its request for the next SessionStart."""
# ruff: noqa: F811  (pytest fixtures come from tests.test_hooks)

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from kenning import Kenning
from kenning.filelock import DirLock
from kenning.journal import detached
from kenning.places.keys import project_key
from kenning.places.lean import journal_dir
from tests.mcp_fixtures import TranscriptWriter
from tests.sessionend import wait_for_session_ends
from tests.test_hooks import env, errors, hook, payload, project, seeded  # noqa: F401

RULE = "in this repo we use pnpm for installing packages, never npm. ok, the navbar next?"


def _transcript(project: Path, session: str) -> Path:
    t = TranscriptWriter(cwd=str(project), session=session)
    t.user(RULE)
    t.say("On it.")
    return t.write(project / f"{session}.jsonl")


def _rules(env: dict[str, str], project: Path) -> list[str]:
    with Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                 embedder=None) as k:
        return [m.summary for m in k.list(types="preference")]


def _workers(location: str) -> list[int]:
    """Pids of session-end workers of this store."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if b"kenning.journal.detached" in args and location.encode() in args:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue  # dead, not yet reaped
            except OSError:
                continue
            found.append(int(pid))
    return found


def _end(env: dict[str, str], project: Path, session: str):
    """The SessionEnd hook alone (``tests.test_hooks.hook`` would wait for the worker)."""
    import subprocess

    from tests.test_hooks import HOOK

    body = payload("SessionEnd", project, session_id=session,
                   transcript_path=str(_transcript(project, session)), reason="other")
    return subprocess.run([str(HOOK), "SessionEnd"], input=body.encode(), env=env,
                          capture_output=True, timeout=60)


def test_session_end_answers_before_its_work_is_done(env, project) -> None:
    location = env["KENNING_DB"]
    lock = DirLock(journal_dir(location), detached.LOCK)
    assert lock.acquire(0)  # a worker that cannot start its work until we let it
    try:
        done = _end(env, project, "s-1")
        assert (done.returncode, done.stdout) == (0, b"")
        assert len(detached.pending(location)) == 1  # queued, not yet run
        assert not Path(location).exists() or not _rules(env, project)
    finally:
        lock.release()
    wait_for_session_ends(location)
    assert _rules(env, project) == ["Use pnpm for installing packages, never npm."]
    assert not detached.pending(location) and not errors(env)


def test_a_killed_worker_is_finished_by_the_next_session_start(env, project) -> None:
    location = env["KENNING_DB"]
    lock = DirLock(journal_dir(location), detached.LOCK)
    assert lock.acquire(0)
    try:
        assert _end(env, project, "s-1").returncode == 0
        pids: list[int] = []
        for _ in range(200):  # the worker is starting; it waits for the lock we hold
            pids = _workers(location)
            if pids:
                break
            time.sleep(0.05)
        assert pids
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        for _ in range(200):  # SIGKILL is delivered asynchronously
            if not _workers(location):
                break
            time.sleep(0.05)
    finally:
        lock.release()
    assert len(detached.pending(location)) == 1 and not _workers(location)
    start = hook("SessionStart", payload("SessionStart", project, source="startup"), env)
    assert start.returncode == 0
    wait_for_session_ends(location)
    assert _rules(env, project) == ["Use pnpm for installing packages, never npm."]
    assert not errors(env)


def test_session_end_runs_in_place_when_detaching_is_off(env, project) -> None:
    inline = dict(env, KENNING_HOOKS_DETACH_SESSION_END="false")
    done = _end(inline, project, "s-1")
    assert done.returncode == 0
    assert not detached.pending(env["KENNING_DB"]) and not _workers(env["KENNING_DB"])
    assert _rules(env, project) == ["Use pnpm for installing packages, never npm."]


def test_the_next_session_start_reads_what_is_there_by_default(env, project) -> None:
    """After /clear the next conversation starts at once: its SessionStart briefs from what
    the store holds while the last conversation's end is still running, and that end still
    finishes afterwards (nothing it learned is lost)."""
    import json

    from kenning.config import DEFAULTS

    assert DEFAULTS["hooks"]["session_start_wait_ms"] == 0
    seeded(env, project).close()
    location = env["KENNING_DB"]
    lock = DirLock(journal_dir(location), detached.LOCK)
    assert lock.acquire(0)  # the end is running and cannot finish while we hold this
    try:
        assert _end(env, project, "s-1").returncode == 0
        start = hook("SessionStart", payload("SessionStart", project, session_id="s-2",
                                             source="clear"), env)
        assert start.returncode == 0 and start.stdout, (start.stderr, errors(env))
        brief = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "billing ledger" in brief.lower()  # what was there before
        assert len(detached.pending(location)) == 1  # answered without the end
    finally:
        lock.release()
    wait_for_session_ends(location)
    assert _rules(env, project) == ["Use pnpm for installing packages, never npm."]
    assert not detached.pending(location) and not errors(env)


def test_a_session_start_set_to_wait_is_briefed_from_the_running_end(env, project) -> None:
    """With ``session_start_wait_ms`` set, a session started right after the last one ended
    is briefed from what it learned: the start waits (up to that long) for the worker still
    running."""
    import json
    import threading

    location = env["KENNING_DB"]
    lock = DirLock(journal_dir(location), detached.LOCK)
    assert lock.acquire(0)
    released = threading.Timer(0.5, lock.release)
    try:
        assert _end(env, project, "s-1").returncode == 0
        released.start()
        patient = dict(env, KENNING_HOOKS_SESSION_START_WAIT_MS="30000")  # a loaded machine
        start = hook("SessionStart", payload("SessionStart", project, session_id="s-2",
                                             source="startup"), patient)
    finally:
        released.join()
    assert start.stdout, (start.stderr, errors(env))
    brief = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Use pnpm for installing packages, never npm." in brief
    assert not detached.pending(location) and not errors(env)
