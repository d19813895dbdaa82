"""``kenning init``: wire Kenning's hooks and MCP server into Claude Code's settings, and take
them out again. Idempotent; the original bytes of every file it changes are kept, so
``--uninstall`` restores them exactly (or, if a person edited the file since, removes only what
init added)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError
from kenning.files import atomic_write_bytes, confined

SERVER = "kenning"
MANIFEST = "kenning-init.json"
TOOL_MATCHER = "Write|Edit|MultiEdit|NotebookEdit|Bash"
# event -> (matcher or None, timeout seconds). Stop is left out: it fires after every turn and
# SessionEnd does the consolidation.
EVENTS: dict[str, tuple[str | None, int]] = {
    "SessionStart": (None, 15),
    "UserPromptSubmit": (None, 5),
    "PostToolUse": (TOOL_MATCHER, 5),
    "PostToolUseFailure": (TOOL_MATCHER, 5),
    "PreCompact": (None, 15),
    "SubagentStop": (None, 5),
    "SessionEnd": (None, 90),
}


def hook_command(event: str) -> str:
    """The fastest way to run Kenning's hook from this installation, as a shell command."""
    bindir = Path(sys.executable).parent
    fast = bindir / "kenning-hook"
    if fast.exists():
        return f"{shlex.quote(str(fast))} {event}"
    cli = bindir / "kenning"
    if not cli.exists():
        found = shutil.which("kenning")
        cli = Path(found) if found else cli
    return f"{shlex.quote(str(cli))} hook {event}"


def mcp_entry() -> dict[str, Any]:
    cli = Path(sys.executable).parent / "kenning"
    command = str(cli) if cli.exists() else (shutil.which("kenning") or "kenning")
    return {"type": "stdio", "command": command, "args": ["mcp"]}


def _is_ours(command: object) -> bool:
    return isinstance(command, str) and ("kenning-hook" in command or (" hook " in command
                                         and "kenning" in command))


def _load_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationError(
            f"{path} is not valid JSON ({exc}); fix it, then run init again") from None
    if not isinstance(data, dict):
        raise ValidationError(f"{path} does not hold a JSON object")
    return data


def _dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def targets(project_root: Path, user: bool, home: Path | None = None) -> dict[str, Path]:
    """The files init touches: Claude Code settings and the MCP server list."""
    home = home or Path(os.path.expanduser("~"))
    if user:
        return {"settings": home / ".claude" / "settings.json", "mcp": home / ".claude.json",
                "manifest": home / ".claude" / MANIFEST}
    project = {"settings": project_root / ".claude" / "settings.json",
               "mcp": project_root / ".mcp.json", "manifest": project_root / ".claude" / MANIFEST}
    # A symbolic link in the repository (.claude -> elsewhere) must not lead the writes out.
    return {name: confined(path, project_root, "Claude Code settings")
            for name, path in project.items()}


def _with_hooks(settings: dict[str, Any], user: bool) -> dict[str, Any]:
    out = json.loads(json.dumps(settings))
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError("settings.json has a 'hooks' value that is not an object")
    for event, (matcher, timeout) in EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ValidationError(f"settings.json hooks.{event} is not a list")
        present = any(_is_ours(h.get("command")) for g in groups if isinstance(g, dict)
                      for h in g.get("hooks", []) if isinstance(h, dict))
        if present:
            continue
        group: dict[str, Any] = {"hooks": [
            {"type": "command", "command": hook_command(event), "timeout": timeout}]}
        if matcher:
            group = {"matcher": matcher, **group}
        groups.append(group)
    perms = out.setdefault("permissions", {})
    allow = perms.setdefault("allow", [])
    if f"mcp__{SERVER}" not in allow:
        allow.append(f"mcp__{SERVER}")
    if not user:
        enabled = out.setdefault("enabledMcpjsonServers", [])
        if SERVER not in enabled:
            enabled.append(SERVER)
    return out


