"""Build ``src/kenning/data/word-neighbours.txt``: for each English word of the embedding model's
vocabulary, the words nearest to it in meaning, as the model itself places them.

The prompt hook cannot run the model (loading it takes longer than the hook's whole budget), so
matching a prompt by meaning uses this table instead: at index build, each word of the table
whose neighbours occur in the store gets an entry pointing at their postings, and a prompt word
found there reaches memories that say the same thing in other words (``deploy`` ->
``deployment``, ``sql`` -> ``database``).

How it is made (run ``python scripts/word_neighbours.py``; about 30 s on 2 cores):

- words: the whole-word entries of the model's WordPiece vocabulary (lower-case ASCII letters,
  3-20 characters, not a stopword, not a number, month or weekday: ``CLOSED``), about 21,000;
- each word embedded alone by the shipped all-MiniLM-L6-v2 (``kenning.embed``), L2-normalised;
- neighbours: the ``CANDIDATES`` nearest words by cosine, kept from ``MIN_SIMILARITY``;
  words and neighbours are keyed by ``kenning.promptindex.format.stem`` (the index's own
  terms), a neighbour with the word's own stem is dropped (the stemmer already joins them);
- a pair is kept only when each word is among the other's ``CANDIDATES`` nearest (a word
  with many senses, e.g. "stationed", would otherwise join unrelated words through one of
  them); each word keeps its ``KEEP`` nearest.

The output is plain text, one word per line: ``word<TAB>neighbour similarity ...`` with
similarities in hundredths, sorted by word, so a rebuild's diff shows what changed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from kenning.embed import MiniLMEmbedder, find_minilm  # noqa: E402
from kenning.promptindex.format import stem  # noqa: E402
from kenning.words import STOPWORDS  # noqa: E402

OUT = ROOT / "src" / "kenning" / "data" / "word-neighbours.txt"
CANDIDATES = 12
MIN_SIMILARITY = 0.70
KEEP = 6
BATCH = 256
# Closed classes whose members the model places next to each other although one never stands
# for another in a question (a prompt about "three" tasks is not about "two"): numbers,
# quantities, ordinals, months and weekdays are left out of the table.
CLOSED = frozenset("""
zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
hundred hundreds thousand thousands million millions billion billions dozen dozens several many
multiple few first second third fourth fifth sixth seventh eighth ninth tenth twice thrice
once half january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday
friday saturday sunday weekday weekdays weekend weekends
""".split())


def vocabulary(vocab_file: Path) -> list[str]:
    words = []
    for line in vocab_file.read_text(encoding="utf-8").splitlines():
        w = line.strip()
        if w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 20 \
                and w not in STOPWORDS and w not in CLOSED and stem(w) not in CLOSED:
            words.append(w)
    return words


def neighbours(words: list[str], vectors: np.ndarray) -> dict[str, dict[str, int]]:
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    near: dict[str, dict[str, int]] = {}

    def add(a: str, b: str, sim: int) -> None:
        if a != b:
            row = near.setdefault(a, {})
            row[b] = max(row.get(b, 0), sim)

    tops: list[set[int]] = []
    pairs: dict[tuple[int, int], float] = {}
    for start in range(0, len(words), 2048):
        sims = vectors[start:start + 2048] @ vectors.T
        top = np.argpartition(-sims, CANDIDATES + 1, axis=1)[:, :CANDIDATES + 1]
        for r, row in enumerate(top):
            i = start + r
            tops.append({int(j) for j in row if j != i})
            for j in tops[-1]:
                if sims[r, j] >= MIN_SIMILARITY:
                    pairs[(i, int(j))] = float(sims[r, j])
    for (i, j), s in pairs.items():
        if i in tops[j]:  # mutual: each is among the other's nearest
            add(stem(words[i]), stem(words[j]), round(s * 100))
    return near


def render(near: dict[str, dict[str, int]]) -> str:
    lines = []
    for word in sorted(near):
        best = sorted(near[word].items(), key=lambda kv: (-kv[1], kv[0]))[:KEEP]
        lines.append(word + "\t" + " ".join(f"{n} {s}" for n, s in best))
    return "\n".join(lines) + "\n"


def main() -> None:
    words = vocabulary(find_minilm().vocab)
    embedder = MiniLMEmbedder()
    vectors = np.vstack([np.asarray(embedder.embed(words[i:i + BATCH]), dtype=np.float32)
                         for i in range(0, len(words), BATCH)])
    near = neighbours(words, vectors)
    OUT.write_text(render(near), encoding="utf-8")
    print(f"{len(words):,} words, {len(near):,} with neighbours -> {OUT} "
          f"({OUT.stat().st_size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
