"""Hybrid query search on Postgres: pgvector cosine fused with BM25 (``lexical.py``).

As in the local store (stores/faiss_sqlite/search.py), reciprocal-rank fusion of a
dense and a lexical ranking decides the order only: ``SearchItem.score`` is the
item's cosine to the query (max over its vectors), so thresholds keep their meaning.
Namespace, expiry and the filter are applied in SQL on both sides. Items without
vectors follow the scored ones with ``score=None`` when there is room, as in
LangGraph's in-memory store.
"""

from __future__ import annotations

import json
from typing import Any

from langgraph.store.base import SearchItem, SearchOp
from langgraph.store.postgres.base import _decode_ns_bytes, _row_to_search_item
from psycopg import Cursor

from .lexical import bm25_sql, prefix_condition

RRF_K = 60
MIN_POOL = 20
_COLS = "store.prefix, store.key, store.value, store.created_at, store.updated_at"


def filter_sql(store: Any, flt: dict[str, Any] | None) -> tuple[str, list[Any]]:
    """SQL for a search filter, with LangGraph's own operators (``$eq``, ``$gt``...)."""
    clauses, params = [], []
    for key, value in (flt or {}).items():
        if isinstance(value, dict):
            for op_name, val in value.items():
                cond, p = store._get_filter_condition(key, op_name, val)
                clauses.append(cond.replace("value->", "store.value->"))
                params.extend(p)
        else:
            clauses.append("store.value->%s = %s::jsonb")
            params.extend([key, json.dumps(value)])
    return "".join(f" AND {c}" for c in clauses), params


def _item(store: Any, row: dict[str, Any], score: float | None) -> SearchItem:
    """LangGraph's own row decoding (namespaces, jsonb values), with our score."""
    return _row_to_search_item(_decode_ns_bytes(row["prefix"]), {**row, "score": score}, loader=store._deserializer)  # type: ignore[typeddict-item]


def hybrid_search(store: Any, cur: Cursor[dict[str, Any]], op: SearchOp, qvec: list[float]) -> list[SearchItem]:
    """The ``op.offset``..``offset+limit`` best items by fused rank, scored by cosine."""
    if op.limit <= 0:
        return []
    ns_sql, ns_params = prefix_condition("store.prefix", tuple(op.namespace_prefix))
    live = "AND (store.expires_at IS NULL OR store.expires_at > NOW())" if store._omit_expired else ""
    flt, flt_params = filter_sql(store, op.filter)
    want = op.offset + op.limit
    pool = max(2 * want, MIN_POOL)
    vec = "[" + ",".join(repr(float(x)) for x in qvec) + "]"
    cur.execute(
        f"SELECT store.prefix, store.key, max(1 - (sv.embedding <=> %s::vector)) AS cos FROM store "
        f"JOIN store_vectors sv ON store.prefix = sv.prefix AND store.key = sv.key "
        f"WHERE {ns_sql} {live} {flt} GROUP BY store.prefix, store.key ORDER BY cos DESC, store.key LIMIT %s",
        [vec, *ns_params, *flt_params, pool],
    )
    cos = {(r["prefix"], r["key"]): float(r["cos"]) for r in cur.fetchall()}
    seen_all = len(cos) < pool  # the namespace holds fewer vectors than the pool
    cur.execute(bm25_sql(ns_sql, live, flt), [op.query, *ns_params, *flt_params, *ns_params, pool])
    lexical = [(r["prefix"], r["key"]) for r in cur.fetchall()]
    missing = [k for k in lexical if k not in cos]
    if missing:
        cur.execute(
            "SELECT prefix, key, max(1 - (embedding <=> %s::vector)) AS cos FROM store_vectors "
            "WHERE (prefix, key) IN (SELECT * FROM unnest(%s::text[], %s::text[])) GROUP BY prefix, key",
            [vec, [p for p, _ in missing], [k for _, k in missing]],
        )
        cos.update({(r["prefix"], r["key"]): float(r["cos"]) for r in cur.fetchall()})
    # The dense ranking covers every candidate, the lexical side's too, as the local store's does.
    dense = sorted(cos, key=lambda k: -cos[k])
    fused: dict[tuple[str, str], float] = {}
    for ranking in (dense, [k for k in lexical if k in cos]):
        for rank, k in enumerate(ranking):
            fused[k] = fused.get(k, 0.0) + 1.0 / (RRF_K + rank + 1)
    ranked = sorted(fused, key=lambda k: (-fused[k], -cos[k]))[op.offset : want]
    rows = _rows(cur, ranked)
    out = [_item(store, rows[k], cos[k]) for k in ranked if k in rows]
    if len(fused) < want and seen_all:  # every scored item was seen: unindexed ones follow
        skip = max(0, op.offset - len(fused))
        cur.execute(
            f"SELECT {_COLS} FROM store WHERE {ns_sql} {live} {flt} AND NOT EXISTS (SELECT 1 FROM store_vectors sv "
            "WHERE sv.prefix = store.prefix AND sv.key = store.key) ORDER BY store.updated_at DESC LIMIT %s OFFSET %s",
            [*ns_params, *flt_params, want - len(fused) - skip, skip],
        )
        out += [_item(store, r, None) for r in cur.fetchall()]
    if op.refresh_ttl and out:
        cur.execute(
            "UPDATE store SET expires_at = NOW() + (ttl_minutes || ' minutes')::interval WHERE ttl_minutes IS NOT NULL "
            "AND (prefix, key) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
            [[".".join(i.namespace) for i in out], [i.key for i in out]],
        )
    return out


def _rows(cur: Cursor[dict[str, Any]], keys: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
    if not keys:
        return {}
    cur.execute(
        f"SELECT {_COLS} FROM store WHERE (prefix, key) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
        [[p for p, _ in keys], [k for _, k in keys]],
    )
    return {(r["prefix"], r["key"]): r for r in cur.fetchall()}
