"""Search filters with the semantics of LangGraph's stores.

A filter maps top-level value keys to either a plain value (equality; dicts match
recursively, lists element by element) or an operator dict such as
``{"$gte": 3, "$lt": 10}``. Filters run in Python on candidate rows, not as SQL,
so that equality means exactly what it means in ``InMemoryStore``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")

_ORDERING: dict[str, Callable[[float, float], bool]] = {
    "$gt": operator.gt,
    "$gte": operator.ge,
    "$lt": operator.lt,
    "$lte": operator.le,
}


def validate(filter: dict[str, Any] | None) -> None:
    """Raise on unknown operators up front, instead of on the first matching row."""
    if filter is None:
        return
    if not isinstance(filter, dict):
        raise TypeError(f"filter must be a dict, got {type(filter).__name__}")

    def walk(cond: Any) -> None:
        if isinstance(cond, dict):
            for k, v in cond.items():
                if isinstance(k, str) and k.startswith("$") and k not in OPERATORS:
                    raise ValueError(f"unsupported filter operator {k!r}; supported: {', '.join(OPERATORS)}")
                walk(v)

    walk(filter)


def _ordered(value: Any, op: str, target: Any) -> bool:
    try:
        return _ORDERING[op](float(value), float(target))
    except (TypeError, ValueError):
        return False  # a missing or non-numeric field never satisfies a comparison


def _matches(value: Any, cond: Any) -> bool:
    if isinstance(cond, dict):
        if any(isinstance(k, str) and k.startswith("$") for k in cond):
            for op, target in cond.items():
                if op == "$eq":
                    ok = value == target
                elif op == "$ne":
                    ok = value != target
                else:
                    ok = _ordered(value, op, target)
                if not ok:
                    return False
            return True
        return isinstance(value, dict) and all(_matches(value.get(k), v) for k, v in cond.items())
    if isinstance(cond, (list, tuple)):
        return (
            isinstance(value, (list, tuple))
            and len(value) == len(cond)
            and all(_matches(v, c) for v, c in zip(value, cond))
        )
    return bool(value == cond)


def matches(value: dict[str, Any], filter: dict[str, Any] | None) -> bool:
    """Whether an item's value satisfies every condition of ``filter``."""
    if not filter:
        return True
    return all(_matches(value.get(k), cond) for k, cond in filter.items())
