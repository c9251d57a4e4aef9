"""``HybridPostgresStore``: LangGraph's ``PostgresStore`` with hybrid search and physical deletes.

A thin subclass that keeps ``BaseStore`` semantics and LangGraph's tables, and adds
what our layers rely on from the local store:

- query search fuses pgvector cosine with BM25 over a ``store_text`` side table
  (``search.py``, ``lexical.py``); the message log depends on lexical matches;
- a put that changes which fields are indexed (``index=False``, another field list)
  drops the item's stale vectors and lexemes; PostgresStore leaves them behind;
- a ``batch`` is one transaction, as on the local store: PostgresStore pipelines an
  autocommit connection, where a put's deletes and inserts could commit apart (a
  replaced document's old and new chunks both visible, or neither: memory/knowledge/base.py);
- ``atomic_update`` (the write gate's profile updates) is one transaction, serialised
  per item by an advisory lock, across processes and workers;
- ``scrub``/``purge``/``expire`` make deletions physical: ``VACUUM FULL`` rewrites the
  store tables, their TOAST and indexes, so a forgotten text leaves no bytes in them.
  Postgres cannot compact one user's rows alone, so this rewrites every user's rows;
  it holds an exclusive lock on the tables while it runs (see docs/postgres.md, "Scale out on Postgres").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from langgraph.store.base import PutOp, Result, SearchOp, get_text_at_path, tokenize_path
from langgraph.store.postgres import PostgresStore
from psycopg import Cursor
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from . import lexical
from .search import hybrid_search

STORE_TABLES = ("store", "store_vectors", "store_text")
SETUP_LOCK = 0x6D656D73  # advisory lock key: one process runs the migrations at a time


def _names(op: PutOp, fields: list[tuple[str, Any]]) -> tuple[list[str], list[str]]:
    """Vector field names (as PostgresStore names them) and the texts indexed for one put."""
    names, texts = [], []
    for path, tokens in fields:
        found = get_text_at_path(op.value, tokens)
        names += [f"{path}.{i}" if len(found) > 1 else path for i in range(len(found))]
        texts += found
    return names, texts


class HybridPostgresStore(PostgresStore):
    """PostgresStore on a connection pool, searching by fused dense + lexical rank."""

    @property
    def _omit_expired(self) -> bool:
        return True  # expired items are invisible before the sweeper runs, as in the local store

    def setup(self) -> None:
        """LangGraph's migrations plus the lexical side table, once per database, under a lock."""
        pool = self.conn
        with pool.connection() as lock_conn:  # type: ignore[operator]
            lock_conn.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK,))
            try:
                super().setup()
                with self._cursor() as cur:
                    for ddl in lexical.DDL:
                        cur.execute(ddl)
            finally:
                lock_conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))

    @contextmanager
    def _cursor(self, *, pipeline: bool = False) -> Iterator[Cursor[DictRow]]:
        """A batch's cursor (``pipeline``) inside one explicit transaction on one pooled connection."""
        if not pipeline:
            with super()._cursor() as cur:
                yield cur
            return
        with self.conn.connection() as conn, conn.transaction():  # type: ignore[operator]
            with conn.cursor(binary=True, row_factory=dict_row) as cur:
                yield cur

    # -- writes ------------------------------------------------------------------------

    def _batch_put_ops(self, put_ops: Sequence[tuple[int, PutOp]], cur: Cursor[DictRow]) -> None:
        super()._batch_put_ops(put_ops, cur)
        latest = {(op.namespace, op.key): op for _, op in put_ops}
        for op in latest.values():
            if op.value is None:
                continue  # deleted: vectors and lexemes go with the row (ON DELETE CASCADE)
            where = (".".join(op.namespace), op.key)
            if op.index is False or not self.index_config:
                cur.execute("DELETE FROM store_vectors WHERE prefix = %s AND key = %s", where)
                cur.execute(lexical.DELETE, where)
                continue
            fields = (
                self.index_config["__tokenized_fields"]  # type: ignore[typeddict-item]
                if op.index is None
                else [(ix, tokenize_path(ix)) for ix in op.index]
            )
            names, texts = _names(op, fields)
            cur.execute(
                "DELETE FROM store_vectors WHERE prefix = %s AND key = %s AND NOT (field_name = ANY (%s))",
                (*where, names),
            )
            if texts:
                cur.execute(lexical.UPSERT, (*where, "\n".join(texts)))
            else:
                cur.execute(lexical.DELETE, where)

    # -- reads -------------------------------------------------------------------------

    def _batch_search_ops(
        self, search_ops: Sequence[tuple[int, SearchOp]], results: list[Result], cur: Cursor[DictRow]
    ) -> None:
        queried = [(i, op) for i, op in search_ops if op.query and self.embeddings is not None]
        rest = [(i, op) for i, op in search_ops if not (op.query and self.embeddings is not None)]
        if rest:
            super()._batch_search_ops(rest, results, cur)
        for i, op in queried:
            qvec = self.embeddings.embed_query(op.query)  # type: ignore[union-attr,arg-type]
            results[i] = hybrid_search(self, cur, op, qvec)

    # -- one-item transactions ---------------------------------------------------------

    def atomic_update(
        self, namespace: tuple[str, ...], key: str, change: Callable[[dict[str, Any] | None], dict[str, Any] | None]
    ) -> dict[str, Any] | None:
        """Read-modify-write one unindexed item in one transaction, serialised per item.

        ``change`` gets the current value (None when absent) and returns the new one
        (None deletes; the very same object leaves the item as it is). An advisory lock
        on the item is held from the read to the write, so concurrent updates from any
        process are serialised and none is lost, even when the item does not exist yet.
        """
        where = (".".join(namespace), key)
        with self.conn.connection() as conn, conn.transaction():  # type: ignore[operator]
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s), hashtext(%s))", where)
            row = conn.execute(
                "SELECT value FROM store WHERE prefix = %s AND key = %s "
                "AND (expires_at IS NULL OR expires_at > NOW())",
                where,
            ).fetchone()
            old = row["value"] if row else None
            new = change(old)
            if new is old:
                return old
            if new is None:
                conn.execute("DELETE FROM store WHERE prefix = %s AND key = %s", where)
                return None
            conn.execute(
                "INSERT INTO store (prefix, key, value) VALUES (%s, %s, %s) ON CONFLICT (prefix, key) DO UPDATE "
                "SET value = EXCLUDED.value, updated_at = CURRENT_TIMESTAMP, expires_at = NULL, ttl_minutes = NULL",
                (*where, Jsonb(new)),
            )
            conn.execute("DELETE FROM store_vectors WHERE prefix = %s AND key = %s", where)
            conn.execute(lexical.DELETE, where)
        return new

    # -- making deletions physical -----------------------------------------------------

    def purge(self) -> None:
        """Rewrite the store tables (heap, TOAST, indexes): deleted rows leave no bytes."""
        with self.conn.connection() as conn:  # type: ignore[operator]
            for table in STORE_TABLES:
                conn.execute(f"VACUUM FULL {table}")

    def scrub(self, prefix: tuple[str, ...]) -> None:
        """Make deletions under ``prefix`` physical. Postgres rewrites whole tables, so this is ``purge``."""
        self.purge()

    def expire(self) -> int:
        """Delete expired items now and make it physical; returns how many expired."""
        removed = self.sweep_ttl()
        if removed:
            self.purge()
        return removed

    def close(self) -> None:
        """Stop the TTL sweeper and close the connection pool."""
        self.stop_ttl_sweeper(timeout=5)
        pool = self.conn
        if isinstance(pool, ConnectionPool) and not pool.closed:
            pool.close()

    def __enter__(self) -> HybridPostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
