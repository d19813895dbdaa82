"""End to end: the installed ``kenning`` command, run as a user would, in real processes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

KENNING = shutil.which("kenning") or str(Path(sys.executable).with_name("kenning"))


def run(env: dict[str, str], *args: str, stdin: str | None = None, ok: bool = True
        ) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([KENNING, *args], env=env, input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def jrun(env: dict[str, str], *args: str) -> dict:
    return json.loads(run(env, *args, "--json").stdout)


def test_issue_walkthrough(cli_env: dict[str, str]) -> None:
    a = jrun(cli_env, "remember", "Use JWT for auth: stateless, scales", "--type", "decision",
             "--topic", "auth_strategy")
    b = jrun(cli_env, "remember", "Implemented JWT auth in auth.ts", "--type", "checkpoint",
             "--topic", "auth_strategy")
    assert a["created"] and a["type"] == "decision" and b["topic"] == "auth_strategy"

    res = jrun(cli_env, "recall", "why did we pick JWT?", "-k", "5")
    assert res["count"] == 2 and res["hits"][0]["memory"]["id"] == a["id"]
    assert set(res["hits"][0]) == {"score", "memory"}

    shown = jrun(cli_env, "show", a["id"])
    assert shown["content"] == "Use JWT for auth: stateless, scales"
    assert [(ln["link_type"], ln["to_id"]) for ln in shown["links"]] == [("temporal", b["id"])]

    listed = jrun(cli_env, "list", "--type", "decision")
    assert [m["id"] for m in listed["memories"]] == [a["id"]] and listed["total"] == 1

    gone = jrun(cli_env, "forget", a["id"])
    assert gone["forgotten"] == a["id"]
    assert jrun(cli_env, "list")["total"] == 1

    doc = jrun(cli_env, "doctor")
    assert doc["store"] == cli_env["KENNING_DB"] and doc["memories"] == 1
    assert doc["embedder"]["available"] and doc["schema_version"] >= 1


def test_human_output(cli_env: dict[str, str]) -> None:
    out = run(cli_env, "remember", "Gotcha: vite needs --host in docker", "--type", "gotcha").stdout
    assert out.startswith("remembered ")
    again = run(cli_env, "remember", "Gotcha: vite needs --host in docker", "--type", "gotcha")
    assert again.stdout.startswith("already remembered as ")
    table = run(cli_env, "recall", "vite docker host", "--explain").stdout
    assert "vite needs --host" in table and "relevance" in table
    doctor = run(cli_env, "doctor").stdout
    assert "schema version" in doctor and "all-MiniLM-L6-v2" in doctor


def test_stdin_tags_metadata_and_db_flag(cli_env: dict[str, str], tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    proc = run(cli_env, "remember", "-", "--tag", "x", "--tag", "y", "--metadata", '{"pr": 12}',
               "--db", str(other), "--json", stdin="note from stdin\n")
    m = json.loads(proc.stdout)
    assert m["content"] == "note from stdin" and m["tags"] == ["x", "y"]
    assert m["metadata"] == {"pr": 12}
    assert other.exists()
    assert jrun(cli_env, "list")["total"] == 0  # the default (KENNING_DB) store is untouched


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["remember", ""], 1, "text is empty"),
        (["remember", "x", "--type", "opinion"], 1, "unknown type"),
        (["remember", "x", "--confidence", "2"], 1, "confidence must be in [0, 1]"),
        (["remember", "x", "--metadata", "{bad"], 1, "not valid JSON"),
        (["show", "01ZZZZZZZZZZZZZZZZZZZZZZZZ"], 3, "no memory with id"),
        (["forget", "nope"], 3, "no memory with id"),
        (["recall", "x", "-k", "0"], 1, "k must be"),
        (["recall", "x", "--since", "whenever"], 1, "cannot read"),
        (["list", "--bogus"], 2, "No such option"),
        (["update", "abc"], 2, "nothing to update"),
    ],
)
def test_errors_are_one_line_with_nonzero_exit(cli_env: dict[str, str], args: list[str],
                                               code: int, needle: str) -> None:
    proc = run(cli_env, *args, ok=False)
    assert proc.returncode == code
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert proc.stdout == ""


def test_unusable_store_is_a_clear_error(cli_env: dict[str, str], tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    proc = run(cli_env, "list", "--db", str(junk), ok=False)
    assert proc.returncode == 1 and "not a usable Kenning store" in proc.stderr
    assert junk.read_bytes().startswith(b"this is not sqlite")


def test_keyword_only_when_model_disabled(cli_env: dict[str, str]) -> None:
    env = dict(cli_env, KENNING_EMBEDDER="none")
    jrun(env, "remember", "pnpm is the package manager here", "--type", "preference")
    assert jrun(env, "recall", "package manager pnpm")["count"] == 1
    doc = jrun(env, "doctor")
    assert doc["embedder"]["available"] is False and "disabled" in doc["embedder"]["reason"]
    # A later run with the model finds the memory lacking a vector and fills it in.
    res = jrun(cli_env, "recall", "which tool installs dependencies?", "--mode", "vector")
    assert res["count"] == 1
    assert jrun(cli_env, "doctor")["vectors_missing"] == 0


def test_default_store_lives_in_the_data_dir(cli_env: dict[str, str], tmp_path: Path) -> None:
    env = dict(cli_env)
    env.pop("KENNING_DB")
    env["KENNING_HOME"] = str(tmp_path / "data")
    jrun(env, "remember", "stored in the data dir")
    assert (tmp_path / "data" / "kenning.db").exists()


def test_demo_runs(cli_env: dict[str, str]) -> None:
    proc = run(cli_env, "demo")
    assert "supersedes" in proc.stdout and "Done in" in proc.stdout
    report = json.loads(run(cli_env, "demo", "--json").stdout)
    first = report["recall"][0]["hits"]
    assert any("JWT" in h["summary"] or "sessions" in h["summary"] for h in first)
    assert report["redactions"] >= 1
    assert not Path(report["store"]).exists()


def test_help_and_no_args(cli_env: dict[str, str]) -> None:
    assert "remember" in run(cli_env, "--help").stdout
    assert run(cli_env, ok=False).returncode == 0


def test_internal_errors_are_logged_for_doctor(cli_env: dict[str, str]) -> None:
    import sqlite3

    jrun(cli_env, "remember", "first memory creates the store")
    with sqlite3.connect(cli_env["KENNING_DB"]) as conn:
        conn.execute("CREATE TRIGGER boom BEFORE INSERT ON memories "
                     "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
    proc = run(cli_env, "remember", "second memory", ok=False)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "internal error" in proc.stderr
    assert "disk on fire" in proc.stderr
    errors = jrun(cli_env, "doctor")["recent_errors"]
    assert errors and "disk on fire" in errors[-1]["error"] and errors[-1]["where"] == "cli"
    assert jrun(cli_env, "list")["total"] == 1


def test_graph_commands(cli_env: dict[str, str]) -> None:
    jwt = jrun(cli_env, "remember", "Use JWT for auth", "--type", "decision",
               "--topic", "auth_strategy")["id"]
    impl = jrun(cli_env, "remember", "Implemented JWT auth in auth.ts", "--type", "checkpoint",
                "--topic", "auth_strategy", "--implements", jwt)["id"]
    sess = jrun(cli_env, "remember", "Switch to session-based auth", "--type", "decision",
                "--topic", "auth_strategy", "--supersedes", jwt,
                "--reason", "token refresh too slow")["id"]
    out = jrun(cli_env, "outcome", jwt, "failed", "--reason", "performance issues")
    assert out["outcome"] == "failed" and out["outcome_reason"] == "performance issues"
    ln = jrun(cli_env, "link", sess, impl, "--rel", "영감을 받은")
    assert ln["relationship"] == "영감을_받은" and ln["metadata"]["canonical"] == "inspired_by"

    chain = jrun(cli_env, "why", "auth_strategy")["chain"]
    assert [e["memory"]["id"] for e in chain] == [sess, jwt]
    assert chain[0]["evolves"][0]["relationship"] == "supersedes"
    assert chain[1]["memory"]["outcome"] == "failed"
    human = run(cli_env, "why", "auth_strategy").stdout
    assert "FAILED: performance issues" in human and "token refresh too slow" in human

    after = {m["memory"]["id"] for m in jrun(cli_env, "impact", jwt)["memories"]}
    assert {impl, sess} <= after
    assert impl in {m["memory"]["id"] for m in jrun(cli_env, "related", sess)["memories"]}
    ctx = jrun(cli_env, "recall", "auth", "--context", sess, "--explain")
    assert ctx["count"] >= 1 and "context" in ctx["hits"][0]["explain"]

    assert jrun(cli_env, "graph", "consolidate")["memories"] == 3
    assert jrun(cli_env, "graph", "top", "-k", "1")["top"][0]["pagerank"] == 1.0
    assert jrun(cli_env, "graph", "communities")["count"] >= 1
    stats = jrun(cli_env, "graph", "stats")
    assert stats["by_core_type"]["evolution"] == 1 and stats["links"] >= 3
    health = jrun(cli_env, "graph", "health")
    assert health["node_count"] == 3 and "recommendations" in health
    assert "recommendations" not in run(cli_env, "graph", "health").stdout.split("\n")[0]
    link_id = jrun(cli_env, "show", sess)["links"][0]["id"]
    assert jrun(cli_env, "unlink", link_id)["deleted"] is True
    assert run(cli_env, "remember", "x", "--link", "nocolon", ok=False).returncode == 2


def test_doctor_shows_a_notice_apart_from_errors(cli_env: dict[str, str]) -> None:
    import subprocess
    import sys

    jrun(cli_env, "remember", "first memory creates the store")
    subprocess.run([sys.executable, "-c", "from kenning.errorlog import log_notice; "
                    "log_notice('extract: supersession judged with a low margin', 'a ended by b')"],
                   env=cli_env, check=True)
    doctor = run(cli_env, "doctor").stdout
    assert "notice: extract: supersession judged with a low margin: a ended by b" in doctor
    assert jrun(cli_env, "doctor")["recent_errors"][-1]["notice"] is True
