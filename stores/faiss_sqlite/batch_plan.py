"""A store batch's plan and its embeddings: the phases (1 and 2) that run without the lock or the database.

Kept apart from ``store`` so that it holds only what touches SQLite and FAISS: the cached
embedding look-up and phase 3. The order of the phases is in ``store``'s docstring.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import GetOp, ListNamespacesOp, Op, PutOp, SearchOp

from . import embed_cache, namespaces_ops
from .writes import PreparedPut, prepare


@dataclass
class Plan:
    """One batch after phase 1: its ops, its puts ready to write, and the texts and queries to embed."""
    ops: list[Op]
    puts: list[PreparedPut]
    queries: list[str]
    vectors: dict[bytes, bytes] = field(default_factory=dict)  # text hash -> float32 blob
    missing: list[str] = field(default_factory=list)  # texts with no cached embedding


def plan_ops(ops: Iterable[Op], fields: embed_cache.Fields | None, with_queries: bool) -> Plan:
    """Check every op and prepare the puts (their texts embedded by ``fields``); queries only ``with_queries``."""
    ops = list(ops)
    for op in ops:
        if not isinstance(op, (GetOp, SearchOp, PutOp, ListNamespacesOp)):
            raise TypeError(f"unknown operation type {type(op).__name__}")
        namespaces_ops.validate_op(op)
    puts = prepare([op for op in ops if isinstance(op, PutOp)], fields)
    queries = []
    if with_queries:
        queries = list(dict.fromkeys(op.query for op in ops if isinstance(op, SearchOp) and op.query))
    return Plan(ops, puts, queries)


def add_embeddings(plan: Plan, raw: Any, dims: int | None) -> None:
    """Add the embeddings of ``plan.missing`` (``raw``, in that order) to ``plan.vectors``."""
    assert dims is not None
    blobs = embed_cache.to_blobs(raw, dims, len(plan.missing))
    for text, blob in zip(plan.missing, blobs):
        plan.vectors[embed_cache.text_hash(text)] = blob


def query_vectors(plan: Plan, raw: list[Any], dims: int | None) -> dict[str, np.ndarray]:
    """Each of ``plan.queries`` with its embedding (``raw``, in that order) as float32."""
    assert dims is not None
    blobs = embed_cache.to_blobs(raw, dims, len(plan.queries))
    return {q: np.frombuffer(b, dtype=np.float32) for q, b in zip(plan.queries, blobs)}


def embed(
    plan: Plan, embeddings: Embeddings, dims: int | None, pool: concurrent.futures.ThreadPoolExecutor
) -> dict[str, np.ndarray]:
    """Phase 2: embed the plan's missing texts into it; return its queries' vectors."""
    qvecs: dict[str, np.ndarray] = {}
    if plan.missing:
        add_embeddings(plan, embed_cache.embed_documents(embeddings, plan.missing), dims)
    if len(plan.queries) == 1:  # the common case: no thread hand-off (~50 us a search)
        raw = [embed_cache.embed_query(embeddings, plan.queries[0])]
        qvecs = query_vectors(plan, raw, dims)
    elif plan.queries:  # concurrently, in worker threads, as InMemoryStore does
        raw = list(pool.map(lambda q: embed_cache.embed_query(embeddings, q), plan.queries))
        qvecs = query_vectors(plan, raw, dims)
    return qvecs


async def aembed(plan: Plan, embeddings: Embeddings, dims: int | None) -> dict[str, np.ndarray]:
    """Phase 2 for ``abatch``: async embedders are awaited directly."""
    qvecs: dict[str, np.ndarray] = {}
    if plan.missing:
        add_embeddings(plan, await embed_cache.aembed_documents(embeddings, plan.missing), dims)
    if plan.queries:
        raw = await asyncio.gather(*(embeddings.aembed_query(q) for q in plan.queries))
        qvecs = query_vectors(plan, list(raw), dims)
    return qvecs
