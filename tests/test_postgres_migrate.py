"""``kenning migrate``: SQLite -> PostgreSQL -> SQLite keeps every byte, and resumes cleanly."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.models import Filters
from kenning.store.migrate import fingerprint, migrate
from kenning.store.postgres import PostgresStore
from kenning.store.sqlite import SQLiteStore
from tests import pg_fixtures
from tests.conftest import Clock
from tests.test_cli import KENNING

pg_server, pg_dsn = pg_fixtures.pg_server, pg_fixtures.pg_dsn  # a real server per session


def build_source(path: Path, embedder: MiniLMEmbedder, clock: Clock) -> dict:
    """A SQLite store with vectors, explicit and automatic links, graph scores, co-access
    counters, a confidence log, a code anchor and meta."""
    code = path.parent / "code"
    code.mkdir()
    (code / "auth.py").write_text("def issue_token(user):\n    return user\n")
    with Kenning(path, project="proj", embedder=embedder, clock=clock) as k:
        k.project_root = code
        old = k.remember("Use JWT for auth: stateless tokens", type="decision", topic="auth",
                         tags=["security", "api"], metadata={"ticket": "SEC-1", "n": 1.5})
        for i in range(23):
            clock.advance(1000)
            k.remember(f"Note {i}: the build cache lives in .cache/{i}", type="insight",
                       topic="build")
        new = k.remember("Use sessions instead of JWT", type="decision", topic="auth",
                         agent="reviewer")
        k.link(new.id, old.id, "supersedes", reason="refresh too slow")
        for _ in range(3):
            clock.advance(1000)
            k.recall("JWT sessions", k=3)
        k.recall("build cache", k=3)
        for i in range(12):  # uses fill the confidence log (recall alone changes no confidence)
            k.get(old.id if i % 2 else new.id, touch=True)
        k.update(old.id, confidence=0.42)
        k.feedback(new.id, -0.05, "refresh broke in staging")
        k.consolidate()
        k.store.set_meta("custom:state", '{"x": 1}')
        k.remember("auth.py issue_token() returns the user unsigned", type="gotcha")
        (code / "auth.py").write_text("def issue_token(user):\n    return sign(user)\n")
        assert k.check_drift()["stale"]  # a stale memory and its anchor travel too
        k.settle()  # the last write's vector follows it: the copy starts once it is there
        return fingerprint(k.store)


def test_sqlite_to_postgres_to_sqlite_keeps_hashes(
    tmp_path: Path, pg_dsn: str, embedder: MiniLMEmbedder, clock: Clock
) -> None:
    before = build_source(tmp_path / "a.db", embedder, clock)
    assert before["counts"]["vectors"] == 26 and before["counts"]["links"] >= 2
    assert before["counts"]["graph_scores"] == 25 and before["counts"]["anchors"] == 1
    assert before["counts"]["co_access"] >= 4 and before["counts"]["confidence_log"] >= 14
    src, pg = SQLiteStore(tmp_path / "a.db"), PostgresStore(pg_dsn)
    try:
        there = migrate(src, pg, batch=7, bulk=True)  # HNSW built once at the end
        assert there.verified and there.copied["memories"] == 26
        assert there.copied["anchors"] == 1
        assert there.copied["co_access"] == before["counts"]["co_access"]
        assert there.copied["confidence_log"] == before["counts"]["confidence_log"]
        assert [i["valid"] for i in pg.server_info()["hnsw_indexes"]] == [True]
        assert set(pg.co_access_pairs(1)) == set(src.co_access_pairs(1))
        assert max(n for _, _, n, _ in pg.co_access_pairs(1)) == 3
        ids = [m.id for m in src.list(Filters(), limit=None)]
        assert {i: pg.confidence_history(i) for i in ids} == {
            i: src.confidence_history(i) for i in ids}
    finally:
        src.close()
    back_store = SQLiteStore(tmp_path / "b.db")
    try:
        back = migrate(pg, back_store, batch=10)
        assert back.verified
        assert back.target_fingerprint == before
    finally:
        pg.close()
        back_store.close()
    with Kenning(tmp_path / "b.db", project="proj", embedder=embedder, clock=clock) as k:
        assert k.why("auth")[0].memory.content == "Use sessions instead of JWT"
        newest = k.recall("JWT sessions", k=1)[0].memory
        assert newest.topic == "auth"
        k.get(newest.id, touch=True)  # the migrated store keeps learning from use
        reasons = [h["reason"] for h in k.confidence_history(newest.id)]
        assert reasons[-2:] == ["refresh broke in staging", "fetched by id"]


def test_interrupted_migration_resumes_without_duplicates(
    tmp_path: Path, pg_dsn: str, embedder: MiniLMEmbedder, clock: Clock
) -> None:
    before = build_source(tmp_path / "a.db", embedder, clock)
    src, pg = SQLiteStore(tmp_path / "a.db"), PostgresStore(pg_dsn)

    def stop_after_two_batches(of: str) -> Callable[[str, int, int], None]:
        def progress(phase: str, done: int, total: int) -> None:
            if phase == of and done >= 10:
                raise KeyboardInterrupt

        return progress

    try:
        with pytest.raises(KeyboardInterrupt):
            migrate(src, pg, batch=5, progress=stop_after_two_batches("memories"))
        assert pg.count(Filters()) == 10
        with pytest.raises(KeyboardInterrupt):  # then again while copying links and logs
            migrate(src, pg, batch=5, progress=stop_after_two_batches("links"))
        copied_logs = len(pg.confidence_log_rows([m.id for m in pg.scan(None, 100)]))
        assert 0 < copied_logs < before["counts"]["confidence_log"]
        again = migrate(src, pg, batch=5)
        assert again.skipped["memories"] == 26 and again.copied["memories"] == 0
        assert again.copied["confidence_log"] == before["counts"]["confidence_log"] - copied_logs
        assert again.verified and again.target_fingerprint == before
        third = migrate(src, pg, batch=5)  # a third run is a no-op
        assert (third.copied["memories"], third.copied["co_access"],
                third.copied["confidence_log"], third.copied["anchors"]) == (0, 0, 0, 0)
        assert third.verified and pg.count(Filters()) == 26
    finally:
        src.close()
        pg.close()


def test_cli_migrate_both_ways(tmp_path: Path, pg_dsn: str, embedder: MiniLMEmbedder,
                               clock: Clock, cli_env: dict[str, str]) -> None:
    before = build_source(tmp_path / "a.db", embedder, clock)
    env = dict(cli_env, KENNING_DB=str(tmp_path / "a.db"))
    out = subprocess.run([KENNING, "migrate", "--to", pg_dsn, "--json"], env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["verified"] and doc["target_fingerprint"] == before
    human = subprocess.run(
        [KENNING, "migrate", "--from", pg_dsn, "--to", str(tmp_path / "c.db")], env=env,
        capture_output=True, text=True, timeout=300, check=False)
    assert human.returncode == 0, human.stderr
    assert "memories" in human.stdout and "DIFFERS" not in human.stdout
    assert human.stdout.count(" ok") == 8  # each kind of content, anchors included
    missing = subprocess.run([KENNING, "migrate", "--from", str(tmp_path / "nope.db"), "--to",
                              pg_dsn], env=env, capture_output=True, text=True, timeout=60,
                             check=False)
    assert missing.returncode == 1 and missing.stderr.startswith("error: no store at")
