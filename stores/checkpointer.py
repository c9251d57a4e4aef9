"""Short-term memory: LangGraph's SQLite checkpointer, one file in the data dir.

The same ``--thread`` after a restart continues the conversation because the
thread state lives in ``checkpoints.sqlite``. ``secure_delete`` is on so that
deleting a thread (forgetting) overwrites its bytes instead of leaving them in
free pages.
"""

from __future__ import annotations

import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from langgraph.checkpoint.sqlite import SqliteSaver

from stores.data_dir import DataDirError

CHECKPOINT_FILE = "checkpoints.sqlite"


def checkpoint_path(data_dir: str | Path) -> Path:
    return Path(data_dir) / CHECKPOINT_FILE


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA secure_delete=ON")
    return conn


def open_checkpointer(data_dir: str | Path) -> SqliteSaver:
    """A sync saver for the CLI and notebooks; the caller closes ``saver.conn``."""
    path = checkpoint_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        saver = SqliteSaver(_connect(path))
        saver.setup()
    except sqlite3.DatabaseError as err:
        raise DataDirError(
            f"{path} is not a readable checkpoint database ({err}); nothing was changed. "
            "Move it aside or choose another --data-dir."
        ) from None
    return saver


@asynccontextmanager
async def async_checkpointer(data_dir: str | Path) -> AsyncIterator[object]:
    """The async saver ``langgraph dev`` uses (``langgraph.json`` → checkpointer.path)."""
    import aiosqlite
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    path = checkpoint_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(str(path)) as conn:
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA secure_delete=ON")
        saver = AsyncSqliteSaver(conn)
        await saver.setup()
        yield saver
