"""The installed ``kenning`` command: import-auto, sync-auto, auto-status, curate and
``scope list | transfer``, run as a user would, in a temp HOME."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.automemory_fixtures import repo, write_client_dir  # noqa: F401

KENNING = shutil.which("kenning") or str(Path(sys.executable).with_name("kenning"))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e.update(HOME=str(tmp_path / "home"), KENNING_HOME=str(tmp_path / "kh"),
             KENNING_DB=str(tmp_path / "cli.db"), KENNING_PROJECT="cli-proj",
             KENNING_EMBEDDER="none")
    e.pop("CLAUDE_CONFIG_DIR", None)
    return e


def run(env: dict[str, str], *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([KENNING, *args], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == code, proc.stderr
    return proc


def jrun(env: dict[str, str], *args: str) -> dict:
    return json.loads(run(env, *args, "--json").stdout)


def test_the_four_commands(env: dict[str, str], repo: Path) -> None:
    root = str(repo)
    status = jrun(env, "auto-status", "--project-root", root)
    d = Path(status["dir"])
    assert d.parent.parent == Path(env["HOME"]) / ".claude" / "projects" and not status["exists"]
    write_client_dir(d)
    r = jrun(env, "import-auto", "--project-root", root)
    assert (r["files"], r["imported"]) == (4, 3)
    assert jrun(env, "import-auto", "--project-root", root)["unchanged"] == 4

    run(env, "remember", "Use uv for Python envs", "--type", "decision", "--confidence", "0.9")
    s = jrun(env, "sync-auto", "--project-root", root)
    assert s["files_written"] == 1 and s["lines"] <= 200 and s["bytes"] <= 25_000
    assert "Use uv for Python envs" in (d / "MEMORY.md").read_text()
    before = (d / "MEMORY.md").read_bytes()
    assert not jrun(env, "sync-auto", "--project-root", root)["index_changed"]
    assert (d / "MEMORY.md").read_bytes() == before

    preview = jrun(env, "curate", "--project-root", root, "--dry-run")
    assert preview["text"] == before.decode() and preview["max_lines"] == 180
    c = jrun(env, "curate", "--project-root", root)
    assert c["human_lines_kept"] == 3 and c["memories_in_index"] == 1
    human = run(env, "auto-status", "--project-root", root).stdout
    assert "within limits" in human and "1 by Kenning" in human
    assert jrun(env, "auto-status", "--project-root", root)["changed_since_import"] == []


def test_scope_commands(env: dict[str, str], repo: Path) -> None:
    run(env, "remember", "Check for missing indexes", "--scope", "project", "--agent",
        "reviewer", "--confidence", "0.9")
    rows = jrun(env, "scope", "list", "--project-root", str(repo))["scopes"]
    assert [r["scope"] for r in rows] == ["project:reviewer"]
    t = jrun(env, "scope", "transfer", "--from", "project:reviewer", "--to", "user:reviewer",
             "--min-confidence", "0.8")
    assert t["transferred"] == 1
    again = run(env, "scope", "transfer", "--from", "project:reviewer", "--to", "user:reviewer")
    assert "0 transferred, 1 already there" in again.stdout
    bad = run(env, "scope", "transfer", "--from", "project:../etc", "--to", "user:x", code=1)
    assert bad.stderr.startswith("error: agent name") and len(bad.stderr.splitlines()) == 1
    run(env, "import-auto", "--scope", "user:/etc/passwd", code=1)
