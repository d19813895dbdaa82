"""Trajectories: what happened to each memory during an agent session, rebuilt from
the session's events. A trajectory begins when a memory is recorded or injected, steps on each
later injection and tool outcome, and is judged when the session is consolidated. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kenning import learning
from kenning.models import SessionEvent


@dataclass
class Trajectory:
    memory_id: str
    session_id: str
    begun_at: int
    begun_by: str  # "injected" or "recorded"
    steps: list[dict[str, object]] = field(default_factory=list)

    def outcomes(self) -> list[tuple[str, bool]]:
        """Tool outcomes that followed, as ``(test|command, ok)`` for ``learning.judge``."""
        return [("test" if learning.is_test_command(str(s["cmd"]).split()) else "command",
                 bool(s["ok"])) for s in self.steps if s["kind"] == "tool" and s.get("cmd")]

    def used(self) -> bool:
        """Whether the memory was put in front of the model in this session (only then do the
        outcomes that followed say anything about it)."""
        return any(s["kind"] == "injected" for s in self.steps)

    def verdict(self) -> tuple[float, str]:
        return learning.judge(self.outcomes())


def trajectories(events: Sequence[SessionEvent], recorded: Iterable[tuple[str, int]] = ()
                 ) -> dict[str, Trajectory]:
    """One trajectory per memory injected (or recorded, ``(id, created_at)``) in one session's
    ``events`` (time-ordered), each with the steps that came after it began."""
    session = events[0].session_id if events else ""
    out: dict[str, Trajectory] = {}
    for mid, at in recorded:
        out[mid] = Trajectory(mid, session, at, "recorded")
    for e in events:
        if e.kind == "injected":
            for m in e.data.get("memories", []):
                mid = str(m.get("id"))
                t = out.get(mid)
                if t is None or t.begun_at > e.at_ms:
                    out[mid] = t = Trajectory(mid, session, e.at_ms, "injected",
                                              t.steps if t else [])
                t.steps.append({"kind": "injected", "at": e.at_ms,
                                "score": m.get("score")})
        elif e.kind == "tool":
            for t in out.values():
                if e.at_ms >= t.begun_at:
                    t.steps.append({"kind": "tool", "at": e.at_ms, **e.data})
    for t in out.values():
        t.steps.sort(key=lambda s: int(s["at"]))  # type: ignore[call-overload]
    return out
