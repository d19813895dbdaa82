"""Retrieval quality on the LoCoMo dev split: Kenning hybrid vs its keyword-only and vector-only
modes, measured by the shared harness (``../shared/eval/locomo_eval.py``) in one run.

    python benchmarks/locomo.py [--eval-dir ../shared/eval] [--out benchmarks/results/locomo.json]

Every dialog turn becomes one memory, created at its session's date plus a minute per turn
(turns are said one after another, as an agent's memories are recorded; a session's turns all
at one instant would hide their order from recall's neighbourhood context); every question is
a query. ``--ablate`` adds hybrid runs with each ranking stage after fusion turned off (its
weight 0 in ``RankWeights``), and one with all of them off.
The data set is research-only (CC BY-NC 4.0) and is read from the shared folder, never shipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from kenning import Kenning
from kenning.embed import MiniLMEmbedder
from kenning.ranking import RankWeights

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EVAL = ROOT.parent / "shared" / "eval"
MODES = ("hybrid", "keyword", "vector")
TURN_GAP = timedelta(minutes=1)
# name -> the stages' weights turned off for that ablation run
STAGES = {
    "adjacent": {"adjacent_weight": 0.0},
    "linked": {"linked_weight": 0.0},
    "feedback": {"feedback_weight": 0.0},
    "dated": {"dated_boost": 0.0},
    "named": {"name_weight": 0.0},
}
STAGES["all"] = {k: v for off in list(STAGES.values()) for k, v in off.items()}


def load_harness(eval_dir: Path) -> ModuleType:
    """Import the shared harness from its folder (it is not a package)."""
    path = eval_dir / "locomo_eval.py"
    if not path.exists():
        sys.exit(f"error: {path} not found (pass --eval-dir)")
    spec = importlib.util.spec_from_file_location("locomo_eval", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["locomo_eval"] = module
    spec.loader.exec_module(module)
    return module


def session_time(text: str) -> datetime | None:
    """LoCoMo session dates look like '1:56 pm on 8 May, 2023'."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    except ValueError:
        return None


class KenningRetriever:
    """The harness's retriever interface over a fresh Kenning store per conversation."""

    embedder: MiniLMEmbedder | None = None

    def __init__(self, mode: str, workdir: Path, weights: RankWeights | None = None,
                 name: str | None = None) -> None:
        self.mode = mode
        self.name = name or f"kenning-{mode}"
        self.workdir = workdir
        self.weights = weights
        self.k: Kenning | None = None
        self.dia_ids: dict[str, list[str]] = {}

    def index(self, items: list[Any]) -> None:
        if KenningRetriever.embedder is None:
            KenningRetriever.embedder = MiniLMEmbedder()
        path = Path(tempfile.mkdtemp(dir=self.workdir)) / "locomo.db"
        dates = [d + (it.turn - 1) * TURN_GAP if (d := session_time(it.date)) else None
                 for it in items]
        last = max((d for d in dates if d), default=None)
        now = int(last.timestamp() * 1000) + 86_400_000 if last else None
        self.k = Kenning(path, project="locomo", embedder=KenningRetriever.embedder,
                         clock=(lambda: now) if now else time.time_ns,
                         weights=self.weights)
        stored = self.k.remember_many(
            {"text": it.text, "type": "context", "created_at": d,
             "metadata": {"dia_id": it.id}}
            for it, d in zip(items, dates, strict=True)
        )
        for it, m in zip(items, stored, strict=True):
            self.dia_ids.setdefault(m.id, []).append(it.id)

    def search(self, query: str, k: int) -> list[str]:
        assert self.k is not None
        hits = self.k.recall(query, k=k, mode=self.mode, track=False)  # type: ignore[arg-type]
        out: list[str] = []
        for h in hits:
            out.extend(self.dia_ids.get(h.memory.id, []))
        return out[:k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval-dir", type=Path, default=DEFAULT_EVAL)
    ap.add_argument("--convs", default="dev")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "locomo.json")
    ap.add_argument("--ablate", action="store_true",
                    help="also run hybrid with each ranking stage after fusion turned off")
    args = ap.parse_args(argv)

    h = load_harness(args.eval_dir)
    convs = h.load_locomo(args.eval_dir / "locomo_dev.json")
    if args.convs == "dev":
        convs = [convs[i] for i in h.SPLITS["dev"] if i < len(convs)]
    runs: list[tuple[str, str, RankWeights | None]] = [(m, f"kenning-{m}", None) for m in MODES]
    if args.ablate:
        runs += [("hybrid", f"hybrid-no-{stage}", replace(RankWeights(), **off))  # type: ignore[arg-type]
                 for stage, off in STAGES.items()]
    results = []
    with tempfile.TemporaryDirectory(prefix="kenning-locomo-") as tmp:
        for mode, name, weights in runs:
            started = time.perf_counter()
            res = h.run_retriever(
                lambda m=mode, n=name, w=weights: KenningRetriever(m, Path(tmp), w, n), convs)
            res.pop("per_question")
            res["wall_s"] = round(time.perf_counter() - started, 2)
            results.append(res)
            print(f"{name}: done in {res['wall_s']} s", file=sys.stderr)
    print(h.fmt_table(results, "dev"))
    print()
    print(h.fmt_category_table(results, "dev"))
    r10 = {r["name"]: r["dev"]["overall_1to4"]["recall@10"] for r in results}
    print("\nrecall@10 (categories 1-4): " + ", ".join(f"{n} {v:.3f}" for n, v in r10.items()))
    # Multi-hop questions need every evidence turn: all@20 is what a perfect reordering of the
    # first 20 could bring to all@10, the ceiling of any stage that only reorders.
    multi = {r["name"]: {k: r["dev"]["cat1_multi-hop"][k] for k in ("all@10", "all@20")}
             for r in results}
    print("multi-hop all-evidence@10 / @20: " + ", ".join(
        f"{n} {v['all@10']:.3f} / {v['all@20']:.3f}" for n, v in multi.items()))
    best_single = max(r10["kenning-keyword"], r10["kenning-vector"])
    verdict = "beats" if r10["kenning-hybrid"] > best_single else "does NOT beat"
    print(f"hybrid {verdict} both single modes ({r10['kenning-hybrid']:.3f} vs {best_single:.3f})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "date": datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "recall@10": r10,
        "multi_hop_all_evidence": multi,
        "results": results,
    }
    args.out.write_text(json.dumps(payload, indent=2, default=str))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
