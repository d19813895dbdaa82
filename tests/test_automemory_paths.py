"""Auto memory and agent memory directories resolve exactly as Claude Code 2.1.330 does
(FINDINGS §4): git root's real path, every char outside [A-Za-z0-9] -> '-', CLAUDE_CONFIG_DIR."""
# ruff: noqa: F811  (pytest fixtures come from tests.automemory_fixtures)

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kenning.automemory.paths import (
    agent_memory_dir,
    auto_memory_dir,
    claude_config_dir,
    client_key,
    parse_scope,
)
from kenning.errors import ValidationError
from kenning.models import Scope
from tests.automemory_fixtures import home, repo  # noqa: F401


def test_findings_example_key() -> None:
    # FINDINGS: git root /tmp/p_m2.dir -> key -tmp-p-m2-dir ('_' and '.' become '-').
    assert client_key("/tmp/p_m2.dir") == "-tmp-p-m2-dir"
    assert client_key("/home/me/My Project (v2)/ü") == "-home-me-My-Project--v2---"


def test_characters_outside_the_bmp_count_twice_like_javascript() -> None:
    # JS replaces per UTF-16 code unit: an emoji is a surrogate pair, so two dashes.
    assert client_key("/a/\U0001F600b") == "-a---b"
    assert client_key("/a/éb") == "-a--b"


def test_long_keys_are_cut_and_hashed() -> None:
    path = "/" + "x" * 300
    key = client_key(path)
    assert key.startswith("-" + "x" * 199 + "-") and len(key) > 201
    assert re.fullmatch(r"-x{199}-[0-9a-z]+", key)
    assert client_key(path + "y") != key


def test_dir_uses_git_root_real_path_from_a_subdirectory(home: Path, repo: Path) -> None:
    real = repo.resolve()
    expected = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(real)) / "memory"
    assert auto_memory_dir(repo / "src") == expected
    assert auto_memory_dir(repo) == expected
    assert "my-repo-dir" in expected.parent.name


def test_symlinked_repo_dir_gives_the_same_key(home: Path, repo: Path, tmp_path: Path) -> None:
    link = tmp_path / "link-to-repo"
    link.symlink_to(repo, target_is_directory=True)
    assert auto_memory_dir(link / "src") == auto_memory_dir(repo)


def test_no_git_root_uses_the_directory_itself(home: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert auto_memory_dir(plain).parent.name == client_key(plain.resolve())


def test_claude_config_dir_wins_over_home(home: Path, repo: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert claude_config_dir() == home / ".claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert auto_memory_dir(repo).parents[2] == tmp_path / "cfg"
    assert agent_memory_dir(Scope.USER, "reviewer") == tmp_path / "cfg" / "agent-memory" / \
        "reviewer"


def test_agent_dirs_per_scope(home: Path, repo: Path) -> None:
    assert agent_memory_dir(Scope.PROJECT, "reviewer", repo) == \
        repo / ".claude" / "agent-memory" / "reviewer"
    assert agent_memory_dir(Scope.LOCAL, "reviewer", repo) == \
        repo / ".claude" / "agent-memory-local" / "reviewer"
    assert agent_memory_dir(Scope.USER, "reviewer", repo) == \
        home / ".claude" / "agent-memory" / "reviewer"


@pytest.mark.parametrize("bad", ["../etc", "..", "/etc/passwd", "a/b", "a\\b", "", ".hidden",
                                 "x" * 65, "name with space"])
def test_agent_names_that_are_paths_are_rejected(bad: str, repo: Path) -> None:
    with pytest.raises(ValidationError, match="agent name"):
        agent_memory_dir(Scope.PROJECT, bad, repo)
    with pytest.raises(ValidationError):
        parse_scope(f"project:{bad}")


def test_parse_scope() -> None:
    assert parse_scope("user:reviewer") == (Scope.USER, "reviewer")
    assert parse_scope("Local:code-reviewer.v2") == (Scope.LOCAL, "code-reviewer.v2")
    for bad in ("reviewer", "team:reviewer", ":reviewer"):
        with pytest.raises(ValidationError):
            parse_scope(bad)
