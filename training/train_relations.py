"""Train the relation-word head that ships in ``src/kenning/graph/relation_words.npz``.

    python training/train_relations.py add RAW.jsonl ...   # add labelled phrases to the data
    python training/train_relations.py train                # cross-validate, fit, write weights
    python training/train_relations.py train --encoder minilm   # measure another encoder
    python training/train_relations.py check                # refit; fail if the shipped
                                                            # weights differ

**Data.** ``data/relations/phrases.jsonl`` holds relation phrases as real authors wrote them in
commit messages, design records, RFCs, issue threads and docs (English and Korean), one per line:
the phrase, the canonical relation it means in its context (or null: a negation, a trailer, an
"independent of"), its language, its source and the sentence it came from (see ``README.md``).
Three seeds join it in every fit and are never scored: the synonym table of ``kenning.relations``
(each listed word under its canonical), the paraphrases written here while the table was built
(``benchmarks/data/relation_paraphrases.jsonl``) and ``data/relations/inverses.jsonl``, written
here: words for the reverse of a relation that has no canonical of its own ("causes" against
``caused_by``, "contains" against ``part_of``), which mean none: the resolver keeps them as new
words rather than file them the wrong way round. The held-out words the benchmark scores
(``benchmarks/data/heldout/relation_paraphrases.jsonl``) are never read here.

**Model.** ``relation_words.features``: the phrase's hashed words, word pairs and letter runs
(``BUCKETS`` slots) beside its vector from the phrase encoder (USE multilingual, the model of the
``multilingual`` extra, the one that relates Korean to English); a softmax regression with L2,
fitted by full-batch Adam as the sentence detector is (``train_detector.fit``). The real phrases
are cross-validated in ``FOLDS`` folds by source repository, the seeds always on the training side,
and each word is read as the resolver reads it: the table's word first, then the head, then the
table's reading of the word's other forms. For each L2 the threshold is the lowest probability at
which the words the head files are wrong (another relation, or a word that means none) at most
``TARGET_ERROR`` of the time; the L2 that files the most words right at its threshold is kept.
The shipped head is fitted on all of it. Deterministic: ``check`` refits and compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from train_detector import fit as fit_softmax
from train_detector import read, repo_of, reproduced, write

from kenning.embed import MiniLMEmbedder
from kenning.graph.relation_words import LABELS, NONE, WEIGHTS, RelationHead, features
from kenning.relations import (
    CANONICAL,
    USE_MODEL_ID,
    UsePhraseEmbedder,
    normalised_lookup,
    table_lookup,
)
from kenning.relations import _phrase as phrase_of

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "relations"
PHRASES = DATA / "phrases.jsonl"
INVERSES = DATA / "inverses.jsonl"
PARAPHRASES = HERE.parent / "benchmarks" / "data" / "relation_paraphrases.jsonl"
FIELDS = {"word", "canonical", "lang", "source", "context"}
FOLDS = 5
L2_GRID = (3e-6, 1e-5, 3e-5, 1e-4)
BUCKETS = 2048
# A word the head files must be right at least this often on the held-out folds: a wrong merge
# misleads every query on the relation, a word kept new only waits to be promoted.
TARGET_ERROR = 0.05
# Never below this, whatever the folds say: a reading more likely wrong than right is no reading.
MIN_THRESHOLD = 0.5


class MiniLMPhrases:
    """The default sentence model, as a phrase encoder (measured beside USE; never shipped:
    it reads English only)."""

    id = MiniLMEmbedder.id

    def __init__(self) -> None:
        self._model = MiniLMEmbedder()

    def __call__(self, phrases: list[str]) -> np.ndarray:
        return self._model.embed(phrases)


ENCODERS: dict[str, Any] = {"use": UsePhraseEmbedder, "minilm": MiniLMPhrases}


def label_of(row: dict[str, Any]) -> str:
    return NONE if row["canonical"] is None else str(row["canonical"])


def seeds() -> list[dict[str, Any]]:
    """The table's words under their canonicals, the paraphrases written here, and the
    reverse of the relations that have no word of their own for it (none)."""
    out = [{"word": word, "canonical": canonical, "source": "kenning:table"}
           for canonical, words in CANONICAL.items() for word in (canonical, *words)]
    out += [{**row, "source": "kenning:paraphrases"} for row in read(PARAPHRASES)]
    return out + read(INVERSES)


def add(raw: list[Path]) -> int:
    """Add the well-formed phrases of ``raw`` files that are new (by language and phrase)."""
    have = read(PHRASES) if PHRASES.exists() else []
    seen = {(r["lang"], phrase_of(r["word"])) for r in have}
    added = 0
    for path in raw:
        for n, row in enumerate(read(path), start=1):
            if set(row) != FIELDS or (row["canonical"] is not None
                                      and row["canonical"] not in LABELS[:-1]):
                print(f"skipped {path.name}:{n}: malformed", file=sys.stderr)
                continue
            key = (row["lang"], phrase_of(row["word"]))
            if not key[1] or key in seen:
                continue
            seen.add(key)
            have.append(row)
            added += 1
    DATA.mkdir(parents=True, exist_ok=True)
    write(PHRASES, have)
    print(f"+{added} phrases ({len(have)} in all)")
    return 0


class Encoded:
    """Feature rows of labelled phrases, each phrase embedded once."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder
        self.vectors: dict[str, np.ndarray] = {}

    def rows(self, items: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
        phrases = [phrase_of(i["word"]) for i in items]
        todo = sorted(set(phrases) - self.vectors.keys())
        for start in range(0, len(todo), 256):
            chunk = todo[start:start + 256]
            self.vectors.update(zip(chunk, self.encoder(chunk), strict=True))
        x = features(np.stack([self.vectors[p] for p in phrases]), phrases, BUCKETS)
        return x, np.array([LABELS.index(label_of(i)) for i in items])


def fold_of(source: str) -> int:
    return int(hashlib.sha256(repo_of(source).encode()).hexdigest(), 16) % FOLDS


def resolved(items: list[dict[str, Any]], probs: np.ndarray, at: float) -> list[str | None]:
    """What the resolver files each word under: the table's word when it lists it, else the
    head's reading when it names a relation with probability ``at`` or more, else the table's
    reading of the word's other forms (tense, filler words, Korean endings), else nothing."""
    out: list[str | None] = []
    for item, row in zip(items, probs, strict=True):
        table = table_lookup(item["word"])
        if table is None:
            best = int(row.argmax())
            if LABELS[best] != NONE and row[best] >= at:
                table = LABELS[best]
            else:
                form = normalised_lookup(item["word"])
                table = None if form is None else form[0]
        out.append(table)
    return out


def scores(items: list[dict[str, Any]], got: list[str | None]) -> dict[str, Any]:
    """Share of relation words filed right; words filed wrong; words meaning none merged."""
    out: dict[str, Any] = {}
    for key in ("all", "en", "ko"):
        rows = [(i, g) for i, g in zip(items, got, strict=True)
                if key == "all" or i["lang"] == key]
        positives = [(i, g) for i, g in rows if i["canonical"] is not None]
        right = sum(g == i["canonical"] for i, g in positives)
        wrong = sum(g is not None and g != i["canonical"] for i, g in positives)
        merged = sum(g is not None for i, g in rows if i["canonical"] is None)
        filed = sum(g is not None for _, g in rows)
        out[key] = {"words": len(rows), "positives": len(positives),
                    "resolved": round(right / max(len(positives), 1), 3), "wrong": wrong,
                    "merged": merged, "negatives": len(rows) - len(positives),
                    "error": round((wrong + merged) / max(filed, 1), 3)}
    return out


def cross_validate(enc: Encoded, real: list[dict[str, Any]], seed: list[dict[str, Any]],
                   l2: float) -> np.ndarray:
    """Held-out-fold probabilities of every real phrase (folds by source repository)."""
    probs = np.zeros((len(real), len(LABELS)), dtype=np.float32)
    xs, ys = enc.rows(seed)
    folds = np.array([fold_of(r["source"]) for r in real])
    xr, yr = enc.rows(real)
    for k in range(FOLDS):
        test = folds == k
        w = fit_softmax(np.vstack([xs, xr[~test]]), np.concatenate([ys, yr[~test]]), l2,
                        len(LABELS))
        head = RelationHead(w, enc.encoder.id, BUCKETS, 0.0)
        probs[test] = head.probabilities_of(xr[test])
    return probs


def threshold(real: list[dict[str, Any]], probs: np.ndarray) -> float:
    """The lowest probability at which the head's filings are wrong at most ``TARGET_ERROR``
    of the time on the held-out folds (words the table lists are not the head's to read)."""
    mine = [i for i, r in enumerate(real) if table_lookup(r["word"]) is None]
    best = probs[mine].max(axis=1)
    label = probs[mine].argmax(axis=1)
    for at in sorted({round(float(p), 3) for p in best} | {MIN_THRESHOLD}):
        if at < MIN_THRESHOLD:
            continue
        said = [(i, LABELS[int(lab)]) for i, p, lab in zip(mine, best, label, strict=True)
                if p >= at and LABELS[int(lab)] != NONE]
        bad = sum(label_of(real[i]) != lab for i, lab in said)
        if not said or bad / len(said) <= TARGET_ERROR:
            return at
    return 1.0


def train(encoder: str = "use") -> tuple[np.ndarray, float, dict[str, Any]]:
    enc = Encoded(ENCODERS[encoder]())
    real, seed = read(PHRASES), seeds()
    grid: dict[float, tuple[np.ndarray, float, dict[str, Any]]] = {}
    for l2 in L2_GRID:
        probs = cross_validate(enc, real, seed, l2)
        at_l2 = threshold(real, probs)
        grid[l2] = probs, at_l2, scores(real, resolved(real, probs, at_l2))
        print(f"L2 {l2}, threshold {at_l2}: {grid[l2][2]['all']}", file=sys.stderr)
    best = max(L2_GRID, key=lambda l2: (grid[l2][2]["all"]["resolved"], l2))
    probs, at, _ = grid[best]
    x, y = enc.rows(seed + real)
    w = fit_softmax(x, y, best, len(LABELS))
    figures = {
        "encoder": enc.encoder.id,
        "sizes": {"phrases": len(real), "seed": len(seed),
                  "sources": len({repo_of(r["source"]) for r in real})},
        "by_language": dict(Counter(r["lang"] for r in real)),
        "label_counts": dict(Counter(label_of(r) for r in real)),
        "l2": best, "threshold": at,
        "folds_by_l2": {str(k): v[2]["all"]["resolved"] for k, v in grid.items()},
        "folds_table_only": scores(real, resolved(real, probs, 2.0)),  # no reading reaches 2
        "folds": scores(real, resolved(real, probs, at)),
    }
    return w, at, figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ad = sub.add_parser("add", help="add labelled phrases to the data")
    ad.add_argument("raw", nargs="+", type=Path)
    tp = sub.add_parser("train", help="cross-validate, fit on everything, write the weights")
    tp.add_argument("--encoder", choices=sorted(ENCODERS), default="use",
                    help="the phrase vectors (default use, the shipped one); another is "
                         "measured and its figures printed, nothing written")
    sub.add_parser("check", help="refit and compare with the shipped weights")
    args = ap.parse_args(argv)
    if args.cmd == "add":
        return add(args.raw)
    encoder = getattr(args, "encoder", "use")
    w, at, figures = train(encoder)
    if args.cmd == "check":
        shipped = RelationHead.load(WEIGHTS)
        return reproduced(shipped.matrix, shipped.buckets, w, BUCKETS, ((shipped.threshold, at),))
    if encoder == "use":
        np.savez_compressed(WEIGHTS, matrix=w, labels=np.array(LABELS),
                            encoder=np.array(USE_MODEL_ID), buckets=np.array(BUCKETS),
                            threshold=np.array(at))
        (HERE / "results-relations.json").write_text(json.dumps(figures, indent=1) + "\n")
    folds, table = figures["folds"], figures["folds_table_only"]
    print(f"sizes {figures['sizes']}, languages {figures['by_language']}, L2 {figures['l2']}, "
          f"threshold {at}")
    print("| folds (by source) | words | relations | resolved | wrong | none merged |\n"
          "|---|---|---|---|---|---|")
    for name, run in (("table only", table), ("table + head", folds)):
        for key in ("all", "en", "ko"):
            r = run[key]
            print(f"| {name}: {key} | {r['words']} | {r['positives']} | {r['resolved']} | "
                  f"{r['wrong']} | {r['merged']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
