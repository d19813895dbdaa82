"""What a relation word the synonym table does not know means, learned from labelled real text.

An agent links two memories with a word of its own ("regressed in", "split out of", "로 대체됨").
The hand-kept table in :mod:`kenning.relations` files the words it lists; for every other word
this head reads the phrase and says which of the canonical relations it means, or ``none`` (a
negation, a commit trailer, an "independent of": words that look like a relation and state none).

The head is a softmax regression over two views of the phrase: its vector from the multilingual
phrase encoder (what it is about, in any language) and its words, word pairs and the letter runs
inside each word, hashed into a fixed number of slots (``phrase_grams``). The letter runs are what
let it learn, from the examples alone, the marks that flip a relation and that a vector barely
sees: a passive ending, a preposition that points back ("... by", "... from"), a negating prefix or
a Korean ending. Nothing here lists them. The weights are trained by
``training/train_relations.py`` on real relation phrases from commit messages, design records,
issue threads and docs (with the table's words as a seed) and ship in ``relation_words.npz``
beside this module, with the probability below which a word is kept as a new word rather than
guessed (chosen there so that a wrong merge is rare: a word filed under the wrong relation
misleads every query that follows it, a word kept new only waits to be promoted).
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.extract.sentence_kinds import read_head

if TYPE_CHECKING:
    import numpy as np

#: The canonical relations in the head's column order, then ``none``.
LABELS: tuple[str, ...] = (
    "supersedes", "superseded_by", "refines", "improves", "implements", "implemented_by",
    "outcome_of", "fixes", "fixed_by", "relates_to", "inspired_by", "challenges", "supports",
    "depends_on", "uses", "caused_by", "blocks", "duplicates", "part_of", "alternative_to",
    "temporal", "none",
)
NONE = "none"
WEIGHTS = Path(__file__).with_name("relation_words.npz")
# Letter runs of these lengths inside each word (with its edges marked) join the word features.
GRAM_LENGTHS = (2, 3, 4)


class HeadUnavailable(RuntimeError):
    """The weights file is missing, unreadable or made for another label set."""


@dataclass(frozen=True)
class Reading:
    """What the head makes of one phrase: its most likely relation (``none`` for a word that
    states none) and that relation's probability."""

    label: str
    probability: float

    @property
    def canonical(self) -> str | None:
        return None if self.label == NONE else self.label


def phrase_grams(phrase: str) -> set[str]:
    """The hashed features of a phrase: its lower-cased words, each pair of neighbouring words,
    and the letter runs of ``GRAM_LENGTHS`` inside each word with its start and end marked."""
    words = phrase.lower().replace("_", " ").split()
    grams = {f"w:{w}" for w in words}
    grams.update(f"p:{a} {b}" for a, b in itertools.pairwise(words))
    for word in words:
        marked = f"<{word}>"
        for n in GRAM_LENGTHS:
            grams.update(f"c:{marked[i:i + n]}" for i in range(len(marked) - n + 1))
    return grams


def hashed(phrases: Sequence[str], buckets: int) -> np.ndarray:
    """``phrase_grams`` of each phrase hashed (CRC-32, the same on every machine) into
    ``buckets`` slots; each row has unit length so a long phrase weighs as much as a short
    one."""
    import numpy as np

    out = np.zeros((len(phrases), buckets), dtype=np.float32)
    for row, phrase in enumerate(phrases):
        for gram in phrase_grams(phrase):
            out[row, zlib.crc32(gram.encode()) % buckets] = 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    scaled: np.ndarray = out / np.maximum(norms, 1e-9)
    return scaled


def features(vectors: np.ndarray, phrases: Sequence[str], buckets: int) -> np.ndarray:
    """The head's input rows: hashed grams, the phrase vector, a constant 1 (the bias)."""
    import numpy as np

    return np.hstack([hashed(phrases, buckets), vectors,
                      np.ones((len(phrases), 1), dtype=np.float32)])


@dataclass(frozen=True)
class RelationHead:
    """The trained head: ``matrix`` maps ``features`` rows to label scores; ``encoder`` is the
    phrase encoder it was trained on; a reading below ``threshold`` is no reading."""

    matrix: np.ndarray
    encoder: str
    buckets: int
    threshold: float

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> RelationHead:
        head = read_head(path, LABELS, HeadUnavailable, numbers=("threshold",))
        return cls(head.matrix, head.encoder, head.buckets, head.numbers["threshold"])

    def probabilities(self, vectors: np.ndarray, phrases: Sequence[str]) -> np.ndarray:
        """Softmax of the label scores, one row per phrase."""
        return self.probabilities_of(features(vectors, phrases, self.buckets))

    def probabilities_of(self, rows: np.ndarray) -> np.ndarray:
        """Softmax of the label scores of ``features`` rows already made (training has them)."""
        import numpy as np

        scores = rows @ self.matrix
        scores -= scores.max(axis=1, keepdims=True)
        exp = np.exp(scores)
        probs: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
        return probs

    def read(self, vectors: np.ndarray, phrases: Sequence[str]) -> list[Reading]:
        """Each phrase's most likely label and its probability."""
        probs = self.probabilities(vectors, phrases)
        best = probs.argmax(axis=1)
        return [Reading(LABELS[int(i)], float(probs[row, i])) for row, i in enumerate(best)]
