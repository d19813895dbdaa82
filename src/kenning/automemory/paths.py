"""Where Claude Code keeps auto memory and agent memory, resolved exactly as the client does:
Claude Code uses ``$CLAUDE_CONFIG_DIR`` or ``$HOME/.claude``, and the git root's real path as
the project key."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError
from kenning.files import confined
from kenning.models import Scope
from kenning.places.keys import project_key
from kenning.places.paths import git_root
from kenning.validation import agent as check_agent

INDEX = "MEMORY.md"


def claude_config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The client's config directory: ``$CLAUDE_CONFIG_DIR``, else ``$HOME/.claude``."""
    env = os.environ if env is None else env
    if configured := env.get("CLAUDE_CONFIG_DIR"):
        return Path(configured).expanduser()
    home = env.get("HOME") or env.get("USERPROFILE")
    return (Path(home) if home else Path.home()) / ".claude"


def client_key(path: str | os.PathLike[str]) -> str:
    """The client's project key for ``path`` (see ``kenning.places.keys.project_key``)."""
    return project_key(path)


def memory_root(start: str | os.PathLike[str] | None = None) -> Path:
    """The directory the client keys auto memory by: the git root's real path, else the real
    path of ``start`` (the current directory by default)."""
    base = Path(start) if start is not None else Path.cwd()
    return git_root(base) or base.resolve()


def auto_memory_dir(start: str | os.PathLike[str] | None = None,
                    env: Mapping[str, str] | None = None) -> Path:
    """``<config>/projects/<key>/memory`` for the project containing ``start`` (refused when a
    symbolic link takes it outside the client's config directory), or the
    ``autoMemoryDirectory`` the client's settings name."""
    root = memory_root(start)
    chosen = client_auto_memory(root, env).directory
    if chosen is not None:
        return chosen
    config = claude_config_dir(env)
    return confined(config / "projects" / client_key(root) / "memory", config, "auto memory in")


@dataclass(frozen=True, slots=True)
class ClientAutoMemory:
    """Whether Claude Code's auto memory is on for a project, where its directory is when the
    settings move it, and what decided (for messages)."""

    enabled: bool
    directory: Path | None
    why: str


_OFF = ("1", "true", "yes", "on")
_ON = ("0", "false", "no", "off")


def _settings(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def client_auto_memory(project_root: str | os.PathLike[str] | None = None,
                       env: Mapping[str, str] | None = None) -> ClientAutoMemory:
    """The client's own switches, as it reads them: ``CLAUDE_CODE_DISABLE_AUTO_MEMORY``
    (``1`` off, ``0`` forced on) over ``autoMemoryEnabled`` in the user's, the project's and
    the project's local ``settings.json`` (later ones win); ``autoMemoryDirectory`` from the
    user's or the local settings (the client ignores it in the checked-in project settings)."""
    env = os.environ if env is None else env
    root = Path(project_root) if project_root is not None else Path.cwd()
    layers = [("user settings", claude_config_dir(env) / "settings.json", True),
              ("project settings", root / ".claude" / "settings.json", False),
              ("local settings", root / ".claude" / "settings.local.json", True)]
    enabled, why, directory = True, "default", None
    for label, path, may_move in layers:
        data = _settings(path)
        if isinstance(data.get("autoMemoryEnabled"), bool):
            enabled, why = data["autoMemoryEnabled"], f"autoMemoryEnabled in {label} ({path})"
        moved = data.get("autoMemoryDirectory")
        if may_move and isinstance(moved, str) and moved.strip():
            target = Path(moved.strip()).expanduser()
            directory = target if target.is_absolute() else root / target
    switch = str(env.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "")).strip().lower()
    if switch in _OFF:
        enabled, why = False, f"CLAUDE_CODE_DISABLE_AUTO_MEMORY={switch}"
    elif switch in _ON:
        enabled, why = True, f"CLAUDE_CODE_DISABLE_AUTO_MEMORY={switch}"
    return ClientAutoMemory(enabled, directory, why)


def parse_scope(text: str) -> tuple[Scope, str]:
    """``project:<agent>``, ``local:<agent>`` or ``user:<agent>`` as (scope, agent name)."""
    if not isinstance(text, str) or ":" not in text:
        raise ValidationError(
            f"scope {text!r} must look like project:<agent>, local:<agent> or user:<agent>")
    head, _, name = text.partition(":")
    try:
        scope = Scope(head.strip().lower())
    except ValueError:
        raise ValidationError(
            f"unknown scope {head!r} in {text!r}: expected project, local or user") from None
    return scope, agent_name(name.strip())


def agent_name(name: str) -> str:
    """A safe agent name: no separators, no traversal, no absolute paths (else a clear error)."""
    if not isinstance(name, str) or not name:
        raise ValidationError("agent name is empty")
    if "/" in name or "\\" in name or os.path.isabs(name) or name in (".", ".."):
        raise ValidationError(
            f"agent name {name!r} is not allowed: it must not be a path (no '/', '\\' or '..')")
    checked = check_agent(name)
    assert checked is not None
    return checked


def agent_memory_dir(scope: Scope, agent: str, project_dir: str | os.PathLike[str] | None = None,
                     env: Mapping[str, str] | None = None) -> Path:
    """An agent's memory directory: ``<project>/.claude/agent-memory[-local]/<agent>/`` or
    ``<config>/agent-memory/<agent>/`` (the client uses its working directory as project); refused
    when a symbolic link takes it outside the project (or the config directory)."""
    name = agent_name(agent)
    if scope is Scope.USER:
        base = claude_config_dir(env) / "agent-memory"
    else:
        root = Path(project_dir) if project_dir is not None else Path.cwd()
        sub = "agent-memory" if scope is Scope.PROJECT else "agent-memory-local"
        base = root / ".claude" / sub
    path = base / name
    if path.parent != base:
        raise ValidationError(f"agent name {agent!r} escapes {base}")
    # A symbolic link in the project (or the config dir) must not lead the writes elsewhere.
    anchor = base.parent.parent if scope is not Scope.USER else base.parent
    return confined(path, anchor, f"{scope.value}:{name} agent memory in")
