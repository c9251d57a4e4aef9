"""Forget and delete-user leave no bytes behind and leave other users intact.

Each test writes two users' memories into every place memory lives (store
namespaces, memory files, checkpointed threads in a real SQLite file), runs the
privacy operation, closes everything and byte-searches every file under the
data dir, -wal/-shm and index files included. A message, episode and thread that
say two things lose only the forgotten one: its bytes are gone, the other's stay.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from memory.privacy.forget import UserData, delete_user, forget
from memory.tools.memory_files import MemoryFiles
from models.loader import HashEmbeddings
from stores.namespaces import EPISODES, FACTS, MESSAGES, PROFILE, PROFILE_HISTORY, RULES, THREADS, UserScope

ALICE, BOB = UserScope("alice"), UserScope("bob")
A_MARK, B_MARK = "zebracorn7731", "quokkafest4410"
EMB = HashEmbeddings(64)
NOW = "2025-01-02T03:04:05+00:00"


def _open_store(kind: str, data_dir: Path, uri: str | None = None) -> BaseStore:
    index = {"dims": 64, "embed": EMB, "fields": ["text"]}
    if kind == "memory":
        return InMemoryStore(index=index)
    if kind == "postgres":
        from stores.open import store_ttl
        from stores.postgres import open_postgres_store

        return open_postgres_store(uri or "", "hash:64", index, store_ttl())
    store_cls = getattr(pytest.importorskip("stores.faiss_sqlite"), "FaissSqliteStore", None)
    if store_cls is None:
        pytest.skip("stores.faiss_sqlite.FaissSqliteStore is not written yet")
    return store_cls(data_dir / "store", index=index)


def _close(store: BaseStore, saver: SqliteSaver) -> None:
    close = getattr(store, "close", None)
    if callable(close):
        close()
    saver.conn.close()


def _saver(data_dir: Path, uri: str | None = None) -> SqliteSaver:
    if uri:
        from stores.postgres.checkpoint import open_postgres_checkpointer

        return open_postgres_checkpointer(uri, None)  # type: ignore[return-value]
    conn = sqlite3.connect(str(data_dir / "checkpoints.sqlite"), check_same_thread=False)
    # This Python's SQLite zeroes deleted rows by default; stock builds do not.
    # Turn it off so the byte tests prove that forget's compaction does the work.
    conn.execute("PRAGMA secure_delete=OFF")
    saver = SqliteSaver(conn)
    saver.setup()
    return saver


def _chat(saver: SqliteSaver, thread: str, text: str) -> None:
    """A real checkpointed thread: one graph run that echoes the user."""
    g = StateGraph(MessagesState)
    g.add_node("echo", lambda s: {"messages": [AIMessage(content="noted: " + s["messages"][-1].content)]})
    g.add_edge(START, "echo")
    g.add_edge("echo", END)
    g.compile(checkpointer=saver).invoke({"messages": [HumanMessage(content=text)]}, {"configurable": {"thread_id": thread}})


def _seed(store: BaseStore, saver: SqliteSaver, data_dir: Path, scope: UserScope, mark: str) -> None:
    u = scope.user_id

    def put(kind: str, key: str, text: str, **extra: str) -> None:
        store.put(scope.ns(kind), key, {"text": text, "sources": [f"{u}-m1"], "created_at": NOW, **extra})

    put(FACTS, "f1", f"{u} keeps a pet called {mark}")
    put(FACTS, "f2", f"{u} drinks green tea every morning")
    put(PROFILE, "pet", f"pet: {mark}")
    put(PROFILE_HISTORY, "pet-1", f"pet was {mark.upper()} once")  # case differs on purpose
    put(EPISODES, "e1", f"Talked about the pet {mark} and the vet")
    put(RULES, "r1", f"Always ask how {mark} is doing")
    put(MESSAGES, f"{u}-m1", f"my pet is {mark}", thread=f"{u}-t1", role="user")
    put(MESSAGES, f"{u}-m2", "what should I cook tonight", thread=f"{u}-t2", role="user")
    files = MemoryFiles(data_dir, scope)
    files.create("/memories/pets.md", f"# Pets\n{mark} likes carrots\nvet on Fridays\n")
    files.create("/memories/only.md", f"{mark}\n")
    for thread, text in ((f"{u}-t1", f"my pet is {mark}"), (f"{u}-t2", "what should I cook tonight")):
        _chat(saver, thread, text)
        store.put(scope.ns(THREADS), thread, {"thread_id": thread, "created_at": NOW}, index=False)


def _files_with(data_dir: Path, needle: str, db: Any = None) -> list[str]:
    """Every file under the data dir whose bytes contain ``needle`` (any case), and on
    Postgres every file of the test's database (tables, TOAST, indexes, catalogs).
    """
    needles = {needle.encode(), needle.upper().encode(), needle.lower().encode()}
    found = sorted(
        str(p.relative_to(data_dir)) for p in data_dir.rglob("*") if p.is_file() and any(n in p.read_bytes() for n in needles)
    )
    return found + (db.files_containing(data_dir / "none", needle.encode()) if db is not None else [])


@pytest.fixture(params=["memory", "faiss_sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    db = request.getfixturevalue("pg_database") if request.param == "postgres" else None
    uri = db.uri if db is not None else None
    store, saver = _open_store(request.param, data_dir, uri), _saver(data_dir, uri)
    for scope, mark in ((ALICE, A_MARK), (BOB, B_MARK)):
        _seed(store, saver, data_dir, scope, mark)
    yield {"kind": request.param, "dir": data_dir, "store": store, "saver": saver, "db": db, "uri": uri}
    if db is not None:  # close the pools before the database is dropped (closing twice is harmless)
        _close(store, saver)


def _shut(world: dict[str, Any], store: BaseStore, saver: SqliteSaver) -> None:
    """Close what lives on disk; an in-memory store has nothing to close."""
    if world["kind"] != "memory":
        _close(store, saver)
    else:
        saver.conn.close()


def _reopen(world: dict[str, Any]) -> tuple[BaseStore, SqliteSaver]:
    """Fresh handles on the data dir, as a new process would open it."""
    store = world["store"] if world["kind"] == "memory" else _open_store(world["kind"], world["dir"], world["uri"])
    return store, _saver(world["dir"], world["uri"])


def _assert_bob_intact(store: BaseStore, saver: SqliteSaver, data_dir: Path) -> None:
    texts = sorted(i.value["text"] for i in store.search(BOB.root, limit=100) if "text" in i.value)
    assert len(texts) == 8
    assert sum(B_MARK in t.casefold() for t in texts) == 6
    assert saver.get_tuple({"configurable": {"thread_id": "bob-t1"}}) is not None
    assert saver.get_tuple({"configurable": {"thread_id": "bob-t2"}}) is not None
    assert [v for v, _ in MemoryFiles(data_dir, BOB).iter_files()] == ["/memories/only.md", "/memories/pets.md"]


def test_markers_are_on_disk_before_forgetting(world: dict[str, Any]) -> None:
    """The byte search below can fail: before forgetting, the marker is findable."""
    found = _files_with(world["dir"], A_MARK, world["db"])
    assert "memories/alice/pets.md" in found
    if world["kind"] == "postgres":
        assert any(f.startswith("postgres:") for f in found)
        return
    assert "checkpoints.sqlite" in " ".join(found)
    if world["kind"] != "memory":
        assert any(f.startswith("store") for f in found)


def test_forget_removes_every_copy_and_no_bytes_remain(world: dict[str, Any]) -> None:
    store, saver, data_dir = world["store"], world["saver"], world["dir"]
    report = forget(UserData(store, ALICE, data_dir, saver), A_MARK.upper(), threshold=1.01)
    assert report.deleted == {
        FACTS: ["f1"], PROFILE: ["pet"], PROFILE_HISTORY: ["pet-1"], EPISODES: ["e1"], RULES: ["r1"], MESSAGES: ["alice-m1"]
    }
    assert report.files == {"/memories/only.md": -1, "/memories/pets.md": 1}
    assert report.threads == ["alice-t1"]
    assert "checkpoints" in report.scrubbed

    _shut(world, store, saver)
    assert _files_with(data_dir, A_MARK, world["db"]) == []
    assert _files_with(data_dir, B_MARK, world["db"]) != []

    store, saver = _reopen(world)
    assert sorted(i.key for i in store.search(ALICE.root, limit=100)) == ["alice-m2", "alice-t2", "f2"]
    assert store.get(ALICE.ns(THREADS), "alice-t1") is None
    assert saver.get_tuple({"configurable": {"thread_id": "alice-t1"}}) is None
    assert saver.get_tuple({"configurable": {"thread_id": "alice-t2"}}) is not None
    assert MemoryFiles(data_dir, ALICE).view("/memories/pets.md") == "     1\t# Pets\n     2\tvet on Fridays"
    _assert_bob_intact(store, saver, data_dir)


def test_forget_only_touches_the_users_own_data(world: dict[str, Any]) -> None:
    store, saver, data_dir = world["store"], world["saver"], world["dir"]
    store.put(BOB.ns(FACTS), "shared", {"text": "we both drink green tea"})
    report = forget(UserData(store, ALICE, data_dir, saver), "green tea", threshold=1.01)
    assert report.deleted == {FACTS: ["f2"]}
    assert store.get(BOB.ns(FACTS), "shared") is not None
    assert store.get(BOB.ns(FACTS), "f2") is not None


def test_near_matches_are_forgotten_by_cosine(world: dict[str, Any]) -> None:
    store, data_dir = world["store"], world["dir"]
    store.put(ALICE.ns(FACTS), "berlin", {"text": "Berlin is where I live"})
    store.put(ALICE.ns(FACTS), "paris", {"text": "I visited Paris in May"})
    query = "I live in Berlin"
    near, far = (float(np.dot(EMB.embed_query(query), EMB.embed_query(t))) for t in ("Berlin is where I live", "I visited Paris in May"))
    assert near >= 0.6 > far  # the premise: one stored fact is near the request, one is not
    report = forget(UserData(store, ALICE, data_dir), query, threshold=0.6)
    assert report.deleted.get(FACTS) == ["berlin"]
    assert store.get(ALICE.ns(FACTS), "paris") is not None


def test_delete_user_leaves_no_trace_and_keeps_other_users(world: dict[str, Any]) -> None:
    store, saver, data_dir = world["store"], world["saver"], world["dir"]
    report = delete_user(UserData(store, ALICE, data_dir, saver))
    assert report.counts() == {
        FACTS: 2, PROFILE: 1, PROFILE_HISTORY: 1, EPISODES: 1, RULES: 1, MESSAGES: 2, THREADS: 2, "memory_files": 2, "threads": 2
    }
    _shut(world, store, saver)
    assert _files_with(data_dir, A_MARK, world["db"]) == []
    assert _files_with(data_dir, B_MARK, world["db"]) != []

    store, saver = _reopen(world)
    assert store.search(ALICE.root, limit=10) == []
    assert not (data_dir / "memories" / "alice").exists()
    assert saver.get_tuple({"configurable": {"thread_id": "alice-t2"}}) is None
    _assert_bob_intact(store, saver, data_dir)


def test_forget_refuses_text_too_short_to_be_safe(world: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="at least 3 characters"):
        forget(UserData(world["store"], ALICE), " a ")


def test_forgetting_a_logged_message_keeps_and_reindexes_its_neighbours(tmp_path: Path) -> None:
    from datetime import datetime

    from core.context import Context
    from memory.layers.base import LayerEnv, LoggedMessage
    from memory.layers.message_log import MessageLogLayer
    from memory.layers.message_text import INDEXED_FIELD, SENTENCE_FIELD

    emb = HashEmbeddings(64)
    store = InMemoryStore(index={"dims": 64, "embed": emb, "fields": ["text"]})
    scope = UserScope("alice")
    env = LayerEnv(store=store, scope=scope, context=Context(data_dir=str(tmp_path)), embeddings=emb)
    now = datetime(2026, 1, 5, tzinfo=UTC)
    turn = [
        LoggedMessage(id="m1", thread="t", time=now, role="user", text="We planned the trip."),
        LoggedMessage(id="m2", thread="t", time=now, role="user", text="We named the new zoo zebra zebra-77."),
        LoggedMessage(id="m3", thread="t", time=now, role="assistant", text="Noted, enjoy the trip."),
    ]
    MessageLogLayer().on_turn(env, turn)
    before = store.get(scope.ns(MESSAGES), "m1")
    assert before is not None and all("zebra-77" in t for t in before.value[SENTENCE_FIELD])  # its vectors quote m2
    report = forget(UserData(store, scope), "zebra-77", threshold=2.0)
    assert report.deleted[MESSAGES] == ["m2"]
    left = {i.key: i.value for i in store.search(scope.ns(MESSAGES), limit=10)}
    assert sorted(left) == ["m1", "m3"]
    assert all("zebra" not in v[INDEXED_FIELD] for v in left.values())
    assert all("zebra" not in t for v in left.values() for t in v[SENTENCE_FIELD])  # nor any vector's text


F_WORD, K_WORD = "zanzibarite", "kumquatnurse"  # said in one message: the first is forgotten, the second kept


def test_forget_cuts_only_the_named_part_and_no_bytes_remain(world: dict[str, Any]) -> None:
    """One message, its episode and its thread say two things; forgetting one keeps the other everywhere."""
    store, saver, data_dir = world["store"], world["saver"], world["dir"]
    said = f"My name is Ana. I live in {F_WORD} and I work as a {K_WORD}."
    store.put(ALICE.ns(MESSAGES), "alice-m3", {"id": "alice-m3", "text": said, "thread": "alice-t3", "role": "user",
                                              "time": NOW, "prev": None, "next": None})
    store.put(ALICE.ns(EPISODES), "e2", {"text": f"User: {said}\nUser: I'm allergic to nuts.", "sources": ["alice-m3"],
                                         "keywords": [F_WORD, K_WORD, "nuts"]})
    _chat(saver, "alice-t3", said)
    store.put(ALICE.ns(THREADS), "alice-t3", {"thread_id": "alice-t3", "created_at": NOW}, index=False)
    assert _files_with(data_dir, F_WORD, world["db"]) != []  # the premise: the words are on disk

    report = forget(UserData(store, ALICE, data_dir, saver), F_WORD, threshold=1.01)
    assert report.cut == {MESSAGES: ["alice-m3"], EPISODES: ["e2"], THREADS: ["alice-t3"]}
    assert "alice-m3" not in report.deleted.get(MESSAGES, []) and "alice-t3" not in report.threads
    _shut(world, store, saver)
    assert _files_with(data_dir, F_WORD, world["db"]) == []
    assert _files_with(data_dir, K_WORD, world["db"]) != []

    store, saver = _reopen(world)
    message = store.get(ALICE.ns(MESSAGES), "alice-m3")
    assert message is not None and message.value["text"] == f"My name is Ana. I work as a {K_WORD}."
    assert [set(m) for m in message.value["forgotten"]] == [{"at", "by"}]  # when, never what
    assert store.search(ALICE.ns(MESSAGES), query=f"I work as a {K_WORD}", limit=1)[0].key == "alice-m3"
    episode = store.get(ALICE.ns(EPISODES), "e2")
    assert episode is not None and episode.value["text"] == f"User: My name is Ana. I work as a {K_WORD}.\nUser: I'm allergic to nuts."
    assert episode.value["keywords"] == [K_WORD, "nuts"] and episode.value["forgotten"]
    kept = saver.get_tuple({"configurable": {"thread_id": "alice-t3"}})
    assert kept is not None
    assert [m.content for m in kept.checkpoint["channel_values"]["messages"]] == [
        f"My name is Ana. I work as a {K_WORD}.", f"noted: My name is Ana. I work as a {K_WORD}."]
    _assert_bob_intact(store, saver, data_dir)
