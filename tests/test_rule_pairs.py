"""The learned judge of statement pairs (``extract/rule_pairs.py``) and its training script:
what two statements share is read by structure, weights are refused when unusable, pairs are
split by source repository, and the replaces threshold is chosen for precision."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from kenning.extract import sentence_kinds
from kenning.extract.rule_pairs import (
    LABELS,
    PairJudge,
    PairsUnavailable,
    PairWeights,
    features,
    shared,
)

TRAINING = Path(__file__).resolve().parents[1] / "training"


def _load(name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, TRAINING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


sys.path.insert(0, str(TRAINING))
pairs_script = _load("train_pairs")


def test_what_two_statements_share_counts_words_code_spans_and_numbers() -> None:
    jaccard, of_old, code, numbers_differ, numbers_same = shared(
        "The project needs Go 1.23 or later", "go.mod now requires Go 1.25")
    assert 0 < jaccard < of_old < 1 and code == 0.0
    assert (numbers_differ, numbers_same) == (1.0, 0.0)
    assert shared("run `make lint`", "always run `make lint` first")[2] == 1.0
    assert shared("", "") == [0.0, 0.0, 0.0, 0.0, 0.0]


def test_features_weigh_the_detector_reading_by_how_near_the_pair_is() -> None:
    kinds = sentence_kinds.Weights(np.zeros((2 * 3 + 1, len(sentence_kinds.LABELS)),
                                            dtype=np.float32), sentence_kinds.LABELS, "x")
    old = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], dtype=np.float32)
    new = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=np.float32)
    x = features(old, new, ["use tabs", "use tabs"], ["use tabs", "2 spaces"], kinds)
    n = len(sentence_kinds.LABELS)
    assert x.shape == (2, 2 + 2 * n + 2 * 5 + 1)
    assert x[0, 0] == pytest.approx(1.0) and x[1, 0] == pytest.approx(0.0)
    assert np.all(x[1, 2:2 + 2 * n] == 0.0)  # orthogonal: the readings count for nothing
    assert x[0, 2] == pytest.approx(1.0 / n) and np.all(x[:, -1] == 1.0)


def test_weights_that_are_missing_corrupt_or_mismatched_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PairsUnavailable, match="cannot read"):
        PairWeights.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 torn")
    with pytest.raises(PairsUnavailable):
        PairWeights.load(bad)
    other = tmp_path / "other.npz"
    np.savez(other, matrix=np.zeros((4, 2)), labels=np.array(["a", "b"]),
             encoder=np.array("x"), replaces_at=np.array(0.5))
    with pytest.raises(PairsUnavailable, match="another label set"):
        PairWeights.load(other)
    kinds = sentence_kinds.Weights(np.zeros((7, len(sentence_kinds.LABELS)), np.float32),
                                   sentence_kinds.LABELS, "y")
    with pytest.raises(PairsUnavailable, match="different encoders"):
        PairJudge(PairWeights(np.zeros((4, len(LABELS)), np.float32), "x", 0.5), kinds)


def test_the_shipped_judge_loads_with_the_shipped_detector() -> None:
    judge = PairJudge()
    assert judge.encoder == sentence_kinds.Weights.load().encoder
    assert 0.5 <= judge.replaces_at <= 1.0


def test_pairs_split_by_repository_and_the_threshold_is_chosen_for_precision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    monkeypatch.setattr(pairs_script, "DATA", tmp_path / "pairs")
    rows = [{"id": f"p{i}", "old": f"old {i}", "new": f"new {i}", "label": "replaces",
             "source": f"owner{i % 7}/repo:AGENTS.md@abc", "source_kind": "history",
             "lang": "en"} for i in range(40)]
    raw = tmp_path / "raw.jsonl"
    raw.write_text("".join(json.dumps(r) + "\n" for r in [*rows, {"id": "bad"}]))
    pairs_script.split([raw])
    where = {r["source"].split("/")[0]: name for name in ("train", "dev", "test")
             for p in (tmp_path / "pairs").glob(f"{name}*.jsonl")
             for r in pairs_script.read(p)}
    assert len(where) == 7  # every repository on one side, the malformed line skipped
    y = np.array([0, 0, 0, 2, 0, 2, 3, 3])
    p = np.array([0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.3, 0.1])
    monkeypatch.setattr(pairs_script, "TARGET_PRECISION", 0.9)
    at = pairs_script.threshold(y, p)
    assert at == pytest.approx(0.85)  # from 0.8 down, a compatible pair would count
    assert pairs_script.replaces_figures(y, p, at)["hidden_in_force"] == 0
    monkeypatch.setattr(pairs_script, "TARGET_PRECISION", 0.7)
    at = pairs_script.threshold(y, p)
    assert at == pytest.approx(0.7)  # 4 of 5 right; from 0.6 down, 4 of 6
    assert pairs_script.replaces_figures(y, p, at)["hidden_in_force"] == 1


def test_the_words_a_later_statement_brings_count_as_far_as_the_pair_is_near() -> None:
    kinds = sentence_kinds.Weights(np.zeros((2 * 3 + 1, len(sentence_kinds.LABELS)),
                                            dtype=np.float32), sentence_kinds.LABELS, "x")
    old = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], dtype=np.float32)
    new = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=np.float32)
    x = features(old, new, ["use tabs"] * 3, ["use tabs", "use spaces now", "use spaces now"],
                 kinds, buckets=32)
    assert x.shape == (3, 32 + 2 + 2 * len(sentence_kinds.LABELS) + 2 * 5 + 1)
    words = x[:, :32]
    assert not words[0].any()  # the same words: nothing brought, nothing dropped
    assert (words[1] > 0).any() and (words[1] < 0).any()  # "spaces now" in, "tabs" out
    assert not words[2].any()  # orthogonal statements: their words count for nothing
    assert PairJudge().pairs.buckets > 0
