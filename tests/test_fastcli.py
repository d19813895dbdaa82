"""The fast read path (``kenning.fastcli``) answers ``list``, ``show``, ``recall`` and
``--version`` exactly as the typer commands do, byte for byte, and hands everything else over.

Each case runs the installed ``kenning`` (fast path first) and ``python -m kenning.cli`` (the
typer commands alone) on the same store and compares what a person would see."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kenning import Kenning, fastcli
from kenning.models import MemoryType, Scope
from kenning.store import sqlite as sqlite_store
from kenning.store.base import SCHEMA_VERSION

KENNING = shutil.which("kenning") or str(Path(sys.executable).with_name("kenning"))
OLD = "2020-01-01T00:00:00Z"  # episodic kinds made then sit at their floor: no drift between runs


def test_times_are_written_as_the_models_write_them() -> None:
    from kenning.models import iso

    for ms in (0, 1, 999, 1_000, 1_732_700_000_123, 1_790_000_000_000, 4_102_444_800_999,
               *range(1_700_000_000_000, 1_700_000_000_000 + 5_000, 7)):
        assert fastcli._iso(ms) == iso(ms)
    assert fastcli._iso(None) is None


def test_constants_match_the_models_and_the_store() -> None:
    assert tuple(t.value for t in MemoryType) == fastcli.TYPES
    assert tuple(s.value for s in Scope) == fastcli.SCOPES
    assert fastcli.SCHEMA_VERSION == SCHEMA_VERSION
    assert fastcli._COLUMNS == sqlite_store._MEMORY_COLUMNS
    assert fastcli._LINK_COLUMNS == sqlite_store._LINK_COLUMNS


@pytest.fixture
def store(cli_env: dict[str, str]) -> dict[str, str]:
    """Memories of every shape: kinds, topics, tags, metadata, scopes, agents, another
    project's user-scope memory, outcomes, supersession, links, a same-millisecond batch."""
    db, project = cli_env["KENNING_DB"], cli_env["KENNING_PROJECT"]
    with Kenning(db, project=project, embedder=None) as k:
        jwt = k.remember("Use JWT for auth: stateless, scales", type="decision", topic="auth",
                         tags=["auth", "security"], metadata={"pr": 12, "note": "ünïcode"})
        sessions = k.remember("Switch to server sessions in Redis", type="decision",
                              topic="auth")
        k.outcome(jwt.id, "failed", "token refresh too slow")
        k.supersede(sessions.id, jwt.id, "refresh too slow")
        k.link(sessions.id, jwt.id, "inspired by")
        k.remember("Checkpoint: auth moved to sessions", type="checkpoint", topic="auth",
                   created_at=OLD)
        k.remember("Reviewer prefers small PRs", type="preference", agent="reviewer",
                   scope="local")
        k.remember_many([{"text": f"Gotcha number {i}: flaky test {i}", "type": "gotcha",
                          "topic": "ci"} for i in range(4)])
    with Kenning(db, project="another-project", embedder=None) as k:
        k.remember("Always answer in British English", type="preference", scope="user")
        k.remember("Not ours: another project's decision", type="decision")
    return cli_env


