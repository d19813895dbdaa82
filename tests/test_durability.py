"""Nothing is lost and nothing leaks: concurrent writers, secrets at rest, atomic failures."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kenning import Kenning, ValidationError
from tests.secret_corpus import SECRET_SAMPLES

WRITER = textwrap.dedent(
    """
    import sys
    from kenning import Kenning
    worker, n, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    with Kenning(path, project="race") as k:
        for i in range(n):
            k.remember(f"worker {worker} learned fact {i}: cache key v{i % 7} for service {worker}",
                       type="insight", topic=f"svc{worker}")
    print("ok")
    """
)


def test_eight_processes_write_one_store(tmp_path: Path) -> None:
    """The issue's bar: 8 processes x 500 memories at once -> 4,000 memories, no error.

    Keyword-only here so the test measures the store, not 8 copies of the model on 2 cores
    (benchmarks/bench_core.py runs the same race with the embedder)."""
    db = tmp_path / "race.db"
    Kenning(db, project="race", embedder=None).close()  # create the schema once
    env = dict(os.environ, KENNING_EMBEDDER="none", KENNING_HOME=str(tmp_path / "home"))
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(w), "500", str(db)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for w in range(8)
    ]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in results if err]
    with Kenning(db, project="race", embedder=None) as k:
        assert k.count() == 4000
        assert all(k.count(topic=f"svc{w}") == 500 for w in range(8))


def test_first_open_races_are_safe(tmp_path: Path) -> None:
    """Several processes creating the same new store at once all succeed (migrations queue)."""
    db = tmp_path / "fresh.db"
    env = dict(os.environ, KENNING_EMBEDDER="none", KENNING_HOME=str(tmp_path / "home"))
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(w), "5", str(db)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for w in range(6)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with Kenning(db, project="race", embedder=None) as k:
        assert k.count() == 30


def test_secrets_never_reach_the_database_file(tmp_path: Path, embedder) -> None:
    db = tmp_path / "secrets.db"
    with Kenning(db, project="p", embedder=embedder) as k:
        for n, (text, _secret) in enumerate(SECRET_SAMPLES):
            k.remember(text, topic="creds", source=f"sample {n}",
                       metadata={"context": text, "password": "hunter2-fake-pass"})
        k.update(k.list(limit=1)[0].id, text="rotated: " + SECRET_SAMPLES[0][0])
        assert k.status()["redactions"] >= len(SECRET_SAMPLES)
        k.build_prompt_index()
    # The store, its WAL and everything beside it (the hooks' journal, the prompt index).
    raw = b"".join(p.read_bytes() for p in tmp_path.rglob("*")
                   if p.is_file() and p.relative_to(tmp_path).parts[0].startswith("secrets.db"))
    leaked = [secret for _, secret in SECRET_SAMPLES if secret.encode() in raw]
    assert leaked == []
    assert b"hunter2-fake-pass" not in raw
    assert b"[REDACTED:" in raw


def test_failed_batch_leaves_store_unchanged(tmp_path: Path, embedder) -> None:
    db = tmp_path / "atomic.db"
    with Kenning(db, project="p", embedder=embedder) as k:
        k.remember("kept")
        before = _dump(db)
        with pytest.raises(ValidationError):
            k.remember_many([{"text": "a"}, {"text": "b", "confidence": 7}])
        assert [m.content for m in k.list()] == ["kept"]
        assert _dump(db) == before  # every table, row for row, as another process reads it


def _dump(db: Path) -> list[str]:
    """The store's whole content as SQL, read through a connection of its own."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()
