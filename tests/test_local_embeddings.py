"""The embedded MiniLM embedder: the single-query fast path must agree with ``encode``."""

from __future__ import annotations

import numpy as np
import pytest

from models.local_embeddings import DIMS, LocalEmbeddings


@pytest.mark.slow
def test_query_fast_path_matches_batch_encoding() -> None:
    emb = LocalEmbeddings()
    texts = ["When did Caroline go to the LGBTQ support group?", "I'm vegetarian", "x" * 3000]
    batch = np.array(emb.embed_documents(texts))
    single = np.array([emb.embed_query(t) for t in texts])
    assert single.shape == (3, DIMS)
    assert np.allclose(np.linalg.norm(single, axis=1), 1.0, atol=1e-5)
    assert np.abs(single - batch).max() < 1e-5  # same model, pooling and normalisation
    assert float(single[0] @ single[1]) < 0.5  # and still a semantic model: unrelated texts differ
