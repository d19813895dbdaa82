"""``kenning init``: wires hooks and MCP into Claude Code without touching a file a team commits,
idempotently, and ``--uninstall`` puts every file back exactly as it was, Claude Code's
auto-memory folder included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kenning.places.keys import project_key
from tests.automemory_fixtures import write_client_dir

KENNING = Path(sys.executable).parent / "kenning"
HOOK_BIN = str(Path(sys.executable).parent / "kenning-hook")
ORIGINAL_SETTINGS = b'{\n    "model": "opus",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]},\n  "permissions": {"allow": ["Bash(ls:*)"]}\n}'  # noqa: E501 - odd formatting on purpose
ORIGINAL_CLIENT = (b'{\n  "numStartups": 3,\n'
                   b'  "projects": {"/elsewhere": {"mcpServers": {"x": {}}}}\n}\n')


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("KENNING_")},
           "HOME": str(tmp_path / "home"), "KENNING_HOME": str(tmp_path / "kdata"),
           "KENNING_DB": str(tmp_path / "k.db"), "KENNING_EMBEDDER": "none"}
    env.pop("CLAUDE_CONFIG_DIR", None)
    return env


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "proj"
    (p / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(p)], check=True)
    (p / "README.md").write_text("a project\n")
    return p.resolve()


def kenning(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(KENNING), *args], env=env, cwd=cwd, capture_output=True,
                          text=True)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (for a project: its work tree, .git/info included)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and (not str(p.relative_to(root)).startswith(".git/")
                                or str(p.relative_to(root)).startswith(".git/info/"))}


def git_status(project: Path) -> str:
    return subprocess.run(["git", "-C", str(project), "status", "--porcelain",
                           "--untracked-files=all"], capture_output=True, text=True,
                          check=True).stdout


def client(env: dict[str, str]) -> dict:
    return json.loads((Path(env["HOME"]) / ".claude.json").read_text())


def test_init_writes_only_this_machines_files(env, project) -> None:
    committed = git_status(project)
    result = kenning("init", "--json", env=env, cwd=project / "sub")  # from a subdirectory
    assert result.returncode == 0, result.stderr
    local = json.loads((project / ".claude" / "settings.local.json").read_text())
    commands = {event: [h["command"] for g in groups for h in g["hooks"]]
                for event, groups in local["hooks"].items()}
    assert set(commands) >= {"SessionStart", "UserPromptSubmit", "PostToolUse",
                             "PostToolUseFailure", "PreCompact", "SessionEnd"}
    assert commands["UserPromptSubmit"] == [f"{HOOK_BIN} UserPromptSubmit"]
    assert local["permissions"]["allow"] == ["mcp__kenning"]
    # The MCP server is in the client's local scope for this project, not in .mcp.json.
    server = client(env)["projects"][str(project)]["mcpServers"]["kenning"]
    assert server["args"] == ["mcp"] and Path(server["command"]).exists()
    assert not (project / ".mcp.json").exists()
    assert not (project / ".claude" / "settings.json").exists()
    # Nothing for git to see: settings.local.json is excluded in this clone only.
    assert git_status(project) == committed
    assert "/.claude/settings.local.json" in (project / ".git/info/exclude").read_text()
    # Nothing machine-specific left in the work tree outside ignored files.
    tracked_or_visible = [line[3:] for line in git_status(project).splitlines()]
    assert all(str(project) not in (project / f).read_text() for f in tracked_or_visible)


def test_init_says_how_the_mcp_tools_are_allowed(env, project) -> None:
    out = kenning("init", env=env, cwd=project).stdout
    assert 'permissions.allow "mcp__kenning"' in out and "settings.local.json" in out
    assert "not trusted in Claude Code yet" in out and "accept the trust prompt" in out
    assert "Nothing was written to files your team commits" in out
    doctor = json.loads(kenning("doctor", "--json", env=env, cwd=project).stdout)["claude_code"]
    assert doctor["hooks"]["scope"] == "local" and doctor["mcp"]["scope"] == "local"
    assert doctor["mcp_allowed"] and doctor["trusted"] is False
    assert [p for p in doctor["problems"] if "trust" in p]
    data = client(env)
    data["projects"][str(project)]["hasTrustDialogAccepted"] = True
    (Path(env["HOME"]) / ".claude.json").write_text(json.dumps(data))
    doctor = json.loads(kenning("doctor", "--json", env=env, cwd=project).stdout)["claude_code"]
    assert doctor["trusted"] is True and doctor["problems"] == []
    assert "already trusted" in kenning("init", env=env, cwd=project).stdout
    human = kenning("doctor", env=env, cwd=project).stdout
    assert "hooks in" in human and "MCP server (local scope), tools allowed" in human


def test_doctor_names_what_is_missing(env, project) -> None:
    doctor = json.loads(kenning("doctor", "--json", env=env, cwd=project).stdout)["claude_code"]
    assert doctor["hooks"]["scope"] is None and doctor["mcp"]["scope"] is None
    assert any("run kenning init" in p for p in doctor["problems"])


def test_init_twice_changes_nothing_and_uninstall_restores_bytes(env, project) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_bytes(ORIGINAL_SETTINGS)
    claude_json = Path(env["HOME"]) / ".claude.json"
    claude_json.write_bytes(ORIGINAL_CLIENT)
    before, before_client = snapshot(project), claude_json.read_bytes()
    assert kenning("init", env=env, cwd=project).returncode == 0
    once, once_client = snapshot(project), claude_json.read_bytes()
    settings = json.loads(once[".claude/settings.local.json"])
    assert settings["model"] == "opus" and len(settings["hooks"]["Stop"]) == 1  # theirs kept
    assert client(env)["numStartups"] == 3 and "/elsewhere" in client(env)["projects"]
    second = kenning("init", "--json", env=env, cwd=project)
    assert set(json.loads(second.stdout)["files"].values()) == {"unchanged"}
    assert snapshot(project) == once and claude_json.read_bytes() == once_client
    out = kenning("init", "--uninstall", "--json", env=env, cwd=project)
    files = json.loads(out.stdout)["files"]
    assert {files[str(p)] for p in (project / ".claude" / "settings.local.json", claude_json,
                                    project / ".git/info/exclude")} == {"restored"}
    assert snapshot(project) == before and claude_json.read_bytes() == before_client


def test_uninstall_removes_what_init_created(env, project) -> None:
    before = snapshot(project)
    kenning("init", env=env, cwd=project)
    kenning("init", "--uninstall", env=env, cwd=project)
    assert snapshot(project) == before
    assert not (project / ".claude").exists()
    assert not (Path(env["HOME"]) / ".claude.json").exists()
    assert not list((Path(env["KENNING_HOME"]) / "init").glob("*.json"))  # no manifest left


def test_uninstall_after_edits_keeps_them(env, project) -> None:
    """A person's edits to the settings, and the client's own rewrites of ~/.claude.json,
    survive: only Kenning's entries go."""
    kenning("init", env=env, cwd=project)
    path = project / ".claude" / "settings.local.json"
    data = json.loads(path.read_text())
    data["model"] = "sonnet"
    data["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": "say done"}]}]
    path.write_text(json.dumps(data))
    state = client(env)
    state["numStartups"] = 9
    state["projects"][str(project)]["hasTrustDialogAccepted"] = True
    (Path(env["HOME"]) / ".claude.json").write_text(json.dumps(state))
    kenning("init", "--uninstall", env=env, cwd=project)
    assert json.loads(path.read_text()) == {
        "model": "sonnet",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}
    assert client(env) == {"numStartups": 9,
                           "projects": {str(project): {"hasTrustDialogAccepted": True}}}


