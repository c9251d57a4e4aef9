"""``FaissSqliteStore``: a LangGraph ``BaseStore`` on SQLite (truth) and FAISS (index).

A batch runs in three phases so that slow work never holds the lock or a
transaction: (1) validate and prepare the ops and look up cached embeddings,
(2) embed what is missing and the queries, with no lock held, (3) under the lock,
run all reads on one snapshot and then all writes in one transaction. Reads
therefore see the store as it was before the batch's writes, as in LangGraph's own
stores. The async twins run phases 1 and 3 in a worker thread (``langgraph dev``
raises on blocking calls in the event loop) and await async embedders directly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
)

from . import embed_cache, lexical, maintenance, namespaces_ops, schema
from .batch_plan import Plan, aembed, embed, plan_ops
from .search import Reader
from .ttl import Sweeper
from .vectors import VectorIndex
from .writes import NsChange, Writer, prepare, refresh_ttl

logger = logging.getLogger("stores.faiss_sqlite")


class FaissSqliteStore(BaseStore):
    """Persistent LangGraph store in a directory: ``store.sqlite`` plus ``faiss/``.

    Args:
        path: directory to use (created if missing).
        index: LangGraph ``IndexConfig`` (``dims``, ``embed``, ``fields``); without it
            the store is a plain key-value store and ``query`` is ignored.
        ttl: LangGraph ``TTLConfig`` (``default_ttl``, ``refresh_on_read``,
            ``sweep_interval_minutes``). Expired items are never returned.
        hnsw_threshold: vectors in one namespace past which its index becomes HNSW.

    ``SearchItem.score`` is the cosine similarity between the query and the item
    (best of its vectors), as in ``InMemoryStore``; results are ordered by fusing
    that ranking with a BM25 ranking, so the order need not follow the score.
    """

    supports_ttl = True

    def __init__(
        self,
        path: str | Path,
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        hnsw_threshold: int = 20000,
    ) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.index_config = dict(index) if index else None
        self.ttl_config = ttl
        self._dims: int | None = None
        self._fields: embed_cache.Fields | None = None
        self.embeddings = None
        if self.index_config:
            dims, embed = self.index_config.get("dims"), self.index_config.get("embed")
            if not isinstance(dims, int) or dims <= 0:
                raise ValueError("index['dims'] must be a positive int (the embedding size)")
            if embed is None:
                raise ValueError("index['embed'] is required: an Embeddings, a function or 'provider:model'")
            self._dims = dims
            self._fields = embed_cache.tokenized_fields(self.index_config.get("fields"))  # type: ignore[arg-type]
            self.embeddings = ensure_embeddings(embed)  # type: ignore[arg-type]
        self._lock = threading.RLock()
        self._conn = schema.connect(self.path / "store.sqlite")
        self._closed = False
        # Several queries in one batch are embedded concurrently; one pool, not one per batch.
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="store-embed")
        schema.check_dims(self._conn, self._dims)
        self._vectors = VectorIndex(self.path / "faiss", self._dims, hnsw_threshold) if self._dims else None
        interval = (ttl or {}).get("sweep_interval_minutes")
        self._sweeper = Sweeper(self.expire, interval) if interval else None

    # -- phase 1: prepare -------------------------------------------------------

    def _prepare(self, ops: Iterable[Op]) -> Plan:
        plan = plan_ops(ops, self._fields if self.embeddings else None, self.embeddings is not None)
        texts = {embed_cache.text_hash(t): t for p in plan.puts for t in p.texts}
        if texts:
            with self._lock:
                self._check_open()
                plan.vectors = embed_cache.cached(self._conn, list(texts))
            plan.missing = [t for h, t in texts.items() if h not in plan.vectors]
        return plan

    # -- phase 3: execute -----------------------------------------------------------

    def _execute(self, plan: Plan, qvecs: dict[str, np.ndarray]) -> list[Result]:
        with self._lock:
            self._check_open()
            conn, now = self._conn, time.time()
            results: list[Result] = [None] * len(plan.ops)
            refresh: list[int] = []
            with schema.read_txn(conn):
                reader = Reader(conn, self._vectors, now)
                for i, op in enumerate(plan.ops):
                    if isinstance(op, GetOp):
                        results[i], item_id = reader.get(op)
                        if op.refresh_ttl and item_id is not None:
                            refresh.append(item_id)
                    elif isinstance(op, SearchOp):
                        results[i], ids = reader.search(op, qvecs.get(op.query) if op.query else None)
                        if op.refresh_ttl:
                            refresh.extend(ids)
                    elif isinstance(op, ListNamespacesOp):
                        results[i] = namespaces_ops.list_namespaces(conn, op, now)
            if plan.puts or refresh:
                with schema.write_txn(conn):
                    refresh_ttl(conn, refresh, now)
                    writer = Writer(conn, plan.vectors, now)
                    for put in plan.puts:
                        writer.put(put)
                    changes = writer.finish()
                self._apply(changes)
                self._merge_lexical()
            if self._vectors is not None:
                self._vectors.flush(conn)
            return results

    def _merge_lexical(self) -> None:
        """Merge the FTS index once enough has changed (see ``lexical.COMPACT_SHARE``)."""
        if lexical.needs_merge(self._conn):
            with schema.write_txn(self._conn):
                if lexical.needs_merge(self._conn):  # another process may have just done it
                    lexical.optimize(self._conn)

    def _apply(self, changes: dict[int, NsChange]) -> None:
        """Mirror committed vector changes into loaded FAISS partitions."""
        if self._vectors is None:
            return
        for ns_id, ch in changes.items():
            try:
                self._vectors.after_commit(self._conn, ns_id, ch.version, ch.added, ch.removed)
            except Exception:  # SQLite has the truth: drop the partition, reload on next use
                logger.exception("could not update FAISS partition %s; it will be reloaded", ns_id)
                self._vectors.parts.pop(ns_id, None)

    # -- BaseStore ------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        plan = self._prepare(ops)
        qvecs: dict[str, np.ndarray] = {}
        if self.embeddings is not None:  # phase 2, in batch_plan
            qvecs = embed(plan, self.embeddings, self._dims, self._pool)
        return self._execute(plan, qvecs)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        plan = await asyncio.to_thread(self._prepare, ops)
        qvecs: dict[str, np.ndarray] = {}
        if self.embeddings is not None:
            qvecs = await aembed(plan, self.embeddings, self._dims)
        return await asyncio.to_thread(self._execute, plan, qvecs)

    def atomic_update(
        self, namespace: tuple[str, ...], key: str, change: Callable[[dict[str, Any] | None], dict[str, Any] | None]
    ) -> dict[str, Any] | None:
        """Read-modify-write one unindexed item in one ``BEGIN IMMEDIATE`` transaction.

        ``change`` gets the current value (None when absent) and returns the new one
        (None deletes; the very same object leaves the item as it is); it must not use
        the store. The write lock is held from the read to the write, so concurrent
        updates, from other processes too, are serialised and none is lost.
        """
        op = GetOp(tuple(namespace), key)
        namespaces_ops.validate_op(PutOp(op.namespace, key, {}))
        with self._lock:
            self._check_open()
            now = time.time()
            with schema.write_txn(self._conn):
                item, _ = Reader(self._conn, self._vectors, now).get(op)
                old = item.value if item is not None else None
                new = change(old)
                if new is old:
                    return old
                writer = Writer(self._conn, {}, now)
                writer.put(prepare([PutOp(op.namespace, key, new, index=False)], None)[0])
                changes = writer.finish()
            self._apply(changes)
            if self._vectors is not None:
                self._vectors.flush(self._conn)
            return new

    # -- maintenance -----------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Delete expired items now (with their vectors and FTS entries); returns how many."""
        return self._sweep()[0]

    def _sweep(self) -> tuple[int, set[int]]:
        removed, touched = 0, set[Any]()
        with self._lock:
            self._check_open()
            while True:
                count, changes, ns_ids = maintenance.sweep_expired(self._conn)
                if not count:
                    return removed, touched
                self._apply(changes)
                self._merge_lexical()
                removed += count
                touched |= ns_ids

    async def asweep_ttl(self) -> int:
        return await asyncio.to_thread(self.sweep_ttl)

    def expire(self) -> int:
        """Delete expired items and make it physical in the namespaces they were in
        (see ``maintenance.scrub``); returns how many items expired.
        """
        removed, touched = self._sweep()
        if touched:
            with self._lock:
                maintenance.scrub(self._conn, self._vectors, sorted(touched))
        return removed

    def scrub(self, prefix: tuple[str, ...]) -> None:
        """Make deletions under ``prefix`` physical; no other namespace's FAISS file is touched."""
        with self._lock:
            self._check_open()
            maintenance.scrub(self._conn, self._vectors, maintenance.namespace_ids(self._conn, prefix))

    def purge(self) -> None:
        """Make deletions physical everywhere: every FAISS file rewritten, FTS merged, VACUUM."""
        with self._lock:
            self._check_open()
            maintenance.purge(self._conn, self._vectors)

    async def apurge(self) -> None:
        await asyncio.to_thread(self.purge)

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"store at {self.path} is closed")

    def close(self) -> None:
        """Stop the sweeper, save unsaved FAISS partitions, close the database."""
        if self._closed:
            return
        if self._sweeper is not None:
            self._sweeper.stop()
        self._pool.shutdown(wait=True)
        with self._lock:
            if self._vectors is not None:
                self._vectors.flush(self._conn, everything=True)
            self._conn.close()
            self._closed = True

    def __enter__(self) -> FaissSqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> FaissSqliteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)