def _without_hooks(settings: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(settings))
    hooks = out.get("hooks")
    if isinstance(hooks, dict):
        for event in list(hooks):
            groups = hooks[event]
            if not isinstance(groups, list):
                continue
            kept = []
            for g in groups:
                if isinstance(g, dict) and isinstance(g.get("hooks"), list):
                    g = dict(g, hooks=[h for h in g["hooks"]
                                       if not (isinstance(h, dict) and _is_ours(h.get("command")))])
                    if not g["hooks"]:
                        continue
                kept.append(g)
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
        if not hooks:
            del out["hooks"]
    for key, value in ((("permissions", "allow"), f"mcp__{SERVER}"),
                       (("enabledMcpjsonServers",), SERVER)):
        holder: Any = out
        for part in key[:-1]:
            holder = holder.get(part, {}) if isinstance(holder, dict) else {}
        items = holder.get(key[-1]) if isinstance(holder, dict) else None
        if isinstance(items, list) and value in items:
            items.remove(value)
            if not items:
                del holder[key[-1]]
    if isinstance(out.get("permissions"), dict) and not out["permissions"]:
        del out["permissions"]
    return out


def _with_mcp(data: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    servers = out.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise ValidationError("'mcpServers' is not an object")
    if SERVER not in servers:
        servers[SERVER] = mcp_entry()
    return out


def _without_mcp(data: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    servers = out.get("mcpServers")
    if isinstance(servers, dict) and SERVER in servers:
        del servers[SERVER]
        if not servers:
            del out["mcpServers"]
    return out


def install(project_root: Path, *, user: bool = False, home: Path | None = None
            ) -> dict[str, Any]:
    """Add Kenning's hooks, MCP server and permissions. Returns what changed per file."""
    paths = targets(project_root, user, home)
    manifest = _load_json(paths["manifest"])
    originals = manifest.setdefault("originals", {})
    written = manifest.setdefault("written", {})
    changed: dict[str, str] = {}
    plans = (("settings", lambda d: _with_hooks(d, user)), ("mcp", _with_mcp))
    new_bytes: dict[str, bytes] = {}
    for name, transform in plans:
        path = paths[name]
        before = path.read_bytes() if path.exists() else None
        after = _dump(transform(_load_json(path)))
        if (before is not None and _dump(_load_json(path)) == after) or before == after:
            changed[str(path)] = "unchanged"
            continue
        new_bytes[name] = after
        if str(path) not in originals:
            originals[str(path)] = (None if before is None
                                    else base64.b64encode(before).decode("ascii"))
        changed[str(path)] = "created" if before is None else "updated"
    created_dirs = manifest.setdefault("created_dirs", [])
    for name, data in new_bytes.items():
        path = paths[name]
        if not path.parent.exists() and str(path.parent) not in created_dirs:
            created_dirs.append(str(path.parent))
        atomic_write_bytes(path, data)
        written[str(path)] = _sha(data)
    if new_bytes:
        manifest["user"] = user
        atomic_write_bytes(paths["manifest"], _dump(manifest))
    return {"files": changed, "hook_command": hook_command("<event>"), "user": user}


def uninstall(project_root: Path, *, user: bool = False, home: Path | None = None
              ) -> dict[str, Any]:
    """Take out what install added: files untouched since are restored byte for byte (or
    removed if init created them); files edited since lose only Kenning's entries."""
    paths = targets(project_root, user, home)
    manifest = _load_json(paths["manifest"])
    originals: dict[str, str | None] = manifest.get("originals", {})
    written: dict[str, str] = manifest.get("written", {})
    result: dict[str, str] = {}
    for name, strip in (("settings", _without_hooks), ("mcp", _without_mcp)):
        path = paths[name]
        key = str(path)
        current = path.read_bytes() if path.exists() else None
        if key in originals and current is not None and written.get(key) == _sha(current):
            original = originals[key]
            if original is None:
                path.unlink()
                result[key] = "removed"
            else:
                atomic_write_bytes(path, base64.b64decode(original))
                result[key] = "restored"
        elif current is not None:
            data = _load_json(path)
            stripped = strip(data)
            if stripped != data:
                atomic_write_bytes(path, _dump(stripped))
                result[key] = "cleaned (edited since init: only Kenning's entries removed)"
            else:
                result[key] = "unchanged"
        else:
            result[key] = "absent"
    if paths["manifest"].exists():
        paths["manifest"].unlink()
    for directory in manifest.get("created_dirs", []):
        with contextlib.suppress(OSError):  # only when empty: never remove what others put there
            Path(directory).rmdir()
    return {"files": result, "user": user}
