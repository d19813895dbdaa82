"""``kenning init``: wires hooks and MCP into Claude Code's files, idempotently, and
``--uninstall`` puts every file back exactly as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

KENNING = Path(sys.executable).parent / "kenning"
ORIGINAL_SETTINGS = b'{\n    "model": "opus",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]},\n  "permissions": {"allow": ["Bash(ls:*)"]}\n}'  # noqa: E501 - odd formatting on purpose
ORIGINAL_MCP = b'{"mcpServers": {"other": {"command": "other-server"}}}'


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "home").mkdir()
    return {**{k: v for k, v in os.environ.items() if not k.startswith("KENNING_")},
            "HOME": str(tmp_path / "home"), "KENNING_HOME": str(tmp_path / "kdata")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "proj"
    (p / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(p)], check=True)
    return p


def kenning(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(KENNING), *args], env=env, cwd=cwd, capture_output=True,
                          text=True)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git/" not in str(p.relative_to(root)) + "/"
            and not str(p.relative_to(root)).startswith(".git")}


def test_init_wires_every_hook_and_the_mcp_server(env, project) -> None:
    result = kenning("init", "--json", env=env, cwd=project / "sub")  # from a subdirectory
    assert result.returncode == 0, result.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    commands = {event: [h["command"] for g in groups for h in g["hooks"]]
                for event, groups in settings["hooks"].items()}
    assert set(commands) >= {"SessionStart", "UserPromptSubmit", "PostToolUse",
                             "PostToolUseFailure", "PreCompact", "SessionEnd"}
    hook_bin = str(Path(sys.executable).parent / "kenning-hook")
    assert commands["UserPromptSubmit"] == [f"{hook_bin} UserPromptSubmit"]
    assert settings["permissions"]["allow"] == ["mcp__kenning"]
    assert settings["enabledMcpjsonServers"] == ["kenning"]
    mcp = json.loads((project / ".mcp.json").read_text())
    assert mcp["mcpServers"]["kenning"]["args"] == ["mcp"]


def test_init_twice_changes_nothing_and_uninstall_restores_bytes(env, project) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_bytes(ORIGINAL_SETTINGS)
    (project / ".mcp.json").write_bytes(ORIGINAL_MCP)
    before = snapshot(project)
    assert kenning("init", env=env, cwd=project).returncode == 0
    once = snapshot(project)
    settings = json.loads(once[".claude/settings.json"])
    assert settings["model"] == "opus" and len(settings["hooks"]["Stop"]) == 1  # theirs kept
    second = kenning("init", "--json", env=env, cwd=project)
    assert set(json.loads(second.stdout)["files"].values()) == {"unchanged"}
    assert snapshot(project) == once
    out = kenning("init", "--uninstall", "--json", env=env, cwd=project)
    assert set(json.loads(out.stdout)["files"].values()) == {"restored"}
    assert snapshot(project) == before


def test_uninstall_removes_what_init_created(env, project) -> None:
    before = snapshot(project)
    kenning("init", env=env, cwd=project)
    kenning("init", "--uninstall", env=env, cwd=project)
    assert snapshot(project) == before
    assert not (project / ".claude").exists()


def test_uninstall_after_a_person_edited_the_file_keeps_their_edit(env, project) -> None:
    kenning("init", env=env, cwd=project)
    path = project / ".claude" / "settings.json"
    data = json.loads(path.read_text())
    data["model"] = "sonnet"
    data["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": "say done"}]}]
    path.write_text(json.dumps(data))
    kenning("init", "--uninstall", env=env, cwd=project)
    left = json.loads(path.read_text())
    assert left == {"model": "sonnet",
                    "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}


def test_user_level_init(env, project, tmp_path: Path) -> None:
    claude_json = tmp_path / "home" / ".claude.json"
    claude_json.write_text('{"numStartups": 3}')
    assert kenning("init", "--user", env=env, cwd=project).returncode == 0
    assert "SessionStart" in json.loads(
        (tmp_path / "home" / ".claude" / "settings.json").read_text())["hooks"]
    assert json.loads(claude_json.read_text())["numStartups"] == 3
    assert not (project / ".claude").exists()
    kenning("init", "--user", "--uninstall", env=env, cwd=project)
    assert claude_json.read_text() == '{"numStartups": 3}'


def test_broken_settings_json_is_a_clear_error_and_left_alone(env, project) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{oops")
    result = kenning("init", env=env, cwd=project)
    assert result.returncode == 1 and "settings.json is not valid JSON" in result.stderr
    assert (project / ".claude" / "settings.json").read_text() == "{oops"
    assert not (project / ".mcp.json").exists()
