"""Trajectories: what happened to each memory during an agent session, rebuilt from
the session's events. A trajectory begins when a memory is recorded or injected, steps on each
later injection and tool outcome, and is judged when the session is consolidated. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kenning import learning
from kenning.models import SessionEvent
from kenning.outcomes import check_of


@dataclass
class Trajectory:
    memory_id: str
    session_id: str
    begun_at: int
    begun_by: str  # "injected" or "recorded"
    steps: list[dict[str, object]] = field(default_factory=list)

    def outcomes(self) -> list[tuple[str, bool]]:
        """The checks that followed, as ``(suite, passed)`` for ``learning.judge``: the suite and
        verdict the hook journalled, or, for an event journalled before hooks named checks, the
        check its command head names (``pytest``, ``npm test``), and before it every other check
        a passing ``&&`` chain ran (the hook's ``also``, from ``outcomes.checks_passed``).
        Commands that run no check and runs without a verdict (no tests ran, interrupted) are
        left out."""
        out: list[tuple[str, bool]] = []
        for s in self.steps:
            if s["kind"] != "tool" or not isinstance(s.get("ok"), bool):
                continue
            suite = s.get("suite")
            also = s.get("also")
            if s["ok"] and isinstance(also, list):
                # a passing chain passed every check in it, not only the one that names it: the
                # hook lists the others (the journal keeps only a command's head)
                out += [(str(x), True) for x in also if x != suite]
            if not isinstance(suite, str) or not suite:
                if "check" in s or not isinstance(s.get("cmd"), str):
                    continue
                check = check_of(str(s["cmd"]))
                if check is None:
                    continue
                suite = check.suite
            out.append((suite, bool(s["ok"])))
        return out

    def used(self) -> bool:
        """Whether the memory was put in front of the model in this session (only then do the
        outcomes that followed say anything about it)."""
        return any(s["kind"] == "injected" for s in self.steps)

    def prompted(self) -> bool:
        """Whether a prompt's injection showed the memory (not only the session start)."""
        return any(s["kind"] == "injected" and not s.get("channel") for s in self.steps)

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
                                "score": m.get("score"), "channel": e.data.get("channel")})
        elif e.kind == "tool":
            for t in out.values():
                if e.at_ms >= t.begun_at:
                    t.steps.append({"kind": "tool", "at": e.at_ms, **e.data})
    for t in out.values():
        t.steps.sort(key=lambda s: s["at"] if isinstance(s["at"], int) else 0)
    return out
