"""A sync killed at any point is completed by the next run: no memory is taken for a person's
edit, none is left without its file, no file of Kenning's is left behind, no temp file stays.

Each round changes the store, then runs ``auto_sync`` in a child process that SIGKILLs itself
at the n-th file write (before the temp file is synced, or just before it is renamed into
place), so the kills land at chosen points rather than at random times. The full version with
100 kills at random times is ``benchmarks/bench_sync_crash.py``."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.automemory.files import split_frontmatter
from kenning.automemory.state import load_state
from kenning.models import Filters
from tests.automemory_fixtures import T0, Clock, home, repo  # noqa: F401

CHILD = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from kenning import Kenning

    at, where = int(sys.argv[4]), sys.argv[5]
    calls = [0]
    real = {"replace": os.replace, "fsync": os.fsync}

    def wrap(name):
        def call(*args):
            if name == where:
                calls[0] += 1
                if calls[0] > at:
                    os.kill(os.getpid(), signal.SIGKILL)
            return real[name](*args)
        return call

    k = Kenning(sys.argv[1], project="proj", embedder=None, clock=lambda: int(sys.argv[3]))
    os.replace, os.fsync = wrap("replace"), wrap("fsync")
    k.auto_sync(Path(sys.argv[2]))
    k.close()
""")


def mutate(db: Path, rng: random.Random, now: int, n: list[int]) -> None:
    with Kenning(db, project="proj", embedder=None, clock=lambda: now) as k:
        live = k.store.list(Filters(project="proj"), limit=None)
        rng.shuffle(live)
        for m in live[:4]:
            n[0] += 1
            k.update(m.id, text=f"Lesson {n[0]}: rewritten rule for {m.topic}")
        for m in live[4:6]:
            k.forget(m.id)
        for m in live[6:8]:
            k.update(m.id, confidence=0.5 if m.confidence >= 0.7 else 0.9)
        for _ in range(3):
            n[0] += 1
            k.remember(f"Lesson {n[0]}: a new rule", type="decision", topic="rules",
                       confidence=0.9)


def kenning_files(directory: Path) -> set[str]:
    out = set()
    for p in directory.glob("*.md"):
        fm, _ = split_frontmatter(p.read_text())
        meta = (fm or {}).get("metadata")
        if isinstance(meta, dict) and meta.get("kenning_id"):
            out.add(str(meta["kenning_id"]))
    return out


@pytest.mark.parametrize("layout", ["per-fact", "topic-files"])
def test_killed_syncs_are_completed_by_the_next_run(tmp_path: Path, home: Path, repo: Path,
                                                    layout: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KENNING_AUTO_MEMORY_LAYOUT", layout)  # the children read it too
    rng = random.Random(7)
    db = tmp_path / "k.db"
    with Kenning(db, project="proj", embedder=None, clock=Clock()) as k:
        k.remember_many([{"text": f"Lesson {i}: keep rule {i} in mind",
                          "type": ("pattern", "gotcha")[i % 2], "topic": f"t{i % 5}",
                          "confidence": 0.75 + (i % 5) / 20} for i in range(40)])
        d = k.auto_memory_dir(repo)
        k.auto_sync(repo)
    env = dict(os.environ)
    n, now, killed = [100], T0, 0
    for i in range(18):
        now += 60_000
        mutate(db, rng, now, n)
        where = ("fsync", "replace")[i % 2]
        at = rng.randrange(0, 3 if layout == "topic-files" else 8)
        proc = subprocess.run([sys.executable, "-c", CHILD, str(db), str(repo), str(now),
                               str(at), where], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert proc.returncode in (0, -signal.SIGKILL), proc.stderr
        killed += proc.returncode == -signal.SIGKILL
        if i % 3 == 2:  # a session start in between: importing alone takes nothing over
            with Kenning(db, project="proj", embedder=None, clock=Clock(now)) as k:
                k.auto_import(repo)
                assert load_state(k.store, d).detached == []
    assert killed >= 12
    now += 60_000
    with Kenning(db, project="proj", embedder=None, clock=lambda: now) as k:
        r = k.auto_sync(repo)
        state = load_state(k.store, d)
    assert r["imported"]["imported"] == 0  # nothing of Kenning's came back as a new memory
    assert state.detached == [] and state.pending == {}
    assert not [p.name for p in d.iterdir() if p.name.endswith(".tmp")]

    clean_db, clean_repo = tmp_path / "clean.db", tmp_path / "clean_repo"
    (clean_repo / ".git").mkdir(parents=True)
    with sqlite3.connect(db) as src, sqlite3.connect(clean_db) as dst:
        src.backup(dst)
    with Kenning(clean_db, project="proj", embedder=None, clock=lambda: now) as k:
        clean_dir = k.auto_memory_dir(clean_repo)
        k.auto_sync(clean_repo)
    assert kenning_files(d) == kenning_files(clean_dir)  # none missing, none left behind
    assert texts(d) == texts(clean_dir)  # MEMORY.md and topic files: as a clean sync writes
    if layout == "topic-files":
        assert "debugging.md" in texts(d) or "patterns.md" in texts(d)


def texts(directory: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in directory.glob("*.md")}
