"""The ``postgres`` backend: LangGraph's Postgres store and checkpointer, made to behave like ours.

Chosen with ``MEMORY_BACKEND=postgres`` and ``POSTGRES_URI`` (see stores/backend.py).
"""

from __future__ import annotations

from typing import Any

from langgraph.store.base import TTLConfig

from .connect import PostgresUnavailable, check_embedding_model, open_pool
from .store import HybridPostgresStore

__all__ = ["HybridPostgresStore", "PostgresUnavailable", "open_postgres_store"]


def open_postgres_store(uri: str, embedding_spec: str, index: dict[str, Any], ttl: TTLConfig) -> HybridPostgresStore:
    """The store on ``uri``: server and embedding model checked, schema set up on first use.

    Vectors are searched exactly (``flat``): each search is scoped to one user's
    namespace, which a per-namespace scan serves well and an ANN index filtered
    afterwards would not (LangGraph's PostgresStore does not use ANN indexes for
    filtered searches either).
    """
    pool = open_pool(uri)
    try:
        check_embedding_model(pool, embedding_spec)
        store = HybridPostgresStore(
            pool,  # type: ignore[arg-type]
            index={**index, "ann_index_config": {"kind": "flat"}},  # type: ignore[arg-type]
            ttl=ttl,
        )
        store.setup()
        if ttl.get("sweep_interval_minutes"):
            store.start_ttl_sweeper()
    except Exception:
        pool.close()
        raise
    return store
