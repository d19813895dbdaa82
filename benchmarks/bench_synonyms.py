"""Relationship synonyms: how many unknown relation words in English and Korean resolve to the
relation they mean, how many to a wrong one, and how many that mean none are merged anyway.

Run ``python benchmarks/bench_synonyms.py [--baseline PATH] [--out PATH]``.

The held-out words are in ``data/heldout/relation_paraphrases.jsonl``: relation words as
authors wrote them in public commit messages, ADRs, issue threads and docs (English and Korean),
each with its source, collected without running the resolver and frozen. They are reported
first, as ``heldout``. The dev words are in ``data/relation_paraphrases.jsonl``, written here:
``dev/dev`` was used while the resolver's normalisation and matching were built, and
``dev/heldout`` was written as a held-out set, but its misses then went into the synonym table,
and both are a seed of the learned relation-word head, so neither score is a test any more.
Each word is resolved alone, as a link's ``relationship`` with no words in the store yet, by
``kenning.relations.RelationshipResolver`` with the multilingual USE model (and so with the
shipped head).

``--baseline`` loads another ``relations.py`` (e.g. ``git show <rev>:src/kenning/relations.py
> /tmp/relations_before.py``) and reports it beside the current one. Prints a table and writes
``results/synonyms.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchkit import load_average, log, machine_info, render

from kenning import relations

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "relation_paraphrases.jsonl"
HELDOUT = HERE / "data" / "heldout" / "relation_paraphrases.jsonl"
DEFAULT_OUT = HERE / "results" / "synonyms.json"


def load_module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location("relations_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def score(module: Any, items: list[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    """Resolve every word; per set and language: correct, wrong, missed, negatives merged."""
    resolver = module.RelationshipResolver(embedder=embedder)
    out: dict[str, Any] = {}
    detail = []
    t0 = time.perf_counter()
    for item in items:
        rel = resolver.resolve(item["word"])
        got = None if rel.is_new else rel.canonical
        want = item["canonical"]
        verdict = ("kept_new" if got is None else "merged") if want is None else (
            "correct" if got == want else "missed" if got is None else "wrong")
        for key in (item["set"], f"{item['set']}/{item['lang']}"):
            row = out.setdefault(key, {"correct": 0, "wrong": 0, "missed": 0, "kept_new": 0,
                                       "merged": 0})
            row[verdict] += 1
        if item["set"] != "heldout":  # held-out: figures only, never a list to tune against
            detail.append({**item, "got": got, "via": rel.via,
                           "confidence": round(rel.inference_confidence, 4),
                           "verdict": verdict})
    for row in out.values():
        positives = row["correct"] + row["wrong"] + row["missed"]
        row["positives"] = positives
        row["resolved_share"] = row["correct"] / positives if positives else float("nan")
    return {"by_set": out, "seconds": round(time.perf_counter() - t0, 2), "words": detail}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, help="another relations.py to compare with")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    if not HELDOUT.exists():
        raise SystemExit(f"bench_synonyms: missing held-out words: {HELDOUT}")
    items = [{**json.loads(line), "set": "heldout"}
             for line in HELDOUT.read_text(encoding="utf-8").splitlines() if line.strip()]
    items += [{**item, "set": f"dev/{item['set']}"} for item in (
        json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()
        if line.strip())]
    embedder = relations.UsePhraseEmbedder()
    load_start = load_average()
    runs = {"current": score(relations, items, embedder)}
    if args.baseline:
        log(f"baseline: {args.baseline}")
        runs["baseline"] = score(load_module(args.baseline), items, embedder)
    rows = []
    for name, run in runs.items():
        # Held-out rows first: they are the figures that count.
        for key, r in sorted(run["by_set"].items(),
                             key=lambda kv: (not kv[0].startswith("heldout"), kv[0])):
            rows.append((f"{name}: {key}", r["positives"], r["correct"],
                         f"{r['resolved_share']:.0%}", r["wrong"], r["missed"],
                         r["kept_new"] + r["merged"], r["merged"]))
    print(render("Unknown relation words resolved (USE multilingual; no store words)",
                 ("resolver: set", "words", "correct", "resolved", "wrong", "missed",
                  "negatives", "merged"), rows))
    report = {"machine": machine_info(), "load_start": load_start,
              "load_end": load_average(),
              "data": [str(HELDOUT.relative_to(HERE)), str(DATA.relative_to(HERE))], **runs}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
