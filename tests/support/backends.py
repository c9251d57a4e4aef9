"""The storage backends as a test sees them (the fixtures that give them are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore


@dataclass
class BackendUnderTest:
    """One backend as a test sees it: its name, its env, and a byte search of its files."""

    kind: str
    uri: str | None = None
    admin_uri: str | None = None
    dbname: str | None = None

    @property
    def env(self) -> dict[str, str]:
        return {"MEMORY_BACKEND": self.kind, **({"POSTGRES_URI": self.uri} if self.uri else {})}

    def files_containing(self, data_dir: Path, needle: bytes) -> list[str]:
        """Files holding ``needle`` (any case): the data dir's, and on Postgres the database's
        own files (tables, TOAST, indexes, its catalogs), read through the server after a CHECKPOINT.
        """
        found = [str(p) for p in data_dir.rglob("*") if p.is_file() and needle.lower() in p.read_bytes().lower()]
        if self.kind != "postgres":
            return found
        import psycopg

        with psycopg.connect(self.admin_uri, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
            (oid,) = conn.execute("SELECT oid FROM pg_database WHERE datname = %s", (self.dbname,)).fetchone()
            for (name,) in conn.execute("SELECT pg_ls_dir(%s)", (f"base/{oid}",)).fetchall():
                blob = conn.execute("SELECT pg_read_binary_file(%s, true)", (f"base/{oid}/{name}",)).fetchone()[0]
                if blob and needle.lower() in bytes(blob).lower():
                    found.append(f"postgres:base/{oid}/{name}")
        return found


def empty_database(admin_uri: str, dbname: str) -> None:
    """As good as a fresh database, in tens of ms (CREATE + DROP DATABASE cost ~0.3 s a test).

    Leftover sessions are ended, every table is truncated (new files; the old ones are cut to
    zero bytes at commit), and the vector table is dropped with its migration record, so the
    next store creates it with its own dimension.
    """
    import psycopg
    from psycopg.conninfo import make_conninfo

    with psycopg.connect(admin_uri, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                     "AND pid <> pg_backend_pid()", (dbname,))
    with psycopg.connect(make_conninfo(admin_uri, dbname=dbname), autocommit=True) as conn:
        conn.execute("SET lock_timeout = '10s'")
        conn.execute("DROP TABLE IF EXISTS store_vectors, vector_migrations CASCADE")
        tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                             "AND tablename NOT LIKE '%migrations'")]
        if tables:
            conn.execute(f"TRUNCATE {', '.join(tables)} CASCADE")


def use_backend(kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> BackendUnderTest:
    """Point this test (and the CLIs it starts) at backend ``kind``; for fixtures with params of their own."""
    chosen = request.getfixturevalue("pg_database") if kind == "postgres" else BackendUnderTest("local")
    for name, value in chosen.env.items():
        monkeypatch.setenv(name, value)
    return chosen


StoreOn = Callable[..., BaseStore]  # what ``backend_store`` gives: open_one(dims=384)
