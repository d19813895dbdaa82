"""Session insights (what an agent session learned) and their episode types, scoping by
spec/worktree and agent, and the retrieval modes (by meaning, by time, by similar task).
Pure helpers, and ``InsightService``, which ``Kenning``'s insight methods delegate to."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kenning import validation as v
from kenning.errors import ValidationError
from kenning.models import Hit, Memory, MemoryType

# Episode types (the kinds of record a session yields) -> Kenning memory types (the episode
# is kept in metadata).
EPISODES: dict[str, MemoryType] = {
    "session_insight": MemoryType.SESSION,
    "codebase_discovery": MemoryType.DISCOVERY,
    "pattern": MemoryType.PATTERN,
    "gotcha": MemoryType.GOTCHA,
    "task_outcome": MemoryType.OUTCOME,
    "qa_result": MemoryType.OUTCOME,
    "historical_context": MemoryType.CONTEXT,
}
MAX_ITEMS = 50
MAX_ITEM_CHARS = 2000
SCOPE_KEYS = ("spec", "worktree")


def episode(value: object) -> str:
    if not isinstance(value, str) or value not in EPISODES:
        raise ValidationError(f"unknown episode {value!r}: use {', '.join(EPISODES)}")
    return value


def _strings(value: object, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        raise ValidationError(f"{name} must be a list of strings")
    out = []
    for item in value:
        if not isinstance(item, str):
            raise ValidationError(f"{name} must be a list of strings")
        if item.strip():
            if len(item) > MAX_ITEM_CHARS:
                raise ValidationError(f"an item of {name} is longer than {MAX_ITEM_CHARS} chars")
            out.append(" ".join(item.split()))
    if len(out) > MAX_ITEMS:
        raise ValidationError(f"{name} has more than {MAX_ITEMS} items")
    return out


@dataclass
class SessionInsight:
    """What one session learned: tasks done, files understood, patterns, gotchas, what
    worked and failed, and recommendations for the next session."""

    subtasks_completed: list[str] = field(default_factory=list)
    files_understood: dict[str, str] = field(default_factory=dict)
    patterns_found: list[str] = field(default_factory=list)
    gotchas_encountered: list[str] = field(default_factory=list)
    what_worked: list[str] = field(default_factory=list)
    what_failed: list[str] = field(default_factory=list)
    recommendations: list[str] = field(default_factory=list)
    session: str | None = None
    task: str | None = None
    success: bool | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SessionInsight:
        """Accepts the nested shape (``files_understood``, ``patterns_found`` and
        ``gotchas_encountered`` under ``discoveries``; ``recommendations_for_next_session``)
        and the flat one; anything malformed is a ValidationError."""
        if not isinstance(data, Mapping):
            raise ValidationError("insight must be an object")
        disc = data.get("discoveries") or {}
        if not isinstance(disc, Mapping):
            raise ValidationError("discoveries must be an object")
        files = data.get("files_understood", disc.get("files_understood")) or {}
        if not isinstance(files, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            raise ValidationError("files_understood must map file paths to purposes")
        if len(files) > MAX_ITEMS:
            raise ValidationError(f"files_understood has more than {MAX_ITEMS} files")
        success = data.get("success")
        if success is not None and not isinstance(success, bool):
            raise ValidationError("success must be true or false")
        session, task = data.get("session"), data.get("task")
        for name, val in (("session", session), ("task", task)):
            if val is not None and (not isinstance(val, str | int) or len(str(val)) > 500):
                raise ValidationError(f"{name} must be a short string")
        out = cls(
            subtasks_completed=_strings(data.get("subtasks_completed"), "subtasks_completed"),
            files_understood={k.strip(): " ".join(v.split()) for k, v in files.items()
                              if k.strip()},
            patterns_found=_strings(data.get("patterns_found", disc.get("patterns_found")),
                                    "patterns_found"),
            gotchas_encountered=_strings(
                data.get("gotchas_encountered", disc.get("gotchas_encountered")),
                "gotchas_encountered"),
            what_worked=_strings(data.get("what_worked"), "what_worked"),
            what_failed=_strings(data.get("what_failed"), "what_failed"),
            recommendations=_strings(
                data.get("recommendations", data.get("recommendations_for_next_session")),
                "recommendations"),
            session=None if session is None else str(session),
            task=None if task is None else str(task),
            success=success,
        )
        if out.empty:
            raise ValidationError("the insight is empty: give at least one finding")
        return out

    @property
    def empty(self) -> bool:
        return not any((self.subtasks_completed, self.files_understood, self.patterns_found,
                        self.gotchas_encountered, self.what_worked, self.what_failed,
                        self.recommendations, self.task))

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session, "task": self.task, "success": self.success,
            "subtasks_completed": self.subtasks_completed,
            "files_understood": self.files_understood, "patterns_found": self.patterns_found,
            "gotchas_encountered": self.gotchas_encountered, "what_worked": self.what_worked,
            "what_failed": self.what_failed, "recommendations": self.recommendations,
        }

    def to_text(self) -> str:
        """Readable (and searchable) content of the session_insight memory."""
        head = "Session insight"
        if self.session:  # a client's session uuid by its first 8 characters, as elsewhere
            short = self.session[:8] if len(self.session) == 36 and self.session.count(
                "-") == 4 else self.session
            head += f" ({short})"
        if self.task:
            head += f": {self.task}"
        if self.success is not None:
            head += " — succeeded" if self.success else " — failed"
        lines = [head]
        for title, items in (("Completed", self.subtasks_completed),
                             ("Worked", self.what_worked), ("Failed", self.what_failed),
                             ("Gotchas", self.gotchas_encountered),
                             ("Patterns", self.patterns_found),
                             ("Next", self.recommendations)):
            if items:
                lines.append(f"{title}: " + "; ".join(items))
        if self.files_understood:
            lines.append("Files: " + "; ".join(f"{k} ({v})" for k, v in
                                               self.files_understood.items()))
        return "\n".join(lines)


def insight_items(ins: SessionInsight, common: Mapping[str, Any], *, children: bool = True
                  ) -> list[dict[str, Any]]:
    """``remember_many`` items: one session_insight plus focused episodes (one memory per
    finding, so each is found on its own) for patterns, gotchas, discoveries and the task
    outcome."""
    meta = dict(common.get("metadata") or {})
    base = {k: v for k, v in common.items() if k != "metadata"}
    key = {"session": ins.session} if ins.session else {}

    def item(text: str, ep: str, **extra: Any) -> dict[str, Any]:
        return {**base, "text": text, "type": EPISODES[ep].value,
                "metadata": {**meta, **key, "episode": ep, **extra}}

    out = [item(ins.to_text(), "session_insight", insight=ins.to_dict())]
    if not children:
        return out
    out += [item(p, "pattern") for p in ins.patterns_found]
    out += [item(g, "gotcha") for g in ins.gotchas_encountered]
    out += [item(f"`{path}`: {purpose}", "codebase_discovery", file=path)
            for path, purpose in ins.files_understood.items()]
    if ins.task or ins.success is not None:
        verdict = {True: "succeeded", False: "failed", None: "finished"}[ins.success]
        parts = [f"Task {verdict}: {ins.task or ins.session or 'session'}"]
        if ins.what_worked:
            parts.append("Worked: " + "; ".join(ins.what_worked))
        if ins.what_failed:
            parts.append("Failed: " + "; ".join(ins.what_failed))
        out.append(item("\n".join(parts), "task_outcome", success=ins.success))
    return out


def in_scope(m: Memory, *, spec: str | None = None, agent: str | None = None,
             include_shared: bool = True) -> bool:
    """Scoping: with ``spec`` only that spec/worktree's memories and project-wide ones;
    with ``agent`` only that agent's and un-owned ones; ``shared`` memories are always in."""
    if include_shared and m.metadata.get("shared") is True:
        return True
    if spec is not None:
        mine = next((m.metadata.get(k) for k in SCOPE_KEYS if m.metadata.get(k)), None)
        if mine is not None and mine != spec:
            return False
    return not (agent is not None and m.agent is not None and m.agent != agent)


