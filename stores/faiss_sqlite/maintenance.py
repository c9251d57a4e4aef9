"""Making deletions physical, for the whole store or only for some namespaces.

Deleting a row is not enough to remove its bytes: FTS5 keeps a deleted
document's tokens in its segments until they are merged, the WAL keeps old
page images until a checkpoint, and a saved FAISS file keeps removed vectors
until it is rewritten. ``secure_delete`` (on for every connection, see
``schema``) zeroes the bytes of most deleted rows, but not all: in a real forget
(many deletes and neighbour re-puts), SQLite 3.40 left one deleted row's bytes in
a leaf page, most likely in the unused area of a page it rebalanced in place
(found by the five checks on a real llama.cpp server;
``tests/store/test_scrub_bytes.py`` reproduces it on that data dir). So scrubbing
here is: drop emptied namespaces, rewrite the FAISS
files of the namespaces concerned (no other user's file is opened), merge the FTS
index, and VACUUM the SQLite file, which rewrites every page from live rows only.
The VACUUM costs a pass over the file (seconds per GB); forgetting is rare and
must be physical. A whole-store ``purge`` also rewrites every FAISS file.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence

from . import lexical, namespaces_ops, schema
from .vectors import VectorIndex
from .writes import NsChange, PreparedPut, Writer

SWEEP_BATCH = 1000


def namespace_ids(conn: sqlite3.Connection, prefix: Sequence[str]) -> list[int]:
    """Ids of ``prefix`` and every namespace under it."""
    where, params = namespaces_ops.prefix_clause(prefix)
    return [r[0] for r in conn.execute(f"SELECT id FROM namespaces WHERE {where}", params)]


def sweep_expired(
    conn: sqlite3.Connection, limit: int = SWEEP_BATCH
) -> tuple[int, dict[int, NsChange], set[int]]:
    """Delete up to ``limit`` expired items with their vectors and FTS entries, in one
    transaction; returns how many, the vector changes, and the namespaces touched.
    """
    with schema.write_txn(conn):
        rows = conn.execute(
            "SELECT namespaces.ns, items.key FROM items JOIN namespaces ON namespaces.id = items.ns_id "
            "WHERE items.expires_at <= ? LIMIT ?",
            (time.time(), limit),
        ).fetchall()
        if not rows:
            return 0, {}, set()
        writer = Writer(conn, {}, time.time())
        for ns, key in rows:
            writer.put(PreparedPut(namespaces_ops.decode(ns), key, None))
        touched = {writer.ns_id(namespaces_ops.decode(ns)) for ns, _ in rows}
        changes = writer.finish()
    return len(rows), changes, touched


def scrub(conn: sqlite3.Connection, vectors: VectorIndex | None, ns_ids: Sequence[int]) -> None:
    """Make deletions in ``ns_ids`` physical without touching other namespaces' files."""
    wanted = sorted(set(ns_ids))
    if wanted:
        marks = ",".join("?" * len(wanted))
        with schema.write_txn(conn):
            gone = [r[0] for r in conn.execute(
                f"DELETE FROM namespaces WHERE id IN ({marks}) "
                "AND NOT EXISTS (SELECT 1 FROM items WHERE items.ns_id = namespaces.id) RETURNING id",
                wanted,
            )]
            lexical.optimize(conn)
        if vectors is not None:
            live = dict(conn.execute(
                f"SELECT id, version FROM namespaces n WHERE id IN ({marks}) "
                "AND EXISTS (SELECT 1 FROM item_vectors iv WHERE iv.ns_id = n.id)",
                wanted,
            ).fetchall())
            emptied = [i for i in wanted if i not in live]
            vectors.rewrite(conn, live, [*gone, *emptied])
    vacuum(conn)


def purge(conn: sqlite3.Connection, vectors: VectorIndex | None) -> None:
    """Scrub every namespace: rewrite every FAISS file, delete stray ones, and VACUUM."""
    with schema.write_txn(conn):
        conn.execute(
            "DELETE FROM namespaces WHERE NOT EXISTS (SELECT 1 FROM items WHERE items.ns_id = namespaces.id)"
        )
        lexical.optimize(conn)
    if vectors is not None:
        live = dict(conn.execute(
            "SELECT id, version FROM namespaces n WHERE EXISTS (SELECT 1 FROM item_vectors iv WHERE iv.ns_id = n.id)"
        ).fetchall())
        vectors.rewrite_all(conn, live)
    vacuum(conn)


def vacuum(conn: sqlite3.Connection) -> None:
    """Rewrite the SQLite file from live rows, with the WAL emptied before and after."""
    truncate_wal(conn)
    schema.retry(lambda: conn.execute("VACUUM").fetchall())
    truncate_wal(conn)


def truncate_wal(conn: sqlite3.Connection) -> None:
    """Copy the WAL into the database and empty it, so old page images leave the disk."""
    schema.retry(lambda: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
