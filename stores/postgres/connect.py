"""Connecting to the Postgres server: a pool, and checks that fail with one clear line.

Before anything is created we prove that the server answers, that pgvector can be
used, and that the memory already there was embedded with the same model: vectors of
two models are not comparable, so a silent switch would corrupt search (the local
data dir guards the same way, see stores/data_dir.py ``check_embedding_model``).
"""

from __future__ import annotations

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from stores.data_dir import DataDirError

CONNECT_TIMEOUT_S = 10
POOL_MAX = 16
# Every connection as LangGraph's Postgres savers and store expect them.
CONN_KWARGS = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
META_DDL = "CREATE TABLE IF NOT EXISTS memory_meta (k text PRIMARY KEY, v text NOT NULL)"


class PostgresUnavailable(DataDirError):
    """The Postgres backend cannot be used; the message says why and what to do."""


def where(uri: str) -> str:
    """The server named by ``uri`` without its password, for messages."""
    try:
        parts = conninfo_to_dict(uri)
    except psycopg.ProgrammingError:
        return "the server in POSTGRES_URI"
    host = parts.get("host") or "localhost"
    return f"{host}:{parts.get('port') or 5432}/{parts.get('dbname') or ''}"


def check_server(uri: str) -> None:
    """Prove the server answers and has pgvector (created here if it may be)."""
    try:
        with psycopg.connect(uri, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True) as conn:
            have = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
            if have:
                return
            if not conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone():
                raise PostgresUnavailable(
                    f"Postgres at {where(uri)} has no pgvector extension; install pgvector on the server "
                    "(managed services: enable the 'vector' extension)"
                )
            try:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.Error as err:
                raise PostgresUnavailable(
                    f"cannot enable pgvector on {where(uri)} ({_first_line(err)}); "
                    "ask an admin to run: CREATE EXTENSION vector;"
                ) from None
    except psycopg.OperationalError as err:
        raise PostgresUnavailable(
            f"cannot reach Postgres at {where(uri)} ({_first_line(err)}); check POSTGRES_URI and that the server is up"
        ) from None


def check_embedding_model(pool: ConnectionPool, spec: str) -> None:
    """Record the embedding model on first use; refuse another one later."""
    with pool.connection() as conn:
        conn.execute(META_DDL)
        conn.execute("INSERT INTO memory_meta (k, v) VALUES ('embedding_model', %s) ON CONFLICT DO NOTHING", (spec,))
        row = conn.execute("SELECT v FROM memory_meta WHERE k = 'embedding_model'").fetchone()
    recorded = row["v"] if row else spec  # type: ignore[call-overload]
    if recorded != spec:
        raise PostgresUnavailable(
            f"the Postgres memory holds vectors from embedding model {recorded!r}, not {spec!r}; "
            "use the same MEMORY_EMBEDDING_MODEL, or another database (and import there)"
        )


def open_pool(uri: str, max_size: int = POOL_MAX) -> ConnectionPool:
    """A connection pool to ``uri``, opened (the server was checked just before)."""
    check_server(uri)
    pool = ConnectionPool(uri, min_size=1, max_size=max_size, kwargs=dict(CONN_KWARGS), open=False)
    try:
        pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except Exception as err:
        pool.close()
        raise PostgresUnavailable(f"cannot open a connection pool to {where(uri)} ({_first_line(err)})") from None
    return pool


async def open_async_pool(uri: str, max_size: int = POOL_MAX) -> AsyncConnectionPool:
    """The async twin of ``open_pool``, for the ``langgraph dev`` server's checkpointer."""
    import asyncio

    await asyncio.to_thread(check_server, uri)
    pool = AsyncConnectionPool(uri, min_size=1, max_size=max_size, kwargs=dict(CONN_KWARGS), open=False)
    try:
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except Exception as err:
        await pool.close()
        raise PostgresUnavailable(f"cannot open a connection pool to {where(uri)} ({_first_line(err)})") from None
    return pool


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