def episode_of(m: Memory) -> str | None:
    ep = m.metadata.get("episode")
    return ep if isinstance(ep, str) else None


def session_view(m: Memory) -> dict[str, Any]:
    """A session_insight memory as worked / failed / gotchas / next (for ``kenning insights``)."""
    ins = m.metadata.get("insight")
    if not isinstance(ins, dict):
        ins = {}
    return {
        "id": m.id, "created_at": m.to_dict()["created_at"], "session": ins.get("session"),
        "task": ins.get("task"), "success": ins.get("success"),
        "worked": list(ins.get("what_worked") or []),
        "failed": list(ins.get("what_failed") or []),
        "gotchas": list(ins.get("gotchas_encountered") or []),
        "next": list(ins.get("recommendations") or []),
        "summary": m.summary if not ins else None,
    }


def scoped(memories: Iterable[Memory], **kw: Any) -> list[Memory]:
    return [m for m in memories if in_scope(m, **kw)]


class InsightService:
    """Saving what a session learned and reading it back: by time (the latest sessions), by
    similar task (past outcomes) and as a briefing before a task.

    Built per call by ``Kenning`` from the facade operations it uses: ``remember_many`` to
    store, ``list_memories`` to page through memories, and ``scoped_recall`` for recall
    within a spec/agent scope."""

    def __init__(
        self,
        *,
        remember_many: Callable[[Iterable[Mapping[str, Any]]], list[Memory]],
        list_memories: Callable[..., list[Memory]],
        scoped_recall: Callable[..., list[Hit]],
    ) -> None:
        self._remember_many = remember_many
        self._list = list_memories
        self._scoped_recall = scoped_recall

    def save(
        self,
        insight: Mapping[str, Any],
        *,
        spec: str | None = None,
        agent: str | None = None,
        source: str | None = None,
        shared: bool = False,
        children: bool = True,
    ) -> list[Memory]:
        """Validate the insight and store it with its per-finding episodes in one batch;
        the session memory comes first."""
        ins = SessionInsight.from_dict(insight)
        meta: dict[str, Any] = {}
        if spec is not None:
            meta["spec"] = v.topic(spec)
        if shared:
            meta["shared"] = True
        common = {"agent": agent, "source": source or "session", "metadata": meta}
        return self._remember_many(insight_items(ins, common, children=children))

    def history(self, limit: int = 5, *, spec: str | None = None,
                agent: str | None = None) -> list[Memory]:
        """The latest session_insight memories in scope, newest first, paging through the
        session memories 200 at a time until there are enough."""
        v.positive_int(limit, "limit", 1000)
        out: list[Memory] = []
        offset = 0
        while len(out) < limit:
            page = self._list(types=MemoryType.SESSION, limit=200, offset=offset)
            out += [m for m in page if episode_of(m) == "session_insight"
                    and in_scope(m, spec=spec, agent=agent)]
            if len(page) < 200:
                break
            offset += 200
        return out[:limit]

    def similar_outcomes(self, task: str, k: int = 5, *, spec: str | None = None,
                         agent: str | None = None) -> list[Hit]:
        """Outcome, QA and session episodes most like ``task``, without counting an access."""
        return self._scoped_recall(
            task, k=k, spec=spec, agent=agent, types=[MemoryType.OUTCOME, MemoryType.SESSION],
            episodes=["task_outcome", "qa_result", "session_insight"], track=False)

    def context(self, task: str | None = None, *, k: int = 5, history: int = 3,
                spec: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """The briefing before ``task``: relevant memories, gotchas, similar outcomes and
        recent sessions; without a task, the latest gotchas in scope and recent sessions."""
        v.positive_int(k, "k", 50)
        v.positive_int(history, "history", 50)
        out: dict[str, Any] = {"task": task, "relevant": [], "gotchas": [],
                               "similar_outcomes": [], "recent_sessions": []}
        if task is not None:
            if not isinstance(task, str) or not task.strip():
                raise ValidationError("task is empty")
            out["relevant"] = [h.memory for h in self._scoped_recall(task, k=k, spec=spec,
                                                                     agent=agent)]
            out["gotchas"] = [h.memory for h in self._scoped_recall(
                task, k=3, spec=spec, agent=agent, types=MemoryType.GOTCHA, track=False)]
            out["similar_outcomes"] = [h.memory for h in self.similar_outcomes(
                task, 3, spec=spec, agent=agent)]
        else:
            out["gotchas"] = scoped(self._list(types=MemoryType.GOTCHA, limit=20),
                                    spec=spec, agent=agent)[:3]
        out["recent_sessions"] = self.history(history, spec=spec, agent=agent)
        return out

    def views(self, limit: int = 5, *, spec: str | None = None) -> list[dict[str, Any]]:
        """The latest sessions' insights, each as worked / failed / gotchas / next."""
        return [session_view(m) for m in self.history(limit, spec=spec)]
