"""Turning put/delete ops into rows, in one transaction per batch.

Everything that can fail on bad input (JSON encoding, TTL values, embedding output)
is checked in ``prepare`` or before the transaction starts, so a bad op leaves the
store untouched. Within the transaction a replaced or deleted item loses its FTS
entry, its vectors, and any cached embedding no other item still uses.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from langgraph.store.base import PutOp

from . import lexical
from .embed_cache import Fields, text_hash, texts_for
from .namespaces_ops import encode
from .ttl import expires_at


@dataclass
class PreparedPut:
    """A put (or delete) validated and serialized, ready to write in one transaction."""
    namespace: tuple[str, ...]
    key: str
    value_json: str | None  # None deletes
    ttl: float | None = None
    texts: list[str] = field(default_factory=list)

    @property
    def hashes(self) -> list[bytes]:
        return [text_hash(t) for t in self.texts]


@dataclass
class NsChange:
    """The vector additions and removals one write batch makes in a namespace."""
    added: list[tuple[int, bytes]] = field(default_factory=list)  # (vector id, float32 blob)
    removed: list[int] = field(default_factory=list)
    version: int = 0


def _encode(op: PutOp) -> str:
    if not isinstance(op.value, dict):
        raise TypeError(f"value for key {op.key!r} must be a dict, got {type(op.value).__name__}")
    try:
        return json.dumps(op.value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"value for key {op.key!r} in namespace {op.namespace} is not JSON-serialisable: {exc}"
        ) from None


def prepare(ops: list[PutOp], fields: Fields | None) -> list[PreparedPut]:
    """Deduplicate (the last put to a key wins, as in LangGraph) and validate."""
    last: dict[tuple[tuple[str, ...], str], PutOp] = {}
    for op in ops:
        last[(tuple(op.namespace), op.key)] = op
    prepared = []
    for (ns, key), op in last.items():
        if op.value is None:
            prepared.append(PreparedPut(ns, key, None))
            continue
        if op.ttl is not None and (not isinstance(op.ttl, (int, float)) or op.ttl <= 0):
            raise ValueError(f"ttl must be a positive number of minutes or None, got {op.ttl!r}")
        value = _encode(op)
        prepared.append(PreparedPut(ns, key, value, op.ttl, texts_for(dict(op.value), op.index, fields)))
    return prepared


class Writer:
    """Applies prepared puts inside the caller's write transaction."""

    def __init__(self, conn: sqlite3.Connection, vectors: dict[bytes, bytes], now: float) -> None:
        self.conn = conn
        self.vectors = vectors  # text hash -> float32 blob, for every text being written
        self.now = now
        self.changes: dict[int, NsChange] = defaultdict(NsChange)
        self._ns_ids: dict[tuple[str, ...], int] = {}
        self._emb_ids: dict[bytes, int] = {}
        self._orphans: set[int] = set()
        self._terms = lexical.PendingTerms()

    def ns_id(self, ns: tuple[str, ...]) -> int:
        if ns not in self._ns_ids:
            enc = encode(ns)
            self.conn.execute("INSERT OR IGNORE INTO namespaces (ns) VALUES (?)", (enc,))
            self._ns_ids[ns] = self.conn.execute("SELECT id FROM namespaces WHERE ns = ?", (enc,)).fetchone()[0]
        return self._ns_ids[ns]

    def _emb_id(self, h: bytes) -> int:
        if h not in self._emb_ids:
            self.conn.execute("INSERT OR IGNORE INTO embeddings (hash, vec) VALUES (?, ?)", (h, self.vectors[h]))
            self._emb_ids[h] = self.conn.execute("SELECT id FROM embeddings WHERE hash = ?", (h,)).fetchone()[0]
        return self._emb_ids[h]

    def _unindex(self, item_id: int, ns_id: int, ftext: str | None) -> None:
        if ftext:
            self._terms.remove(item_id, ns_id, ftext)
        old = self.conn.execute("SELECT id, emb_id FROM item_vectors WHERE item_id = ?", (item_id,)).fetchall()
        if old:
            self.conn.execute("DELETE FROM item_vectors WHERE item_id = ?", (item_id,))
            self.changes[ns_id].removed.extend(r[0] for r in old)
            self._orphans.update(r[1] for r in old)

    def put(self, p: PreparedPut) -> None:
        ns_id = self.ns_id(p.namespace)
        row = self.conn.execute(
            "SELECT id, ftext, created_at, expires_at FROM items WHERE ns_id = ? AND key = ?", (ns_id, p.key)
        ).fetchone()
        if row is not None:
            self._unindex(row[0], ns_id, row[1])
        if p.value_json is None:
            if row is not None:
                self.conn.execute("DELETE FROM items WHERE id = ?", (row[0],))
            return
        ftext = "\n".join(p.texts) or None
        exp = expires_at(self.now, p.ttl)
        if row is None:
            (item_id,) = self.conn.execute(
                "INSERT INTO items (ns_id, key, value, created_at, updated_at, ttl_minutes, expires_at, ftext) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (ns_id, p.key, p.value_json, self.now, self.now, p.ttl, exp, ftext),
            ).fetchone()
        else:
            item_id = row[0]
            expired = row[3] is not None and row[3] <= self.now
            self.conn.execute(
                "UPDATE items SET value = ?, created_at = ?, updated_at = ?, ttl_minutes = ?, expires_at = ?, "
                "ftext = ? WHERE id = ?",
                (p.value_json, self.now if expired else row[2], self.now, p.ttl, exp, ftext, item_id),
            )
        if ftext:
            self._terms.add(item_id, ns_id, ftext)
        for h in p.hashes:
            (vec_id,) = self.conn.execute(
                "INSERT INTO item_vectors (item_id, ns_id, emb_id) VALUES (?, ?, ?) RETURNING id",
                (item_id, ns_id, self._emb_id(h)),
            ).fetchone()
            self.changes[ns_id].added.append((vec_id, self.vectors[h]))

    def finish(self) -> dict[int, NsChange]:
        """Drop unused cached embeddings, bump the version of every changed namespace,
        and write the batch's FTS changes (last, so they form one segment).
        """
        for emb_id in self._orphans:
            self.conn.execute(
                "DELETE FROM embeddings WHERE id = ? AND NOT EXISTS (SELECT 1 FROM item_vectors WHERE emb_id = ?)",
                (emb_id, emb_id),
            )
        for ns_id, change in self.changes.items():
            if change.added or change.removed:
                (change.version,) = self.conn.execute(
                    "UPDATE namespaces SET version = version + 1 WHERE id = ? RETURNING version", (ns_id,)
                ).fetchone()
        self._terms.write(self.conn)
        return {k: v for k, v in self.changes.items() if v.version}


def refresh_ttl(conn: sqlite3.Connection, item_ids: list[int], now: float) -> None:
    """Push back the expiry of items just read (only those that have a TTL)."""
    for i in range(0, len(item_ids), 500):
        chunk = item_ids[i : i + 500]
        conn.execute(
            f"UPDATE items SET expires_at = ? + ttl_minutes * 60.0 WHERE ttl_minutes IS NOT NULL "
            f"AND id IN ({','.join('?' * len(chunk))})",
            (now, *chunk),
        )


def decode_value(text: str) -> dict[str, Any]:
    """The stored JSON value back as a dict."""
    value: dict[str, Any] = json.loads(text)
    return value