def test_uninstall_restores_the_auto_memory_folder_byte_for_byte(env, project) -> None:
    """Init records the folder; Kenning then writes its memory files and curates MEMORY.md;
    uninstall removes Kenning's files and gives a person's MEMORY.md back exactly."""
    memdir = Path(env["HOME"]) / ".claude" / "projects" / project_key(project) / "memory"
    write_client_dir(memdir)
    (memdir / "MEMORY.md").write_bytes((memdir / "MEMORY.md").read_bytes() + b"\nmy own note\n")
    before = snapshot(memdir)
    assert kenning("init", env=env, cwd=project).returncode == 0
    env = {**env, "KENNING_PROJECT": project_key(project)}
    kenning("remember", "Use uv for Python envs", "--type", "decision", "--confidence", "0.95",
            env=env, cwd=project)
    synced = kenning("sync-auto", "--json", env=env, cwd=project)
    assert json.loads(synced.stdout)["files_written"] >= 1, synced.stderr
    assert snapshot(memdir) != before and "Use uv" in (memdir / "MEMORY.md").read_text()
    out = kenning("init", "--uninstall", env=env, cwd=project)
    assert out.returncode == 0, out.stderr
    assert snapshot(memdir) == before
    assert "auto memory as before init" in out.stdout


def test_uninstall_removes_an_auto_memory_folder_kenning_created(env, project) -> None:
    memdir = Path(env["HOME"]) / ".claude" / "projects" / project_key(project) / "memory"
    kenning("init", env=env, cwd=project)
    env = {**env, "KENNING_PROJECT": project_key(project)}
    kenning("remember", "Use uv for Python envs", "--type", "decision", "--confidence", "0.95",
            env=env, cwd=project)
    kenning("sync-auto", env=env, cwd=project)
    assert (memdir / "MEMORY.md").exists()
    kenning("init", "--uninstall", env=env, cwd=project)
    assert not memdir.exists()


