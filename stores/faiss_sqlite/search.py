"""Read path: get, filter-only search and query search.

Query search ranks by reciprocal-rank fusion (RRF) of a dense ranking (cosine to
the query, max over an item's vectors, as LangGraph does) and a lexical one (BM25
over namespace-scoped FTS5 postings, see ``lexical.py``). Fusion decides the order only:
``SearchItem.score`` is the item's cosine
similarity, computed exactly from the float32 vectors in SQLite, so it means what
``InMemoryStore``'s score means and absolute thresholds keep working.

Candidates come from both retrievers; namespace, expiry and the filter are then
checked on the rows, and the candidate pool grows until enough survive or every
vector has been seen. As in ``InMemoryStore``, items without vectors
(``index=False``) follow all scored items, with ``score=None``.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any

import numpy as np
from langgraph.store.base import GetOp, Item, SearchItem, SearchOp

from . import filters, lexical
from .namespaces_ops import decode, encode, prefix_clause
from .ttl import LIVE_SQL
from .vectors import VectorIndex
from .writes import decode_value

RRF_K = 60
MIN_POOL = 20

_COLS = "items.id, namespaces.ns, items.key, items.value, items.created_at, items.updated_at, items.ttl_minutes"
_FROM = "FROM items JOIN namespaces ON namespaces.id = items.ns_id"

Row = tuple[int, str, str, str, float, float, float | None]


def _ts(value: float) -> datetime:
    return datetime.fromtimestamp(value, tz=UTC)


def _item(row: Row, value: dict[str, Any]) -> Item:
    return Item(namespace=decode(row[1]), key=row[2], value=value, created_at=_ts(row[4]), updated_at=_ts(row[5]))


def _search_item(row: Row, value: dict[str, Any], score: float | None) -> SearchItem:
    return SearchItem(decode(row[1]), row[2], value, _ts(row[4]), _ts(row[5]), score)


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    return [ids[i : i + size] for i in range(0, len(ids), size)]


class Reader:
    """Runs read ops against one snapshot. Each op also returns the ids of the items it
    returned that carry a TTL, so the caller can refresh them.
    """

    def __init__(self, conn: sqlite3.Connection, vectors: VectorIndex | None, now: float) -> None:
        self.conn = conn
        self.vectors = vectors
        self.now = now

    def get(self, op: GetOp) -> tuple[Item | None, int | None]:
        row = self.conn.execute(
            f"SELECT {_COLS} {_FROM} WHERE namespaces.ns = ? AND items.key = ? AND {LIVE_SQL}",
            (encode(op.namespace), op.key, self.now),
        ).fetchone()
        return (_item(row, decode_value(row[3])), row[0] if row[6] is not None else None) if row else (None, None)

    def search(self, op: SearchOp, query_vec: np.ndarray | None) -> tuple[list[SearchItem], list[int]]:
        filters.validate(op.filter)
        if op.limit <= 0:
            return [], []
        if op.query and query_vec is not None and self.vectors is not None:
            return self._query_search(op, query_vec)
        rows = self._scan(op.namespace_prefix, op.filter, op.offset, op.limit, without_vectors=False)
        return [_search_item(r, v, None) for r, v in rows], [r[0] for r, _ in rows if r[6] is not None]

    def _scan(
        self, prefix: tuple[str, ...], filter: dict[str, Any] | None, offset: int, limit: int, without_vectors: bool
    ) -> list[tuple[Row, dict[str, Any]]]:
        """Items newest-updated first (as LangGraph's SQL stores order them), filtered in Python."""
        where, params = prefix_clause(prefix, "namespaces.ns")
        extra = " AND NOT EXISTS (SELECT 1 FROM item_vectors iv WHERE iv.item_id = items.id)" if without_vectors else ""
        sql = (
            f"SELECT {_COLS} {_FROM} WHERE {where} AND {LIVE_SQL}{extra} "
            "ORDER BY items.updated_at DESC, items.id DESC"
        )
        if not filter:
            sql += " LIMIT ? OFFSET ?"
            rows = self.conn.execute(sql, (*params, self.now, limit, offset)).fetchall()
            return [(r, decode_value(r[3])) for r in rows]
        out: list[tuple[Row, dict[str, Any]]] = []
        skipped = 0
        for r in self.conn.execute(sql, (*params, self.now)):
            value = decode_value(r[3])
            if not filters.matches(value, filter):
                continue
            if skipped < offset:
                skipped += 1
                continue
            out.append((r, value))
            if len(out) == limit:
                break
        return out

    def _rows(self, ids: list[int], prefix: tuple[str, ...]) -> dict[int, Row]:
        where, params = prefix_clause(prefix, "namespaces.ns")
        found: dict[int, Row] = {}
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            for r in self.conn.execute(
                f"SELECT {_COLS} {_FROM} WHERE items.id IN ({marks}) AND {where} AND {LIVE_SQL}",
                (*chunk, *params, self.now),
            ):
                found[r[0]] = r
        return found

    def _item_ids(self, vec_ids: list[int]) -> list[int]:
        """The items owning these vectors, in order. A vector's item never changes (ids are
        never reused), so the answers are remembered across searches.
        """
        assert self.vectors is not None
        memo = self.vectors.item_of
        missing = [v for v in vec_ids if v not in memo]
        for chunk in _chunks(missing):
            marks = ",".join("?" * len(chunk))
            memo.update(
                self.conn.execute(f"SELECT id, item_id FROM item_vectors WHERE id IN ({marks})", chunk).fetchall()
            )
        return [memo[v] for v in vec_ids if v in memo]

    def _cosines(self, item_ids: list[int], query: np.ndarray) -> dict[int, float]:
        """Exact cosine to the query, max over each item's vectors."""
        qn = float(np.linalg.norm(query)) or 1.0
        best: dict[int, float] = {}
        for chunk in _chunks(item_ids):
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                "SELECT iv.item_id, e.vec FROM item_vectors iv JOIN embeddings e ON e.id = iv.emb_id "
                f"WHERE iv.item_id IN ({marks})",
                chunk,
            ).fetchall()
            if not rows:
                continue
            mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
            norms = np.linalg.norm(mat, axis=1)
            sims = (mat @ query) / np.where(norms == 0, 1.0, norms * qn)
            for (item_id, _), s in zip(rows, sims.tolist()):
                if s > best.get(item_id, -np.inf):
                    best[item_id] = s
        return best

    def _query_search(self, op: SearchOp, query: np.ndarray) -> tuple[list[SearchItem], list[int]]:
        assert self.vectors is not None and op.query
        prefix = tuple(op.namespace_prefix)
        where, params = prefix_clause(prefix, "ns")
        parts = self.conn.execute(
            f"SELECT id, version FROM namespaces WHERE {where} AND version > 0", params
        ).fetchall()
        want = op.offset + op.limit
        pool = max(2 * want, MIN_POOL)
        while True:
            vec_ids, complete, n_docs = self.vectors.search(self.conn, parts, query, pool)
            lex_ids = lexical.search(self.conn, op.query, [p[0] for p in parts], n_docs, pool)
            rows = self._rows(list(dict.fromkeys(self._item_ids(vec_ids) + lex_ids)), prefix)
            # Values are decoded only where needed: for the filter, and for what is returned.
            values = {i: decode_value(r[3]) for i, r in rows.items()} if op.filter else {}
            passing = [i for i in rows if not op.filter or filters.matches(values[i], op.filter)]
            if len(passing) >= want or (complete and len(lex_ids) < pool):
                break
            pool *= 4
        cos = self._cosines(passing, query)
        passing = [i for i in passing if i in cos]
        fused = {i: 0.0 for i in passing}
        for rank, i in enumerate(sorted(passing, key=lambda i: -cos[i])):
            fused[i] += 1.0 / (RRF_K + rank + 1)
        for rank, i in enumerate(i for i in lex_ids if i in fused):
            fused[i] += 1.0 / (RRF_K + rank + 1)
        ranked = sorted(passing, key=lambda i: (-fused[i], -cos[i]))
        scored = [(rows[i], values.get(i) or decode_value(rows[i][3]), cos[i]) for i in ranked[op.offset : want]]
        results = [_search_item(r, v, float(s)) for r, v, s in scored]
        if len(ranked) < want and complete:  # room left: unindexed items follow, unscored
            skip = max(0, op.offset - len(ranked))
            extra = self._scan(prefix, op.filter, skip, want - len(ranked) - skip, without_vectors=True)
            results += [_search_item(r, v, None) for r, v in extra]
            scored += [(r, v, 0.0) for r, v in extra]
        return results, [r[0] for r, _, _ in scored if r[6] is not None]
