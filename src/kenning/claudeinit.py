"""``kenning init``: wire Kenning's hooks and MCP server into Claude Code, and take them out again.

Nothing machine-specific goes into a file a team commits. For a project, the hooks (absolute
paths of this installation) and the MCP permission go into ``.claude/settings.local.json``,
Claude Code's per-user, per-project settings file, which git is told to ignore through the
clone's own ``.git/info/exclude``; the MCP server goes into the client's *local* scope (its
entry for this project in ``~/.claude.json``, what ``claude mcp add --scope local`` writes).
With ``--user`` both go into the user's own files (``~/.claude/settings.json``, the user scope
of ``~/.claude.json``).

Measured with Claude Code 2.1.330 (``claude -p``): ``permissions.allow`` is honoured from
``settings.local.json`` and from the user's settings even in a workspace that was never
trusted, while the same entry in the committed ``.claude/settings.json`` is ignored until the
workspace is trusted. An interactive session still asks once whether to trust the folder; init
says so and ``kenning doctor`` checks it (:func:`check`).

Idempotent; the original bytes of every file init changes are kept in a manifest in Kenning's
data directory (never in the project), so ``--uninstall`` restores each file exactly (or, if a
person edited it since, removes only what init added). Init also records the project's Claude
Code auto-memory folder as it was; uninstall removes the files Kenning wrote there and puts a
person's files back byte for byte.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError
from kenning.files import atomic_write_bytes, confined

SERVER = "kenning"
PERMISSION = f"mcp__{SERVER}"
LEGACY_MANIFEST = "kenning-init.json"  # where an older init kept it, inside .claude/
LOCAL_SETTINGS = ".claude/settings.local.json"
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
SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024  # an auto-memory folder larger than this is not copied


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


def _home(home: Path | None) -> Path:
    return home or Path(os.path.expanduser("~"))


def client_config_file(home: Path | None = None) -> Path:
    """The client's own state file, which holds the user and local MCP scopes and trust."""
    if configured := os.environ.get("CLAUDE_CONFIG_DIR"):
        return Path(configured).expanduser() / ".claude.json"
    return _home(home) / ".claude.json"


def user_settings_file(home: Path | None = None) -> Path:
    if configured := os.environ.get("CLAUDE_CONFIG_DIR"):
        return Path(configured).expanduser() / "settings.json"
    return _home(home) / ".claude" / "settings.json"


def manifest_path(project_root: Path, user: bool) -> Path:
    """Where init keeps what it needs to undo itself: Kenning's data directory, per project."""
    from kenning.places.keys import project_key
    from kenning.places.paths import data_dir

    return data_dir() / "init" / ("user.json" if user else f"{project_key(project_root)}.json")


def targets(project_root: Path, user: bool, home: Path | None = None) -> dict[str, Path]:
    """The files init touches: Claude Code settings and the client's MCP server list."""
    if user:
        return {"settings": user_settings_file(home), "mcp": client_config_file(home)}
    # A symbolic link in the repository (.claude -> elsewhere) must not lead the writes out.
    paths = {"settings": confined(project_root / LOCAL_SETTINGS, project_root,
                                  "Claude Code settings"),
             "mcp": client_config_file(home)}
    git_dir = project_root / ".git"
    if git_dir.is_dir():
        paths["exclude"] = confined(git_dir / "info" / "exclude", project_root,
                                    "the clone's git exclude file")
    return paths


# -- the edits ---------------------------------------------------------------------------------


def _with_hooks(settings: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(settings))
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError("the settings' 'hooks' value is not an object")
    for event, (matcher, timeout) in EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ValidationError(f"settings hooks.{event} is not a list")
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
    if PERMISSION not in allow:
        allow.append(PERMISSION)
    return out


