"""Entry points for ``langgraph dev`` / LangGraph Server (named in langgraph.json).

``graph`` is compiled WITHOUT a checkpointer or store: ``langgraph dev`` refuses
a module-level graph that brings its own, and injects persistence instead.
``make_store`` and ``make_checkpointer`` are what ``langgraph.json`` names, so
the dev server persists into our FAISS + SQLite store and SQLite checkpointer in
``MEMORY_DATA_DIR`` — the same files the CLI and the notebooks use.

Both factories are async context managers that do their file and SQLite work
in a worker thread: the dev server runs them on its event loop, where blocking
calls raise (unless ``--allow-blocking``, which we do not want to require), and
it exits them on shutdown, which is when the store is flushed and closed.

The store and its embedding model are chosen once, at server start, from the
environment (``.env``): a run's ``context`` picks the user, chat model, weights
and so on, but cannot move the server to another data dir or embedding model,
nor switch off ``redact_input`` (the graph's context schema here is
``RunContext``, which has no such fields, and the checkpointer's redacting
serializer is set here). Expired memories are swept when the store opens and every
``SWEEP_MINUTES`` after (LangGraph's own sweeper skips custom stores); so is what
users said before their retention limit (``MEMORY_RETENTION_DAYS``, or a user's own
shorter one: memory/privacy/retention_sweep.py).

With ``MEMORY_BACKEND=postgres`` and ``POSTGRES_URI`` in the server's environment both
factories open the Postgres store and checkpointer instead (``open_store`` and
``async_checkpointer`` choose), so several server workers can share one memory.

On LangGraph Server proper, drop ``store`` and ``checkpointer`` from
langgraph.json: the server's Postgres store and checkpointer take over, and the
graph does not change (the layers only use the ``BaseStore`` API).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from core.context import Context
from core.run_context import RunContext
from graph.builder import build_graph
from memory.privacy.retention_sweep import sweep_retention
from stores.checkpointer import async_checkpointer
from stores.data_dir import prepare_data_dir
from stores.open import open_store
from stores.redaction.saver import serve

SWEEP_MINUTES = 60.0
log = logging.getLogger("memory.studio")  # langgraph loads this file under a random module name

# What Studio shows and clients may send as context: per-run settings only.
graph = build_graph(context_schema=RunContext).compile()
graph.name = "memory-agent"


def _server_context() -> Context:
    """The context from the server's environment (reads .env; blocking, so run off-loop)."""
    return Context()


@asynccontextmanager
async def make_store() -> AsyncIterator[BaseStore]:
    """Our long-term store in the data dir, opened and closed off the event loop."""
    ctx = await asyncio.to_thread(_server_context)
    store = await asyncio.to_thread(lambda: open_store(ctx.data_dir, ctx.embedding_model, sweep_minutes=SWEEP_MINUTES))
    log.info("memory store opened in %s (embeddings: %s)", ctx.data_dir, ctx.embedding_model)
    sweeping = threading.Lock()  # held by a retention sweep; closing waits for it
    timer = asyncio.create_task(_retention_timer(store, ctx, sweeping))
    try:
        yield store
    finally:
        timer.cancel()
        await asyncio.to_thread(sweeping.acquire)
        close = getattr(store, "close", None)
        if close is not None:
            await asyncio.to_thread(close)
        log.info("memory store closed")


def _sweep_locked(store: BaseStore, ctx: Context, sweeping: threading.Lock) -> list:
    with sweeping:
        return sweep_retention(store, ctx)


async def _retention_timer(store: BaseStore, ctx: Context, sweeping: threading.Lock) -> None:
    """Enforce every user's retention limit now and every ``SWEEP_MINUTES`` (off the event loop)."""
    while True:
        try:
            done = await asyncio.to_thread(_sweep_locked, store, ctx, sweeping)
            for report in done:
                log.info("%s", report)
        except Exception:  # a failed sweep loses nothing; the next one tries again
            log.exception("retention sweep failed")
        await asyncio.sleep(SWEEP_MINUTES * 60)


@asynccontextmanager
async def make_checkpointer() -> AsyncIterator[BaseCheckpointSaver]:
    """The SQLite checkpointer (``checkpoints.sqlite``) in the same data dir, or the Postgres one."""
    ctx = await asyncio.to_thread(_server_context)
    root = await asyncio.to_thread(prepare_data_dir, ctx.data_dir)
    async with async_checkpointer(root, redact=ctx.redact_input) as saver:
        serve(saver)  # graph/auth.py reads a thread's last message to finish a key split over two runs
        yield saver  # type: ignore[misc]
