"""The detector's training script (``training/train_detector.py``): sentences split by their
source repository, never by sentence, and a fit that is the same every time."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "training" / "train_detector.py"
_spec = importlib.util.spec_from_file_location("train_detector", SCRIPT)
assert _spec is not None and _spec.loader is not None
train = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = train
_spec.loader.exec_module(train)


def test_every_sentence_of_a_repository_lands_in_the_same_split() -> None:
    assert train.repo_of("Owner/Repo:docs/AGENTS.md@abc123") == "owner/repo"
    assert train.repo_of("owner/repo#42") == "owner/repo"
    buckets = {train.bucket(f"owner/repo:{path}") for path in ("a.md", "b.md", "#7", "@ff")}
    assert len(buckets) == 1
    spread = {train.bucket(f"owner{i}/repo") for i in range(200)}
    assert spread == {"train", "dev", "test"}


def test_split_adds_new_sentences_and_puts_later_test_sentences_in_a_new_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train, "DATA", tmp_path / "data")
    test_repo = next(f"o{i}/r" for i in range(500) if train.bucket(f"o{i}/r") == "test")

    def raw(name: str, texts: list[str]) -> Path:
        path = tmp_path / name
        path.write_text("".join(json.dumps({
            "id": t, "text": t, "label": "convention", "before": "", "source_kind": "docs",
            "source": f"{test_repo}:README.md", "lang": "en"}) + "\n" for t in texts))
        return path

    train.split([raw("a.jsonl", ["Use tabs.", "Use tabs."])])
    assert [r["text"] for r in train.read(tmp_path / "data" / "test.jsonl")] == ["Use tabs."]
    train.split([raw("b.jsonl", ["Use tabs.", "Wrap at 80."])])  # the first is known already
    assert [r["text"] for r in train.read(tmp_path / "data" / "test.jsonl")] == ["Use tabs."]
    assert [r["text"] for r in train.read(tmp_path / "data" / "test-2.jsonl")] == ["Wrap at 80."]


def test_the_fit_learns_separable_labels_and_is_the_same_every_time() -> None:
    rng = np.random.default_rng(0)
    centers = rng.normal(size=(len(train.LABELS), 6))
    y = np.repeat(np.arange(len(train.LABELS)), 30)
    x = np.hstack([centers[y] + 0.1 * rng.normal(size=(len(y), 6)), np.ones((len(y), 1))])
    w1 = train.fit(x.astype(np.float32), y, 1e-3)
    w2 = train.fit(x.astype(np.float32), y, 1e-3)
    assert np.array_equal(w1, w2)
    assert ((x @ w1).argmax(axis=1) == y).mean() > 0.95
