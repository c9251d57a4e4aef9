"""SQLite schema, connection settings and transaction retry.

SQLite is the source of truth; FAISS files are a cache of the ``item_vectors`` and
``embeddings`` tables and can always be rebuilt from them.

Choices worth knowing:
- WAL, so readers in other processes never block on a writer.
- ``secure_delete``, so forgotten text is overwritten, not left in free pages.
- 8 KiB pages: a 384-d float32 vector (1.5 KiB) fits five to a page instead of two.
- The FTS5 table is contentless (``content=''``): it keeps tokens, never the text,
  and ``items.ftext`` remembers what was indexed so it can be deleted exactly.
- Writes start with ``BEGIN IMMEDIATE`` (the busy timeout then applies to the lock
  wait) and are retried, so "database is locked" does not reach callers.
"""

from __future__ import annotations

import math
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

BUSY_TIMEOUT_S = 30.0
RETRIES = 8

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS namespaces (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ns TEXT NOT NULL UNIQUE,
    version INTEGER NOT NULL DEFAULT 0,   -- bumped whenever the namespace's vectors change
    file_version INTEGER,                 -- version the saved FAISS file reflects
    file_sha TEXT                         -- sha256 of that file, to detect corruption
);
CREATE TABLE IF NOT EXISTS items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ns_id INTEGER NOT NULL REFERENCES namespaces(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    ttl_minutes REAL,
    expires_at REAL,
    ftext TEXT,
    UNIQUE (ns_id, key)
);
CREATE INDEX IF NOT EXISTS items_recent ON items (ns_id, updated_at);
CREATE INDEX IF NOT EXISTS items_expiry ON items (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS embeddings (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,            -- sha256 of the embedded text: the embedding cache key
    vec BLOB NOT NULL                     -- float32, as the embedder returned it
);
CREATE TABLE IF NOT EXISTS item_vectors (
    id INTEGER PRIMARY KEY AUTOINCREMENT, -- the FAISS id, never reused
    item_id INTEGER NOT NULL,
    ns_id INTEGER NOT NULL,
    emb_id INTEGER NOT NULL
);
DROP INDEX IF EXISTS iv_item;  -- replaced by the covering index below
CREATE INDEX IF NOT EXISTS iv_item_emb ON item_vectors (item_id, emb_id);  -- covers the cosine lookup
CREATE INDEX IF NOT EXISTS iv_ns ON item_vectors (ns_id, id);
CREATE INDEX IF NOT EXISTS iv_emb ON item_vectors (emb_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(txt, content='', tokenize='porter unicode61');
"""


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) the database with the store's settings."""
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA page_size = 8192")  # only effective on a new file
    retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
    conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a process crash loses nothing
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("PRAGMA cache_size = -65536")  # 64 MiB: b-tree interior pages stay hot
    conn.execute("PRAGMA mmap_size = 1073741824")  # reads without a syscall per page
    conn.execute("PRAGMA foreign_keys = OFF")
    if conn.execute("SELECT 1 FROM pragma_function_list WHERE name = 'ln'").fetchone() is None:
        conn.create_function("ln", 1, math.log, deterministic=True)  # SQLite built without math functions
    with write_txn(conn):
        for stmt in SCHEMA.split(";"):
            if stmt.strip():
                conn.execute(stmt)
    return conn


def retry(fn: Callable[[], T]) -> T:
    """Run ``fn``, retrying with jittered backoff while another process holds the lock."""
    for attempt in range(RETRIES):
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or attempt == RETRIES - 1:
                raise
            time.sleep(min(2.0, 0.05 * 2**attempt) * (0.5 + random.random()))
    raise AssertionError("unreachable")


@contextmanager
def write_txn(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """An IMMEDIATE transaction: all or nothing, and the write lock taken up front."""
    retry(lambda: conn.execute("BEGIN IMMEDIATE"))
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    retry(lambda: conn.execute("COMMIT"))


@contextmanager
def read_txn(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A read snapshot, so a batch's reads agree with each other."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")


def check_dims(conn: sqlite3.Connection, dims: int | None) -> None:
    """Remember the vector size on first use; refuse to reopen with another one."""
    if dims is None:
        return
    row = conn.execute("SELECT v FROM meta WHERE k = 'dims'").fetchone()
    if row is None:
        with write_txn(conn):
            conn.execute("INSERT OR IGNORE INTO meta (k, v) VALUES ('dims', ?)", (str(dims),))
    elif int(row[0]) != dims:
        raise ValueError(
            f"this store was created with {row[0]}-dimensional vectors but index.dims is {dims}; "
            "use a new directory for a different embedding model"
        )