def _without_hooks(settings: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(settings))
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
    for key, value in ((("permissions", "allow"), PERMISSION),
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


def _servers_holder(data: dict[str, Any], scope_root: str | None, create: bool
                    ) -> dict[str, Any] | None:
    """The object holding ``mcpServers`` for the user scope (``scope_root`` None) or for one
    project's local scope (``projects[<root>]``)."""
    if scope_root is None:
        return data
    projects = data.setdefault("projects", {}) if create else data.get("projects")
    if not isinstance(projects, dict):
        if create:
            raise ValidationError("the client's 'projects' entry is not an object")
        return None
    entry = projects.setdefault(scope_root, {}) if create else projects.get(scope_root)
    if entry is not None and not isinstance(entry, dict):
        raise ValidationError(f"the client's entry for {scope_root} is not an object")
    return entry


def _with_mcp(data: dict[str, Any], scope_root: str | None) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(data))
    holder = _servers_holder(out, scope_root, create=True)
    assert holder is not None
    servers = holder.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise ValidationError("'mcpServers' is not an object")
    if SERVER not in servers:
        servers[SERVER] = mcp_entry()
    return out


def _without_mcp(data: dict[str, Any], scope_root: str | None) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(data))
    holder = _servers_holder(out, scope_root, create=False)
    servers = holder.get("mcpServers") if holder is not None else None
    if isinstance(servers, dict) and SERVER in servers:
        del servers[SERVER]
        if not servers:
            del holder["mcpServers"]  # type: ignore[union-attr]
    if scope_root is not None and isinstance(out.get("projects"), dict):
        if out["projects"].get(scope_root) == {}:
            del out["projects"][scope_root]
        if not out["projects"]:
            del out["projects"]
    return out


