"""Short-term memory on Postgres: LangGraph's Postgres savers with our redacting serializer.

The savers get ``serde=`` from stores/checkpointer.py (``RedactingSerializer``), so
secrets are redacted before a checkpoint reaches the server, as with SQLite. Forgetting
deletes a thread's rows (``delete_thread``); ``scrub()`` then rewrites the checkpoint
tables (``VACUUM FULL``) so the deleted rows leave no bytes behind, and statistics are
off for the columns that hold conversation data, so no sample of it lands in pg_statistic.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.serde.base import SerializerProtocol

from stores.redaction.saver import RedactingMetadata

from .connect import open_async_pool, open_pool

CHECKPOINT_TABLES = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
PRIVATE_COLUMNS = (("checkpoints", "checkpoint"), ("checkpoints", "metadata"),
                   ("checkpoint_blobs", "blob"), ("checkpoint_writes", "blob"))
SETUP_LOCK = 0x6D656D63  # advisory lock key: one process runs the migrations at a time
NO_STATS = [f"ALTER TABLE {t} ALTER COLUMN {c} SET STATISTICS 0" for t, c in PRIVATE_COLUMNS]
VACUUM = [f"VACUUM FULL {t}" for t in CHECKPOINT_TABLES]


class ScrubbingPostgresSaver(RedactingMetadata, PostgresSaver):
    """``PostgresSaver`` on a pool whose ``scrub()`` makes deleted threads physically gone."""

    def setup(self) -> None:
        """LangGraph's migrations, then statistics off on the data columns; under a lock."""
        with self.conn.connection() as lock_conn:  # type: ignore[operator]
            lock_conn.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK,))
            try:
                super().setup()
                with self.conn.connection() as conn:  # type: ignore[operator]
                    for sql in NO_STATS:
                        conn.execute(sql)
            finally:
                lock_conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))

    def scrub(self) -> None:
        """Rewrite the checkpoint tables (heap, TOAST, indexes) so deleted threads leave no bytes."""
        with self.conn.connection() as conn:  # type: ignore[operator]
            for sql in VACUUM:
                conn.execute(sql)


class ScrubbingAsyncPostgresSaver(RedactingMetadata, AsyncPostgresSaver):
    """The async saver for ``langgraph dev``; ``scrub()`` may be called from a worker thread."""

    async def setup(self) -> None:
        async with self.conn.connection() as lock_conn:  # type: ignore[operator]
            await lock_conn.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK,))
            try:
                await super().setup()
                async with self.conn.connection() as conn:  # type: ignore[operator]
                    for sql in NO_STATS:
                        await conn.execute(sql)
            finally:
                await lock_conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))

    async def ascrub(self) -> None:
        async with self.conn.connection() as conn:  # type: ignore[operator]
            for sql in VACUUM:
                await conn.execute(sql)

    def scrub(self) -> None:
        """Bridge to ``ascrub`` on the saver's loop (sync privacy code runs in a worker thread)."""
        asyncio.run_coroutine_threadsafe(self.ascrub(), self.loop).result()


def open_postgres_checkpointer(uri: str, serde: SerializerProtocol | None) -> ScrubbingPostgresSaver:
    """A sync saver on a pool (CLI, notebooks); ``saver.conn.close()`` closes the pool."""
    pool = open_pool(uri)
    try:
        saver = ScrubbingPostgresSaver(pool, serde=serde)  # type: ignore[arg-type]
        saver.setup()
    except Exception:
        pool.close()
        raise
    return saver


@asynccontextmanager
async def async_postgres_checkpointer(uri: str, serde: SerializerProtocol | None) -> AsyncIterator[object]:
    """The async saver ``langgraph dev`` uses, on an async pool closed on shutdown."""
    pool = await open_async_pool(uri)
    try:
        saver = ScrubbingAsyncPostgresSaver(pool, serde=serde)  # type: ignore[arg-type]
        await saver.setup()
        yield saver
    finally:
        await pool.close()