def both(env: dict[str, str], *args: str, cwd: Path | None = None
         ) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    fast = subprocess.run([KENNING, *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False, cwd=cwd)
    full = subprocess.run([sys.executable, "-m", "kenning.cli", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False, cwd=cwd)
    name = "python -m kenning.cli"  # the program name in usage lines
    full.stdout, full.stderr = (full.stdout.replace(name, "kenning"),
                                full.stderr.replace(name, "kenning"))
    if "--json" in args:  # the console script (kenning.entry) writes errors as JSON lines
        full.stderr = "".join(
            json.dumps({"error": line[len("error: "):]}, ensure_ascii=False) + "\n"
            if line.startswith("error: ") else line + "\n" for line in full.stderr.splitlines())
    return fast, full


LIST_CASES = [
    ("list",), ("list", "--json"), ("list", "-n", "3"), ("list", "--limit=2", "--offset", "1"),
    ("list", "--type", "decision"), ("list", "-t", "gotcha", "-t", "PREFERENCE", "--json"),
    ("list", "--topic", "auth"), ("list", "--topic", "  auth "), ("list", "--scope", "user"),
    ("list", "--agent", "reviewer", "--json"), ("list", "--since", "30d"),
    ("list", "--until", "2021-01-01"), ("list", "--type", "decision", "--since", "1h", "--json"),
]


@pytest.mark.parametrize("args", LIST_CASES, ids=[" ".join(a) for a in LIST_CASES])
def test_list_is_the_same_on_both_paths(store: dict[str, str], args: tuple[str, ...]) -> None:
    fast, full = both(store, *args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (full.returncode, full.stdout,
                                                          full.stderr)


def test_show_and_recall_are_the_same_on_both_paths(store: dict[str, str]) -> None:
    listed = json.loads(both(store, "list", "--json")[1].stdout)["memories"]
    ids = [m["id"] for m in listed]
    cases = [("show", i) for i in ids] + [("show", i, "--json") for i in ids]
    cases += [("show", ids[0][:12].lower()), ("show", ids[0][:8], "--json")]
    cases += [("recall", "auth sessions", "--mode", "keyword"),
              ("recall", "flaky test", "--mode", "keyword", "--json"),
              ("recall", "auth", "--mode", "keyword", "--explain", "-k", "3"),
              ("recall", "nothing like this at all", "--mode", "keyword")]
    for args in cases:
        fast, full = both(store, *args)
        assert (fast.returncode, fast.stdout, fast.stderr) == (
            full.returncode, full.stdout, full.stderr), args


def test_hybrid_recall_ranks_the_same(store: dict[str, str]) -> None:
    """The fast path embeds the query with the quick-start session: same ranking, scores
    within rounding."""
    fast, full = both(store, "recall", "why did we move auth to sessions?", "--json")
    a, b = json.loads(fast.stdout)["hits"], json.loads(full.stdout)["hits"]
    assert [h["memory"]["id"] for h in a] == [h["memory"]["id"] for h in b]
    assert [h["score"] for h in a] == pytest.approx([h["score"] for h in b], abs=1e-3)


@pytest.mark.parametrize("args", [
    ("list", "--help"), ("list", "--type", "bogus"), ("list", "-n", "0"), ("list", "--bogus"),
    ("show", "01ZZZZZZZZ"), ("show", "01"), ("show",), ("recall", "x", "--mode", "fuzzy"),
    ("list", "--since", "yesterday-ish"), ("list", "--agent", "../etc"),
    ("list", "--db", "/nonexistent/dir/k.db"), ("recall", "x", "--db", "/nonexistent/k.db"),
])
def test_what_the_fast_path_cannot_answer_gets_the_full_answer(
        store: dict[str, str], args: tuple[str, ...]) -> None:
    fast, full = both(store, *args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (full.returncode, full.stdout,
                                                          full.stderr)


def test_an_empty_project_is_explained_on_both_paths(cli_env: dict[str, str],
                                                     tmp_path: Path) -> None:
    env = {**cli_env, "KENNING_DB": str(tmp_path / "other.db"), "KENNING_PROJECT": "nobody-here"}
    with Kenning(env["KENNING_DB"], project="somebody", embedder=None) as k:
        k.remember("Use JWT for auth", type="decision")
    for args in (("list",), ("recall", "auth", "--mode", "keyword")):
        fast, full = both(env, *args)
        assert fast.stdout == full.stdout and "in other projects" in fast.stdout


def test_list_and_show_load_neither_typer_nor_the_facade(store: dict[str, str]) -> None:
    """What makes them fast: the answer comes from this path, not a fallback."""
    ident = json.loads(both(store, "list", "--json")[0].stdout)["memories"][0]["id"]
    for args in (["list"], ["list", "--json", "-t", "decision"], ["show", ident], ["--version"]):
        code = ("import sys\nfrom kenning.entry import main\n"
                f"sys.argv = ['kenning', *{args!r}]\nrc = main()\n"
                "heavy = [m for m in ('typer', 'kenning.facade', 'kenning.models', 'numpy') "
                "if m in sys.modules]\nassert rc == 0 and not heavy, heavy\n")
        proc = subprocess.run([sys.executable, "-c", code], env=store, capture_output=True,
                              text=True, timeout=120, check=False)
        assert proc.returncode == 0, (args, proc.stderr)


def test_fast_main_hands_over_what_it_does_not_know() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert fastcli.main(["remember", "x"]) is None
        assert fastcli.main(["list", "--help"]) is None
        assert fastcli.main([]) is None
    assert out.getvalue() == ""


def test_the_store_named_in_kenning_toml(cli_env: dict[str, str], tmp_path: Path) -> None:
    """Without --db or $KENNING_DB, both paths read the store the project's kenning.toml
    names, and both report a broken kenning.toml the same way."""
    project = tmp_path / "proj"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    db = tmp_path / "elsewhere" / "team.db"
    (project / "kenning.toml").write_text(f'[store]\ndb = "{db}"\n')
    env = {k: v for k, v in cli_env.items() if k != "KENNING_DB"}
    with Kenning(db, project=env["KENNING_PROJECT"], embedder=None) as k:
        k.remember("Deploy on Tuesdays only", type="decision")
    for args in (("list",), ("list", "--json"), ("recall", "deploy", "--mode", "keyword")):
        fast, full = both(env, *args, cwd=project)
        assert fast.returncode == 0 and "Deploy on Tuesdays" in fast.stdout
        assert fast.stdout == full.stdout
    (project / "kenning.toml").write_text("[store]\nbd = 1\n")
    for args in (("list",), ("show", "01ABCDEFGH"), ("recall", "deploy")):
        fast, full = both(env, *args, cwd=project)
        assert fast.returncode == full.returncode == 1
        assert fast.stderr == full.stderr and "unknown key store.bd" in fast.stderr


def test_recall_over_writes_still_settling_stays_on_the_fast_path(
    cli_env: dict[str, str],
) -> None:
    """Memories written without waiting for the model (a `kenning remember` process ends
    before their vectors exist) are settled by the fast path's recall itself, with the same
    output as the typer command; only other missing vectors (a re-index) hand over."""
    for text in ("Use PgBouncer in transaction mode", "Orders table migration locks the table",
                 "Redis session store eviction policy"):
        done = subprocess.run([KENNING, "remember", text, "--type", "decision"], env=cli_env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
    code = ("import sys\nfrom kenning.entry import main\n"
            "sys.argv = ['kenning', 'recall', 'connection pooling for postgres']\nrc = main()\n"
            "assert rc == 0 and 'typer' not in sys.modules\n")
    fast = subprocess.run([sys.executable, "-c", code], env=cli_env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert fast.returncode == 0, fast.stderr
    assert "PgBouncer" in fast.stdout
    again, full = both(cli_env, "recall", "connection pooling for postgres")
    assert again.stdout == full.stdout == fast.stdout


def test_a_long_answer_reaches_the_reader_whole(cli_env: dict[str, str]) -> None:
    """The console script ends a fast answer without the interpreter's teardown: everything
    printed still arrives (far more than a pipe holds, or a line left in a buffer), with the
    command's exit code."""
    texts = [f"Service {i} uses connection pool size {i % 17} and retries {i % 5} times"
             for i in range(300)]
    env = {k: v for k, v in cli_env.items() if k != "PYTHONUNBUFFERED"}  # buffered, as usual
    with Kenning(cli_env["KENNING_DB"], project=cli_env["KENNING_PROJECT"], embedder=None) as k:
        for text in texts:
            k.remember(text, type="context", topic="services", created_at=OLD)
    listed = subprocess.run([KENNING, "list", "-n", "300", "--json"], env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert listed.returncode == 0, listed.stderr
    assert sorted(m["summary"] for m in json.loads(listed.stdout)["memories"]) == sorted(texts)
    table = subprocess.run([KENNING, "list", "-n", "300"], env=env, capture_output=True,
                           text=True, timeout=120, check=False)
    assert table.returncode == 0 and table.stdout.startswith("300 of 300")
    assert table.stdout.count("services") == 300 and table.stdout.endswith("\n")
    short = subprocess.run([KENNING, "--version"], env=env, capture_output=True, text=True,
                           timeout=120, check=False)  # a short answer sits in a buffer
    assert short.returncode == 0 and short.stdout.startswith("kenning ")
    missing = subprocess.run([KENNING, "show", "01ZZZZZZZZZZZZZZZZZZZZZZZZ"], env=env,
                             capture_output=True, text=True, timeout=120, check=False)
    assert missing.returncode == 3 and "no memory with id" in missing.stderr
