"""What to embed, and embedding each distinct text once.

The ``embeddings`` table doubles as the embedding cache: rows are keyed by the
sha256 of the text, so re-putting an item, or two items with the same text, never
calls the embedder again. A row lives as long as some item vector refers to it,
so forgetting an item also forgets its cached embedding.

Embedding happens outside any database lock or transaction (it can take seconds),
and its output is checked before anything is written.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import math
import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import get_text_at_path, tokenize_path

Fields = list[tuple[str, Any]]


def tokenized_fields(fields: list[str] | None) -> Fields:
    """Pre-tokenize the configured JSON paths once (as LangGraph's stores do)."""
    return [(p, p if p == "$" else tokenize_path(p)) for p in (fields or ["$"])]


def texts_for(value: dict[str, Any], index: Any, default_fields: Fields | None) -> list[str]:
    """Distinct texts to embed for one put: per-put ``index`` list, or the config's fields."""
    if default_fields is None or index is False:
        return []
    fields = default_fields if index is None else tokenized_fields(list(index))
    texts: list[str] = []
    for _, path in fields:
        for text in get_text_at_path(value, path):
            if text and text not in texts:
                texts.append(text)
    return texts


def text_hash(text: str) -> bytes:
    """SHA-256 of the UTF-8 text: the embedding cache key."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def cached(conn: sqlite3.Connection, hashes: Sequence[bytes]) -> dict[bytes, bytes]:
    """Stored float32 vectors for the hashes that have one."""
    found: dict[bytes, bytes] = {}
    unique = list(dict.fromkeys(hashes))
    for i in range(0, len(unique), 500):
        chunk = unique[i : i + 500]
        marks = ",".join("?" * len(chunk))
        for h, vec in conn.execute(f"SELECT hash, vec FROM embeddings WHERE hash IN ({marks})", chunk):
            found[h] = vec
    return found


def to_blobs(vectors: Any, dims: int, count: int) -> list[bytes]:
    """Check the embedder's output (count, size, finiteness) and pack it as float32."""
    vectors = list(vectors)
    if len(vectors) != count:
        raise ValueError(f"embedder returned {len(vectors)} vectors for {count} texts")
    blobs = []
    for vec in vectors:
        arr = np.asarray(vec, dtype=np.float32).reshape(-1)
        if arr.shape[0] != dims:
            raise ValueError(
                f"embedder returned a {arr.shape[0]}-dimensional vector but index.dims is {dims}; "
                "fix index['dims'] or the embedding model (nothing was stored)"
            )
        if not np.isfinite(arr).all() or not math.isfinite(float(np.dot(arr, arr))):
            raise ValueError("embedder returned a vector with NaN or infinite values (nothing was stored)")
        blobs.append(arr.tobytes())
    return blobs


def embed_documents(emb: Embeddings, texts: list[str]) -> list[list[float]]:
    """Sync embedding that also works when only an async embed function was given."""
    if not texts:
        return []
    if getattr(emb, "afunc", None) is not None and getattr(emb, "func", None) is None:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # safe even inside a running loop
            return pool.submit(asyncio.run, emb.aembed_documents(texts)).result()
    return emb.embed_documents(texts)


def embed_query(emb: Embeddings, text: str) -> list[float]:
    """Embed one query, going through ``embed_documents`` for async-only embedders."""
    if getattr(emb, "afunc", None) is not None and getattr(emb, "func", None) is None:
        return embed_documents(emb, [text])[0]
    return emb.embed_query(text)


async def aembed_documents(emb: Embeddings, texts: list[str]) -> list[list[float]]:
    """Embed ``texts`` asynchronously; no call for an empty list."""
    return await emb.aembed_documents(texts) if texts else []


def unit(blob: bytes) -> np.ndarray:
    """The stored vector, normalized (FAISS inner product is then cosine)."""
    arr = np.frombuffer(blob, dtype=np.float32)
    norm = float(np.linalg.norm(arr))
    return arr / norm if norm else arr.copy()
