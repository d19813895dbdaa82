"""Scoring what a memory system put in front of the model. Pure: views and stories in, figures
out.

The unit of matching is a *unit*: one line of injected context or MEMORY.md together with its
indented continuation lines, one stored memory, or one user turn (baselines). A lesson is
present in a unit when all its match groups occur in that unit (``Lesson.found_in``).

Figures (each per story and overall; overall figures pool the stories' items):

- ``capture_precision``: stored items that carry some lesson / all stored items;
- ``capture_recall``: lessons carried by some stored item / all lessons;
- ``capture_precision_with_also``: as ``capture_precision``, where a stored item is also useful
  when it carries one of the story's also-true lessons (true, worth keeping, needed by no probe);
  ``also_recall``: also-true lessons carried by some stored item / all of them;
- ``learning``: annotated outcome events where the memories that carried the lesson when the
  session started moved the right way (their best confidence, both read as of the same instant)
  / all events; an event whose lesson no memory carried by then counts as wrong (memories made
  during the session are not learning);
- ``delivery_recall``: per probe, the share of its needed lessons present in what the model
  sees (SessionStart context + MEMORY.md as loaded + the context of that prompt and of the
  prompts before it since the session started or was last compacted: the conversation still
  holds them), averaged;
- ``hidden_in_force``: lessons still in force at the story's end that some stored memory
  carried and that every memory carrying them no longer presents as current (a wrong
  supersession hid a rule in force; the count, pooled);
- ``supersessions``: each supersession the store holds at the end, judged by the lessons the two
  memories carry (right, restated, wrong: a rule in force ended, wrong: another change, no
  lesson), counted per mechanism (the reason's opening words);
- ``stale_shown``: (probe, stale lesson) pairs where the stale lesson is presented as current
  (a unit carries it, carries none of its successors and has no marker such as "superseded");
- ``changes_current``: of the same pairs, those where the model sees the successor the probe
  needs and not the stale lesson as current (a change handled right);
- ``duplicate_share``: units the model sees more than once in a session (same text after
  dropping ids and markup, or 80 % of the same words) / all units of four words or more;
- ``shown_carrying_nothing``: units the model sees (four words or more, not a heading or a line
  introducing a list) that carry no annotated lesson, probed or also-true / all of them;
- ``tokens_per_prompt``: characters of per-prompt context / 4 (a rough token count), mean over
  prompts; ``session_tokens``: SessionStart context + MEMORY.md per session, / 4.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from replaykit.story import Story

STALE_MARKER = re.compile(
    r"supersed|replaced|no longer|deprecated|outdated|obsolete|\bstale\b|reverted|"
    r"\bfailed\b|abandon|rolled back|don't use|do not use|\bformerly\b|\bwas\b.*\bnow\b", re.I)
_UNIT_START = re.compile(r"([-*•>#|]|\d+[.)]\s|\[|<)")
_ID = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{26}\b|\b(?=[0-9a-z]*\d)[0-9a-z]{8,}\b", re.I)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_WORD = re.compile(r"[a-z0-9_]+")
# Stored kinds that keep what was said or done rather than a lesson (kept user turns, session
# summaries): no channel shows them as rules.
RECORDS = frozenset({"episodic", "session"})
NOTHING_CHARS = 160  # of each stored memory that carries no lesson, kept in the JSON to read
DUP_MIN_WORDS = 4
DUP_JACCARD = 0.8
# The client's auto-memory load limits: whole lines, at most 200 and about 25,000 bytes.
MEMORY_MD_LINES = 200
MEMORY_MD_BYTES = 25_000


def memory_md_as_loaded(text: str) -> str:
    """MEMORY.md as the client puts it in front of the model: whole lines, at most 200 of them
    and at most 25,000 bytes (the rest is cut off)."""
    kept: list[str] = []
    size = 0
    for line in text.split("\n")[:MEMORY_MD_LINES]:
        width = len(line.encode()) + 1
        if size + width > MEMORY_MD_BYTES:
            break
        kept.append(line)
        size += width
    return "\n".join(kept)


def split_units(text: str) -> list[str]:
    """Lines of context, each with its indented continuation lines (a paragraph of prose with
    no bullets is one unit)."""
    units: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            current = None
            continue
        indented = line[:1] in (" ", "\t")
        if current is None or (not indented and _UNIT_START.match(stripped)):
            current = [stripped]
            units.append(current)
        else:
            current.append(stripped)
    return [" ".join(u) for u in units]


@dataclass
class PromptView:
    """One prompt: what the user typed, the units its hook added, and (for a probe) what it
    needs and which stale lessons it must not see as current."""

    text: str
    units: list[str]
    context_chars: int
    needs: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()


@dataclass
class Epoch:
    """What the model has from the start of a conversation (or since a compaction)."""

    start_units: list[str]
    memory_units: list[str]
    start_chars: int
    memory_chars: int
    prompts: list[PromptView] = field(default_factory=list)


@dataclass
class SessionView:
    index: int
    day: float
    noise: bool = False
    epochs: list[Epoch] = field(default_factory=list)


@dataclass
class SystemRun:
    """Everything one system did in one story that the scores read."""

    sessions: list[SessionView] = field(default_factory=list)
    stored: dict[str, str] | None = field(default_factory=dict)
    stored_kinds: dict[str, str] = field(default_factory=dict)
    judged: list[dict[str, Any]] | None = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    hook_failures: int = 0
    hook_timeouts: int = 0
    hook_errors: list[dict[str, Any]] = field(default_factory=list)
    # stored memories no longer current when the story ends (superseded, failed, retired)
    ended: list[str] = field(default_factory=list)
    # each supersession the store holds at the end: (old id, new id, the mechanism that made it)
    supersessions: list[list[str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# -- the parts ----------------------------------------------------------------------------------


def carried(story: Story, texts: Iterable[str]) -> set[str]:
    """Lessons of ``story`` that some text carries."""
    pool = list(texts)
    return {le.id for le in story.lessons if any(le.found_in(t) for t in pool)}


def capture(story: Story, stored: dict[str, str], kinds: dict[str, str] | None = None
            ) -> dict[str, Any]:
    """What was stored, judged as lessons. Kept user turns (kind "episodic") are raw records,
    not captured lessons: they count in ``episodic`` and in neither precision nor recall."""
    kinds = kinds or {}
    distilled = {mid: text for mid, text in stored.items() if kinds.get(mid) != "episodic"}
    useful_ids = {mid for mid, text in distilled.items()
                  if any(le.found_in(text) for le in story.lessons)}
    useful = len(useful_ids)
    also_ids = useful_ids | {mid for mid, text in distilled.items()
                             if any(le.found_in(text) for le in story.also)}
    by_type: dict[str, list[int]] = {}
    by_type_also: dict[str, list[int]] = {}
    for mid in distilled:
        kind = kinds.get(mid, "item")
        counts = by_type.setdefault(kind, [0, 0])
        counts[0] += mid in useful_ids
        counts[1] += 1
        counts = by_type_also.setdefault(kind, [0, 0])
        counts[0] += mid in also_ids
        counts[1] += 1
    got = carried(story, distilled.values())
    episodic_got = carried(story, (t for m, t in stored.items() if kinds.get(m) == "episodic"))
    by_kind: dict[str, list[int]] = {}
    for le in story.lessons:
        counts = by_kind.setdefault(le.kind, [0, 0])
        counts[0] += le.id in got
        counts[1] += 1
    also_got = {le.id for le in story.also if any(le.found_in(t) for t in distilled.values())}
    return {"stored": len(distilled), "useful": useful, "lessons": len(story.lessons),
            "captured": len(got), "captured_by_kind": by_kind, "precision_by_type": by_type,
            "useful_with_also": len(also_ids), "precision_by_type_with_also": by_type_also,
            "also": len(story.also), "also_captured": len(also_got),
            "also_missed": sorted(le.id for le in story.also if le.id not in also_got),
            # what a system with typed memories stored that carries nothing annotated (the
            # baselines' raw user turns would only bloat the JSON)
            "carrying_nothing": sorted(f"{kinds[mid]}: {text[:NOTHING_CHARS]}"
                                       for mid, text in distilled.items()
                                       if mid not in also_ids and mid in kinds),
            "episodic": len(stored) - len(distilled), "captured_any": len(got | episodic_got),
            "missed": sorted(le.id for le in story.lessons if le.id not in got)}


def hidden_in_force(story: Story, stored: dict[str, str], kinds: dict[str, str],
                    ended: Iterable[str]) -> list[str]:
    """Lessons still in force when the story ends (never replaced or failed) that a stored
    memory carried, where every memory carrying them has been ended: a wrong supersession hid
    a rule the agent should still follow. Kept user turns and session summaries are records
    that no prompt is shown as a rule, and left out: a rule one of them still holds is hidden
    all the same."""
    gone = set(ended)
    stale = story.ended_in()
    out = []
    for le in story.lessons:
        if le.id in stale:
            continue
        carriers = [mid for mid, text in stored.items()
                    if kinds.get(mid) not in RECORDS and le.found_in(text)]
        if carriers and all(mid in gone for mid in carriers):
            out.append(le.id)
    return out


SUPERSESSION_VERDICTS = ("right", "restated", "wrong_in_force", "wrong_partner", "no_lesson")


def supersession_audit(story: Story, stored: dict[str, str],
                       supersessions: Iterable[list[str]]) -> dict[str, dict[str, int]]:
    """Each supersession judged by the story's lessons, counted per mechanism: ``right`` (the
    old memory carries a lesson the story replaced and the new one carries its successor),
    ``restated`` (the new memory carries every lesson the old one did: nothing was lost),
    ``wrong_in_force`` (every lesson the old one carried is still in force when the story ends:
    a rule in force was ended), ``wrong_partner`` (the old lesson did go stale, but not for what
    the new memory says), ``no_lesson`` (the old memory carried no lesson: nothing to judge)."""
    stale = story.ended_in()
    succ = story.successors()
    out: dict[str, dict[str, int]] = {}
    for old_id, new_id, how in supersessions:
        if old_id not in stored or new_id not in stored:
            continue
        old = carried(story, [stored[old_id]])
        new = carried(story, [stored[new_id]])
        if not old:
            verdict = "no_lesson"
        elif any(o in stale and succ.get(o, set()) & new for o in old):
            verdict = "right"
        elif old <= new:
            verdict = "restated"
        elif all(o not in stale for o in old):
            verdict = "wrong_in_force"
        else:
            verdict = "wrong_partner"
        counts = out.setdefault(how, dict.fromkeys(SUPERSESSION_VERDICTS, 0))
        counts[verdict] += 1
    return out


def shown_as_current(story: Story, lesson_id: str, units: Iterable[str]) -> bool:
    """Whether a unit presents a stale lesson as if it were still in force."""
    lesson = story.by_id[lesson_id]
    successors = [story.by_id[s] for s in story.successors().get(lesson_id, ())]
    for unit in units:
        if not lesson.found_in(unit):
            continue
        if any(s.found_in(unit) for s in successors) or STALE_MARKER.search(unit):
            continue
        return True
    return False


def delivery(story: Story, run: SystemRun) -> dict[str, Any]:
    """Per probe: needed lessons seen, stale lessons shown as current."""
    probes: list[dict[str, Any]] = []
    succ = story.successors()
    for view in run.sessions:
        for epoch in view.epochs:
            # what earlier prompts of the epoch injected is still in the conversation (until a
            # compaction starts the next epoch), for what is needed and for what is stale
            earlier: list[str] = []
            for prompt in epoch.prompts:
                seen = [*epoch.start_units, *epoch.memory_units, *earlier, *prompt.units]
                earlier.extend(prompt.units)
                if not prompt.needs:
                    continue
                found = [lid for lid in prompt.needs
                         if any(story.by_id[lid].found_in(u) for u in seen)]
                shown = [lid for lid in prompt.stale if shown_as_current(story, lid, seen)]
                current = [lid for lid in prompt.stale if lid not in shown
                           and any(n in found for n in succ.get(lid, ()))]
                probes.append({"session": view.index, "prompt": prompt.text[:80],
                               "needs": list(prompt.needs), "found": found,
                               "stale": list(prompt.stale), "stale_shown": shown,
                               "changes_current": current})
    return {"probes": probes}


def _normal(unit: str) -> str:
    text = _LINK_TARGET.sub("]", unit)
    text = _ID.sub(" ", text)
    return " ".join(_WORD.findall(text.lower()))


def duplicates(run: SystemRun) -> tuple[int, int]:
    """(units seen again within their session, units counted) over every session."""
    again = total = 0
    for view in run.sessions:
        seen: list[tuple[str, frozenset[str]]] = []
        for epoch in view.epochs:
            stream = [*epoch.start_units, *epoch.memory_units]
            stream += [u for p in epoch.prompts for u in p.units]
            for unit in stream:
                norm = _normal(unit)
                words = frozenset(w for w in norm.split() if len(w) > 2)
                if len(norm.split()) < DUP_MIN_WORDS:
                    continue
                total += 1
                if any(norm == n or (words and len(words & w) / len(words | w) >= DUP_JACCARD)
                       for n, w in seen):
                    again += 1
                seen.append((norm, words))
    return again, total


# A unit that only frames others: a heading, a line introducing a list ("Rules in force for this
# project:"; not an item that a section title after it was joined to), the note that more
# matches exist.
_FRAMING = re.compile(r"^#|^(?![-*•>|\[]|\d+[.)]\s).*:$|^\(\+\d+ more\b")


def shown_lines(story: Story, run: SystemRun) -> list[dict[str, Any]]:
    """Every unit put in front of the model, in order: its session, channel (``start``,
    ``memory``, or ``prompt`` with that prompt's number in the conversation), text, the probed
    and also-true lessons it carries, and whether it only frames others (a heading, a line
    introducing a list, a unit under four words). What ``replay.py --shown`` writes, to read
    what the model reads."""
    out: list[dict[str, Any]] = []
    for view in run.sessions:
        for epoch in view.epochs:
            units = [("start", u) for u in epoch.start_units]
            units += [("memory", u) for u in epoch.memory_units]
            units += [(f"prompt {n}", u) for n, p in enumerate(epoch.prompts, start=1)
                      for u in p.units]
            for channel, unit in units:
                out.append({
                    "session": view.index, "channel": channel, "text": unit,
                    "lessons": [le.id for le in story.lessons if le.found_in(unit)],
                    "also": [le.id for le in story.also if le.found_in(unit)],
                    "framing": len(unit.split()) < DUP_MIN_WORDS
                    or bool(_FRAMING.search(unit.strip()))})
    return out


def shown_nothing(story: Story, run: SystemRun) -> tuple[int, int]:
    """(units shown that carry no annotated lesson, probed or also-true; units shown) over every
    conversation: what the model reads that no annotation says is worth its while. Framing
    lines and units under four words are not counted."""
    lines = [ln for ln in shown_lines(story, run) if not ln["framing"]]
    return sum(1 for ln in lines if not ln["lessons"] and not ln["also"]), len(lines)


# Confidence is kept within these bounds (the lifecycle's cap and floor): a memory already at
# the cap that a session confirms cannot rise, one at the floor that a session refutes cannot
# fall, and both were judged the right way.
CONFIDENCE_CAP = 1.0
CONFIDENCE_FLOOR = 0.1


def learning(story: Story, judged: list[dict[str, Any]]) -> tuple[int, int]:
    """(outcome events judged the right way, events)."""
    right = 0
    for j in judged:
        before, after, d = j["before"], j["after"], j["direction"]
        if before is None or after is None:
            continue
        eps = 1e-4
        capped = min(before, after) >= CONFIDENCE_CAP - eps
        floored = max(before, after) <= CONFIDENCE_FLOOR + eps
        ok = {"up": after > before + eps or capped, "down": after < before - eps or floored,
              "not_down": after >= before - eps, "not_up": after <= before + eps}[d]
        right += ok
    return right, len(judged)


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def score_story(story: Story, run: SystemRun) -> dict[str, Any]:
    """Every figure of one system in one story, with the detail behind it."""
    deliv = delivery(story, run)
    probes = deliv["probes"]
    prompts = [p for v in run.sessions for e in v.epochs for p in e.prompts]
    epochs = [e for v in run.sessions for e in v.epochs]
    dup_again, dup_total = duplicates(run)
    empty, shown = shown_nothing(story, run)
    out: dict[str, Any] = {
        "sessions": len(run.sessions), "prompts": len(prompts), "probes": len(probes),
        "delivery_recall": _ratio(sum(len(p["found"]) / len(p["needs"]) for p in probes),
                                  len(probes)),
        "stale_pairs": sum(len(p["stale"]) for p in probes),
        "stale_shown_pairs": sum(len(p["stale_shown"]) for p in probes),
        "changes_current_pairs": sum(len(p["changes_current"]) for p in probes),
        "duplicate_units": dup_again, "units": dup_total,
        "shown_nothing_units": empty, "shown_units": shown,
        "prompt_chars": sum(p.context_chars for p in prompts),
        "session_chars": sum(e.start_chars + e.memory_chars for e in epochs),
        "sessions_with_context": len(epochs),
        "probe_detail": probes,
    }
    out["stale_shown"] = _ratio(out["stale_shown_pairs"], out["stale_pairs"])
    out["duplicate_share"] = _ratio(dup_again, dup_total)
    out["shown_carrying_nothing"] = _ratio(empty, shown)
    out["tokens_per_prompt"] = _ratio(out["prompt_chars"] / 4, len(prompts))
    if run.stored is not None:
        cap = capture(story, run.stored, run.stored_kinds)
        out.update(cap)
        out["capture_precision"] = _ratio(cap["useful"], cap["stored"])
        out["capture_recall"] = _ratio(cap["captured"], cap["lessons"])
        out["capture_precision_with_also"] = _ratio(cap["useful_with_also"], cap["stored"])
        out["also_recall"] = _ratio(cap["also_captured"], cap["also"])
        out["hidden_in_force"] = hidden_in_force(story, run.stored, run.stored_kinds,
                                                 run.ended)
        out["supersessions"] = supersession_audit(story, run.stored, run.supersessions)
    if run.judged is not None:
        right, total = learning(story, run.judged)
        out.update({"learning_right": right, "learning_events": total,
                    "learning": _ratio(right, total)})
    return out


def overall(per_story: list[dict[str, Any]], runs: list[SystemRun],
            kinds: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """The figures pooled over stories (items, not story averages)."""
    def total(key: str) -> float:
        return sum(s.get(key) or 0 for s in per_story)

    probes = [p for s in per_story for p in s["probe_detail"]]
    prompts = total("prompts")
    out: dict[str, Any] = {
        "stories": len(per_story), "sessions": int(total("sessions")), "prompts": int(prompts),
        "probes": len(probes),
        "delivery_recall": _ratio(sum(len(p["found"]) / len(p["needs"]) for p in probes),
                                  len(probes)),
        "stale_shown": _ratio(total("stale_shown_pairs"), total("stale_pairs")),
        "changes_current": _ratio(total("changes_current_pairs"), total("stale_pairs")),
        "duplicate_share": _ratio(total("duplicate_units"), total("units")),
        "shown_carrying_nothing": _ratio(total("shown_nothing_units"), total("shown_units")),
        "tokens_per_prompt": _ratio(total("prompt_chars") / 4, prompts),
        "session_tokens": _ratio(total("session_chars") / 4, total("sessions_with_context")),
    }
    has_capture = any("capture_precision" in s for s in per_story)
    out["capture_precision"] = _ratio(total("useful"), total("stored")) if has_capture else None
    out["capture_recall"] = _ratio(total("captured"), total("lessons")) if has_capture else None
    if has_capture:
        pooled: dict[str, list[int]] = {}
        for s in per_story:
            for kind, (got, of) in s.get("captured_by_kind", {}).items():
                counts = pooled.setdefault(kind, [0, 0])
                counts[0] += got
                counts[1] += of
        out["capture_recall_by_kind"] = {k: _ratio(g, n) for k, (g, n) in sorted(pooled.items())}
        for key in ("precision_by_type", "precision_by_type_with_also"):
            typed: dict[str, list[int]] = {}
            for s in per_story:
                for kind, (got, of) in s.get(key, {}).items():
                    counts = typed.setdefault(kind, [0, 0])
                    counts[0] += got
                    counts[1] += of
            out[f"capture_{key}"] = {k: _ratio(g, n) for k, (g, n) in sorted(typed.items())}
        out["capture_precision_with_also"] = _ratio(total("useful_with_also"), total("stored"))
        out["also_recall"] = _ratio(total("also_captured"), total("also"))
        out["episodic_stored"] = int(total("episodic"))
        out["hidden_in_force"] = sum(len(s.get("hidden_in_force", ())) for s in per_story)
        audit: dict[str, dict[str, int]] = {}
        for s in per_story:
            for how, counts in s.get("supersessions", {}).items():
                pooled_counts = audit.setdefault(how, dict.fromkeys(SUPERSESSION_VERDICTS, 0))
                for verdict, n in counts.items():
                    pooled_counts[verdict] += n
        out["supersessions"] = dict(sorted(audit.items(), key=lambda kv: -sum(kv[1].values())))
        out["capture_recall_with_episodic"] = _ratio(
            total("captured_any"), total("lessons"))
    has_learning = any("learning" in s for s in per_story)
    out["learning"] = (_ratio(total("learning_right"), total("learning_events"))
                       if has_learning else None)
    if kinds is not None:
        out["delivery_by_kind"] = {k: _ratio(v[0], v[1]) for k, v in sorted(kinds.items())}
    latencies: dict[str, list[float]] = {}
    for run in runs:
        for event, values in run.latencies.items():
            latencies.setdefault(event, []).extend(values)
    if latencies:
        out["hook_ms_median"] = {e: round(statistics.median(v), 1)
                                 for e, v in sorted(latencies.items())}
        out["hook_ms_p95"] = {e: round(_p95(v), 1) for e, v in sorted(latencies.items())}
        out["hook_calls"] = {e: len(v) for e, v in sorted(latencies.items())}
        out["hook_errors"] = sum(len(r.hook_errors) for r in runs)
        out["hook_timeouts"] = sum(r.hook_timeouts for r in runs)
        out["hook_failures"] = sum(r.hook_failures for r in runs)
    return out


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def delivery_by_kind(story: Story, detail: list[dict[str, Any]],
                     into: dict[str, list[int]]) -> None:
    """Add one story's probe needs to per-lesson-kind counters: kind -> [found, needed]."""
    for probe in detail:
        for lid in probe["needs"]:
            counts = into.setdefault(story.by_id[lid].kind, [0, 0])
            counts[0] += lid in probe["found"]
            counts[1] += 1
