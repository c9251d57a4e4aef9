"""Opening the long-term store the configuration names: the one place the CLI, the
Studio server, the benchmarks and the tests open it, so they open the same files the
same way (FAISS + SQLite under the data dir, or Postgres with ``MEMORY_BACKEND``).
"""

from __future__ import annotations

import sqlite3

from langgraph.store.base import BaseStore, TTLConfig

from models.loader import embedding_dims, load_embeddings
from stores.backend import backend_from_env
from stores.data_dir import STORE_SUBDIR, DataDirError, check_embedding_model, prepare_data_dir
from stores.db_errors import open_error


def store_ttl(sweep_minutes: float | None = None) -> TTLConfig:
    """The store's TTL settings. Items carry their own TTL (episodes: ``episode_ttl_days``,
    set by the episodic layer); reads must not push it back, or the store would keep an
    episode that recall already treats as expired.
    """
    ttl: TTLConfig = {"refresh_on_read": False}
    if sweep_minutes:
        ttl["sweep_interval_minutes"] = sweep_minutes  # type: ignore[typeddict-item]
    return ttl


def open_store(
    data_dir: str, embedding_spec: str, *, sweep_minutes: float | None = None, expire_on_open: bool = True
) -> BaseStore:
    """Our FAISS + SQLite store under ``<data_dir>/store``, indexing each value's "text";
    with ``MEMORY_BACKEND=postgres``, the Postgres store on ``POSTGRES_URI`` (stores/postgres/).

    Expired items are removed, bytes included, as the store opens (``expire_on_open``);
    ``sweep_minutes`` also sweeps on a timer, for long-lived processes (the Studio server).
    """
    from stores.faiss_sqlite import FaissSqliteStore

    root = prepare_data_dir(data_dir)
    index = {"dims": embedding_dims(embedding_spec), "embed": load_embeddings(embedding_spec), "fields": ["text"]}
    backend = backend_from_env()
    if backend.is_postgres:
        from stores.postgres import open_postgres_store

        pg = open_postgres_store(backend.uri or "", embedding_spec, index, store_ttl(sweep_minutes))
        if expire_on_open:
            pg.expire()
        return pg
    check_embedding_model(root, embedding_spec)
    try:
        store = FaissSqliteStore(root / STORE_SUBDIR, index=index, ttl=store_ttl(sweep_minutes))  # type: ignore[arg-type]
    except sqlite3.DatabaseError as err:
        raise DataDirError(open_error(root / STORE_SUBDIR, "memory store", err)) from None
    if expire_on_open:
        store.expire()
    return store
