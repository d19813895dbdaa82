"""What a sentence does, learned from labelled real text: states a standing rule (convention,
prohibition), a decision, a command, a fact about the project, a change of an earlier way, or
nothing worth keeping (a one-off request, other talk).

The judgement is a small softmax regression over sentence vectors from the embedding model Kenning
ships: the sentence's vector and the vector of the sentence before it (context: "For this PR only:"
before an imperative makes it a one-off). The vectors say what a sentence is about far better than
what it does with it ("X now" and "X" embed alike), so the head also reads the sentence's own words
and word pairs, hashed into a fixed number of buckets (``word_features``): which of them mark a
change, a prohibition or a one-off is learned from the labelled sentences, in whatever language they
carry, never listed by hand. Its weights are trained by ``training/train_detector.py`` on
``training/data/`` (real sentences from public instruction files, reviews, issues, commits and docs,
split by source) and ship in ``sentence_kinds.npz`` beside this module; the script reproduces them
from the data.

Regular expressions here only find structure: lines, bullets, code spans and sentence ends. The
vectors are computed in batches where capture runs (the detached session-end worker), never in
a per-prompt hook.
"""

from __future__ import annotations

import itertools
import re
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from kenning.embed import Embedder

LABELS = ("convention", "prohibition", "decision", "command", "fact", "change", "one_off",
          "other")
# What a memory keeps: everything but one-off requests and other talk.
KEPT = frozenset(LABELS[:6])
WEIGHTS = Path(__file__).with_name("sentence_kinds.npz")
# Longer pieces are cut here before embedding (the model reads about 256 tokens).
MAX_SENTENCE_CHARS = 600

_CODE_SPAN = re.compile(r"```.*?```|`[^`\n]*`", re.S)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
# A sentence ends at . ! ? (or their full-width forms) followed by space and what can open one.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9`*_])|(?<=[。！？])\s*")
# Tokens for the hashed word features: a run of letters, a run of digits, or one other mark; a
# code span is one token (what it holds is the project's, not the speaker's, words).
_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]", re.U)
_CODE_TOKEN = " \x00code "
# The word features' length, against the vectors' (unit length each): chosen on the dev split.
WORD_SCALE = 2.0


class DetectorUnavailable(RuntimeError):
    """The weights file is missing, unreadable or made for another encoder."""


@dataclass(frozen=True)
class Sentence:
    """One piece of a message with the piece before it (empty for the first); ``opens_line``
    when it starts a line, bullet or heading rather than following a sentence on its line."""

    text: str
    before: str
    opens_line: bool = True


@dataclass(frozen=True)
class Judged:
    """A sentence, what the detector says it does (its likeliest label and that label's
    probability) and how likely it is worth keeping at all (the kept labels' probabilities
    summed: a sentence torn between convention and decision is still surely a rule)."""

    text: str
    label: str
    probability: float
    kept_probability: float = 0.0
    opens_line: bool = True

    @property
    def kept(self) -> bool:
        return self.label in KEPT


def sentences(message: str) -> list[Sentence]:
    """``message`` cut into sentences: each non-empty line, a bullet or heading on its own, a
    line's prose split at sentence ends outside code spans. Code blocks stay whole."""
    pieces: list[tuple[str, bool]] = []
    spans: list[str] = []

    def hide(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    masked = _CODE_SPAN.sub(hide, message)
    for line in masked.splitlines():
        line = _HEADING.sub("", _BULLET.sub("", line)).strip()
        if not line:
            continue
        parts = [p.strip() for p in _SENTENCE_END.split(line) if p.strip()]
        pieces.extend((p, n == 0) for n, p in enumerate(parts))

    def unhide(text: str) -> str:
        return re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], text)

    out: list[Sentence] = []
    before = ""
    for piece, opens in pieces:
        text = unhide(piece)[:MAX_SENTENCE_CHARS]
        out.append(Sentence(text, before, opens))
        before = text
    return out


@dataclass(frozen=True)
class Weights:
    """The trained head: ``matrix`` maps [hashed words (``buckets`` of them, none when 0),
    sentence vector, before vector, 1] to label scores."""

    matrix: np.ndarray
    labels: tuple[str, ...]
    encoder: str
    buckets: int = 0

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Weights:
        head = read_head(path, LABELS, DetectorUnavailable)
        return cls(head.matrix, LABELS, head.encoder, head.buckets)


@dataclass(frozen=True)
class Head:
    """What a trained head's weights file holds: its matrix (features x labels), the encoder
    it was trained on, its hashed word slots, and any named numbers beside them."""

    matrix: np.ndarray
    encoder: str
    buckets: int
    numbers: dict[str, float]


