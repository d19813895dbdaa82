"""The coding-agent memory benchmark: replay multi-session coding stories through Kenning's real
Claude Code hooks and score what the model would see, beside four baselines in the same run.

Run ``python benchmarks/replay.py [--quick] [--out PATH] [--stories ID,...] [--noise N]
[--jobs N] [--keep DIR]``. Each story gets a fresh HOME and a scratch git project, ``kenning
init``, and every session event sent to the hook commands init registered, one process each
(``replaykit.runner``). The baselines (``replaykit.baselines``) need no processes. Scores are
defined in ``replaykit.scoring``; how to write a story is in ``benchmarks/README.md``.

Prints a table and writes JSON shaped ``{"systems": {"kenning": {...}, "none": {...}, ...},
"stories": {...}, ...}`` (default ``results/replay.json``, ``results/replay-quick.json`` with
``--quick``). It never fails on a score: scores are figures, not tests.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchkit import load_average, machine_info  # noqa: E402
from replaykit import baselines, scoring  # noqa: E402
from replaykit.heldout import all_stories as heldout_stories  # noqa: E402
from replaykit.noise import with_noise  # noqa: E402
from replaykit.runner import StoryReplay, kenning_snapshot  # noqa: E402
from replaykit.stories import all_stories  # noqa: E402
from replaykit.story import Story  # noqa: E402

RESULTS = HERE / "results"
# Story time starts on a fixed Monday morning, so every run sees the same days.
START_MS = int(datetime(2026, 3, 2, tzinfo=UTC).timestamp() * 1000)
SYSTEMS = ("kenning", *baselines.BASELINES)
COLUMNS = ("capture_precision", "capture_recall", "learning", "delivery_recall",
           "stale_shown", "duplicate_share", "tokens_per_prompt", "session_tokens")
# The figures compared between the held-out and the dev set.
GAP_COLUMNS = ("delivery_recall", "stale_shown", "changes_current", "capture_precision",
               "capture_precision_with_also", "capture_recall", "learning",
               "shown_carrying_nothing", "duplicate_share", "tokens_per_prompt",
               "session_tokens")
QUICK_EVERY = 5  # --quick replays every fifth story
DEFAULT_NOISE = 3


def select(stories: list[Story], quick: bool, only: list[str] | None, noise: int
           ) -> list[Story]:
    """The stories to replay from one set (every fifth with ``quick``; ``only`` those ids),
    each with its filler sessions."""
    if only:
        stories = [s for s in stories if s.id in only]
    elif quick:
        stories = stories[::QUICK_EVERY]
    return [with_noise(s, noise) for s in stories]


def kenning_bin() -> Path:
    path = Path(sys.executable).parent / "kenning"
    if not path.exists():
        raise SystemExit(f"replay: {path} not found; run with the Python of a virtual "
                         "environment where Kenning is installed (pip install -e .)")
    return path


def replay_one(story: Story, root: str, keep: bool) -> tuple[str, dict[str, Any], float]:
    """Replay one story through Kenning (in a worker process); returns its run as JSON."""
    work = Path(tempfile.mkdtemp(prefix=f"{story.id}-", dir=root))
    began = time.perf_counter()
    try:
        run = StoryReplay(story, work, kenning_bin(), START_MS).replay(kenning_snapshot)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    return story.id, run.to_json(), time.perf_counter() - began


def from_json(data: dict[str, Any]) -> scoring.SystemRun:
    sessions = []
    for s in data["sessions"]:
        epochs = [scoring.Epoch(
            start_units=e["start_units"], memory_units=e["memory_units"],
            start_chars=e["start_chars"], memory_chars=e["memory_chars"],
            prompts=[scoring.PromptView(text=p["text"], units=p["units"],
                                        context_chars=p["context_chars"],
                                        needs=tuple(p["needs"]), stale=tuple(p["stale"]))
                     for p in e["prompts"]]) for e in s["epochs"]]
        sessions.append(scoring.SessionView(index=s["index"], day=s["day"], noise=s["noise"],
                                            epochs=epochs))
    return scoring.SystemRun(
        sessions=sessions, stored=data["stored"], stored_kinds=data.get("stored_kinds", {}),
        judged=data["judged"],
        latencies=data["latencies"], hook_failures=data["hook_failures"],
        hook_timeouts=data["hook_timeouts"], hook_errors=data["hook_errors"],
        ended=data.get("ended", []), supersessions=data.get("supersessions", []))


def fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}" if value < 10 else f"{value:.0f}"
    return str(value)


def table(systems: dict[str, dict[str, Any]]) -> str:
    head = ["system", *COLUMNS]
    rows = [[name, *(fmt(fig.get(c)) for c in COLUMNS)] for name, fig in systems.items()]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|",
                      *map(line, rows)])


def replay_set(stories: list[Story], args: argparse.Namespace, label: str
               ) -> tuple[dict[str, Any], dict[str, dict[str, scoring.SystemRun]]]:
    """Replay ``stories`` through Kenning, build every baseline, score them all: the result
    JSON of one story set (``label`` names it in the progress lines)."""
    sessions = sum(len(s.sessions) for s in stories)
    print(f"{label}: replaying {len(stories)} stories, {sessions} sessions", file=sys.stderr)
    load_before = load_average()
    began = time.perf_counter()
    root = tempfile.mkdtemp(prefix="kenning-replay-")
    runs: dict[str, dict[str, scoring.SystemRun]] = {name: {} for name in SYSTEMS}
    seconds: dict[str, float] = {}
    try:
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(replay_one, s, root, args.keep) for s in stories]
            for n, future in enumerate(futures, start=1):
                sid, data, took = future.result()
                runs["kenning"][sid] = from_json(data)
                seconds[sid] = round(took, 1)
                print(f"[{label} {n}/{len(stories)}] {sid}: {took:.1f} s", file=sys.stderr)
    finally:
        if args.keep:
            print(f"scratch projects kept in {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    for story in stories:
        for name, build in baselines.BASELINES.items():
            runs[name][story.id] = build(story)

    result: dict[str, Any] = {"systems": {}, "stories": {}, "probes": {}}
    for name in SYSTEMS:
        per_story, kinds = [], {}  # type: ignore[var-annotated]
        for story in stories:
            fig = scoring.score_story(story, runs[name][story.id])
            scoring.delivery_by_kind(story, fig["probe_detail"], kinds)
            per_story.append(fig)
        result["systems"][name] = scoring.overall(
            per_story, list(runs[name].values()), kinds)
        result["stories"][name] = {s.id: {k: v for k, v in f.items() if k != "probe_detail"}
                                   for s, f in zip(stories, per_story, strict=True)}
        result["probes"][name] = {s.id: f["probe_detail"]
                                  for s, f in zip(stories, per_story, strict=True)}
    result["kenning_learning"] = {sid: run.judged for sid, run in runs["kenning"].items()
                                  if run.judged}
    result["kenning_hook_errors"] = {
        sid: run.hook_errors[:20] for sid, run in runs["kenning"].items() if run.hook_errors}
    result["run"] = {
        "set": label, "quick": args.quick, "noise_per_story": args.noise, "jobs": args.jobs,
        "stories": len(stories), "sessions": sessions,
        "hand_written_sessions": sum(1 for s in stories for x in s.sessions if not x.generated),
        "sources": sorted({src for s in stories for src in s.sources}),
        "seconds": round(time.perf_counter() - began, 1), "seconds_per_story": seconds,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_before": load_before, "load_after": load_average(), "machine": machine_info(),
        "tokens": "characters / 4",
    }
    return result, runs


def figures_only(result: dict[str, Any]) -> dict[str, Any]:
    """A held-out run's JSON without the text it saw: the per-story figures stay (numbers and
    counts by kind), every probe's detail, the memories that carried nothing and the lessons
    missed go. Nobody reads held-out material while changing the code, and a list of held-out
    misses is exactly what would be read."""
    def numbers(fig: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in fig.items() if v is None or isinstance(v, int | float | dict)}

    return {**{k: v for k, v in result.items() if k not in ("probes", "kenning_learning")},
            "stories": {name: {sid: numbers(fig) for sid, fig in per.items()}
                        for name, per in result["stories"].items()}}


def gaps(heldout: dict[str, Any], dev: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """Held-out minus dev, per system and figure (``None`` where either side has no value)."""
    out: dict[str, dict[str, float | None]] = {}
    for name in SYSTEMS:
        h, d = heldout["systems"][name], dev["systems"][name]
        out[name] = {c: (round(h[c] - d[c], 3) if isinstance(h.get(c), int | float)
                         and isinstance(d.get(c), int | float) else None)
                     for c in GAP_COLUMNS}
    return out


def gap_tables(heldout: dict[str, Any], dev: dict[str, Any]) -> str:
    """One table per system: each figure on the held-out set first, on the dev set beside it,
    and the gap (held-out minus dev)."""
    gap = gaps(heldout, dev)
    blocks = []
    for name in SYSTEMS:
        head = [name, "held-out", "dev", "gap"]
        rows = [[c, fmt(heldout["systems"][name].get(c)), fmt(dev["systems"][name].get(c)),
                 "-" if gap[name][c] is None else f"{gap[name][c]:+.3f}"]
                for c in GAP_COLUMNS]
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

        def line(cells: list[str], widths: list[int] = widths) -> str:
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) \
                + " |"

        blocks.append("\n".join([line(head), "|" + "|".join("-" * (w + 2) for w in widths)
                                  + "|", *map(line, rows)]))
    return "\n\n".join(blocks)


def report(result: dict[str, Any], out: Path) -> None:
    """The table of every system on one story set, and Kenning's details, as printed lines."""
    print(table(result["systems"]))
    k = result["systems"]["kenning"]
    print("\nkenning hook medians (ms): " + ", ".join(
        f"{e} {v}" for e, v in k.get("hook_ms_median", {}).items()))
    print("delivery by lesson kind: " + ", ".join(
        f"{kind} " + " / ".join(fmt(result["systems"][n]["delivery_by_kind"].get(kind))
                                for n in ("kenning", "bm25"))
        for kind in k.get("delivery_by_kind", {})) + "  (kenning / bm25)")
    print("capture recall by lesson kind (kenning): " + ", ".join(
        f"{kind} {fmt(v)}" for kind, v in k.get("capture_recall_by_kind", {}).items()))
    print("capture precision by memory type (kenning): " + ", ".join(
        f"{kind} {fmt(v)}" for kind, v in k.get("capture_precision_by_type", {}).items())
        + f"; kept user turns {k.get('episodic_stored', 0)}, recall counting them "
          f"{fmt(k.get('capture_recall_with_episodic'))}")
    print(f"capture precision counting also-true lessons (kenning): "
          f"{fmt(k.get('capture_precision_with_also'))} (by type: " + ", ".join(
              f"{kind} {fmt(v)}"
              for kind, v in k.get("capture_precision_by_type_with_also", {}).items())
          + f"); also-true lessons kept {fmt(k.get('also_recall'))}")
    print("changes handled (successor seen, old not shown as current): " + ", ".join(
        f"{n} {fmt(result['systems'][n].get('changes_current'))}" for n in SYSTEMS))
    print(f"rules in force hidden by a wrong supersession (kenning; goal 0): "
          f"{fmt(k.get('hidden_in_force'))}")
    audit = k.get("supersessions") or {}
    if audit:
        print("supersessions by how they were decided (kenning; right / restated / wrong, a rule "
              "in force / wrong, another change / no lesson): " + "; ".join(
                  f"{how} {c['right']}/{c['restated']}/{c['wrong_in_force']}/"
                  f"{c['wrong_partner']}/{c['no_lesson']}" for how, c in audit.items()))
    print("units shown that carry no annotated lesson: " + ", ".join(
        f"{n} {fmt(result['systems'][n].get('shown_carrying_nothing'))}" for n in SYSTEMS))
    run = result["run"]
    print(f"hook errors {k.get('hook_errors', 0)}, timeouts {k.get('hook_timeouts', 0)}; "
          f"{run['stories']} stories, {run['sessions']} sessions, {k['probes']} probes; "
          f"{run['seconds']:.0f} s; JSON: {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heldout", action="store_true",
                        help="the held-out stories and the dev stories in one run, held-out "
                             "first, with the gap of every figure (results/replay-heldout.json)")
    parser.add_argument("--heldout-only", action="store_true",
                        help="the held-out stories alone (a crash check; quote figures from a "
                             "--heldout run, beside the dev set)")
    parser.add_argument("--quick", action="store_true", help="every fifth story only")
    parser.add_argument("--stories", help="comma-separated story ids (overrides --quick)")
    parser.add_argument("--noise", type=int, default=DEFAULT_NOISE,
                        help=f"filler sessions added to each story (default {DEFAULT_NOISE})")
    parser.add_argument("--jobs", type=int, default=1,
                        help="stories replayed at once (hook latencies are only comparable "
                             "between runs with the same value; default 1)")
    parser.add_argument("--keep", action="store_true",
                        help="keep each story's scratch HOME and project (path printed)")
    parser.add_argument("--out", type=Path, help="JSON output path")
    parser.add_argument("--shown", type=Path,
                        help="also write every unit put in front of the model on the dev "
                             "stories, with the lessons it carries (JSON), to read what the "
                             "model reads (never for the held-out stories: nobody reads those "
                             "while changing the code)")
    args = parser.parse_args(argv)
    if args.heldout and args.heldout_only:
        parser.error("--heldout and --heldout-only exclude each other")
    only = args.stories.split(",") if args.stories else None
    sets: dict[str, list[Story]] = {}
    if args.heldout or args.heldout_only:
        sets["heldout"] = heldout_stories()
    if not args.heldout_only:
        sets["dev"] = all_stories()
    if only:
        known = {s.id for stories in sets.values() for s in stories}
        missing = [i for i in only if i not in known]
        if missing:
            raise SystemExit(f"replay: unknown story id(s): {', '.join(missing)}")
    chosen = {label: select(stories, args.quick, only, args.noise)
              for label, stories in sets.items()}
    chosen = {label: stories for label, stories in chosen.items() if stories}
    if "heldout" in sets and not sets["heldout"]:
        raise SystemExit("replay: no held-out stories in benchmarks/replaykit/heldout/")
    name = ("replay-heldout" if args.heldout else "replay-heldout-only" if args.heldout_only
            else "replay") + ("-quick" if args.quick else "")
    out = args.out or RESULTS / f"{name}.json"
    kenning_bin()
    results: dict[str, dict[str, Any]] = {}
    dev_runs: dict[str, dict[str, scoring.SystemRun]] = {}
    for label, stories in chosen.items():
        results[label], runs = replay_set(stories, args, label)
        if label == "dev":
            dev_runs = runs
    if "heldout" in results:
        results["heldout"] = figures_only(results["heldout"])
    if len(results) == 1:
        data = next(iter(results.values()))
    else:
        data = {**results, "gap": gaps(results["heldout"], results["dev"]) if
                {"heldout", "dev"} <= results.keys() else {}}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    if args.shown and "dev" in chosen:
        args.shown.parent.mkdir(parents=True, exist_ok=True)
        args.shown.write_text(json.dumps(
            {s.id: scoring.shown_lines(s, dev_runs["kenning"][s.id]) for s in chosen["dev"]},
            indent=1) + "\n")
    for label, result in results.items():
        if len(results) > 1:
            print(f"\n## {'Held-out' if label == 'heldout' else 'Dev'} stories\n")
        report(result, out)
    if {"heldout", "dev"} <= results.keys():
        print("\n## Held-out beside dev, per system (gap = held-out - dev)\n")
        print(gap_tables(results["heldout"], results["dev"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
