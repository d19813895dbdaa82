"""A session start answered from the start prepared ahead (``kenning.journal.prepared``): the
same briefing a full start gives, and a full start whenever anything it came from changed."""
# ruff: noqa: F811  (pytest fixtures come from tests.test_hooks)

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kenning import Kenning, journal
from kenning.automemory.paths import auto_memory_dir
from kenning.journal import prepared
from kenning.lifecycle import SessionService
from kenning.places.keys import project_key
from kenning.places.lean import journal_dir
from tests.test_hooks import env, errors, hook, payload, project, seeded  # noqa: F401

# The hook's entry run in a process that then says whether it opened the store's facade.
PROBE = ("import sys\nfrom kenning.hooks import run\n"
         "run.main(['SessionStart'], stdin=sys.stdin.read(), budget=False)\n"
         "sys.stderr.write('full' if 'kenning.facade' in sys.modules else 'prepared')\n")


def start(env: dict[str, str], project: Path, session: str) -> tuple[str, str]:
    """A SessionStart of ``session``: its briefing, and whether it was a full or a prepared
    start."""
    done = subprocess.run([sys.executable, "-c", PROBE], input=payload(
        "SessionStart", project, session_id=session, source="startup").encode(), env=env,
        capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    how = done.stderr.decode().strip().splitlines()[-1]
    if not done.stdout.strip():
        return "", how
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"], how


def end(env: dict[str, str], project: Path, session: str) -> None:
    """A SessionEnd of ``session``, once its background worker has finished."""
    assert hook("SessionEnd", payload("SessionEnd", project, session_id=session,
                                      reason="other"), env).returncode == 0


def opened(env: dict[str, str], project: Path) -> Kenning:
    return Kenning(env["KENNING_DB"], project=project_key(str(project.resolve())),
                   embedder=None)


# Memories under auto memory's bar (MEMORY.md leaves them out): the briefing shows them.
LOW = ["The nightly export job writes parquet files to the archive bucket",
       "Invoices are numbered per tenant, starting from 1000",
       "The admin dashboard reads from the replica, never the primary"]


def ended_once(env: dict[str, str], project: Path) -> str:
    """A seeded store whose first conversation started and ended: the briefing it got."""
    with seeded(env, project) as k:
        for text in LOW:
            k.remember(text, type="context", confidence=0.5)
    first, how = start(env, project, "s-1")
    assert how == "full" and first
    end(env, project, "s-1")
    return first


def journalled(env: dict[str, str], session: str) -> list[dict[str, object]]:
    path = Path(journal_dir(env["KENNING_DB"])) / "events.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [e for e in map(json.loads, lines) if e["session_id"] == session]


def test_the_next_conversation_gets_the_briefing_a_full_start_gives(env, project) -> None:
    """After a session end, the next conversation's start answers from what the worker
    prepared, word for word what a full start says, and journals what it showed as a full
    start does (learning judges the briefing's memories by what follows)."""
    ended_once(env, project)
    briefing, how = start(env, project, "s-2")
    assert how == "prepared" and all(text in briefing for text in LOW)
    shown = [e for e in journalled(env, "s-2") if e["kind"] == "injected"]
    assert [e["data"]["channel"] for e in shown] == ["start"]
    # the same start made in full (nothing prepared) by another conversation
    os.unlink(prepared.file_for(journal_dir(env["KENNING_DB"]), project_key(
        str(project.resolve()))))
    again, how = start(env, project, "s-3")
    assert how == "full" and again == briefing
    assert not errors(env)


def test_a_resumed_conversation_is_briefed_from_its_own_prepared_start(env, project) -> None:
    """A full start prepares the next start of its own conversation (a resume, a compaction):
    that one answers at once with the same briefing; another conversation starting meanwhile
    gets a full start (the first one is still open)."""
    seeded(env, project).close()
    first, how = start(env, project, "s-1")
    assert how == "full"
    tool = payload("PostToolUse", project, session_id="s-1", tool_name="Bash",
                   tool_input={"command": "ls"}, tool_response={"stdout": "a\n"})
    assert hook("PostToolUse", tool, env).returncode == 0
    assert start(env, project, "s-1") == (first, "prepared")
    assert start(env, project, "s-2") == (first, "full")


def test_a_memory_written_since_makes_a_full_start_that_shows_it(env, project) -> None:
    ended_once(env, project)
    with opened(env, project) as k:
        k.remember("Always run the migrations with --dry-run first on staging",
                   type="preference", confidence=0.95)
    briefing, how = start(env, project, "s-2")
    assert how == "full" and "--dry-run first on staging" in briefing


def test_a_conversation_begun_meanwhile_makes_a_full_start(env, project) -> None:
    """Another conversation's events still in the journal, or recorded in the store directly:
    a full start sees to them (it ends a conversation that was killed)."""
    ended_once(env, project)
    other = payload("PostToolUse", project, session_id="elsewhere", tool_name="Bash",
                    tool_input={"command": "ls"}, tool_response={"stdout": "a\n"})
    assert hook("PostToolUse", other, env).returncode == 0
    assert start(env, project, "s-2")[1] == "full"
    end(env, project, "s-2")
    end(env, project, "elsewhere")
    assert start(env, project, "s-3")[1] == "prepared"
    with opened(env, project) as k:
        k.record_events([{"id": "e-1", "session_id": "killed", "at_ms": k.clock(),
                          "kind": "start", "data": {"source": "startup"}}])
    assert start(env, project, "s-4")[1] == "full"


def test_changed_settings_or_files_make_a_full_start(env, project) -> None:
    """Fewer briefing lines configured, a person's file in the auto memory directory, Claude
    Code's project settings: each is a full start (which reads them)."""
    ended_once(env, project)
    briefing, how = start(env, project, "s-2")
    assert how == "prepared"
    fewer, how = start({**env, "KENNING_HOOKS_BRIEFING_K": "1"}, project, "s-2")
    assert how == "full" and len(fewer) < len(briefing)
    assert start(env, project, "s-2")[1] == "full"  # the last start prepared other settings
    assert start(env, project, "s-2") == (briefing, "prepared")
    memory_dir = auto_memory_dir(project, env=env)
    assert (memory_dir / "MEMORY.md").exists()  # the session end wrote it
    (memory_dir / "notes.md").write_text("my own scratch notes\n")
    assert start(env, project, "s-2")[1] == "full"
    assert start(env, project, "s-2")[1] == "prepared"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"autoMemoryEnabled": true}\n')
    assert start(env, project, "s-2")[1] == "full"


