"""Batch recall: a JSONL file of queries in, a JSONL stream of recalled memories out.

Contract (docs/architecture.md, "Public contracts"). Input lines are
``{"id", "query", "time"?}`` (``QueryLine``); other fields are ignored, so a
benchmark's query file (with answers and evidence) is valid input. Output lines
are ``{"id", "results": [{"kind", "text", "score", "sources"}]}`` sorted best first, ranked by
``memory.search_rank`` (as the MCP ``recall`` tool), ``kind`` from memory/kinds.py.
A query's ``time`` becomes the layers' "now", so recency is
measured from when the question was asked, not from when the batch runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from memory.jsonl import JsonlLineError, NonBlankStr, OptionalIsoTime, line_byte_cap, parse_lines, read_lines
from memory.kinds import check_kinds
from memory.layers.base import LayerEnv, MemoryLayer, Recalled
from memory.search_rank import rank_memories


class QueryLineError(JsonlLineError):
    """A malformed query line; no query was run."""


class QueryLine(BaseModel):
    """One query line: what to look up, and optionally when it is asked (other fields are ignored)."""

    model_config = ConfigDict(frozen=True)

    id: NonBlankStr
    query: NonBlankStr
    time: OptionalIsoTime = None


def parse_queries(lines: Iterable[str], source: str = "<queries>") -> list[QueryLine]:
    """Every line validated first (blank lines skipped), so a bad line runs nothing."""
    return [query for _, query in parse_lines(lines, QueryLine, source, QueryLineError)]


def validate_kind(kind: str | None) -> str | None:
    """Return ``kind`` if it is ``None`` or in the vocabulary (memory/kinds.py), else raise ``UnknownKind``."""
    check_kinds(None if kind is None else [kind])
    return kind


def _result(item: Recalled) -> dict[str, Any]:
    return {"kind": item.kind, "text": item.text, "score": round(float(item.score), 6), "sources": list(item.sources)}


def recall_one(
    env: LayerEnv, layers: Sequence[MemoryLayer], query: str, k: int, kind: str | None = None
) -> list[dict[str, Any]]:
    """The ``k`` best results over all layers, as output-contract dicts."""
    ranked = rank_memories(env, layers, query, k, None if kind is None else [kind])
    return [_result(item) for item in ranked]


def recall_queries(
    path_or_lines: str | Path | Iterable[str],
    env: LayerEnv,
    layers: Sequence[MemoryLayer],
    k: int,
    kind: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Output records, one per query, in input order. Validation happens before the first yield."""
    validate_kind(kind)
    if isinstance(path_or_lines, (str, Path)):
        cap = line_byte_cap(env.context.max_message_chars)
        queries = parse_queries(read_lines(path_or_lines, cap, QueryLineError), source=str(path_or_lines))
    else:
        queries = parse_queries(path_or_lines)
    return _run(queries, env, layers, k, kind)


def _run(
    queries: list[QueryLine], env: LayerEnv, layers: Sequence[MemoryLayer], k: int, kind: str | None
) -> Iterator[dict[str, Any]]:
    for q in queries:
        q_env = dataclasses.replace(env, now=q.time) if q.time is not None else env
        yield {"id": q.id, "results": recall_one(q_env, layers, q.query, k, kind)}
