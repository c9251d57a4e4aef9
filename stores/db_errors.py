"""What an SQLite error on opening a data dir's database means, and what to do about it.

Every open used to call any ``sqlite3.DatabaseError`` unreadable and advise
moving the store aside, also on a full or read-only disk, where the file is
intact and moving it is the wrong thing to do. SQLite's own error code tells
them apart (``sqlite_errorcode``; the low byte is the primary code).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

FULL, READONLY, PERM, CANTOPEN, IOERR, BUSY, LOCKED, CORRUPT, NOTADB = 13, 8, 3, 14, 10, 5, 6, 11, 26
_ADVICE = {
    FULL: "the disk is full; the file is intact: free some space and run it again",
    READONLY: "the disk or file is read-only; the file is intact: make it writable, or use another --data-dir",
    PERM: "permission denied; the file is intact: give this user access, or use another --data-dir",
    CANTOPEN: "it cannot be opened (a missing folder or permission); check the path and its permissions",
    IOERR: "the disk reported an I/O error; check the disk before you touch the file",
    BUSY: "another process holds it locked; try again when it is done",
    LOCKED: "another process holds it locked; try again when it is done",
}
DAMAGED = "Move it aside or choose another --data-dir."


def open_error(path: Path, what: str, err: sqlite3.DatabaseError) -> str:
    """One line for ``err`` raised while opening ``path`` (``what``: "memory store", "checkpoint database")."""
    code = (getattr(err, "sqlite_errorcode", None) or 0) & 0xFF
    if code in _ADVICE:
        return f"{path}: could not open the {what} ({err}): {_ADVICE[code]}; nothing was changed."
    if code in (CORRUPT, NOTADB) or not isinstance(err, sqlite3.OperationalError):
        return f"{path} does not hold a readable {what} ({err}); nothing was changed. {DAMAGED}"
    return f"{path}: could not open the {what} ({err}); nothing was changed."