def read_head(path: Path, labels: tuple[str, ...], error: type[Exception],
              numbers: Sequence[str] = ()) -> Head:
    """A head's weights file, read without pickles and checked: ``error``, saying why, when it
    is missing or unreadable, made for labels other than ``labels``, or holds more word slots
    than rows. Both shipped heads (this detector, the statement-pair judge) are read here."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            matrix = np.asarray(data["matrix"], dtype=np.float32)
            found = tuple(str(x) for x in data["labels"])
            encoder = str(data["encoder"])
            buckets = int(data["buckets"]) if "buckets" in data.files else 0
            named = {name: float(data[name]) for name in numbers}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise error(f"cannot read {path}: {exc}") from exc
    if found != labels or matrix.ndim != 2 or matrix.shape[1] != len(labels):
        raise error(f"{path} holds another label set or shape")
    if not 0 <= buckets < matrix.shape[0]:
        raise error(f"{path} holds more word buckets than weights")
    return Head(matrix, encoder, buckets, named)


def word_features(texts: Sequence[str], buckets: int, scale: float = WORD_SCALE) -> np.ndarray:
    """Each text's lower-cased words and pairs of neighbouring words (a code span one word),
    each hashed (CRC-32, the same on every machine) into one of ``buckets`` slots; a row is
    scaled to ``scale`` in length so a short sentence weighs as much as a long one."""
    import numpy as np

    out = np.zeros((len(texts), buckets), dtype=np.float32)
    if not buckets:
        return out
    for row, text in enumerate(texts):
        tokens = _TOKEN.findall(_CODE_SPAN.sub(_CODE_TOKEN, text.lower()))
        grams = {f"u:{t}" for t in tokens}
        grams.update(f"b:{a} {b}" for a, b in itertools.pairwise(tokens))
        for gram in grams:
            out[row, zlib.crc32(gram.encode()) % buckets] = 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    scaled: np.ndarray = out * (scale / np.maximum(norms, 1e-9))
    return scaled


def features(vectors: np.ndarray, before: np.ndarray, texts: Sequence[str] = (),
             buckets: int = 0) -> np.ndarray:
    """The head's input: the sentence's hashed words (``word_features``, when ``buckets``), its
    vector, the vector of the sentence before it (zeros for none) and a constant 1 (the
    bias)."""
    import numpy as np

    parts = [word_features(texts, buckets)] if buckets else []
    return np.hstack([*parts, vectors, before, np.ones((len(vectors), 1), dtype=np.float32)])


def probabilities(weights: Weights, x: np.ndarray) -> np.ndarray:
    """Softmax of the head's scores, one row per sentence."""
    import numpy as np

    scores = x @ weights.matrix
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    probs: np.ndarray = exp / exp.sum(axis=1, keepdims=True)
    return probs


class SentenceKinds:
    """Judges sentences with the shipped head over ``embedder``'s vectors (batched)."""

    def __init__(self, embedder: Embedder, weights: Weights | None = None) -> None:
        self.weights = weights or Weights.load()
        if self.weights.encoder != getattr(embedder, "id", None):
            raise DetectorUnavailable(
                f"weights trained on {self.weights.encoder}, embedder is "
                f"{getattr(embedder, 'id', '?')}")
        expected = self.weights.buckets + 2 * int(getattr(embedder, "dim", 0)) + 1
        if self.weights.matrix.shape[0] != expected:
            raise DetectorUnavailable("weights do not fit the embedder's vector size")
        self.embedder = embedder

    def judge(self, items: Sequence[Sentence]) -> list[Judged]:
        import numpy as np

        if not items:
            return []
        texts = [s.text for s in items]
        befores = [s.before for s in items]
        unique = list(dict.fromkeys([*texts, *(b for b in befores if b)]))
        vecs = dict(zip(unique, self.embedder.embed(unique), strict=True))
        dim = int(getattr(self.embedder, "dim", 0))
        zero = np.zeros(dim, dtype=np.float32)
        x = features(np.stack([vecs[t] for t in texts]),
                     np.stack([vecs[b] if b else zero for b in befores]), texts,
                     self.weights.buckets)
        probs = probabilities(self.weights, x)
        best = probs.argmax(axis=1)
        kept = probs[:, [n for n, label in enumerate(self.weights.labels) if label in KEPT]]
        kept_p = kept.sum(axis=1)
        return [Judged(s.text, self.weights.labels[int(i)], float(probs[n, int(i)]),
                       float(kept_p[n]), s.opens_line)
                for n, (s, i) in enumerate(zip(items, best, strict=True))]

    def judge_message(self, message: str) -> list[Judged]:
        """Every sentence of ``message`` with its label."""
        return self.judge(sentences(message))
