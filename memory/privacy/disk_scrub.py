"""Making deleted bytes leave the disk after a forget, a delete-user or a retention sweep.

SQLite keeps deleted bytes in free pages and in its WAL, and FAISS files keep removed
vectors until rewritten: ``scrub`` touches only what held one user's data (the store's
``scrub(prefix)``, the checkpoint file's WAL), and ``secure_delete_on`` makes the
checkpoint connection zero what it deletes from then on.
"""

from __future__ import annotations

import sqlite3
from contextlib import nullcontext

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from stores.namespaces import UserScope


def secure_delete_on(checkpointer: BaseCheckpointSaver | None) -> bool:
    """Make the checkpoint connection zero what it deletes (a per-connection setting).

    Returns True when it was off: earlier deletes and updates may then have left
    text in free space, which only a VACUUM removes (ours is always on).
    """
    conn = getattr(checkpointer, "conn", None)
    if not isinstance(conn, sqlite3.Connection):
        return False
    was_on = conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
    conn.execute("PRAGMA secure_delete=ON")
    return not was_on


def scrub(
    store: BaseStore, checkpointer: BaseCheckpointSaver | None, scope: UserScope, *, vacuum: bool = False
) -> list[str]:
    """Make deleted bytes leave the disk, touching only what held ``scope``'s data
    (``vacuum``: also rewrite the checkpoint file, see ``secure_delete_on``).
    """
    done = []
    scoped = getattr(store, "scrub", None)
    if callable(scoped):
        scoped(scope.root)
        done.append("store")
    conn = getattr(checkpointer, "conn", None)
    if isinstance(conn, sqlite3.Connection):
        # SqliteSaver serialises its own use of the connection with ``lock``.
        lock = getattr(checkpointer, "lock", None)
        with lock if hasattr(lock, "__enter__") else nullcontext():
            conn.commit()
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if vacuum:
                conn.execute("VACUUM")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        done.append("checkpoints")
    elif callable(getattr(checkpointer, "scrub", None)):  # a server-backed saver (stores/postgres/checkpoint.py)
        checkpointer.scrub()  # type: ignore[union-attr]
        done.append("checkpoints")
    return done


