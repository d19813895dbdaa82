"""Agent memory scopes (project, local, user): which agents have
memory where, and knowledge transfer of high-confidence memories between scopes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning import validation as v
from kenning.automemory.files import split_frontmatter
from kenning.automemory.paths import (
    INDEX,
    agent_memory_dir,
    agent_name,
    claude_config_dir,
    parse_scope,
)
from kenning.errors import ValidationError
from kenning.models import Filters, Scope, iso

if TYPE_CHECKING:
    from kenning.automemory.options import AutoMemoryOptions
    from kenning.automemory.ports import Ports

SCOPES = (Scope.PROJECT, Scope.LOCAL, Scope.USER)


def scope_label(scope: Scope, agent: str) -> str:
    return f"{scope.value}:{agent}"


def defined_agents(project_dir: Path, env: Mapping[str, str] | None = None
                   ) -> dict[str, str | None]:
    """Agents defined in ``.claude/agents/*.md`` (project, then user) with their ``memory``
    frontmatter scope (None when the agent has no memory)."""
    out: dict[str, str | None] = {}
    for base in (claude_config_dir(env) / "agents", project_dir / ".claude" / "agents"):
        if not base.is_dir():
            continue
        for path in sorted(base.glob("*.md")):
            try:
                fm, _ = split_frontmatter(path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            fm = fm or {}
            name = str(fm.get("name") or path.stem)
            memory = fm.get("memory")
            out[name] = str(memory).lower() if memory in ("user", "project", "local") else None
    return out


def _dirs_on_disk(project_dir: Path, env: Mapping[str, str] | None) -> dict[tuple[Scope, str],
                                                                           Path]:
    out: dict[tuple[Scope, str], Path] = {}
    bases = {
        Scope.PROJECT: project_dir / ".claude" / "agent-memory",
        Scope.LOCAL: project_dir / ".claude" / "agent-memory-local",
        Scope.USER: claude_config_dir(env) / "agent-memory",
    }
    for scope, base in bases.items():
        if base.is_dir():
            for d in sorted(base.iterdir()):
                if d.is_dir() and not d.is_symlink():
                    try:
                        out[(scope, agent_name(d.name))] = d
                    except ValidationError:
                        continue
    return out


def list_scopes(svc: Ports, project_dir: Path, env: Mapping[str, str] | None = None
                ) -> list[dict[str, Any]]:
    """Every (scope, agent) known from the store, from directories on disk or from agent
    definitions: its directory, whether MEMORY.md exists and how many memories it holds."""
    counts: dict[tuple[Scope, str], int] = {}
    for scope in SCOPES:
        for m in svc.store.list(Filters(project=svc.project, scopes=(scope,)), limit=None):
            if m.agent:
                counts[(m.scope, m.agent)] = counts.get((m.scope, m.agent), 0) + 1
    on_disk = _dirs_on_disk(project_dir, env)
    defined = defined_agents(project_dir, env)
    keys = set(counts) | set(on_disk)
    for name, memory in defined.items():
        if memory:
            try:
                keys.add((Scope(memory), agent_name(name)))
            except ValidationError:
                continue
    out = []
    for scope, agent in sorted(keys, key=lambda t: (SCOPES.index(t[0]), t[1])):
        directory = on_disk.get((scope, agent)) or agent_memory_dir(scope, agent, project_dir, env)
        out.append({
            "scope": scope_label(scope, agent), "kind": scope.value, "agent": agent,
            "dir": str(directory), "exists": directory.is_dir(),
            "index_exists": (directory / INDEX).is_file(),
            "memories": counts.get((scope, agent), 0),
            "defined": agent in defined, "defined_memory": defined.get(agent),
        })
    return out


def transfer(svc: Ports, from_scope: str, to_scope: str, min_confidence: float = 0.8
             ) -> dict[str, Any]:
    """Copy the memories of one agent scope whose confidence now (decay applied) is above
    ``min_confidence`` into another, keeping type, topic, category, tags and that confidence,
    with where they came from in metadata. Copies already there (same text) are not made
    again."""
    src_scope, src_agent = parse_scope(from_scope)
    dst_scope, dst_agent = parse_scope(to_scope)
    if (src_scope, src_agent) == (dst_scope, dst_agent):
        raise ValidationError("transfer needs two different scopes")
    threshold = v.confidence(min_confidence)
    now = svc.clock()
    live = (svc.live(m, now) for m in svc.store.list(
        Filters(project=svc.project, scopes=(src_scope,), agent=src_agent), limit=None,
        newest_first=False))
    source = [m for m in live if m.confidence > threshold]
    items = [{
        "text": m.content, "summary": m.summary, "type": m.type, "topic": m.topic,
        "category": m.category, "tags": list(m.tags), "source": m.source,
        "confidence": m.confidence, "scope": dst_scope, "agent": dst_agent,
        "metadata": {**{key: val for key, val in m.metadata.items() if key != "automemory"},
                     "transfer": {"from": scope_label(src_scope, src_agent), "memory_id": m.id,
                                  "at": iso(now)}},
    } for m in source]
    stored = svc.remember_many(items) if items else []
    new = sum(1 for m in stored if m.is_new)
    return {
        "from": scope_label(src_scope, src_agent), "to": scope_label(dst_scope, dst_agent),
        "min_confidence": threshold, "considered": len(source), "transferred": new,
        "already_there": len(stored) - new, "ids": [m.id for m in stored if m.is_new],
    }


def import_all(svc: Ports, project_dir: Path, options: AutoMemoryOptions
               ) -> dict[str, Any]:
    """Import every agent memory directory that exists (what a session start does: subagents
    with a ``memory`` scope write there themselves). Scope label -> the import's counts."""
    out: dict[str, Any] = {}
    # only the directories on disk, found without counting the store's memories (a session
    # start at 10k memories spent 250 ms on that count)
    for scope, agent in sorted(_dirs_on_disk(project_dir, None),
                               key=lambda t: (SCOPES.index(t[0]), t[1])):
        label = scope_label(scope, agent)
        out[label] = svc.import_files(project_dir, options, label)
    return out


def sync_defined(svc: Ports, project_dir: Path, options: AutoMemoryOptions,
                 running: str | None) -> dict[str, Any]:
    """Sync the agent scopes Claude Code reads: those an agent definition asks for with its
    ``memory`` key, and every scope of the agent this session runs as (``running``, from
    ``CLAUDE_CODE_AGENT_NAME``) that has a directory or memories. Scope label -> counts."""
    out: dict[str, Any] = {}
    if running:
        try:
            running = agent_name(running)
        except ValidationError:
            running = None
    for row in list_scopes(svc, project_dir):
        defined = row["defined_memory"] == row["kind"]
        mine = row["agent"] == running and (row["exists"] or row["memories"])
        if defined or mine:
            out[row["scope"]] = svc.sync(project_dir, options, row["scope"])
    return out
