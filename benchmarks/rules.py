"""How well Kenning notices rules in what a user types, and whether a newer rule replaces an
older one, on the labelled sets in ``benchmarks/data/``: the held-out set first, the dev set
beside it, and the gap.

    python benchmarks/rules.py [--set both|heldout|dev] [--out results/rules.json] [--misses]

Rule detection (``kenning.extract.conventions.find_rules`` on each whole message, and beside it
the learned sentence-kind detector, ``kenning.extract.sentence_kinds``, whose kept sentences
count as found): a found rule is right when its text holds every key word of a labelled rule of
that message (case-insensitive substrings); precision = right found rules / found rules, recall
= labelled rules matched / labelled rules. Messages without a rule count only against precision
(anything found there is wrong). Supersession (``supersedes`` on the first rule found in each
message of a pair, with the embedding similarity of the two rule texts): precision and recall of
the "supersedes" label; a pair where no rule is found on either side counts as "not
superseding". Beside it, the learned pair judge (``kenning.extract.rule_pairs``) on each pair's
two messages whole, at its shipped threshold.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kenning.extract.conventions import find_rules, supersedes

DATA = Path(__file__).resolve().parent / "data"
# Each set's labelled messages and supersession pairs. ``heldout`` is taken from public
# material (instruction files, issue threads, commit histories) and frozen; ``dev`` was written
# here and read while the detector was built, so its figures show the tuning, not the product.
SETS = {
    "heldout": (DATA / "heldout" / "rules.jsonl", DATA / "heldout" / "supersession_pairs.jsonl"),
    "dev": (DATA / "rules_labelled.jsonl", DATA / "supersession_pairs.jsonl"),
}


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def _matches(found: str, key: list[str]) -> bool:
    text = found.lower()
    return all(k.lower() in text for k in key)


def rule_texts(message: str) -> list[str]:
    """What the rule detector keeps of a message: its rules' texts."""
    return [r.text for r in find_rules(message)]


def learned_finder() -> Callable[[str], list[str]] | None:
    """The learned sentence-kind detector as a finder: the sentences of a message it keeps
    (rules, decisions, commands, facts, changes), as said; None when it cannot load."""
    try:
        from kenning.embed import MiniLMEmbedder
        from kenning.extract.sentence_kinds import DetectorUnavailable, SentenceKinds

        kinds = SentenceKinds(MiniLMEmbedder())
    except (ImportError, DetectorUnavailable, OSError) as exc:
        print(f"(no learned detector: {exc})")
        return None

    def find(message: str) -> list[str]:
        return [j.text for j in kinds.judge_message(message) if j.kept]

    return find


def detection(items: list[dict[str, Any]],
              finder: Callable[[str], list[str]] = rule_texts) -> dict[str, Any]:
    """Precision and recall of rule detection, overall and per labelled kind."""
    found_n = right_n = labelled_n = matched_n = 0
    by_kind: dict[str, list[int]] = {}
    misses: list[dict[str, Any]] = []
    false: list[dict[str, Any]] = []
    times: list[float] = []
    for item in items:
        t0 = time.perf_counter()
        found = finder(item["text"])
        times.append((time.perf_counter() - t0) * 1000)
        labels = item["rules"]
        found_n += len(found)
        for text in found:
            if any(_matches(text, lab["key"]) for lab in labels):
                right_n += 1
            else:
                false.append({"id": item["id"], "found": text})
        for lab in labels:
            counts = by_kind.setdefault(lab["kind"], [0, 0])
            counts[1] += 1
            labelled_n += 1
            if any(_matches(text, lab["key"]) for text in found):
                matched_n += 1
                counts[0] += 1
            else:
                misses.append({"id": item["id"], "rule": lab["rule"], "key": lab["key"],
                               "found": found})
    return {
        "messages": len(items), "found": found_n, "right": right_n, "labelled": labelled_n,
        "matched": matched_n, "precision": _ratio(right_n, found_n),
        "recall": _ratio(matched_n, labelled_n),
        "recall_by_kind": {k: _ratio(g, n) for k, (g, n) in sorted(by_kind.items())},
        "ms_per_message_median": round(statistics.median(times), 3),
        "misses": misses, "false": false,
    }


