"""Lexical (BM25) retrieval with SQLite FTS5.

The FTS table is contentless: it stores tokens only. Deleting from such a table
needs the exact text that was indexed, which ``items.ftext`` keeps. Column
``nst`` holds the namespace-level tokens (weight 0 in BM25) so a search only
walks the posting lists of the searched namespace prefix.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

from .namespaces_ops import level_token, level_tokens

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 32


def add(conn: sqlite3.Connection, item_id: int, namespace: Sequence[str], ftext: str) -> None:
    conn.execute(
        "INSERT INTO fts (rowid, nst, txt) VALUES (?, ?, ?)",
        (item_id, level_tokens(namespace), ftext),
    )


def remove(conn: sqlite3.Connection, item_id: int, namespace: Sequence[str], ftext: str) -> None:
    conn.execute(
        "INSERT INTO fts (fts, rowid, nst, txt) VALUES ('delete', ?, ?, ?)",
        (item_id, level_tokens(namespace), ftext),
    )


def match_expression(query: str, prefix: Sequence[str]) -> str | None:
    """An FTS5 query: any query word (quoted, so no syntax leaks in), within the prefix."""
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))[:MAX_TERMS]
    if not words:
        return None
    terms = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    expr = f"txt : ({terms})"
    if prefix:
        expr = f'nst : "{level_token(prefix)}" AND {expr}'
    return expr


def search(conn: sqlite3.Connection, query: str, prefix: Sequence[str], limit: int) -> list[int]:
    """Item ids, best BM25 first (unverified: the caller checks namespace, expiry, filter)."""
    expr = match_expression(query, prefix)
    if expr is None:
        return []
    rows = conn.execute(
        "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 0.0, 1.0) LIMIT ?",
        (expr, limit),
    ).fetchall()
    return [r[0] for r in rows]


def optimize(conn: sqlite3.Connection) -> None:
    """Merge FTS segments, dropping the entries of deleted documents for good."""
    conn.execute("INSERT INTO fts (fts) VALUES ('optimize')")