def _git_ignores(project_root: Path, rel: str) -> bool:
    """True when git already ignores ``rel`` in this work tree (or git cannot be asked)."""
    try:
        proc = subprocess.run(["git", "-C", str(project_root), "check-ignore", "-q", rel],
                              capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return True
    return proc.returncode == 0


def _exclude_line() -> str:
    return "/" + LOCAL_SETTINGS


def _with_exclude(text: bytes) -> bytes:
    line = _exclude_line().encode()
    if line in text.splitlines():
        return text
    lead = b"" if not text or text.endswith(b"\n") else b"\n"
    return text + lead + b"# Kenning (kenning init): this machine's Claude Code settings\n" \
        + line + b"\n"


def _without_exclude(text: bytes) -> bytes:
    lines = text.splitlines(keepends=True)
    out = [ln for ln in lines if ln.rstrip(b"\n") not in (
        _exclude_line().encode(), b"# Kenning (kenning init): this machine's Claude Code settings")]
    return b"".join(out)


# -- install / uninstall -----------------------------------------------------------------------


def _json_edit(transform: Any) -> Any:
    """A bytes -> bytes edit of a JSON file (``None`` bytes: the file does not exist)."""
    def edit(path: Path, before: bytes | None) -> bytes:
        return _dump(transform(_load_json(path) if before is not None else {}))
    return edit


def install(project_root: Path, *, user: bool = False, home: Path | None = None
            ) -> dict[str, Any]:
    """Add Kenning's hooks, MCP server and permission. Returns what changed per file, the
    hook command, and what the user must still do for the MCP tools to be allowed."""
    legacy = _undo_legacy(project_root) if not user else {}
    paths = targets(project_root, user, home)
    mpath = manifest_path(project_root, user)
    manifest = _load_json(mpath)
    originals = manifest.setdefault("originals", {})
    written = manifest.setdefault("written", {})
    scope_root = None if user else str(project_root)
    plans: list[tuple[str, Any]] = [
        ("settings", _json_edit(_with_hooks)),
        ("mcp", _json_edit(lambda d: _with_mcp(d, scope_root))),
    ]
    if "exclude" in paths and not _git_ignores(project_root, LOCAL_SETTINGS):
        plans.append(("exclude", lambda _p, before: _with_exclude(before or b"")))
    changed: dict[str, str] = {f"{path} (was: {what})": "moved out" for path, what in
                               legacy.items()}
    new_bytes: dict[str, bytes] = {}
    for name, edit in plans:
        path = paths[name]
        before = path.read_bytes() if path.exists() else None
        after = edit(path, before)
        same = before == after or (before is not None and name != "exclude"
                                   and _dump(_load_json(path)) == after)
        if same:
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
    if not user and "automemory" not in manifest:
        manifest["automemory"] = snapshot_auto_memory(project_root)
    if new_bytes or not mpath.exists():
        manifest.update(user=user, project_root=str(project_root), version=2)
        atomic_write_bytes(mpath, _dump(manifest))
    return {"files": changed, "hook_command": hook_command("<event>"), "user": user,
            "manifest": str(mpath), "mcp_permission": permission_advice(project_root, user, home)}


def uninstall(project_root: Path, *, user: bool = False, home: Path | None = None
              ) -> dict[str, Any]:
    """Take out what install added: files untouched since are restored byte for byte (or
    removed if init created them); files edited since lose only Kenning's entries. For a
    project, the auto-memory folder goes back to what it was before init."""
    paths = targets(project_root, user, home)
    mpath = manifest_path(project_root, user)
    manifest = _load_json(mpath)
    scope_root = None if user else str(project_root)
    strips = {
        "settings": lambda b: _dump(_without_hooks(json.loads(b or b"{}"))),
        "mcp": lambda b: _dump(_without_mcp(json.loads(b or b"{}"), scope_root)),
        "exclude": _without_exclude,
    }
    result = _restore({name: (path, strips[name]) for name, path in paths.items()}, manifest)
    result.update({f"{path} (was: {what})": "moved out"
                   for path, what in _undo_legacy(project_root).items()} if not user else {})
    if "automemory" in manifest:
        result.update(restore_auto_memory(manifest["automemory"]))
    mpath.unlink(missing_ok=True)
    for directory in manifest.get("created_dirs", []):
        with contextlib.suppress(OSError):  # only when empty: never remove what others put there
            Path(directory).rmdir()
    return {"files": result, "user": user}


def _restore(files: dict[str, tuple[Path, Any]], manifest: dict[str, Any]) -> dict[str, str]:
    """Per file: the original bytes back if nobody changed what init wrote, else only
    Kenning's entries taken out (``strip`` maps current bytes to the cleaned bytes)."""
    originals: dict[str, str | None] = manifest.get("originals", {})
    written: dict[str, str] = manifest.get("written", {})
    result: dict[str, str] = {}
    for path, strip in files.values():
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
            if path.suffix == ".json":
                _load_json(path)  # a clear error for a broken file, before anything is written
            cleaned = strip(current)
            if cleaned != current and (path.suffix != ".json"
                                       or json.loads(cleaned) != json.loads(current)):
                atomic_write_bytes(path, cleaned)
                result[key] = "cleaned (edited since init: only Kenning's entries removed)"
            else:
                result[key] = "unchanged"
        else:
            result[key] = "absent"
    return result


def _undo_legacy(project_root: Path) -> dict[str, str]:
    """An older init wrote machine paths into ``.claude/settings.json`` and ``.mcp.json``
    (files a team commits) and kept its manifest in ``.claude/``: put those back first."""
    old = project_root / ".claude" / LEGACY_MANIFEST
    if not old.exists():
        return {}
    manifest = _load_json(old)
    files = {
        "settings": (project_root / ".claude" / "settings.json",
                     lambda b: _dump(_without_hooks(json.loads(b or b"{}")))),
        "mcp": (project_root / ".mcp.json",
                lambda b: _dump(_without_mcp(json.loads(b or b"{}"), None))),
    }
    result = _restore(files, manifest)
    old.unlink()
    for directory in manifest.get("created_dirs", []):
        with contextlib.suppress(OSError):
            Path(directory).rmdir()
    return {path: what for path, what in result.items() if what not in ("unchanged", "absent")}


# -- Claude Code's auto memory -----------------------------------------------------------------


def _auto_memory_dir(project_root: Path) -> Path:
    from kenning.automemory.paths import auto_memory_dir

    return auto_memory_dir(project_root)


def snapshot_auto_memory(project_root: Path) -> dict[str, Any]:
    """The project's auto-memory folder as it is before Kenning writes there: every file's
    bytes (a folder over ``SNAPSHOT_MAX_BYTES`` keeps digests only)."""
    directory = _auto_memory_dir(project_root)
    files = sorted(p for p in directory.rglob("*") if p.is_file()) if directory.is_dir() else []
    total = sum(p.stat().st_size for p in files)
    keep_bytes = total <= SNAPSHOT_MAX_BYTES
    snap: dict[str, Any] = {"dir": str(directory), "existed": directory.is_dir(), "files": {}}
    for p in files:
        data = p.read_bytes()
        snap["files"][str(p.relative_to(directory))] = {
            "sha256": _sha(data),
            **({"bytes": base64.b64encode(data).decode("ascii")} if keep_bytes else {})}
    return snap


def _kenning_wrote(data: bytes) -> bool:
    """A memory file Kenning wrote: its frontmatter carries a ``kenning_id``."""
    head = data[:2048].decode("utf-8", "replace")
    return head.startswith("---") and "\n  kenning_id:" in head.split("\n---", 1)[0]


def restore_auto_memory(snap: dict[str, Any]) -> dict[str, str]:
    """Undo Kenning in the auto-memory folder: files Kenning created go, files that were there
    before init come back as they were (MEMORY.md, which Kenning curates, included); files
    Claude Code or a person added since are kept."""
    directory = Path(snap["dir"])
    before: dict[str, dict[str, str]] = snap.get("files", {})
    removed = restored = 0
    if directory.is_dir():
        for p in sorted(directory.rglob("*")):
            if not p.is_file():
                continue
            rel = str(p.relative_to(directory))
            data = p.read_bytes()
            if rel not in before and (_kenning_wrote(data) or rel == "MEMORY.md"):
                p.unlink()
                removed += 1
    for rel, info in before.items():
        p = directory / rel
        current = p.read_bytes() if p.exists() else None
        if current is not None and _sha(current) == info["sha256"]:
            continue
        if "bytes" not in info:
            continue
        # Kenning curates MEMORY.md and owns the files it wrote; a file that was there before
        # init and is now gone or rewritten by Kenning comes back exactly.
        if current is None or rel == "MEMORY.md" or _kenning_wrote(current):
            p.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(p, base64.b64decode(info["bytes"]))
            restored += 1
    if not snap.get("existed") and directory.is_dir():
        with contextlib.suppress(OSError):  # only if Kenning's files were all it held
            for sub in sorted((d for d in directory.rglob("*") if d.is_dir()), reverse=True):
                sub.rmdir()
            directory.rmdir()
    if not removed and not restored:
        return {str(directory): "unchanged"}
    return {str(directory): f"auto memory as before init ({removed} Kenning files removed, "
                            f"{restored} restored)"}


# -- what the user must do, and the checks doctor runs -----------------------------------------


def _trusted(project_root: Path, home: Path | None) -> bool | None:
    """Whether the client recorded that this folder was trusted (None: cannot tell)."""
    try:
        data = _load_json(client_config_file(home))
    except ValidationError:
        return None
    projects = data.get("projects")
    entry = projects.get(str(project_root)) if isinstance(projects, dict) else None
    return bool(isinstance(entry, dict) and entry.get("hasTrustDialogAccepted"))


def permission_advice(project_root: Path, user: bool, home: Path | None = None) -> str:
    """One paragraph: how the MCP tools are allowed and what, if anything, is left to do."""
    where = (str(user_settings_file(home)) if user
             else str(project_root / LOCAL_SETTINGS))
    text = (f"MCP tools: allowed by permissions.allow \"{PERMISSION}\" in {where}, which Claude "
            "Code honours in every session, claude -p included.")
    if user:
        return text + (" An interactive session in a folder Claude Code has not seen asks "
                       "first whether you trust it: accept, or nothing of Kenning's runs there.")
    if _trusted(project_root, home):
        return text + " This folder is already trusted in Claude Code."
    return text + (" This folder is not trusted in Claude Code yet: start `claude` here once "
                   "and accept the trust prompt (until then an interactive session runs "
                   "nothing of Kenning's). `kenning doctor` checks it.")


def _hook_commands(settings: dict[str, Any]) -> list[str]:
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return []
    return [h["command"] for groups in hooks.values() if isinstance(groups, list)
            for g in groups if isinstance(g, dict) for h in g.get("hooks", [])
            if isinstance(h, dict) and _is_ours(h.get("command"))]


def check(project_root: Path, home: Path | None = None) -> dict[str, Any]:
    """What ``kenning doctor`` says about Claude Code: where the hooks and the MCP server are
    registered and whether their programs exist, whether the MCP tools are allowed, whether
    the folder is trusted; ``problems`` lists what to fix, each with the fix."""
    files = {"local": project_root / LOCAL_SETTINGS,
             "project": project_root / ".claude" / "settings.json",
             "user": user_settings_file(home)}
    settings: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for scope, path in files.items():
        try:
            settings[scope] = _load_json(path)
        except ValidationError as exc:
            settings[scope] = {}
            problems.append(str(exc))
    hooks = {scope: _hook_commands(s) for scope, s in settings.items()}
    hook_scope = next((scope for scope, cmds in hooks.items() if cmds), None)
    commands = hooks.get(hook_scope or "", [])
    missing_programs = sorted({shlex.split(c)[0] for c in commands
                               if not Path(shlex.split(c)[0]).exists()
                               and shutil.which(shlex.split(c)[0]) is None})
    try:
        client = _load_json(client_config_file(home))
    except ValidationError as exc:
        client, problems = {}, [*problems, str(exc)]
    local = _servers_holder(client, str(project_root), create=False) or {}
    mcp_json = project_root / ".mcp.json"
    servers = {"local": (local.get("mcpServers") or {}).get(SERVER),
               "user": (client.get("mcpServers") or {}).get(SERVER)
               if isinstance(client.get("mcpServers"), dict) else None,
               "project": (_load_json(mcp_json).get("mcpServers") or {}).get(SERVER)
               if mcp_json.exists() else None}
    mcp_scope = next((s for s, v in servers.items() if isinstance(v, dict)), None)
    entry = servers.get(mcp_scope) if mcp_scope else None
    mcp_command = entry.get("command") if isinstance(entry, dict) else None
    trusted = _trusted(project_root, home)
    allowed_in = [scope for scope, s in settings.items()
                  if PERMISSION in ((s.get("permissions") or {}).get("allow") or [])]
    allowed = bool({"local", "user"} & set(allowed_in)) or ("project" in allowed_in
                                                             and bool(trusted))
    if hook_scope is None:
        problems.append("no Kenning hooks are registered for this project: run kenning init")
    elif hook_scope == "project":
        problems.append(".claude/settings.json (a file teams commit) holds this machine's hook "
                        "paths: run kenning init to move them to .claude/settings.local.json")
    if missing_programs:
        problems.append(f"hook program(s) not found: {', '.join(missing_programs)} (Kenning "
                        "moved or was uninstalled?): run kenning init --uninstall, then "
                        "kenning init from the installation you use")
    if mcp_scope is None:
        problems.append("the kenning MCP server is not registered: run kenning init")
    elif mcp_command and not (Path(mcp_command).exists() or shutil.which(mcp_command)):
        problems.append(f"the MCP server's command {mcp_command} does not exist: run "
                        "kenning init again")
    if mcp_scope and not allowed:
        problems.append(f"the MCP tools are not allowed: add \"{PERMISSION}\" to "
                        f"permissions.allow in {files['local']} (kenning init does), or pass "
                        f"--allowedTools {PERMISSION} to claude -p")
    if hook_scope and trusted is False:
        problems.append("Claude Code has not been told to trust this folder yet: start claude "
                        "here once and accept the trust prompt (claude -p does not ask)")
    return {"project_root": str(project_root), "hooks": {"scope": hook_scope,
            "file": str(files[hook_scope]) if hook_scope else None, "count": len(commands)},
            "mcp": {"scope": mcp_scope, "command": mcp_command},
            "mcp_allowed": allowed, "allowed_in": allowed_in, "trusted": trusted,
            "problems": problems}