def test_a_start_while_a_session_end_runs_is_a_full_one(env, project) -> None:
    """A session-end worker still running: the start reads what is there, in full."""
    from kenning.filelock import DirLock
    from kenning.journal import detached

    ended_once(env, project)
    lock = DirLock(journal_dir(env["KENNING_DB"]), detached.LOCK)
    assert lock.acquire(0)
    try:
        assert start(env, project, "s-2")[1] == "full"
    finally:
        lock.release()
    assert start(env, project, "s-3")[1] == "full"  # s-2 is open now


def test_events_a_restore_leaves_waiting_are_never_an_hour_old() -> None:
    """A restore leaves the starting conversation's own recent events in the journal: younger
    than lifecycle's idle hour, so that conversation is never one a full start would have
    taken for abandoned and learned from."""
    idle = inspect.signature(SessionService.unended).parameters["idle_ms"].default
    assert idle == inspect.signature(
        SessionService.learn_from_abandoned_sessions).parameters["idle_ms"].default
    assert idle > prepared.PENDING_MAX_MS


def test_restore_holds_only_while_the_state_is_young_and_the_store_unchanged(
        env, project) -> None:
    ended_once(env, project)
    location, key = env["KENNING_DB"], project_key(str(project.resolve()))
    path = prepared.file_for(journal_dir(location), key)
    state = json.loads(Path(path).read_text())
    settings_key, root, made = state["key"], state["root"], state["made_ms"]
    assert state["session"] is None  # the worker's: for any conversation
    assert prepared.restore(location, key, root, settings_key, "s-2", made + 1000)
    assert prepared.restore(location, key, root, settings_key, "s-2",
                            made + prepared.MAX_AGE_MS + 1) is None
    assert prepared.restore(location, key, root, settings_key, "s-2", made - 1) is None
    assert prepared.restore(location, key, root, "other settings", "s-2", made) is None
    assert prepared.restore(location, key, "/elsewhere", settings_key, "s-2", made) is None
    # the starting conversation's own start waiting in the journal, while it is recent
    journal.append(journal_dir(location), [{"id": "x-1", "session_id": "s-2", "at_ms": made,
                                            "kind": "start", "data": {}}])
    assert prepared.restore(location, key, root, settings_key, "s-2", made + 1000)
    assert prepared.restore(location, key, root, settings_key, "s-2",
                            made + prepared.PENDING_MAX_MS + 1) is None
    assert prepared.restore(location, key, root, settings_key, "s-3", made + 1000) is None
    # a thread or process writing after the markers were read: not kept
    assert not prepared.save(location, key, {**state, "markers": "0" * 64})
    with opened(env, project) as k:
        k.remember("The staging database is refreshed nightly", type="context")
    assert prepared.restore(location, key, root, settings_key, "s-2", made + 1000) is None


