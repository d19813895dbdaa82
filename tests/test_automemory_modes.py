"""One configuration for every entry point (``kenning.toml`` read by the CLI, the MCP tools, the
hooks and the API alike; bad values are one-line errors), the three sync modes, categories,
Claude Code's own auto-memory switches, and the switches for automatic links and for
extraction at session end."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, stdio_client

from kenning import Kenning, config
from kenning.automemory.files import parse_index
from kenning.errors import ValidationError
from kenning.models import Filters
from tests.automemory_fixtures import Clock, home, repo  # noqa: F401
from tests.mcp_fixtures import recorded_session, stdio_params

KENNING = str(Path(sys.executable).with_name("kenning"))


def toml(root: Path, text: str) -> config.Config:
    (root / "kenning.toml").write_text(text)
    return config.load(str(root), environ={})


def open_with(tmp_path: Path, root: Path, text: str, clock: Clock | None = None) -> Kenning:
    k = Kenning(tmp_path / "k.db", project="proj", embedder=None, clock=clock or Clock(),
                config=toml(root, text))
    k.project_root = root
    return k


@pytest.mark.parametrize(("text", "says"), [
    ('[auto_memory]\nsync_mode = "sometimes"\n',
     "auto_memory.sync_mode must be one of on-write, on-session-end, periodic, not 'sometimes'"),
    ('[auto_memory]\nlayout = "folders"\n',
     "auto_memory.layout must be one of per-fact, topic-files, not 'folders'"),
    ("[auto_memory]\nmax_index_lines = 0\n", "auto_memory.max_index_lines must be a whole "
                                             "number >= 1, not 0"),
    ('[auto_memory]\ntopic_mapping = { debugging = "../x.md" }\n', "topic_mapping"),
])
def test_a_bad_value_is_a_one_line_error_from_every_entry_point(
        tmp_path: Path, home: Path, repo: Path, text: str, says: str) -> None:
    (repo / "kenning.toml").write_text(text)
    env = {**os.environ, "HOME": str(home), "KENNING_DB": str(tmp_path / "cli.db"),
           "KENNING_EMBEDDER": "none"}
    for command in ("sync-auto", "curate", "auto-status", "import-auto"):
        out = subprocess.run([KENNING, command, "--project-root", str(repo)], env=env,
                             capture_output=True, text=True, check=False)
        assert out.returncode == 1 and says in out.stderr, (command, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1
    with pytest.raises(config.ConfigError, match="sync_mode must be one of"):
        config.load(str(tmp_path), environ={"KENNING_AUTO_MEMORY_SYNC_MODE": "hourly"})


def test_the_cli_curates_to_180_lines_or_what_kenning_toml_says(tmp_path: Path, home: Path,
                                                                repo: Path) -> None:
    env = {**os.environ, "HOME": str(home), "KENNING_DB": str(tmp_path / "cli.db"),
           "KENNING_EMBEDDER": "none", "KENNING_PROJECT": "cli-proj"}
    with Kenning(tmp_path / "cli.db", project="cli-proj", embedder=None) as k:
        k.remember_many([{"text": f"Rule {i}: keep module {i} free of web imports",
                          "type": "pattern", "confidence": 0.9} for i in range(300)])
    root = str(repo)
    lines = json.loads(subprocess.run([KENNING, "curate", "--project-root", root, "--json"],
                                      env=env, capture_output=True, text=True,
                                      check=True).stdout)["lines"]
    assert lines == 180
    (repo / "kenning.toml").write_text("[auto_memory]\nmax_index_lines = 12\n")
    for command in ("curate", "sync-auto"):
        r = json.loads(subprocess.run([KENNING, command, "--project-root", root, "--json"],
                                      env=env, capture_output=True, text=True,
                                      check=True).stdout)
        assert r["lines"] == 12, command
    status = json.loads(subprocess.run([KENNING, "auto-status", "--project-root", root,
                                        "--json"], env=env, capture_output=True, text=True,
                                       check=True).stdout)
    assert status["index"]["max_lines"] == 12 and status["index"]["lines"] == 12


def test_mcp_auto_memory_tools_use_the_projects_configuration_and_categories(
        tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    project = tmp_path / "project"
    project.mkdir()
    (project / "kenning.toml").write_text(
        '[auto_memory]\nmax_index_lines = 6\nlayout = "topic-files"\n')
    with Kenning(db, project="mcp-proj", embedder=None) as k:
        for i in range(5):
            k.remember(f"Gotcha {i}: the worker needs REDIS_URL set", type="gotcha",
                       category="debugging", confidence=0.9)
            k.remember(f"Layer {i}: adapters stay thin", type="decision",
                       category="architecture", confidence=0.9)

    async def scenario() -> dict:
        async with stdio_client(stdio_params(tmp_path, db)) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            res = await s.call_tool("memory_auto_sync", {"categories": ["debugging"]})
            assert not res.is_error, res.content[0].text
            return json.loads(res.content[0].text)

    out = asyncio.run(scenario())
    index = Path(out["path"])
    assert out["categories"] == ["debugging"] and out["lines"] <= 6
    assert sorted(p.name for p in index.parent.glob("*.md")) == ["MEMORY.md", "debugging.md"]
    assert "Layer" not in index.read_text() and "Gotcha" in index.read_text()


def test_on_write_mode_brings_a_confident_memory_to_memory_md_at_once(tmp_path: Path,
                                                                      home: Path,
                                                                      repo: Path) -> None:
    k = open_with(tmp_path, repo, '[auto_memory]\nsync_mode = "on-write"\n')
    index = k.auto_memory_dir(repo) / "MEMORY.md"
    k.remember("A hunch: maybe cache the catalogue", type="insight", confidence=0.4)
    assert not index.exists()  # nothing confident enough yet: no sync
    k.remember("Never deploy on Fridays", type="decision", confidence=0.95)
    assert "Never deploy on Fridays" in index.read_text()
    k.close()
    default = open_with(tmp_path, repo, "")
    default.remember("Use uv for Python environments", type="decision", confidence=0.95)
    assert "uv for Python" not in index.read_text()  # on-session-end: at session end only
    default.close()


def test_periodic_mode_syncs_at_most_once_per_interval(tmp_path: Path, home: Path, repo: Path
                                                       ) -> None:
    clock = Clock()
    k = open_with(tmp_path, repo, '[auto_memory]\nsync_mode = "periodic"\n'
                                  "sync_interval_ms = 60000\n", clock)
    index = k.auto_memory_dir(repo) / "MEMORY.md"
    k.remember("First rule: small pull requests", type="decision", confidence=0.9)
    assert "First rule" in index.read_text()  # never synced before: due
    clock.now += 10_000
    k.remember("Second rule: review within a day", type="decision", confidence=0.9)
    assert "Second rule" not in index.read_text()
    clock.now += 51_000
    k.remember("A note that is not confident", type="insight", confidence=0.3)
    assert "Second rule" in index.read_text()  # the interval passed: any write syncs
    k.close()


def test_claude_codes_own_switches_are_honoured(tmp_path: Path, home: Path, repo: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    k = Kenning(tmp_path / "k.db", project="proj", embedder=None, clock=Clock())
    k.remember("Use pnpm, not npm", type="decision", confidence=0.9)
    default_dir = k.auto_memory_dir(repo)
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")
    r = k.auto_sync(repo)
    assert "CLAUDE_CODE_DISABLE_AUTO_MEMORY=1" in r["disabled"] and not default_dir.exists()
    assert k.auto_status(repo)["client"]["enabled"] is False
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"autoMemoryEnabled": False}))
    assert "autoMemoryEnabled" in k.auto_sync(repo)["disabled"]
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0")  # forced on
    moved = tmp_path / "elsewhere"
    settings.write_text(json.dumps({"autoMemoryDirectory": str(moved)}))
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(
        json.dumps({"autoMemoryDirectory": str(tmp_path / "checked-in")}))
    r = k.auto_sync(repo)
    assert Path(r["path"]) == moved / "MEMORY.md" and "pnpm" in (moved / "MEMORY.md").read_text()
    assert not (tmp_path / "checked-in").exists()  # ignored in the checked-in settings
    k.close()


def test_automatic_links_can_be_turned_off(tmp_path: Path, repo: Path) -> None:
    on = Kenning(tmp_path / "on.db", project="p", embedder=None, clock=Clock(),
                 config=toml(repo, ""))
    a = on.remember("Use Redis for the session cache", type="decision", topic="cache")
    on.remember("Cache keys carry the tenant id", type="decision", topic="cache")
    assert on.links(a.id)  # same topic within 15 minutes: a temporal link
    off = Kenning(tmp_path / "off.db", project="p", embedder=None, clock=Clock(),
                  config=toml(repo, "[graph]\nauto_link = false\n"))
    b = off.remember("Use Redis for the session cache", type="decision", topic="cache")
    off.remember("Cache keys carry the tenant id", type="decision", topic="cache")
    assert off.links(b.id) == [] and off.auto_link is False
    on.close()
    off.close()


def test_extraction_at_session_end_can_be_turned_off(tmp_path: Path, repo: Path) -> None:
    transcript = recorded_session(tmp_path / "t.jsonl")
    for name, text, expect in (("on", "", True), ("off", "[capture]\nextract = false\n", False)):
        with Kenning(tmp_path / f"{name}.db", project="p", embedder=None, clock=Clock(),
                     config=toml(repo, text)) as k:
            report = k.end_session("s1", transcript=transcript)
            assert ("extract" in report.steps) is expect
            assert (k.store.count(Filters(project="p")) > 0) is expect


def test_categories_are_checked(tmp_path: Path, home: Path, repo: Path) -> None:
    with Kenning(tmp_path / "k.db", project="proj", embedder=None, clock=Clock()) as k:
        with pytest.raises(ValidationError, match="unknown category 'gossip'"):
            k.auto_sync(repo, categories=["gossip"])
        k.remember("Debug with RUST_LOG=debug", type="gotcha", category="debugging",
                   confidence=0.9)
        k.remember("Hexagonal layout", type="decision", category="architecture",
                   confidence=0.9)
        r = k.auto_sync(repo, categories=["architecture"])
        lines = parse_index(Path(r["path"]).read_text())
        assert [ln.heading for ln in lines if ln.kind == "pointer"] == ["Architecture"]
