"""What the learned parts of capture cost the detached session-end worker.

Run ``python benchmarks/bench_capture.py [--stores 100,500] [--sessions 6] [--out PATH]``.

Part 1 judges every sentence of the user turns of the real-sourced dev replay stories (``dv-*``)
with the shipped sentence detector, batched as capture does, on a fresh model each run (no
vector reuse): milliseconds per sentence, median of three runs.

Part 2 fills a store with N user rules of earlier sessions (embedded, as the store keeps them),
then replays sessions that each state one new rule through ``Kenning.extract``, and times
``supersede_by_meaning``, the learned pair judge's pass, per session end. The hooks never run
either part; their latency is ``bench_hooks.py``'s. The machine is shared: read medians.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from benchkit import log  # noqa: E402

TOOLS = ("pnpm", "ruff", "pytest", "docker", "make", "cargo", "go test", "eslint", "mypy", "tox")
AREAS = ("the billing service", "the CLI", "the web app", "migrations", "the worker", "the API",
         "the test suite", "the docs site", "CI", "releases")
VERBS = ("run", "call", "check with", "lint with", "format with", "build with")
NEW_AREAS = ("the invoice exporter", "the mobile client", "the search indexer",
             "the payment gateway", "the admin panel", "the scheduler", "the mailer",
             "the image resizer", "the feature flags", "the audit log")


def detector_cost() -> dict[str, Any]:
    """Milliseconds per sentence of the dev stories' user turns, judged in one batch."""
    from replaykit.stories import all_stories
    from replaykit.story import User

    from kenning.embed import MiniLMEmbedder
    from kenning.extract.sentence_kinds import SentenceKinds, sentences

    texts = [ev.text for s in all_stories() if s.id.startswith("dv-")
             for session in s.sessions for ev in session.events if isinstance(ev, User)]
    items = [x for text in texts for x in sentences(text)]
    runs = []
    for _ in range(3):
        kinds = SentenceKinds(MiniLMEmbedder())
        kinds.judge(items[:4])  # the model loaded before the clock starts
        started = time.perf_counter()
        kinds.judge(items)
        runs.append((time.perf_counter() - started) * 1000 / len(items))
    return {"sentences": len(items), "ms_per_sentence": round(statistics.median(runs), 2),
            "runs": [round(r, 2) for r in runs]}


def supersession_cost(rules: int, sessions: int, embedder: Any) -> dict[str, Any]:
    """Milliseconds of ``supersede_by_meaning`` per session end over a store of ``rules``."""
    from kenning import Kenning
    from kenning.extract import service
    from tests.mcp_fixtures import CWD, TranscriptWriter

    rng = random.Random(rules)
    work = Path(tempfile.mkdtemp(prefix="bench-capture-"))
    with Kenning(work / "k.db", project="bench", embedder=embedder) as k:
        items = []
        for i in range(rules):
            tool, area, verb = rng.choice(TOOLS), rng.choice(AREAS), rng.choice(VERBS)
            text = f"For {area}, always {verb} {tool} with option {i} before pushing."
            items.append({"text": text, "type": "preference", "metadata": {
                "said": text, "provenance": {"session_id": f"old-{i}"},
                "rule": {"kind": "convention", "text": text, "said": text, "subject": tool,
                         "terms": [tool], "change": False, "replaces": None,
                         "speaker": "user"}}})
        k.remember_many(items)
        k.settle()
        real = service.ExtractionService.supersede_by_meaning
        times: list[float] = []

        def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return real(self, *args, **kwargs)
            finally:
                times.append((time.perf_counter() - started) * 1000)

        service.ExtractionService.supersede_by_meaning = timed  # type: ignore[method-assign]
        try:
            for n in range(sessions):
                t = TranscriptWriter(cwd=CWD, session=f"new-{n}")
                t.user(f"From now on {NEW_AREAS[n % len(NEW_AREAS)]} gets its own Makefile "
                       f"target and is tested with tox.")
                k.extract(t.write(work / f"session-{n}.jsonl"), repo=work, apply=True)
        finally:
            service.ExtractionService.supersede_by_meaning = real  # type: ignore[method-assign]
    return {"rules": rules, "sessions": len(times),
            "ms_median": round(statistics.median(times), 1) if times else None,
            "ms": [round(t, 1) for t in times]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--stores", default="100,500", help="store sizes (rules), comma-separated")
    ap.add_argument("--sessions", type=int, default=6, help="session ends timed per store")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "capture.json")
    args = ap.parse_args(argv)
    from kenning.embed import MiniLMEmbedder

    log("part 1: the sentence detector")
    detector = detector_cost()
    embedder = MiniLMEmbedder()
    stores = []
    for size in (int(x) for x in args.stores.split(",") if x.strip()):
        log(f"part 2: the pair judge over {size} rules")
        stores.append(supersession_cost(size, args.sessions, embedder))
    print(f"| part | size | median |\n|---|---|---|\n| sentence detector, ms per sentence "
          f"(batched) | {detector['sentences']} sentences | {detector['ms_per_sentence']} |")
    for s in stores:
        print(f"| pair judge pass, ms per session end | {s['rules']} rules | {s['ms_median']} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"detector": detector, "supersession": stores},
                                   indent=1) + "\n")
    print(f"JSON: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
