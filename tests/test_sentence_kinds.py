"""The learned sentence-kind detector's plumbing: messages cut into sentences by structure only,
the head's weights read safely, and every sentence judged with the sentence before it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kenning.extract.sentence_kinds import (
    LABELS,
    DetectorUnavailable,
    Sentence,
    SentenceKinds,
    Weights,
    sentences,
    word_features,
)


def test_a_message_is_cut_at_lines_bullets_and_sentence_ends_never_inside_code() -> None:
    message = ("Quick note. Run `make test. all` before pushing!\n"
               "- Tabs for indentation\n## Releases\n```\nmake. Test\n```\n"
               "テストを書く。コミットする。")
    got = sentences(message)
    assert [s.text for s in got] == [
        "Quick note.", "Run `make test. all` before pushing!", "Tabs for indentation",
        "Releases", "```\nmake. Test\n```", "テストを書く。", "コミットする。"]
    assert got[1].before == "Quick note." and got[0].before == ""
    assert sentences("") == [] and sentences("\n  \n") == []


class TwoWords:
    """A stand-in encoder: a sentence's vector says whether it has 'never' and 'please'."""

    id = "two-words"
    dim = 2

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[float("never" in t.lower()), float("please" in t.lower())]
                         for t in texts], dtype=np.float32)


def weights() -> Weights:
    m = np.zeros((5, len(LABELS)), dtype=np.float32)
    m[0, LABELS.index("prohibition")] = 5.0       # the sentence says "never"
    m[3, LABELS.index("one_off")] = 5.0           # the sentence BEFORE says "please"
    m[4, LABELS.index("other")] = 1.0             # bias
    return Weights(m, LABELS, "two-words")


def test_each_sentence_is_judged_with_the_one_before_it() -> None:
    kinds = SentenceKinds(TwoWords(), weights())  # type: ignore[arg-type]
    got = kinds.judge([Sentence("Never push to main.", ""), Sentence("hello", ""),
                       Sentence("rename it", "please, just this once:")])
    assert [j.label for j in got] == ["prohibition", "other", "one_off"]
    assert got[0].kept and not got[1].kept and not got[2].kept
    assert all(0.0 < j.probability <= 1.0 for j in got)
    assert kinds.judge([]) == []


def test_weights_that_are_missing_corrupt_or_for_another_encoder_are_refused(
        tmp_path: Path) -> None:
    with pytest.raises(DetectorUnavailable, match="cannot read"):
        Weights.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(DetectorUnavailable):
        Weights.load(bad)
    torn = tmp_path / "torn.npz"
    torn.write_bytes(b"PK\x03\x04 torn")
    with pytest.raises(DetectorUnavailable):
        Weights.load(torn)
    other = tmp_path / "other.npz"
    np.savez(other, matrix=np.zeros((5, 3)), labels=np.array(["a", "b", "c"]),
             encoder=np.array("two-words"))
    with pytest.raises(DetectorUnavailable, match="another label set"):
        Weights.load(other)
    w = weights()
    with pytest.raises(DetectorUnavailable, match="trained on"):
        SentenceKinds(TwoWords(), Weights(w.matrix, LABELS, "minilm"))  # type: ignore[arg-type]


def test_the_words_of_a_sentence_are_read_beside_its_vector() -> None:
    # a vector that cannot tell "use ruff" from "use ruff now": only the hashed words can
    buckets = 64
    grams = word_features(["now"], buckets)[0]
    m = np.zeros((buckets + 2 * 2 + 1, len(LABELS)), dtype=np.float32)
    m[np.flatnonzero(grams), LABELS.index("change")] = 10.0
    m[-1, LABELS.index("convention")] = 1.0  # bias
    w = Weights(m, LABELS, "two-words", buckets)
    kinds = SentenceKinds(TwoWords(), w)  # type: ignore[arg-type]
    got = kinds.judge([Sentence("Use ruff.", ""), Sentence("Use ruff now.", "")])
    assert [j.label for j in got] == ["convention", "change"]


def test_word_features_are_the_same_on_every_run_and_hold_code_as_one_word() -> None:
    a = word_features(["Run `make lint` before you push", ""], 256)
    b = word_features(["run `make test` BEFORE you push", ""], 256)
    assert np.array_equal(a, b)  # case and what a code span holds do not matter
    assert np.linalg.norm(a[0]) == pytest.approx(2.0) and not a[1].any()
    assert word_features(["anything"], 0).shape == (1, 0)


def test_weights_with_more_word_slots_than_rows_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    np.savez(path, matrix=np.zeros((5, len(LABELS))), labels=np.array(LABELS),
             encoder=np.array("two-words"), buckets=np.array(9))
    with pytest.raises(DetectorUnavailable, match="word buckets"):
        Weights.load(path)


def test_the_shipped_detector_reads_words() -> None:
    assert Weights.load().buckets > 0
