"""Short-term memory: LangGraph's SQLite checkpointer, one file in the data dir.

The same ``--thread`` after a restart continues the conversation because the
thread state lives in ``checkpoints.sqlite``. ``secure_delete`` is on so that
deleting a thread (forgetting) overwrites its bytes instead of leaving them in
free pages.

With ``redact`` on (the ``redact_input`` setting, default on) every checkpoint and
pending write passes through ``RedactingSerializer`` before it is written: the
user's input is checkpointed before any graph node runs, so redacting in a node
is too late for the file, while the serializer sees every write on every path
(CLI, notebooks, ``langgraph dev``); the metadata column, which the savers write
without the serializer, is redacted by ``RedactingMetadata``. With it off the checkpoint keeps the raw thread.

With ``MEMORY_BACKEND=postgres`` (stores/backend.py) both openers return LangGraph's
Postgres savers on ``POSTGRES_URI`` instead, with the same serializer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from stores.backend import Backend, backend_from_env
from stores.data_dir import DataDirError
from stores.db_errors import open_error
from stores.redaction.saver import RedactingMetadata, continue_checkpoint, continue_conversation
from stores.redaction.scrub import redact_deep

CHECKPOINT_FILE = "checkpoints.sqlite"


class RedactingSerializer(JsonPlusSerializer):
    """LangGraph's serializer, redacting every secret in what it writes.

    A subclass rather than a wrapper, so LangGraph's msgpack allowlist still
    applies to it. Reading is untouched: older checkpoints load as they are.
    """

    redacts = True  # the savers below redact the metadata column too (``RedactingMetadata``)

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        obj = redact_deep(obj)
        if isinstance(obj, dict) and isinstance(obj.get("channel_values"), dict):  # a whole checkpoint
            values = obj["channel_values"]
            clean = continue_checkpoint(values)
            obj = obj if clean is values else {**obj, "channel_values": clean}
        else:  # one channel's value (savers that store channels apart)
            obj = continue_conversation(obj)
        return super().dumps_typed(obj)


class RedactingSqliteSaver(RedactingMetadata, SqliteSaver):
    """``SqliteSaver`` whose metadata column is redacted as well."""


def make_serde(redact: bool) -> SerializerProtocol | None:
    """The serializer for a saver: redacting, or the saver's default (None)."""
    return RedactingSerializer() if redact else None


def checkpoint_path(data_dir: str | Path) -> Path:
    """Where the checkpoint database lives under ``data_dir``."""
    return Path(data_dir) / CHECKPOINT_FILE


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA secure_delete=ON")
    return conn


def open_checkpointer(data_dir: str | Path, *, redact: bool = True, backend: Backend | None = None) -> Any:
    """A sync saver for the CLI and notebooks; the caller closes ``saver.conn``."""
    backend = backend or backend_from_env()
    if backend.is_postgres:
        from stores.postgres.checkpoint import open_postgres_checkpointer

        return open_postgres_checkpointer(backend.uri or "", make_serde(redact))
    path = checkpoint_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        saver = RedactingSqliteSaver(_connect(path), serde=make_serde(redact))
        saver.setup()
    except sqlite3.DatabaseError as err:
        raise DataDirError(open_error(path, "checkpoint database", err)) from None
    return saver


@asynccontextmanager
async def async_checkpointer(
    data_dir: str | Path, *, redact: bool = True, backend: Backend | None = None
) -> AsyncIterator[object]:
    """The async saver ``langgraph dev`` uses (``langgraph.json`` → checkpointer.path)."""
    backend = backend or backend_from_env()
    if backend.is_postgres:
        from stores.postgres.checkpoint import async_postgres_checkpointer

        async with async_postgres_checkpointer(backend.uri or "", make_serde(redact)) as saver:
            yield saver
        return
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    class RedactingAsyncSqliteSaver(RedactingMetadata, AsyncSqliteSaver):
        """``AsyncSqliteSaver`` whose metadata column is redacted as well."""

    path = checkpoint_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(str(path)) as conn:
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA secure_delete=ON")
        saver = RedactingAsyncSqliteSaver(conn, serde=make_serde(redact))
        await saver.setup()
        yield saver