def test_a_file_rewritten_within_its_clock_tick_is_told_by_its_bytes(tmp_path) -> None:
    """Same size, same time, same inode, other bytes (a second write in the same tick of the
    file system's clock): a file changed close to the snapshot is checksummed, so it shows."""
    tree = tmp_path / "memory"
    (tree / "sub").mkdir(parents=True)
    note = tree / "sub" / "note.md"
    note.write_text("use pnpm\n")
    settings = tmp_path / "settings.json"
    seen = prepared.signature([str(settings)], [str(tree)], racy_after_ns=0)
    assert seen is not None and seen[str(settings)] is None and len(seen[str(note)]) == 4
    racy = frozenset(p for p, s in seen.items() if s and len(s) > 3)
    assert prepared.signature([str(settings)], [str(tree)], checksummed=racy) == seen
    st = note.stat()
    with open(note, "r+b") as f:  # rewritten in place, its time put back
        f.write(b"use bun!\n")
    os.utime(note, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert prepared.signature([str(settings)], [str(tree)], checksummed=racy) != seen
    # and a file that was not racy is compared by its stamp alone
    calm = prepared.signature([str(settings)], [str(tree)])
    assert calm is not None and len(calm[str(note)]) == 3
    settings.write_text("{}")
    assert prepared.signature([str(settings)], [str(tree)]) != calm


def test_too_many_files_to_watch_is_not_prepared(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(prepared, "MAX_FILES", 3)
    for i in range(5):
        (tmp_path / f"{i}.md").write_text("x")
    assert prepared.signature([], [str(tmp_path)]) is None


@pytest.mark.parametrize("line", [
    {"session_id": "s-2", "kind": "injected", "data": {"memories": []}},  # a prompt's
    {"session_id": "s-2", "kind": "remember", "data": {"text": "x"}},
    {"session_id": "other", "kind": "tool", "data": {}},
])
def test_a_journal_holding_what_changes_a_briefing_is_not_quiet(tmp_path, line) -> None:
    directory = tmp_path / "journal"
    directory.mkdir()
    quiet = {"session_id": "s-2", "kind": "start", "at_ms": 5, "data": {}}
    (directory / "events.jsonl").write_text(json.dumps(quiet) + "\n")
    assert prepared._journal_quiet(str(directory), "s-2", 0)
    assert not prepared._journal_quiet(str(directory), "s-2", 10)  # older than allowed
    with open(directory / "events.jsonl", "a") as f:
        f.write(json.dumps({**line, "at_ms": 5}) + "\n")
    assert not prepared._journal_quiet(str(directory), "s-2", 0)


def test_the_hooks_guide_says_how_old_a_prepared_start_may_be() -> None:
    guide = (Path(__file__).resolve().parent.parent / "docs" / "claude-code.md").read_text()
    assert f"at most {prepared.MAX_AGE_MS // 3_600_000} hours old" in guide


def test_a_prepared_start_ends_when_a_rule_it_shows_is_taken_over(env, project) -> None:
    """A successor set to take over at a later time: the start prepared before then holds
    until then only, so the old rule is never briefed as current after it."""
    with opened(env, project) as k:
        old = k.remember("Deploy with Capistrano from the release branch", type="preference",
                         confidence=0.5)
        takes_over = k.clock() + 20 * 60_000
        new = k.remember("Deploy with the Helm chart from main", type="preference",
                         confidence=0.5, created_at=takes_over)
        k.supersede(new.id, old.id)
    ended_once(env, project)
    location, key = env["KENNING_DB"], project_key(str(project.resolve()))
    state = json.loads(Path(prepared.file_for(journal_dir(location), key)).read_text())
    assert state["until_ms"] == takes_over
    assert "Capistrano" in state["briefing"]
    args = (location, key, state["root"], state["key"], "s-2")
    assert prepared.restore(*args, takes_over - 1)
    assert prepared.restore(*args, takes_over) is None


def test_a_commit_between_conversations_keeps_the_prepared_start(env, project) -> None:
    """Committing moves the git HEAD; with every anchored file in place the start does not
    read it, so the next conversation is still briefed from what the session end prepared."""
    ended_once(env, project)
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "wip"], check=True)
    assert start(env, project, "s-2")[1] == "prepared"


def test_a_start_that_cannot_prepare_still_briefs_and_says_why(env, project) -> None:
    """Where the prepared start would go is taken by a file: the start briefs in full, logs
    the failure for ``kenning doctor``, and every later start is a full one."""
    seeded(env, project).close()
    Path(journal_dir(env["KENNING_DB"])).mkdir(parents=True, exist_ok=True)
    (Path(journal_dir(env["KENNING_DB"])) / prepared.DIR).write_text("not a directory")
    briefing, how = start(env, project, "s-1")
    assert how == "full" and "Navbar" in briefing
    assert start(env, project, "s-1") == (briefing, "full")
    assert any(e["where"] == "hook SessionStart: preparing the next start" for e in errors(env))
