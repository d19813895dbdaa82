"""Retrieval quality on the LoCoMo dev split: Kenning hybrid vs its keyword-only and vector-only
modes, measured by the shared harness (``../shared/eval/locomo_eval.py``) in one run.

    python benchmarks/locomo.py [--eval-dir ../shared/eval] [--out benchmarks/results/locomo.json]

Every dialog turn becomes one memory (created at its session's date); every question is a query.
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
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from kenning import Kenning
from kenning.embed import MiniLMEmbedder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EVAL = ROOT.parent / "shared" / "eval"
MODES = ("hybrid", "keyword", "vector")


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

    def __init__(self, mode: str, workdir: Path) -> None:
        self.mode = mode
        self.name = f"kenning-{mode}"
        self.workdir = workdir
        self.k: Kenning | None = None
        self.dia_ids: dict[str, list[str]] = {}

    def index(self, items: list[Any]) -> None:
        if KenningRetriever.embedder is None:
            KenningRetriever.embedder = MiniLMEmbedder()
        path = Path(tempfile.mkdtemp(dir=self.workdir)) / "locomo.db"
        dates = [session_time(it.date) for it in items]
        last = max((d for d in dates if d), default=None)
        now = int(last.timestamp() * 1000) + 86_400_000 if last else None
        self.k = Kenning(path, project="locomo", embedder=KenningRetriever.embedder,
                         clock=(lambda: now) if now else time.time_ns)  # type: ignore[arg-type]
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
    args = ap.parse_args(argv)

    h = load_harness(args.eval_dir)
    convs = h.load_locomo(args.eval_dir / "locomo_dev.json")
    if args.convs == "dev":
        convs = [convs[i] for i in h.SPLITS["dev"] if i < len(convs)]
    results = []
    with tempfile.TemporaryDirectory(prefix="kenning-locomo-") as tmp:
        for mode in MODES:
            started = time.perf_counter()
            res = h.run_retriever(lambda m=mode: KenningRetriever(m, Path(tmp)), convs)
            res.pop("per_question")
            res["wall_s"] = round(time.perf_counter() - started, 2)
            results.append(res)
            print(f"{mode}: done in {res['wall_s']} s", file=sys.stderr)
    print(h.fmt_table(results, "dev"))
    print()
    print(h.fmt_category_table(results, "dev"))
    r10 = {r["name"]: r["dev"]["overall_1to4"]["recall@10"] for r in results}
    print("\nrecall@10 (categories 1-4): " + ", ".join(f"{n} {v:.3f}" for n, v in r10.items()))
    best_single = max(r10["kenning-keyword"], r10["kenning-vector"])
    verdict = "beats" if r10["kenning-hybrid"] > best_single else "does NOT beat"
    print(f"hybrid {verdict} both single modes ({r10['kenning-hybrid']:.3f} vs {best_single:.3f})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "date": datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "recall@10": r10,
        "results": results,
    }
    args.out.write_text(json.dumps(payload, indent=2, default=str))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