def test_init_moves_an_older_inits_machine_paths_out_of_committed_files(env, project) -> None:
    """An older init wrote absolute paths into .claude/settings.json and .mcp.json; init now
    takes them out (a person's own settings stay) and writes the local files instead."""
    (project / ".claude").mkdir()
    old_settings = {"model": "opus", "hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": f"{HOOK_BIN} SessionStart", "timeout": 15}]}]},
        "permissions": {"allow": ["mcp__kenning"]}, "enabledMcpjsonServers": ["kenning"]}
    (project / ".claude" / "settings.json").write_text(json.dumps(old_settings))
    (project / ".mcp.json").write_text(json.dumps(
        {"mcpServers": {"kenning": {"command": "/old/venv/bin/kenning", "args": ["mcp"]}}}))
    (project / ".claude" / "kenning-init.json").write_text("{}")
    result = kenning("init", env=env, cwd=project)
    assert result.returncode == 0, result.stderr
    assert json.loads((project / ".claude" / "settings.json").read_text()) == {"model": "opus"}
    assert json.loads((project / ".mcp.json").read_text()) == {}
    assert not (project / ".claude" / "kenning-init.json").exists()
    assert (project / ".claude" / "settings.local.json").exists()


def test_user_level_init(env, project, tmp_path: Path) -> None:
    claude_json = tmp_path / "home" / ".claude.json"
    claude_json.write_text('{"numStartups": 3}')
    out = kenning("init", "--user", env=env, cwd=project)
    assert out.returncode == 0 and "~" not in out.stdout
    assert "SessionStart" in json.loads(
        (tmp_path / "home" / ".claude" / "settings.json").read_text())["hooks"]
    assert client(env)["mcpServers"]["kenning"]["args"] == ["mcp"]
    assert not (project / ".claude").exists()
    kenning("init", "--user", "--uninstall", env=env, cwd=project)
    assert claude_json.read_text() == '{"numStartups": 3}'


def test_broken_settings_is_a_clear_error_and_left_alone(env, project) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text("{oops")
    result = kenning("init", env=env, cwd=project)
    assert result.returncode == 1 and "settings.local.json is not valid JSON" in result.stderr
    assert (project / ".claude" / "settings.local.json").read_text() == "{oops"
    assert not (Path(env["HOME"]) / ".claude.json").exists()
