"""Namespace encoding, validation and listing.

Namespaces are stored as one text column, labels joined with ".". LangGraph forbids
"." inside labels, so the encoding is unambiguous, and a prefix search becomes an
index range scan (``ns = p OR p. <= ns < p/``, since "/" sorts right after ".").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from langgraph.store.base import (
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    validate_op_namespace,
)

SEP = "."


def validate_op(op: Op) -> None:
    """Reject bad namespaces before anything is stored (ops may bypass BaseStore.put)."""
    validate_op_namespace(op)
    if isinstance(op, PutOp):
        if not op.namespace:
            raise InvalidNamespaceError("Namespace cannot be empty: give at least one label.")
        if op.namespace[0] == "langgraph":
            raise InvalidNamespaceError(f'Root label "langgraph" is reserved. Got: {op.namespace}')
        if not isinstance(op.key, str) or not op.key:
            raise ValueError(f"Item key must be a non-empty string, got {op.key!r}")


def encode(namespace: Sequence[str]) -> str:
    """The namespace tuple as one stored string, joined with ``SEP``."""
    return SEP.join(namespace)


def decode(text: str) -> tuple[str, ...]:
    """The namespace tuple back from its stored string."""
    return tuple(text.split(SEP))


def prefix_clause(prefix: Sequence[str], column: str = "ns") -> tuple[str, list[str]]:
    """SQL condition (and its parameters) matching ``prefix`` and everything under it."""
    if not prefix:
        return "1", []
    enc = encode(prefix)
    return f"({column} = ? OR ({column} >= ? AND {column} < ?))", [enc, enc + ".", enc + "/"]


def _matches(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(cond.path)
    if len(ns) < len(path):
        return False
    if cond.match_type == "prefix":
        part = ns[: len(path)]
    elif cond.match_type == "suffix":
        part = ns[len(ns) - len(path) :]
    else:
        raise ValueError(f"unsupported match type {cond.match_type!r}: use 'prefix' or 'suffix'")
    return all(p == "*" or p == label for p, label in zip(path, part))


def list_namespaces(conn: sqlite3.Connection, op: ListNamespacesOp, now: float) -> list[tuple[str, ...]]:
    """Namespaces holding at least one live (unexpired) item, LangGraph's listing rules."""
    conditions = tuple(op.match_conditions or ())
    sql_prefix: tuple[str, ...] = ()
    for cond in conditions:
        if cond.match_type == "prefix":
            fixed = []
            for label in cond.path:
                if label == "*":
                    break
                fixed.append(label)
            sql_prefix = tuple(fixed) if len(fixed) > len(sql_prefix) else sql_prefix
    where, params = prefix_clause(sql_prefix)
    rows = conn.execute(
        f"SELECT ns FROM namespaces WHERE {where} AND EXISTS (SELECT 1 FROM items i "
        "WHERE i.ns_id = namespaces.id AND (i.expires_at IS NULL OR i.expires_at > ?))",
        [*params, now],
    ).fetchall()
    found = [decode(r[0]) for r in rows]
    found = [ns for ns in found if all(_matches(c, ns) for c in conditions)]
    if op.max_depth is not None:
        found = sorted({ns[: op.max_depth] for ns in found})
    else:
        found = sorted(found)
    return found[op.offset : op.offset + op.limit]
