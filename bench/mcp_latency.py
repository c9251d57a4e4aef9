"""Tool-call latency of the MCP server: recall and remember, in-process, over stdio and over HTTP.

    python -m bench.mcp_latency --memories 10000 --calls 50

Seeds one user with ``--memories`` logged messages (the message log, plus the
facts the write policy extracts from them) through ``McpMemory.log_turn``, then
times the same ``recall`` and ``remember`` calls three ways: ``McpMemory`` in
this process (no protocol), the SDK's stdio client on ``memory-agent mcp``, and
its HTTP client on ``memory-agent mcp --http`` (loopback, a bearer token). Hash
embeddings and the scripted model, so the figures are the memory's and the
transport's, not a model's. Prints one JSON line per (transport, tool).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from app.mcp_memory import McpMemory
from app.runtime import MemoryAgent
from core.context import Context
from tests.support.mcp_client import http_server, http_session, stdio_session

USER = "bench-user"
TOPICS = ("ferns", "trains", "violins", "tides", "glaciers", "lanterns", "orchards", "comets")


def _seed(data_dir: Path, n: int) -> None:
    ctx = Context(user_id=USER, data_dir=str(data_dir), chat_model="scripted", embedding_model="hash:384",
                  consolidation_delay_s=0.0)
    with MemoryAgent(ctx) as agent:
        memory = McpMemory(agent)
        for i in range(n):
            memory.log_turn(USER, "user", f"Note {i}: I spent day {i} reading about {TOPICS[i % len(TOPICS)]}.")


def _figures(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {"p50_ms": round(statistics.median(ms), 2), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 2)}


async def _time(fn: Callable[[int], Awaitable[object]], calls: int) -> dict[str, float]:
    samples = []
    for i in range(calls):
        start = time.perf_counter()
        await fn(i)
        samples.append(time.perf_counter() - start)
    return _figures(samples)


async def _over(session: object, calls: int) -> dict[str, dict[str, float]]:
    call = session.call_tool  # type: ignore[attr-defined]
    return {
        "recall": await _time(lambda i: call("recall", {"query": f"what did I read about {TOPICS[i % 8]}?"}), calls),
        "remember": await _time(lambda i: call("remember", {"text": f"My locker number is {1000 + i}."}), calls),
    }


async def _http(data_dir: Path, calls: int) -> dict[str, dict[str, float]]:
    with http_server(data_dir, "tok-bench=" + USER) as url:
        async with http_session(url, "tok-bench") as s:
            return await _over(s, calls)


def main() -> None:
    """Seed, then time each transport; one JSON line per transport and tool."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--memories", type=int, default=10_000)
    p.add_argument("--calls", type=int, default=50)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        started = time.perf_counter()
        _seed(data, args.memories)
        seeded = round(time.perf_counter() - started, 1)
        ctx = Context(user_id=USER, data_dir=str(data), chat_model="scripted", embedding_model="hash:384",
                      consolidation_delay_s=0.0)
        with MemoryAgent(ctx) as agent:
            memory = McpMemory(agent)

            async def local() -> dict[str, dict[str, float]]:
                async def recall(i: int) -> object:
                    return memory.recall(USER, f"what did I read about {TOPICS[i % 8]}?")

                async def remember(i: int) -> object:
                    return memory.remember(USER, f"My locker number is {2000 + i}.")

                return {"recall": await _time(recall, args.calls), "remember": await _time(remember, args.calls)}

            results = {"in-process": asyncio.run(local())}

        async def stdio() -> dict[str, dict[str, float]]:
            async with stdio_session(data, USER) as s:
                return await _over(s, args.calls)

        results["stdio"] = asyncio.run(stdio())
        results["http"] = asyncio.run(_http(data, args.calls))
    for transport, tools in results.items():
        for tool, figures in tools.items():
            print(json.dumps({"transport": transport, "tool": tool, "memories": args.memories,
                              "calls": args.calls, "seed_s": seeded, **figures}))


if __name__ == "__main__":
    main()
