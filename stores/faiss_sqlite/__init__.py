"""A LangGraph ``BaseStore`` on SQLite (source of truth) and FAISS (per-namespace index).

See ``store.py`` for the public class and ``DESIGN.md`` section 2 for why.
"""

from .store import FaissSqliteStore

__all__ = ["FaissSqliteStore"]
