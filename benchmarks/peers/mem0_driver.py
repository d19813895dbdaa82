"""mem0 driver for the peer benchmark: ``mem0.Memory`` (mem0ai 2.2.1) over local qdrant, one
``add(..., infer=False)`` per note (stored as given, no LLM) and ``search(..., top_k=k)``.

mem0 is optional and lives in its own virtual environment (see README.md): ``run.py`` skips
it with a message when that environment is missing. mem0 is given the same model as Kenning
(all-MiniLM-L6-v2 int8 from Kenning's PyPI package, through Kenning's ONNX Runtime embedder)
as a mem0 ``EmbeddingBase``, so no torch, no sentence-transformers and no model download.
The LLM and embedder mem0 builds by default are OpenAI clients that are never called
(``infer=False``, and the embedder is replaced); telemetry is off (``MEM0_TELEMETRY``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from driverkit import System, main

USER = "bench"


def open_mem0(where: Path, fresh: bool) -> System:
    """mem0 with its qdrant collection and history database in ``where``."""
    os.environ["MEM0_TELEMETRY"] = "False"  # read when mem0 is imported: before the import
    from mem0 import Memory  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from mem0.embeddings.base import EmbeddingBase  # type: ignore[import-untyped, import-not-found, unused-ignore]

    from kenning.embed import MINILM_DIM, MiniLMEmbedder

    if not fresh and not (where / "qdrant").exists():
        raise SystemExit(f"no mem0 store in {where}: run serve first")

    class KenningMiniLM(EmbeddingBase):
        """The model Kenning runs, as a mem0 embedder."""

        def __init__(self) -> None:
            super().__init__()
            self.model = MiniLMEmbedder()

        def embed(self, text: Any, memory_action: Any = None) -> list[float]:
            return [float(x) for x in self.model.embed([str(text)])[0]]

    memory = Memory.from_config({
        "vector_store": {"provider": "qdrant", "config": {
            "collection_name": "peers", "path": str(where / "qdrant"),
            "embedding_model_dims": MINILM_DIM, "on_disk": True}},
        "embedder": {"provider": "openai", "config": {"api_key": "unused",
                                                      "embedding_dims": MINILM_DIM}},
        "llm": {"provider": "openai", "config": {"api_key": "unused"}},
        "history_db_path": str(where / "history.db"),
    })
    memory.embedding_model = KenningMiniLM()

    def add(_i: int, note: dict[str, Any]) -> None:
        memory.add(note["text"], user_id=USER, infer=False,
                   metadata={"type": note["type"], "topic": note["topic"]})

    def search(query: str, n: int) -> int:
        found = memory.search(query, top_k=n, filters={"user_id": USER})
        return len(found["results"] if isinstance(found, dict) else found)

    def close() -> None:
        client = getattr(memory.vector_store, "client", None)
        if client is not None:
            client.close()

    return System(add=add, search=search, settle=lambda: None, close=close)


if __name__ == "__main__":
    main(open_mem0)
