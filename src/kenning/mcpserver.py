"""Kenning's MCP server (official ``mcp`` SDK): typed, validated tools over one ``Kenning`` opened
once per process. Answers are compact (a short index first, details on request); bad arguments
are tool errors (``isError``) that leave the store unchanged, never a crash."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from kenning.errors import KenningError, NotFoundError
from kenning.models import Memory

if TYPE_CHECKING:
    from kenning.facade import Kenning

SERVER_NAME = "kenning"
INSTRUCTIONS = (
    "Kenning is this project's long-term memory. Before a task call get_session_context (or "
    "recall) to see past decisions, gotchas and outcomes; save decisions with save, record "
    "pitfalls with record_gotcha and file purposes with record_discovery; at the end call "
    "save_session_insight. Results are short indexes: call get with ids for full content."
)
ROW_SUMMARY = 160
DEFAULT_MAX_CHARS = 4000
T = TypeVar("T")

# Argument types (the JSON schema the client sees comes from these).
MemoryId = Annotated[str, Field(pattern=r"^[0-9A-Za-z]{6,40}$",
                                description="A memory id (or a unique prefix of 6+ chars).")]
Text = Annotated[str, Field(min_length=1, max_length=100_000)]
Short = Annotated[str, Field(min_length=1, max_length=4000)]
Name = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f]+$")]
TagList = Annotated[list[Annotated[str, Field(min_length=1, max_length=64)]],
                    Field(max_length=32)]
IdList = Annotated[list[MemoryId], Field(max_length=20)]
Confidence = Annotated[float, Field(ge=0.0, le=1.0)]
# The default of the list arguments: immutable, and [] in the schema. Typed Any because the
# annotation (which makes the schema) says list while the default is a tuple.
NO_ITEMS: Any = ()
Age = Annotated[str, Field(min_length=1, max_length=40,
                           description="ISO date/time or an age such as 7d, 12h.")]
MemoryKind = Literal["decision", "checkpoint", "insight", "context", "pattern", "gotcha",
                     "outcome", "discovery", "preference"]
CategoryName = Literal["project-patterns", "debugging", "architecture", "preferences",
                       "performance", "security"]
EpisodeName = Literal["session_insight", "codebase_discovery", "pattern", "gotcha",
                      "task_outcome", "qa_result", "historical_context"]
SourceName = Annotated[str, Field(min_length=1, max_length=200,
                                  pattern=r"^[A-Za-z][\w.-]*(:[\w.@/-]+)*$",
                                  description="Who found it: agent:<type> or "
                                              "swarm:<id>:<agent>.")]


class LinkArg(BaseModel):
    """A free relationship to an existing memory: any words, any language."""

    model_config = ConfigDict(extra="forbid")
    to_id: MemoryId
    relationship: Annotated[str, Field(min_length=1, max_length=100,
                                       description="e.g. depends_on, inspired_by, challenges")]
    reason: Annotated[str | None, Field(max_length=2000)] = None
    tags: Annotated[list[Annotated[str, Field(max_length=64)]],
                    Field(max_length=8, default_factory=list)]


def dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str)


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def row(m: Memory, score: float | None = None, *, content: int = 0) -> dict[str, Any]:
    """One memory as a compact index entry (``content`` > 0 adds that much of the body)."""
    out: dict[str, Any] = {"id": m.id, "type": m.type.value}
    if m.topic:
        out["topic"] = m.topic
    out["summary"] = clip(m.summary, ROW_SUMMARY)
    if score is not None:
        out["score"] = round(score, 3)
    out["conf"] = round(m.confidence, 2)
    if m.outcome:
        out["outcome"] = m.outcome.value
    if m.superseded_by:
        out["superseded_by"] = m.superseded_by
    if m.drift:  # the code it describes changed since it was recorded: check before relying
        out["code_changed_since"] = m.drift_reason or m.drift
    if ep := m.metadata.get("episode"):
        out["episode"] = ep
    if m.agent:
        out["agent"] = m.agent
    out["date"] = m.created_time.strftime("%Y-%m-%d")
    if content and m.content.strip() != m.summary.strip():
        out["content"] = clip(m.content, content)
    return out


def fit(key: str, items: list[Any], max_chars: int, **extra: Any) -> str:
    """``{key: items, ...}`` as JSON within ``max_chars``: later items are left out (and
    counted) rather than cutting the answer mid-way."""
    kept = list(items)
    while True:
        out = {**extra, "count": len(kept), key: kept}
        if len(kept) < len(items):
            out["left_out"] = len(items) - len(kept)
        text = dump(out)
        if len(text) <= max_chars or not kept:
            return text
        kept.pop()


def inside(root: Path, file_path: str) -> str:
    """A file path as given by an agent, relative to the project; one that leaves the
    project (``..``, another absolute path) is refused."""
    from urllib.parse import unquote

    if any(ord(c) < 32 for c in file_path):
        raise KenningError("file_path contains control characters")
    if "\\" in file_path or file_path.startswith("~") or unquote(file_path) != file_path:
        raise KenningError(f"file_path {file_path[:80]!r}: use a plain project-relative path "
                           "with / separators")
    p = Path(file_path)
    full = (p if p.is_absolute() else root / p).resolve(strict=False)
    try:
        return str(full.relative_to(root.resolve()))
    except ValueError:
        raise KenningError(f"file_path {file_path[:80]!r} is outside the project {str(root)!r}"
                           ) from None


def build_server(k: Kenning, *, project_root: Path | None = None) -> Any:
    """An ``MCPServer`` whose tools call ``k`` (one Kenning for the whole process)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError as exc:  # pragma: no cover - mcp is a core dependency
        raise KenningError(f"the mcp package is missing: {exc}") from exc

    root = (project_root or Path.cwd()).resolve()
    if getattr(k, "project_root", False) is None:
        k.project_root = root  # the auto memory a write syncs to (``on-write`` mode)
    lock = threading.Lock()
    app = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
    checked_call = app.call_tool

    takes: dict[str, frozenset[str]] = {}

    async def call_tool(name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """The SDK's tool call, with error messages that never quote an argument's value:
        a refused argument is named with why (not echoed, since it may hold a secret, and
        pydantic cuts long values in the middle, where no redactor recognises them), and any
        other message is redacted. An argument the tool does not take is refused by name (the
        SDK would drop it unseen: a misspelt ``confidence`` would save at the default)."""
        if not takes:
            takes.update({t.name: frozenset(t.input_schema.get("properties", ()))
                          for t in await app.list_tools()})
        unknown = sorted(set(arguments or ()) - takes.get(name, frozenset(arguments or ())))
        if unknown:
            from kenning.redact import redact

            said = ", ".join(repr(redact(str(u)[:64]).text) for u in unknown)
            raise ToolError(f"Error executing tool {name}: invalid arguments: unknown "
                            f"argument{'s' if len(unknown) > 1 else ''} {said} (it takes: "
                            f"{', '.join(sorted(takes[name]))})")
        try:
            return await checked_call(name, arguments, context)
        except ToolError as exc:
            from pydantic import ValidationError as ArgumentsError

            from kenning.redact import redact

            cause = exc.__cause__
            if isinstance(cause, ArgumentsError):
                said = "; ".join(
                    f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                    for err in cause.errors())
                message = f"Error executing tool {name}: invalid arguments: {said}"
            else:
                message = redact(str(exc)).text
            raise type(exc)(message) from cause

    app.call_tool = call_tool  # type: ignore[method-assign]
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False)

    def guarded(fn: Callable[[], T]) -> T:
        """Run one tool body under the store lock; Kenning's errors become tool errors."""
        with lock:
            try:
                return fn()
            except NotFoundError as exc:
                raise ToolError(f"not found: {str(exc).strip(chr(39) + chr(34))}") from exc
            except KenningError as exc:
                raise ToolError(str(exc)) from exc
            except Exception as exc:
                from kenning.errorlog import log_error

                log_error("mcp", exc)
                raise ToolError(f"internal error: {type(exc).__name__} (logged; see kenning "
                                "doctor)") from exc

    def who(agent: str | None) -> str:
        return f"agent:{agent}" if agent else "mcp"

    @app.tool(annotations=writes)
    def save(
        text: Annotated[Text, Field(description="What to remember, in full.")],
        type: Annotated[MemoryKind, Field(description="decision (a choice and why), "
                                          "checkpoint (where the work stands), insight...")
                        ] = "insight",
        topic: Annotated[Name | None, Field(description="Topic key for decisions, e.g. "
                                            "auth_strategy: decisions on one topic form "
                                            "its history (see why).")] = None,
        summary: Annotated[Name | None, Field(description="One line.")] = None,
        reasoning: Annotated[Short | None, Field(description="Why; kept with the links. "
                                                 "'instead of X' infers supersedes.")] = None,
        confidence: Confidence | None = None,
        supersedes: Annotated[IdList, Field(description="Ids of decisions this replaces.")
                              ] = NO_ITEMS,
        refines: Annotated[IdList, Field(description="Ids this refines.")] = NO_ITEMS,
        implements: Annotated[IdList, Field(description="Ids of decisions this checkpoint "
                                            "implements.")] = NO_ITEMS,
        links: Annotated[list[LinkArg], Field(max_length=20, description="Free "
                                              "relationships: any words (depends_on, "
                                              "inspired_by, challenges...).")] = NO_ITEMS,
        tags: TagList = NO_ITEMS,
        scope: Annotated[Literal["project", "local", "user"], Field(
            description="project (shared), local (this checkout) or user (everywhere).")
                         ] = "project",
        agent: Annotated[Name | None, Field(description="Owning agent (agent scope).")
                         ] = None,
        spec: Annotated[Name | None, Field(description="Spec or worktree this belongs to.")
                        ] = None,
        shared: Annotated[bool, Field(description="Visible to every spec and agent.")
                          ] = False,
    ) -> str:
        """Save a decision, checkpoint or insight, with explicit links: supersedes/refines
        (evolution), implements (implementation) and free links[]. Returns the new id."""
        def run() -> str:
            meta: dict[str, Any] = {}
            if spec:
                meta["spec"] = spec
            if shared:
                meta["shared"] = True
            m = k.remember(
                text, type=type, topic=topic, summary=summary, reason=reasoning,
                confidence=confidence, supersedes=supersedes or None,
                refines=refines or None, implements=implements or None,
                links=[ln.model_dump() for ln in links] or None, tags=tags, scope=scope,
                agent=agent, source=who(agent), metadata=meta or None)
            return dump({"id": m.id, "is_new": m.is_new, "type": m.type.value,
                         "topic": m.topic, "links": len(k.links(m.id))})
        return guarded(run)

    @app.tool(annotations=writes)
    def evolve_outcome(
        memory_id: MemoryId,
        status: Literal["success", "failed", "partial"],
        reason: Annotated[Short | None, Field(description="Why it turned out so.")] = None,
        note: Annotated[Text | None, Field(description="Optional outcome memory text, "
                                           "linked outcome_of the decision.")] = None,
    ) -> str:
        """Record how a decision turned out (success, failed, partial); failures teach the
        most. With note, also stores an outcome memory linked to it."""
        def run() -> str:
            m = k.outcome(memory_id, status, reason)
            out: dict[str, Any] = {"id": m.id, "outcome": status}
            if note:
                o = k.remember(note, type="outcome", outcome_of=[m.id], reason=reason,
                               source="mcp", topic=m.topic)
                out["outcome_memory"] = o.id
            return dump(out)
        return guarded(run)

    @app.tool(annotations=read_only)
    def recall(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        limit: Annotated[int, Field(ge=1, le=50, description="How many results.")] = 8,
        mode: Literal["hybrid", "keyword", "vector"] = "hybrid",
        types: Annotated[list[MemoryKind | Literal["session"]], Field(max_length=10)] = NO_ITEMS,
        topic: Name | None = None,
        since: Age | None = None,
        until: Age | None = None,
        scope: Annotated[list[Literal["project", "local", "user"]], Field(max_length=3)] = NO_ITEMS,
        agent: Annotated[Name | None, Field(description="Scope to this agent: its own and "
                                            "un-owned memories.")] = None,
        spec: Annotated[Name | None, Field(description="Scope to this spec/worktree plus "
                                           "project-wide memories.")] = None,
        episodes: Annotated[list[EpisodeName], Field(max_length=7)] = NO_ITEMS,
        context_id: Annotated[MemoryId | None, Field(
            description="Boost memories connected to this one in the graph.")] = None,
        detail: Annotated[Literal["index", "full"], Field(
            description="index: one line each; full: with content.")] = "index",
        explain: bool = False,
        weak: Annotated[bool, Field(description="Also return hits that match no keyword and "
                                    "are not close in meaning (off by default).")] = False,
        max_chars: Annotated[int, Field(ge=200, le=50_000)] = DEFAULT_MAX_CHARS,
    ) -> str:
        """Hybrid recall (keywords + meaning + graph) with filters; only relevant memories,
        so an empty result means nothing relevant is stored. Returns a short index; call get
        with ids for full content."""
        def run() -> str:
            hits = k.scoped_recall(
                query, k=limit, spec=spec, agent=agent, episodes=episodes or None, mode=mode,
                types=types or None, topic=topic, since=since, until=until,
                scope=scope or None, context=context_id, explain=explain, weak=weak)
            items = []
            for h in hits:
                r = row(h.memory, h.score, content=1200 if detail == "full" else 0)
                if explain and h.parts:
                    r["explain"] = {a: round(b, 3) for a, b in h.parts.items()}
                items.append(r)
            return fit("results", items, max_chars, hint="get(ids) for full content")
        return guarded(run)

    @app.tool(annotations=read_only)
    def get(
        ids: Annotated[list[MemoryId], Field(min_length=1, max_length=20)],
        with_links: bool = True,
        max_chars: Annotated[int, Field(ge=200, le=100_000)] = 12_000,
    ) -> str:
        """Full content of memories by id (as listed by recall), with their links. Fetching a
        memory to use it raises its confidence a little."""
        def run() -> str:
            items = []
            per = max(200, max_chars // len(ids))
            found = [k.get(mid) for mid in ids]  # every id resolves before any use is counted
            for m in (k.get(f.id, touch=True) for f in found):
                r = row(m, content=per)
                r.update(content=clip(m.content, per), tags=list(m.tags), source=m.source,
                         outcome_reason=m.outcome_reason, scope=m.scope.value)
                if with_links:
                    r["links"] = [{"rel": ln.relationship, "from": ln.from_id, "to": ln.to_id,
                                   "conf": round(ln.confidence, 2)}
                                  for ln in k.links(m.id)[:20]]
                items.append(r)
            return fit("memories", items, max_chars)
        return guarded(run)

    @app.tool(annotations=read_only)
    def why(
        topic: Annotated[Name, Field(description="A topic key (or a decision's id).")],
        max_chars: Annotated[int, Field(ge=200, le=50_000)] = DEFAULT_MAX_CHARS,
    ) -> str:
        """"Why did we decide X?": the topic's decision history, newest first, with what
        each replaced, how it turned out and what implemented it."""
        def run() -> str:
            chain = k.why(topic)
            items = [{**row(e.memory),
                      "evolves": [{"rel": r, "target": t} for r, t, _ in e.evolves],
                      "outcomes": [row(o) for o in e.outcomes][:3],
                      "implementations": [o.id for o in e.implementations][:5]}
                     for e in chain]
            return fit("chain", items, max_chars, topic=topic)
        return guarded(run)

    @app.tool(annotations=read_only)
    def impact(
        memory_id: MemoryId,
        window: Age = "7d",
        depth: Annotated[int, Field(ge=1, le=5)] = 3,
        max_chars: Annotated[int, Field(ge=200, le=50_000)] = DEFAULT_MAX_CHARS,
    ) -> str:
        """"What happened after X?": later memories reached through implementation,
        evolution and (within window) temporal links."""
        def run() -> str:
            items = [{**row(m), "depth": r.depth,
                      "via": r.via.relationship if r.via else None}
                     for m, r in k.impact(memory_id, window=window, depth=depth)]
            return fit("impact", items, max_chars)
        return guarded(run)

    @app.tool(annotations=read_only)
    def related(
        memory_id: MemoryId,
        depth: Annotated[int, Field(ge=1, le=5)] = 2,
        min_confidence: Confidence = 0.3,
        max_chars: Annotated[int, Field(ge=200, le=50_000)] = DEFAULT_MAX_CHARS,
    ) -> str:
        """Memories within depth links of this one, most confidently connected first."""
        def run() -> str:
            items = [{**row(m), "depth": r.depth, "path_conf": round(r.confidence, 2)}
                     for m, r in k.related(memory_id, depth=depth,
                                           min_confidence=min_confidence)]
            return fit("related", items, max_chars)
        return guarded(run)

    @app.tool(annotations=writes)
    def record_discovery(
        file_path: Annotated[Name, Field(description="A file in this project.")],
        description: Annotated[Short, Field(description="What the file is for / what you "
                                            "learned about it.")],
        category: Annotated[Name | None, Field(description="Free label, e.g. api, config.")
                            ] = None,
        agent: Name | None = None,
        spec: Name | None = None,
    ) -> str:
        """Record a codebase discovery: a file's purpose or how a part works (stored as a
        codebase_discovery episode). Near-duplicates are merged."""
        def run() -> str:
            rel = inside(root, file_path)
            m = k.record_finding(
                f"`{rel}`: {description}", source=who(agent), type="discovery",
                tags=[category] if category else (), agent=agent, spec=spec,
                metadata={"episode": "codebase_discovery", "file": rel})
            return dump({"id": m.id, "is_new": m.is_new, "file": rel})
        return guarded(run)

    @app.tool(annotations=writes)
    def record_gotcha(
        gotcha: Annotated[Short, Field(description="The pitfall and how to avoid it.")],
        context: Annotated[Short | None, Field(description="When it bites.")] = None,
        files: Annotated[list[Name], Field(max_length=20)] = NO_ITEMS,
        agent: Name | None = None,
        spec: Name | None = None,
    ) -> str:
        """Record a gotcha or pitfall so later sessions avoid it. Near-duplicates are merged
        and their sources kept."""
        def run() -> str:
            rel = [inside(root, f) for f in files]
            text = gotcha + (f"\nContext: {context}" if context else "")
            m = k.record_finding(text, source=who(agent), type="gotcha", agent=agent,
                                 spec=spec, metadata={"episode": "gotcha", "files": rel})
            return dump({"id": m.id, "is_new": m.is_new})
        return guarded(run)

    @app.tool(annotations=writes)
    def record_finding(
        text: Short,
        source: SourceName,
        category: CategoryName | None = None,
        type: Literal["insight", "pattern", "gotcha", "discovery", "decision"] = "insight",
        confidence: Confidence | None = None,
        spec: Name | None = None,
        shared: bool = False,
    ) -> str:
        """Record a finding from one of several agents: the same finding in
        other words (cosine >= 0.85) becomes one memory listing every source."""
        def run() -> str:
            m = k.record_finding(text, source=source, category=category, type=type,
                                 confidence=confidence, spec=spec, shared=shared)
            return dump({"id": m.id, "is_new": m.is_new,
                         "sources": m.metadata.get("sources", [])})
        return guarded(run)

    @app.tool(annotations=writes)
    def save_session_insight(
        task: Name | None = None,
        session: Name | None = None,
        success: bool | None = None,
        subtasks_completed: Annotated[list[Short], Field(max_length=50)] = NO_ITEMS,
        files_understood: Annotated[dict[Name, Short] | None, Field(
            max_length=50, description="{file path: purpose}")] = None,
        patterns_found: Annotated[list[Short], Field(max_length=50)] = NO_ITEMS,
        gotchas_encountered: Annotated[list[Short], Field(max_length=50)] = NO_ITEMS,
        what_worked: Annotated[list[Short], Field(max_length=50)] = NO_ITEMS,
        what_failed: Annotated[list[Short], Field(max_length=50)] = NO_ITEMS,
        recommendations: Annotated[list[Short], Field(
            max_length=50, description="For the next session.")] = NO_ITEMS,
        agent: Name | None = None,
        spec: Name | None = None,
    ) -> str:
        """Save what this session learned (a session insight): one session memory
        plus a pattern, gotcha, discovery and task-outcome memory per finding."""
        def run() -> str:
            files = {inside(root, p): d for p, d in (files_understood or {}).items()}
            saved = k.save_insight({
                "task": task, "session": session, "success": success,
                "subtasks_completed": subtasks_completed, "files_understood": files,
                "patterns_found": patterns_found, "gotchas_encountered": gotchas_encountered,
                "what_worked": what_worked, "what_failed": what_failed,
                "recommendations": recommendations}, agent=agent, spec=spec,
                source=who(agent))
            return dump({"session_memory": saved[0].id, "memories": len(saved),
                         "new": sum(m.is_new for m in saved)})
        return guarded(run)

    @app.tool(annotations=read_only)
    def get_session_context(
        task: Annotated[Short | None, Field(description="What you are about to do.")] = None,
        limit: Annotated[int, Field(ge=1, le=20, description="Relevant memories.")] = 5,
        history: Annotated[int, Field(ge=0, le=20)] = 3,
        agent: Name | None = None,
        spec: Name | None = None,
        max_chars: Annotated[int, Field(ge=200, le=50_000)] = 6000,
    ) -> str:
        """Context from previous sessions for a task: relevant memories, gotchas, similar
        past outcomes and the latest sessions' worked / failed / next (Markdown)."""
        def run() -> str:
            ctx = k.session_context(task, k=limit, history=max(history, 1), spec=spec,
                                    agent=agent)
            if history == 0:
                ctx["recent_sessions"] = ()
            return session_markdown(ctx, max_chars)
        return guarded(run)

    @app.tool(annotations=read_only)
    def graph_stats() -> str:
        """Size and shape of the memory graph: memories, links by type and creator,
        communities."""
        return guarded(lambda: dump(k.graph_stats()))

    @app.tool(annotations=writes)
    def share(memory_id: MemoryId, shared: bool = True) -> str:
        """Make a spec-, worktree- or agent-scoped memory visible to every spec and agent of
        the project (or undo that)."""
        def run() -> str:
            m = k.share(memory_id, shared)
            return dump({"id": m.id, "shared": bool(m.metadata.get("shared"))})
        return guarded(run)

    @app.tool(annotations=writes)
    def memory_auto_sync(
        direction: Literal["to-auto", "from-auto", "bidirectional"] = "to-auto",
        minConfidence: Annotated[Confidence | None, Field(
            description="Default: [auto_memory] min_confidence (0.7).")] = None,
        categories: Annotated[list[CategoryName], Field(
            max_length=6, description="Only these categories; others stay as they are.")
        ] = NO_ITEMS,
    ) -> str:
        """Sync high-confidence Kenning memories to Claude Code's auto memory (MEMORY.md and
        memory files), import what is there, or both."""
        def run() -> str:
            return dump(auto_sync(k, root, direction, minConfidence, categories))
        return guarded(run)

    @app.tool(annotations=writes)
    def memory_auto_record(
        category: Annotated[CategoryName, Field(description="MEMORY.md section.")],
        summary: Annotated[Name, Field(description="One line for the index.")],
        detail: Annotated[Short | None, Field(description="The full insight.")] = None,
        confidence: Confidence | None = None,
    ) -> str:
        """Record a specific insight to Kenning and to Claude Code's auto memory."""
        def run() -> str:
            return dump(auto_record(k, root, category, summary, detail, confidence))
        return guarded(run)

    return app


def auto_sync(k: Kenning, root: Path, direction: str, min_confidence: float | None,
              categories: Sequence[str]) -> dict[str, Any]:
    """The ``memory_auto_sync`` tool over the auto-memory bridge's facade methods, with the
    project's ``[auto_memory]`` configuration (``minConfidence`` overrides its threshold)."""
    if not hasattr(k, "auto_sync"):
        raise KenningError("the auto-memory bridge is not available in this Kenning build")
    from dataclasses import replace

    from kenning.automemory.options import AutoMemoryOptions
    from kenning.config import ConfigError

    try:
        opts = AutoMemoryOptions.from_config(k.config.section("auto_memory"))
    except ConfigError as exc:
        raise KenningError(str(exc)) from None
    if min_confidence is not None:
        opts = replace(opts, min_confidence=min_confidence)
    out: dict[str, Any] = {"direction": direction, "minConfidence": opts.min_confidence}
    if direction == "from-auto":
        out["imported"] = k.auto_import(root, opts)
    else:
        # The bridge always imports first so that a person's lines are never overwritten.
        res = k.auto_sync(root, opts, categories=list(categories) or None)
        out.update({key: res.get(key) for key in (
            "path", "lines", "bytes", "memories_in_index", "files_written", "files_removed",
            "topic_files_written", "index_changed", "imported", "categories", "disabled")
            if key in res})
    return out


AUTO_RECORD_CONFIDENCE = 0.8  # as for imported auto memory; above the sync threshold (0.7)


def auto_record(k: Kenning, root: Path, category: str, summary: str, detail: str | None,
                confidence: float | None) -> dict[str, Any]:
    """The ``memory_auto_record`` tool: store the insight (merged with a near-duplicate),
    then curate the auto memory so it shows when confident enough."""
    text = summary if not detail else f"{summary}\n\n{detail}"
    # Asked for explicitly: by default confident enough to be synced into the auto memory.
    m = k.record_finding(text, source="mcp:auto_record", category=category,
                         summary=summary,
                         confidence=AUTO_RECORD_CONFIDENCE if confidence is None else confidence)
    out: dict[str, Any] = {"id": m.id, "is_new": m.is_new, "category": category}
    if not hasattr(k, "curate"):
        out["auto_memory"] = "bridge not available"
        return out
    res = k.curate(root)
    path = Path(res["path"])
    out["auto_memory_path"] = str(path)
    out["in_auto_memory"] = any(m.id in p.read_text(encoding="utf-8", errors="replace")
                                for p in path.parent.glob("*.md") if p.is_file())
    return out


def session_markdown(ctx: dict[str, Any], max_chars: int) -> str:
    """``Kenning.session_context`` as a Markdown block for the prompt, within ``max_chars``."""
    def line(m: Memory) -> str:
        out = f"- [{m.type.value}] {clip(m.summary, ROW_SUMMARY)} (id {m.id}"
        return out + (f", {m.outcome.value})" if m.outcome else ")")

    parts = [f"## Memory context{': ' + clip(ctx['task'], 120) if ctx.get('task') else ''}"]
    for title, key in (("Relevant", "relevant"), ("Gotchas to avoid", "gotchas"),
                       ("Similar past outcomes", "similar_outcomes")):
        if ctx.get(key):
            parts.append(f"### {title}")
            parts += [line(m) for m in ctx[key]]
    if ctx.get("recent_sessions"):
        from kenning.insights import session_view

        parts.append("### Recent sessions")
        for m in ctx["recent_sessions"]:
            s = session_view(m)
            bits = [f"{label}: " + "; ".join(clip(x, 120) for x in s[key][:3])
                    for label, key in (("worked", "worked"), ("failed", "failed"),
                                       ("gotchas", "gotchas"), ("next", "next")) if s[key]]
            head = f"- {s['created_at'][:10]} {clip(s['task'] or s['summary'] or '', 100)}"
            parts.append(head + (" — " + " | ".join(bits) if bits else "") + f" (id {m.id})")
    if len(parts) == 1:
        parts.append("(nothing stored yet)")
    parts.append("Details: call get with ids.")
    text = "\n".join(parts)
    return text if len(text) <= max_chars else text[: max_chars - 12] + "\n…(cut)"


def parse_http(address: str) -> tuple[str, int]:
    """``127.0.0.1:8765`` -> (host, port)."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise KenningError(f"--http wants HOST:PORT (e.g. 127.0.0.1:8765), not {address!r}")
    return host.strip("[]"), int(port)


def open_resilient(db: str | None, warn: Callable[[str], None]) -> Any:
    """The Kenning the server answers from: the store at ``db`` (else the default one), or,
    while that cannot be used (corrupt, locked, unreachable), files until it answers again
    (``warn`` is told why)."""
    from kenning.facade import Kenning
    from kenning.fileonly import Resilient
    from kenning.places.paths import current_project, default_db_path
    from kenning.times import now_ms

    location = db or str(default_db_path())
    k = Resilient(location, current_project(location), lambda: Kenning(db), now_ms)
    if k.real() is None:
        warn(f"warning: {k.reason}; serving from files until the store is back")
    return k
