"""Working file-only when the store cannot be used: the CLI and the MCP server keep what they
are told in files (stored, in the right project, once the store is back), recall reads the
files, ``kenning doctor`` still reports; bad input is still refused."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, stdio_client

from kenning import Kenning
from kenning.fileonly import pending, remember, unavailable
from kenning.models import Filters
from tests.mcp_fixtures import stdio_params

KENNING = str(Path(sys.executable).with_name("kenning"))


def corrupt(path: Path) -> None:
    path.write_bytes(b"this is not a database " * 300)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("KENNING_")}
    e.update(KENNING_HOME=str(tmp_path / "kh"), KENNING_DB=str(tmp_path / "k.db"),
             KENNING_PROJECT="cli-proj", KENNING_EMBEDDER="none", HOME=str(tmp_path / "home"))
    return e


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KENNING, *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_cli_keeps_working_from_files_with_a_corrupt_store(tmp_path: Path,
                                                               env: dict[str, str]) -> None:
    db = tmp_path / "k.db"
    corrupt(db)
    r = run(env, "remember", "Deploys happen on Tuesdays only", "--type", "decision",
            "--confidence", "0.9")
    assert r.returncode == 0 and "not a usable Kenning store" in r.stderr
    assert "it is stored when the store is back" in r.stdout
    bad = run(env, "remember", "x", "--type", "nonsense")
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1
    assert "unknown type 'nonsense'" in bad.stderr
    secret = run(env, "remember", "the token is ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    assert secret.returncode == 0
    kept = (tmp_path / "k.db.hooks" / "pending.jsonl").read_text()
    assert "ghp_abcdefghij" not in kept and kept.count("\n") == 2  # redacted; the bad one not

    found = run(env, "recall", "when do we deploy?", "--json")
    assert found.returncode == 0
    hits = json.loads(found.stdout)
    assert hits["file_only"] and "Tuesdays" in hits["hits"][0]["text"]

    doctor = run(env, "doctor")
    assert doctor.returncode == 0 and "UNAVAILABLE" in doctor.stdout
    assert "2 memories kept" in doctor.stdout

    db.unlink()  # the store is back (here: a fresh one)
    ok = run(env, "remember", "Run the linter before pushing")
    assert ok.returncode == 0 and ok.stdout.startswith("remembered")
    with Kenning(db, project="cli-proj", embedder=None) as k:
        texts = {m.content for m in k.list(limit=None)}
    assert {"Deploys happen on Tuesdays only", "Run the linter before pushing"} <= texts
    assert len(texts) == 3 and not pending(str(db))


def test_pending_memories_are_stored_in_the_project_they_were_said_in(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    said = 1_780_000_000_000
    remember(str(db), "project-a", "Use pnpm in project A", {"type": "decision"}, said)
    remember(str(db), "project-b", "Use poetry in project B", {"type": "decision"}, said + 1)
    with Kenning(db, project="project-b", embedder=None) as k:
        counts = k.ingest_journal()
        assert counts["pending_remembered"] == 2
        a = k.store.list(Filters(project="project-a"), limit=None)
        assert [m.content for m in a] == ["Use pnpm in project A"]
        assert a[0].created_at == said  # when it was said, not when it was stored
        assert k.project == "project-b"
        assert k.ingest_journal()["pending_remembered"] == 0  # stored once


def test_what_counts_as_an_unavailable_store() -> None:
    from kenning.errors import StoreError, ValidationError

    assert "locked" in (unavailable(sqlite3.OperationalError("database is locked")) or "")
    assert unavailable(StoreError("x is not a usable Kenning store")) is not None
    assert unavailable(ValidationError("unknown type")) is None
    assert unavailable(KeyError("bug")) is None


def test_the_mcp_server_serves_from_files_until_the_store_is_back(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    corrupt(db)

    async def scenario() -> None:
        async with stdio_client(stdio_params(tmp_path, db)) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            saved = await s.call_tool("save", {"text": "Staging deploys run from main",
                                               "type": "decision"})
            assert not saved.is_error, saved.content[0].text
            out = json.loads(saved.content[0].text)
            assert out["id"].startswith("pending:") and out["links"] == 0
            found = await s.call_tool("recall", {"query": "staging deploys"})
            assert "Staging deploys run from main" in found.content[0].text
            refused = await s.call_tool("why", {"topic": "deploys"})
            assert refused.is_error and "store is unavailable" in refused.content[0].text
            db.unlink()  # back
            again = await s.call_tool("save", {"text": "Production deploys need two approvals",
                                               "type": "decision"})
            assert not again.is_error and not json.loads(
                again.content[0].text)["id"].startswith("pending:")

    asyncio.run(scenario())
    with Kenning(db, project="mcp-proj", embedder=None) as k:
        assert {m.content for m in k.list(limit=None)} == {
            "Staging deploys run from main", "Production deploys need two approvals"}


def test_a_full_disk_is_one_line_and_leaves_the_store_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No disk space: SQLite refuses the commit (SQLITE_FULL) and the pending file beside the
    store cannot take the memory either (ENOSPC). ``remember`` says so in one line, exit 1;
    ``recall`` still answers (its upkeep writes wait); ``doctor`` names the cause. (A real
    full disk needs a small file system mounted, which a test cannot count on.)"""
    import errno
    from contextlib import contextmanager

    from kenning import fileonly
    from kenning.cli import main
    from kenning.store.sqlite import SQLiteStore

    db = tmp_path / "k.db"
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "kh"))
    monkeypatch.setenv("KENNING_EMBEDDER", "none")
    assert main(["remember", "--db", str(db), "Deploys happen on Tuesdays only"]) == 0
    capsys.readouterr()

    @contextmanager
    def full(self: SQLiteStore, *, marks: bool = True):  # type: ignore[no-untyped-def]
        raise sqlite3.OperationalError("database or disk is full")
        yield

    def no_room(path: str, event: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    import shutil

    monkeypatch.setattr(SQLiteStore, "_write", full)
    monkeypatch.setattr(fileonly, "_append", no_room)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(  # type: ignore[attr-defined]
        10**9, 10**9, 0))
    assert main(["remember", "--db", str(db), "Run the linter before pushing"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: the disk is full: nothing was "
                                                   "written")
    assert main(["recall", "--db", str(db), "when do we deploy?"]) == 0
    assert "Tuesdays" in capsys.readouterr().out
    assert main(["doctor", "--db", str(db)]) == 0
    assert "0 MB free beside the store: the disk is full" in capsys.readouterr().out
    monkeypatch.undo()
    with Kenning(db, embedder=None) as k:
        assert [m.content for m in k.list(limit=None)] == ["Deploys happen on Tuesdays only"]
    assert not pending(str(db))
