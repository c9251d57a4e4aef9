"""Batch recall: a JSONL file of queries in, a JSONL stream of recalled memories out.

Contract (docs/architecture.md, "Public contracts"). Input lines are
``{"id", "query", "time"?}`` (``QueryLine``); other fields are ignored, so a
benchmark's query file (with answers and evidence) is valid input. Output lines
are ``{"id", "results": [{"kind", "text", "score", "sources"}]}`` sorted best first.
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
from memory.layers.base import LayerEnv, MemoryLayer, Recalled

OUTPUT_KINDS = ("message", "fact", "episode", "rule")

# Layer kinds as the output contract names them; "summary" (the working thread) is
# not long-term memory and is left out.
_KIND_OF: dict[str, str] = {
    "message": "message", "fact": "fact", "profile": "fact", "episode": "episode", "rule": "rule"
}


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
    """Return ``kind`` if it is ``None`` or an output kind, else raise ``ValueError``."""
    if kind is not None and kind not in OUTPUT_KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(OUTPUT_KINDS)}")
    return kind


def _result(item: Recalled, kind: str) -> dict[str, Any]:
    return {"kind": kind, "text": item.text, "score": round(float(item.score), 6), "sources": list(item.sources)}


def recall_ranked(
    env: LayerEnv, layers: Sequence[MemoryLayer], query: str, k: int, kinds: Iterable[str] | None = None
) -> list[tuple[str, Recalled]]:
    """The ``k`` best memories over all layers, best first, each with its output kind.

    ``kinds`` keeps only those output kinds (None: all). The CLI's ``recall`` and the
    MCP ``recall`` tool both rank through here, so they agree on what is best.
    """
    if k <= 0:
        raise ValueError("k must be positive")
    wanted = None if kinds is None else {validate_kind(kind) for kind in kinds}
    env = dataclasses.replace(env, context=dataclasses.replace(env.context, top_k=k))
    merged: list[tuple[str, Recalled]] = []
    for layer in layers:
        for item in layer.recall(env, query):
            out_kind = _KIND_OF.get(item.kind)
            if out_kind is None or (wanted is not None and out_kind not in wanted):
                continue
            merged.append((out_kind, item))
    merged.sort(key=lambda pair: pair[1].score, reverse=True)  # stable: ties keep layer order
    return merged[:k]


def recall_one(
    env: LayerEnv, layers: Sequence[MemoryLayer], query: str, k: int, kind: str | None = None
) -> list[dict[str, Any]]:
    """The ``k`` best results over all layers, as output-contract dicts."""
    ranked = recall_ranked(env, layers, query, k, None if kind is None else [kind])
    return [_result(item, out_kind) for out_kind, item in ranked]


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
