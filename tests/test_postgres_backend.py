"""The Postgres backend on a real server: its errors, search, transactions and TTL expiry.

The layer, privacy and isolation suites run on both backends through the ``backend``
fixture (tests/conftest.py); this file checks what only the Postgres side has.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import psycopg
import pytest

from models.loader import HashEmbeddings
from stores.open import store_ttl
from stores.postgres import HybridPostgresStore, open_postgres_store
from tests.support import ROOT
from tests.support import cli as in_process
from tests.support.agent_cli import MODELS, Cli

EMB = HashEmbeddings(64)
NS = ("users", "alice", "facts")


def _store(uri: str) -> HybridPostgresStore:
    return open_postgres_store(uri, "hash:64", {"dims": 64, "embed": EMB, "fields": ["text"]}, store_ttl())


def _cli(data: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *MODELS["scripted"], *args]
    return in_process.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**__import__("os").environ, **env})


@pytest.mark.parametrize(("env", "message"), [
    ({"MEMORY_BACKEND": "postgres", "POSTGRES_URI": "postgresql://me:s3cret@127.0.0.1:1/mem"}, "cannot reach Postgres at 127.0.0.1:1/mem"),
    ({"MEMORY_BACKEND": "postgres", "POSTGRES_URI": ""}, "MEMORY_BACKEND=postgres needs POSTGRES_URI"),
    ({"MEMORY_BACKEND": "mongo"}, "MEMORY_BACKEND='mongo' is not one of local, postgres"),
])
def test_backend_errors_are_one_line(tmp_path: Path, env: dict[str, str], message: str) -> None:
    done = _cli(tmp_path / "data", env, "memories", "--user", "alice")
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "s3cret" not in done.stderr


def test_another_embedding_model_is_refused_and_nothing_is_lost(tmp_path: Path, pg_database) -> None:
    env = pg_database.env
    cli = Cli(tmp_path / "data", MODELS["scripted"])
    for name, value in env.items():
        __import__("os").environ[name] = value
    try:
        cli.chat("alice", "s1", "I'm vegetarian.", "/end")
        other = ["--chat-model", "scripted", "--embedding-model", "hash:64"]
        done = in_process.run([sys.executable, "-m", "app.cli", "--data-dir", str(tmp_path / "data"), *other,
                               "memories", "--user", "alice"], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 2 and "holds vectors from embedding model 'hash:384', not 'hash:64'" in done.stderr
        assert "vegetarian" in str(cli.export("alice")["profile"]["current"])
    finally:
        __import__("os").environ["MEMORY_BACKEND"] = "local"


def test_missing_pgvector_is_one_line_error(pg_admin: str) -> None:
    """A database without pgvector, opened by a role that may not create it."""
    from psycopg.conninfo import make_conninfo

    from stores.postgres.connect import PostgresUnavailable

    with psycopg.connect(pg_admin, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS novector WITH (FORCE)")
        conn.execute("DROP ROLE IF EXISTS plain")
        conn.execute("CREATE ROLE plain LOGIN")
        conn.execute("CREATE DATABASE novector TEMPLATE template0 OWNER plain")
    try:
        with pytest.raises(PostgresUnavailable, match="pgvector") as err:
            _store(make_conninfo(pg_admin, dbname="novector", user="plain"))
        assert "\n" not in str(err.value)
    finally:
        with psycopg.connect(pg_admin, autocommit=True) as conn:
            conn.execute("DROP DATABASE novector WITH (FORCE)")
            conn.execute("DROP ROLE plain")


def test_search_fuses_words_with_vectors_and_scores_by_cosine(pg_database) -> None:
    with _store(pg_database.uri) as store:
        for i in range(40):
            store.put(NS, f"f{i}", {"text": f"note number {i} about the weather and the garden"})
        store.put(NS, "rare", {"text": "my grandmother came from Tbilisi"})
        hits = store.search(NS, query="which city is Tbilisi", limit=3)
        assert hits[0].key == "rare"
        want = float(np.dot(EMB.embed_query("which city is Tbilisi"), EMB.embed_query("my grandmother came from Tbilisi")))
        assert hits[0].score == pytest.approx(want, abs=1e-5)
        # Unindexing an item drops its vector and its words: it follows unscored.
        store.put(NS, "rare", {"text": "my grandmother came from Tbilisi"}, index=False)
        hits = store.search(NS, query="Tbilisi", limit=50)
        assert [h.key for h in hits if h.score is None] == ["rare"]
        assert store.search(("users", "bob"), query="Tbilisi", limit=5) == []


def test_atomic_update_loses_no_concurrent_update(pg_database) -> None:
    with _store(pg_database.uri) as store:
        def bump() -> None:
            for _ in range(10):
                store.atomic_update(NS, "counter", lambda cur: {"n": (cur or {}).get("n", 0) + 1})

        threads = [threading.Thread(target=bump) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert store.get(NS, "counter").value == {"n": 60}


def test_expire_removes_expired_episodes_from_the_database(tmp_path: Path, pg_database, monkeypatch) -> None:
    for name, value in pg_database.env.items():
        monkeypatch.setenv(name, value)
    data = tmp_path / "data"
    cli = Cli(data, MODELS["scripted"])
    monkeypatch.setenv("MEMORY_EPISODE_TTL_DAYS", "0.000001")  # about 0.09 s
    cli.chat("alice", "t1", "I booked the ryokan in Kyoto for October.", "/end")
    monkeypatch.delenv("MEMORY_EPISODE_TTL_DAYS")
    with psycopg.connect(pg_database.uri) as conn:
        (key,) = conn.execute("SELECT key FROM store WHERE prefix = 'users.alice.episodes'").fetchone()
    assert pg_database.files_containing(data, key.encode()) != []  # in the database until swept
    said = cli.run("expire")
    assert said.startswith("1 expired item(s) removed from Postgres at ") and pg_database.dbname in said, said
    assert str(data) not in said  # nothing was removed from the data dir
    assert pg_database.files_containing(data, key.encode()) == []
    assert cli.export("alice")["episodes"] == []
    assert cli.export("alice")["messages"]["total"] == 2


def test_search_scope_keeps_out_users_whose_id_extends_another(pg_database) -> None:
    """'al-x', 'al+x' and 'al_x' sort inside the byte range of 'al' and its children; none is 'al'."""
    with _store(pg_database.uri) as store:
        for user in ("al", "al-x", "al+x", "al_x", "al@x", "alx"):
            store.put(("users", user), "k", {"text": f"garden note of {user}"})
            store.put(("users", user, "facts"), "k", {"text": f"garden fact of {user}"})
        for query in ("garden", None):
            hits = store.search(("users", "al"), query=query, limit=50)
            assert sorted(h.namespace for h in hits) == [("users", "al"), ("users", "al", "facts")]


def test_both_backends_rank_one_search_alike(tmp_path: Path, pg_database) -> None:
    """Same items, same query, same order: a word in most documents weighs nothing on either side,
    ties go to the newest, and the dense ranking covers the lexical side's candidates too.
    """
    from langgraph.store.base import PutOp

    from stores.faiss_sqlite import FaissSqliteStore

    ops = [PutOp(NS, f"m{i:03d}", {"text": f"in the garden today {'tulips ' if i % 40 == 7 else ''}note {i}"})
           for i in range(260)]
    ops += [PutOp(NS, f"r{i}", {"text": text}) for i, text in enumerate(
        ["red tulips by the fence", "the tulips opened", "planted tulips with my aunt"])]
    local = FaissSqliteStore(tmp_path / "store", index={"dims": 64, "embed": EMB, "fields": ["text"]})  # type: ignore[typeddict-item]
    with _store(pg_database.uri) as pg:
        for store in (local, pg):
            store.batch(ops)
        for query in ("garden tulips", "tulips by the fence", "which note was about tulips"):
            assert [h.key for h in pg.search(NS, query=query, limit=10)] == \
                [h.key for h in local.search(NS, query=query, limit=10)], query
    local.close()
