"""What the LoCoMo report compares the message log with, and how it times it fairly.

Baselines over the plain message text ("name: text"), the whole conversation ranked:
dense MiniLM cosine, FTS5 BM25 (porter) and their reciprocal-rank fusion.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

import numpy as np
from langchain_core.embeddings import Embeddings

from memory.layers.base import LoggedMessage
from models.loader import CachedEmbeddings

_TERM = re.compile(r"\w+")


def plain_text(m: LoggedMessage) -> str:
    return f"{m.name or m.role}: {m.text}"


def baseline_rankers(
    messages: list[LoggedMessage],
    embed: Callable[[list[str]], np.ndarray],
    encoder: str = "MiniLM",
    embed_query: Callable[[str], np.ndarray] | None = None,
) -> dict[str, Callable[[str], list[str]]]:
    """Dense, BM25 and RRF rankers over the plain message text (whole conversation ranked).

    ``embed_query`` embeds a question when the encoder has its own query form (E5's "query: ");
    by default questions are embedded like the messages.
    """
    ids = [m.id for m in messages]
    vecs = embed([plain_text(m) for m in messages])
    query_vec = embed_query or (lambda q: embed([q])[0])
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(doc, tokenize='porter')")
    db.executemany("INSERT INTO t(rowid, doc) VALUES (?, ?)", [(i, plain_text(m)) for i, m in enumerate(messages)])

    def dense(q: str) -> list[str]:
        return [ids[i] for i in np.argsort(-(vecs @ query_vec(q)))]

    def bm25(q: str) -> list[str]:
        terms = " OR ".join(f'"{t}"' for t in dict.fromkeys(_TERM.findall(q.lower())))
        rows = db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t)", (terms,)).fetchall() if terms else []
        return [ids[r[0]] for r in rows]

    def rrf(q: str) -> list[str]:
        fused: dict[str, float] = {}
        for ranking in (dense(q), bm25(q)):
            for rank, key in enumerate(ranking):
                fused[key] = fused.get(key, 0.0) + 1.0 / (61 + rank)
        return sorted(fused, key=lambda key: -fused[key])

    fusion = "reciprocal-rank fusion of both" if encoder == "MiniLM" else f"reciprocal-rank fusion of BM25 and {encoder}"
    return {f"dense {encoder} cosine": dense, "BM25 (FTS5, porter)": bm25, fusion: rrf}


class FreshQueries(Embeddings):
    """The local embedder with its query cache emptied per ablation row, so each row's
    latency pays for its query embeddings as a live turn does (rows ask the same questions).
    """

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.reset()

    def reset(self) -> None:
        self.cached = CachedEmbeddings(self.inner)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.cached.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.cached.embed_query(text)
