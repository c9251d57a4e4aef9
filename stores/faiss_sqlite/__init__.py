"""A LangGraph ``BaseStore`` on SQLite (source of truth) and FAISS (per-namespace index).

See ``store.py`` for the public class and ``docs/architecture.md`` ("Stores") for why.
"""

from .store import FaissSqliteStore

__all__ = ["FaissSqliteStore"]
