"""Which persistence backend this process uses: ``local`` files or a ``postgres`` server.

A server setting, read from the environment (``MEMORY_BACKEND``, ``POSTGRES_URI``; a
``.env`` file is loaded by ``Context``), never from a run's context: one deployment
writes to one place. The CLI, the notebooks (through ``MemoryAgent``) and ``langgraph
dev`` (through graph/studio.py) all ask here, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import settings
from stores.data_dir import DataDirError

BACKENDS = ("local", "postgres")


@dataclass(frozen=True)
class Backend:
    """The chosen backend and, for ``postgres``, the server's connection URI."""

    kind: str = "local"
    uri: str | None = None

    @property
    def is_postgres(self) -> bool:
        return self.kind == "postgres"


def backend_from_env() -> Backend:
    """``MEMORY_BACKEND`` (default ``local``) and ``POSTGRES_URI``, checked with a one-line error."""
    kind = settings.BACKEND.read().lower()
    if kind not in BACKENDS:
        raise DataDirError(f"MEMORY_BACKEND={kind!r} is not one of {', '.join(BACKENDS)}")
    if kind == "local":
        return Backend()
    uri = settings.POSTGRES_URI.read()
    if not uri:
        raise DataDirError("MEMORY_BACKEND=postgres needs POSTGRES_URI (e.g. postgresql://user:pass@host:5432/db)")
    return Backend("postgres", uri)