def supersession(pairs: list[dict[str, Any]], similarity: Any) -> dict[str, Any]:
    """Precision and recall of ``supersedes`` on the labelled pairs."""
    tp = fp = fn = 0
    wrong: list[dict[str, Any]] = []
    for pair in pairs:
        new, old = find_rules(pair["new"]), find_rules(pair["old"])
        said = any(supersedes(n, o, similarity(n.text, o.text) if similarity else None)
                   for n in new for o in old)
        truth = pair["label"] == "supersedes"
        tp += said and truth
        fp += said and not truth
        fn += truth and not said
        if said != truth:
            wrong.append({"id": pair["id"], "label": pair["label"], "said": said,
                          "new": [r.text for r in new], "old": [r.text for r in old]})
    return {"pairs": len(pairs), "supersedes": sum(p["label"] == "supersedes" for p in pairs),
            "precision": _ratio(tp, tp + fp), "recall": _ratio(tp, tp + fn),
            "false_supersession": fp, "missed": fn, "wrong": wrong}


def learned_supersession(pairs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Precision and recall of the learned pair judge (``kenning.extract.rule_pairs``) on the
    labelled pairs, each message taken whole: a pair is said to supersede when the judge's
    probability of "replaces" reaches its shipped threshold. None when the judge or the
    embedder cannot load."""
    try:
        from kenning.embed import default_embedder
        from kenning.extract.rule_pairs import PairJudge

        judge, emb = PairJudge(), default_embedder()
    except Exception as exc:
        print(f"(no learned pair judge: {exc})")
        return None
    if emb is None or not pairs:
        return None
    old = emb.embed([p["old"] for p in pairs])
    new = emb.embed([p["new"] for p in pairs])
    probs = judge.replaces(old, new, [p["old"] for p in pairs], [p["new"] for p in pairs])
    tp = fp = fn = 0
    wrong: list[dict[str, Any]] = []
    for pair, prob in zip(pairs, probs, strict=True):
        said, truth = float(prob) >= judge.replaces_at, pair["label"] == "supersedes"
        tp += said and truth
        fp += said and not truth
        fn += truth and not said
        if said != truth:
            wrong.append({"id": pair["id"], "label": pair["label"], "said": said,
                          "probability": round(float(prob), 3)})
    return {"precision": _ratio(tp, tp + fp), "recall": _ratio(tp, tp + fn),
            "false_supersession": fp, "missed": fn, "wrong": wrong}


def _similarity() -> Any:
    """Cosine similarity of two texts with Kenning's embedder, or None when it cannot load."""
    try:
        from kenning.embed import default_embedder

        emb = default_embedder()
    except Exception as exc:  # the benchmark still reports the rule-only figures
        print(f"(no embedder: {exc}; supersession measured without similarity)")
        return None
    if emb is None:
        print("(no embedder; supersession measured without similarity)")
        return None
    cache: dict[str, Any] = {}

    def sim(a: str, b: str) -> float:
        for t in (a, b):
            if t not in cache:
                cache[t] = emb.embed([t])[0]
        return float(cache[a] @ cache[b])

    return sim


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def score_set(name: str, similarity: Any, learned: Callable[[str], list[str]] | None
              ) -> dict[str, Any]:
    """Detection (the rule detector, and the learned detector beside it) and supersession on
    one set's two files."""
    messages, pairs = _load(SETS[name][0]), _load(SETS[name][1])
    out = {"detection": detection(messages), "supersession": supersession(pairs, similarity)}
    if learned is not None:
        out["learned_detection"] = detection(messages, learned)
    judged = learned_supersession(pairs)
    if judged is not None:
        out["learned_supersession"] = judged
    return out


def rows(scores: dict[str, dict[str, Any]]) -> list[str]:
    """Markdown rows: each figure on every set scored, held-out first, and the gap."""
    names = list(scores)
    out = ["| figure | " + " | ".join(names) + (" | gap |" if len(names) == 2 else " |"),
           "|---" * (len(names) + 1 + (len(names) == 2)) + "|"]

    def row(label: str, values: list[Any]) -> None:
        cells = ["-" if v is None else str(v) for v in values]
        gap = (f" | {values[0] - values[1]:+.3f}" if len(values) == 2
               and all(isinstance(v, float) for v in values) else " | -" if len(values) == 2
               else "")
        out.append(f"| {label} | " + " | ".join(cells) + gap + " |")

    det = [scores[n]["detection"] for n in names]
    sup = [scores[n]["supersession"] for n in names]
    row("messages / labelled rules", [f"{d['messages']} / {d['labelled']}" for d in det])
    row("rule detector: precision", [d["precision"] for d in det])
    row("rule detector: recall", [d["recall"] for d in det])
    for kind in sorted({k for d in det for k in d["recall_by_kind"]}):
        row(f"- recall, {kind}", [d["recall_by_kind"].get(kind) for d in det])
    learned = [scores[n]["learned_detection"] for n in names
               if "learned_detection" in scores[n]]
    if len(learned) == len(names):
        row("learned detector: precision", [d["precision"] for d in learned])
        row("learned detector: recall", [d["recall"] for d in learned])
        for kind in sorted({k for d in learned for k in d["recall_by_kind"]}):
            row(f"- recall, {kind}", [d["recall_by_kind"].get(kind) for d in learned])
    row("pairs / replacing", [f"{p['pairs']} / {p['supersedes']}" for p in sup])
    row("supersession precision", [p["precision"] for p in sup])
    row("supersession recall", [p["recall"] for p in sup])
    row("false supersessions", [p["false_supersession"] for p in sup])
    judged = [scores[n]["learned_supersession"] for n in names
              if "learned_supersession" in scores[n]]
    if len(judged) == len(names):
        row("learned pair judge: supersession precision", [p["precision"] for p in judged])
        row("learned pair judge: supersession recall", [p["recall"] for p in judged])
        row("learned pair judge: false supersessions", [p["false_supersession"] for p in judged])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results"
                    / "rules.json")
    ap.add_argument("--misses", action="store_true",
                    help="print every miss and false find of the dev set (never of the "
                         "held-out set: nobody reads it while changing the code)")
    ap.add_argument("--set", choices=("both", "heldout", "dev"), default="both",
                    help="which set to score (default both, held-out first)")
    args = ap.parse_args(argv)
    names = ["heldout", "dev"] if args.set == "both" else [args.set]
    missing = [str(SETS[n][i]) for n in names for i in (0, 1) if not SETS[n][i].exists()]
    if missing:
        raise SystemExit(f"rules: missing labelled data: {', '.join(missing)}")
    similarity = _similarity()
    learned = learned_finder()
    scores = {n: score_set(n, similarity, learned) for n in names}
    print("\n".join(rows(scores)))
    for n, sc in scores.items():
        det, sup = sc["detection"], sc["supersession"]
        print(f"{n}: detection {det['found']} found, {det['right']} right; "
              f"{det['ms_per_message_median']} ms per message (median); "
              f"supersession: {sup['false_supersession']} false, {sup['missed']} missed")
    if args.misses and "dev" in scores:
        det, sup = scores["dev"]["detection"], scores["dev"]["supersession"]
        for m in det["misses"]:
            print(f"MISS {m['id']}: {m['rule']}  key={m['key']}  found={m['found']}")
        for f in det["false"]:
            print(f"FALSE {f['id']}: {f['found']}")
        for w in sup["wrong"]:
            print(f"PAIR {w['id']} ({w['label']}, said {w['said']}): new={w['new']} "
                  f"old={w['old']}")
    if "heldout" in scores:
        # Only figures for the held-out set: its misses would be a list to tune against.
        for part in ("detection", "learned_detection", "supersession", "learned_supersession"):
            for key in ("misses", "false", "wrong"):
                scores["heldout"].get(part, {}).pop(key, None)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({**scores, "run": {"python": platform.python_version()}},
                                   indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
