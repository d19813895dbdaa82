"""How a later statement bears on an earlier one, learned from labelled real pairs: it
``replaces`` it (the earlier one no longer holds), ``refines`` it (adds to it; both hold), is
``compatible`` with it (same ground, both hold) or ``unrelated``.

Tool-family word lists cannot know that "2 spaces" replaces "tabs", or that "go.mod now needs
Go 1.25" replaces "the project needs Go 1.23"; the vectors of the embedding model Kenning ships
carry that nearness. The judgement is a small softmax regression over a few features of a pair:
the cosine of the two statements' vectors; what the sentence-kind detector reads each statement
as (a rule, a fact, news of a change...), weighted by that cosine, so that a statement reading
as a change counts only against an earlier one about the same thing; and how much of their
words, code spans and numbers they share (the same words with another number is the commonest
change of all), plain and weighted by the cosine; and the words the later statement brings and
the earlier one's it drops (hashed as the detector hashes a sentence's words, new minus old,
weighted by the cosine): which of those mark a replacement ("now", "instead", a tool named in
place of another) is learned from the pairs, not listed. Its weights are trained by
``training/train_pairs.py`` on ``training/data/pairs/`` (real pairs from instruction-file
histories, changelogs, migration guides and threads, split by source) and ship in
``rule_pairs.npz`` beside this module.

A wrong "replaces" hides a rule still in force, which is worse than a change missed, so the
probability from which a pair counts as a replacement (stored with the weights) is chosen on the
dev pairs for precision first. It runs where capture runs (the detached session-end worker),
never in a per-prompt hook.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.extract.sentence_kinds import Weights as KindWeights
from kenning.extract.sentence_kinds import features as kind_features
from kenning.extract.sentence_kinds import probabilities as kind_probabilities
from kenning.extract.sentence_kinds import read_head, word_features

if TYPE_CHECKING:
    import numpy as np

LABELS = ("replaces", "refines", "compatible", "unrelated")
WEIGHTS = Path(__file__).with_name("rule_pairs.npz")
_WORD = re.compile(r"[^\W_]{2,}", re.U)
_CODE = re.compile(r"`[^`\n]+`")
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
# The length of each statement's hashed words in the pair features (chosen on the pooled
# train + dev pairs, cross-validated by source).
WORD_SCALE = 0.5


class PairsUnavailable(RuntimeError):
    """The weights file is missing, unreadable or made for another encoder."""


def shared(old: str, new: str) -> list[float]:
    """What two statements share on the surface: word overlap (of both, and of the old one's
    words), code-span overlap, and whether both give numbers that differ, or the same."""
    a, b = ({w.lower() for w in _WORD.findall(t)} for t in (old, new))
    ca, cb = (set(_CODE.findall(t)) for t in (old, new))
    na, nb = (set(_NUMBER.findall(t)) for t in (old, new))
    return [len(a & b) / max(1, len(a | b)), len(a & b) / max(1, len(a)),
            len(ca & cb) / max(1, len(ca | cb)),
            float(bool(na and nb and na != nb)), float(bool(na & nb))]


def features(old: np.ndarray, new: np.ndarray, old_texts: Sequence[str],
             new_texts: Sequence[str], kinds: KindWeights, buckets: int = 0) -> np.ndarray:
    """The judge's input, one row per (old, new) pair of unit vectors and their texts: the
    words the new statement brings and the old one's it drops, hashed into ``buckets`` slots
    and weighted by the cosine (none when 0); cosine and its square, the detector's reading of
    each statement weighted by the cosine, the surface overlap plain and weighted, and a
    constant 1 (the bias)."""
    import numpy as np

    cos = (old * new).sum(axis=1, keepdims=True)
    zero = np.zeros_like(new)
    kn = kind_probabilities(kinds, kind_features(new, zero, new_texts, kinds.buckets))
    ko = kind_probabilities(kinds, kind_features(old, zero, old_texts, kinds.buckets))
    lex = np.array([shared(o, n) for o, n in zip(old_texts, new_texts, strict=True)],
                   dtype=np.float32).reshape(len(old), -1)
    words = [(word_features(new_texts, buckets, WORD_SCALE)
              - word_features(old_texts, buckets, WORD_SCALE)) * cos] if buckets else []
    return np.hstack([*words, cos, cos * cos, cos * kn, cos * ko, lex, cos * lex,
                      np.ones((len(old), 1), dtype=np.float32)]).astype(np.float32)


@dataclass(frozen=True)
class PairWeights:
    """The trained head (features x labels), the encoder it was trained on, the probability
    of "replaces" from which a pair counts as a replacement, and the hashed word slots its
    features hold (0: none)."""

    matrix: np.ndarray
    encoder: str
    replaces_at: float
    buckets: int = 0

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> PairWeights:
        head = read_head(path, LABELS, PairsUnavailable, ("replaces_at",))
        return cls(head.matrix, head.encoder, head.numbers["replaces_at"], head.buckets)


def probabilities(weights: PairWeights, x: np.ndarray) -> np.ndarray:
    """Softmax over ``LABELS``, one row per pair's features."""
    import numpy as np

    if x.shape[1] != weights.matrix.shape[0]:
        raise PairsUnavailable("weights do not fit these features")
    scores = x @ weights.matrix
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    probs: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
    return probs


class PairJudge:
    """Judges (earlier, later) statement pairs with the shipped heads: the pair weights and the
    sentence-kind detector's, both trained on one encoder's vectors."""

    def __init__(self, pairs: PairWeights | None = None, kinds: KindWeights | None = None
                 ) -> None:
        self.pairs = pairs or PairWeights.load()
        self.kinds = kinds or KindWeights.load()
        if self.pairs.encoder != self.kinds.encoder:
            raise PairsUnavailable("the pair judge and the sentence detector were trained on "
                                   "different encoders")
        self.encoder = self.pairs.encoder
        self.replaces_at = self.pairs.replaces_at

    def replaces(self, old: np.ndarray, new: np.ndarray, old_texts: Sequence[str],
                 new_texts: Sequence[str]) -> np.ndarray:
        """Probability that each later statement replaces its earlier one."""
        x = features(old, new, old_texts, new_texts, self.kinds, self.pairs.buckets)
        return probabilities(self.pairs, x)[:, LABELS.index("replaces")]
