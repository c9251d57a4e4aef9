"""LangGraph BaseStore semantics of FaissSqliteStore, checked against InMemoryStore."""

from __future__ import annotations

import asyncio
import math

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, ListNamespacesOp, MatchCondition, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

DIMS = 64  # as in conftest.py

NS = ("users", "u1", "facts")
DOCS = {
    "pizza": "I love pizza with olives",
    "dog": "my dog is called Rex",
    "hawaii": "pizza with pineapple is wrong",
    "weather": "the weather in Oslo is cold",
    "running": "I go running every morning",
}


def fill(store) -> None:
    for i, (key, text) in enumerate(DOCS.items()):
        store.put(NS, key, {"text": text, "rank": i, "tags": {"kind": "fact"}})
    store.put(("users", "u2", "facts"), "pizza", {"text": "pizza for another user", "rank": 0})


def test_put_get_update_delete(store):
    assert store.get(NS, "nope") is None
    store.put(NS, "k", {"text": "first"})
    item = store.get(NS, "k")
    assert item.value == {"text": "first"} and item.namespace == NS and item.key == "k"
    assert item.created_at == item.updated_at and item.created_at.tzinfo is not None
    store.put(NS, "k", {"text": "second"})
    again = store.get(NS, "k")
    assert again.value == {"text": "second"}
    assert again.created_at == item.created_at and again.updated_at >= item.updated_at
    store.delete(NS, "k")
    assert store.get(NS, "k") is None
    assert store.search(NS, query="second") == []


def test_query_scores_match_in_memory_store(store, embeddings):
    reference = InMemoryStore(index={"dims": DIMS, "embed": embeddings, "fields": ["text"]})
    fill(store)
    fill(reference)
    ours = store.search(("users", "u1"), query="pizza olives", limit=10)
    theirs = reference.search(("users", "u1"), query="pizza olives", limit=10)
    assert {r.key: round(r.score, 5) for r in ours} == {r.key: round(r.score, 5) for r in theirs}
    assert ours[0].key == "pizza"
    assert all(r.namespace[:2] == ("users", "u1") for r in ours)
    assert [r.key for r in store.search(("users", "u1"), query="pizza", limit=2, offset=1)] == [
        r.key for r in ours[1:3]
    ]


def test_lexical_match_lifts_a_weak_vector_match(store):
    store.put(NS, "stem", {"text": "she was running late"})
    store.put(NS, "other", {"text": "completely unrelated words here"})
    results = store.search(NS, query="runs quickly")  # 'runs' and 'running' share the stem 'run'
    assert results[0].key == "stem"


def test_filters(store):
    fill(store)
    keys = lambda **kw: sorted(r.key for r in store.search(("users", "u1"), **kw))  # noqa: E731
    assert keys(filter={"rank": 1}) == ["dog"]
    assert keys(filter={"rank": {"$gte": 3}}) == ["running", "weather"]
    assert keys(filter={"rank": {"$gt": 0, "$lt": 2}}) == ["dog"]
    assert keys(filter={"rank": {"$lte": 0}}) == ["pizza"]
    assert keys(filter={"rank": {"$ne": 0}}) == ["dog", "hawaii", "running", "weather"]
    assert keys(filter={"rank": {"$eq": 2}}) == ["hawaii"]
    assert keys(filter={"tags": {"kind": "fact"}}) == sorted(DOCS)
    assert keys(filter={"missing": {"$gt": 1}}) == []
    assert keys(query="pizza", filter={"rank": {"$gte": 1}}) == ["dog", "hawaii", "running", "weather"]
    with pytest.raises(ValueError, match="unsupported filter operator"):
        store.search(NS, filter={"rank": {"$regex": "x"}})


def test_filter_only_search_orders_newest_first_and_pages(store):
    for i in range(5):
        store.put(NS, f"k{i}", {"text": f"item {i}"})
    assert [r.key for r in store.search(NS)] == ["k4", "k3", "k2", "k1", "k0"]
    assert [r.key for r in store.search(NS, limit=2, offset=1)] == ["k3", "k2"]
    assert all(r.score is None for r in store.search(NS))


def test_index_false_and_per_item_fields(store):
    store.put(NS, "plain", {"text": "pizza secret"}, index=False)
    store.put(NS, "other", {"text": "nothing", "note": "pizza note"}, index=["note"])
    results = store.search(NS, query="pizza")
    assert [r.key for r in results] == ["other", "plain"]  # unindexed items follow, unscored
    assert results[0].score > 0 and results[1].score is None
    assert [r.key for r in store.search(NS, filter={"text": "pizza secret"})] == ["plain"]


def test_list_namespaces(store):
    for ns in [("a", "b", "c"), ("a", "b", "d"), ("a", "x", "c"), ("z",)]:
        store.put(ns, "k", {"text": "t"})
    assert store.list_namespaces() == [("a", "b", "c"), ("a", "b", "d"), ("a", "x", "c"), ("z",)]
    assert store.list_namespaces(prefix=("a", "b")) == [("a", "b", "c"), ("a", "b", "d")]
    assert store.list_namespaces(suffix=("c",)) == [("a", "b", "c"), ("a", "x", "c")]
    assert store.list_namespaces(prefix=("a", "*", "c")) == [("a", "b", "c"), ("a", "x", "c")]
    assert store.list_namespaces(suffix=("*", "d")) == [("a", "b", "d")]
    assert store.list_namespaces(max_depth=2) == [("a", "b"), ("a", "x"), ("z",)]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "b", "d"), ("a", "x", "c")]
    op = ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("a",)), MatchCondition("suffix", ("d",))))
    assert store.batch([op]) == [[("a", "b", "d")]]
    store.delete(("z",), "k")
    assert ("z",) not in store.list_namespaces()


def test_batch_keeps_order_reads_first_and_last_put_wins(store, embeddings):
    store.put(NS, "old", {"text": "old value"})
    before = embeddings.documents
    results = store.batch([
        PutOp(NS, "k", {"text": "one"}),
        GetOp(NS, "old"),
        PutOp(NS, "k", {"text": "two"}),
        SearchOp(NS, None, 10, 0, None),
        GetOp(NS, "k"),  # reads see the store as it was before the batch's writes
        ListNamespacesOp(),
    ])
    assert results[0] is None and results[2] is None
    assert results[1].value == {"text": "old value"}
    assert [r.key for r in results[3]] == ["old"]
    assert results[4] is None
    assert results[5] == [NS]
    assert store.get(NS, "k").value == {"text": "two"}
    assert embeddings.documents - before == 1  # the overwritten put was never embedded
    results = store.batch([PutOp(NS, "k", {"text": "three"}), PutOp(NS, "k", None)])
    assert store.get(NS, "k") is None


def test_identical_text_is_embedded_once(store, embeddings):
    store.put(NS, "a", {"text": "same words"})
    store.put(NS, "b", {"text": "same words"})
    store.put(NS, "a", {"text": "same words", "extra": 1})
    assert embeddings.documents == 1
    store.delete(NS, "a")
    store.delete(NS, "b")
    store.put(NS, "c", {"text": "same words"})  # forgotten text leaves no cached embedding
    assert embeddings.documents == 2


def test_ttl_expiry_and_refresh(make_store, monkeypatch):
    import stores.faiss_sqlite.store as store_module

    clock = [1_000_000.0]
    monkeypatch.setattr(store_module.time, "time", lambda: clock[0])
    store = make_store(ttl={"default_ttl": 1.0, "refresh_on_read": True})
    store.put(NS, "short", {"text": "pizza"})
    store.put(NS, "forever", {"text": "pizza too"}, ttl=None)
    clock[0] += 50
    assert store.get(NS, "short") is not None  # refreshes: expires 60 s from now
    clock[0] += 50
    assert store.get(NS, "short", refresh_ttl=False) is not None
    clock[0] += 11
    assert store.get(NS, "short") is None
    assert [r.key for r in store.search(NS, query="pizza")] == ["forever"]
    assert [r.key for r in store.search(NS)] == ["forever"]
    assert store.sweep_ttl() == 1
    assert store.sweep_ttl() == 0
    store.put(("gone",), "k", {"text": "x"}, ttl=0.5)
    clock[0] += 31
    assert ("gone",) not in store.list_namespaces()


def test_sweeper_thread_stops_on_close(make_store):
    store = make_store(ttl={"default_ttl": 1.0, "sweep_interval_minutes": 60})
    thread = store._sweeper._thread
    assert thread.is_alive()
    store.close()
    assert not thread.is_alive()
    with pytest.raises(RuntimeError, match="closed"):
        store.get(NS, "k")


@pytest.mark.parametrize(
    ("namespace", "value", "error"),
    [
        ((), {"text": "x"}, InvalidNamespaceError),
        (("users", ""), {"text": "x"}, InvalidNamespaceError),
        (("users", "a.b"), {"text": "x"}, InvalidNamespaceError),
        (NS, {"text": "x", "when": object()}, TypeError),
        (NS, {"text": "x", "bad": math.nan}, TypeError),
        (NS, ["not", "a", "dict"], TypeError),
    ],
)
def test_bad_input_is_rejected_and_changes_nothing(store, namespace, value, error):
    store.put(NS, "keep", {"text": "kept"})
    with pytest.raises(error):
        store.batch([PutOp(NS, "first", {"text": "ok"}), PutOp(namespace, "k", value)])
    assert store.get(NS, "first") is None
    assert [r.key for r in store.search(("users",))] == ["keep"]


def test_wrong_embedding_size_is_rejected(make_store, tmp_path):
    store = make_store(index={"dims": DIMS, "embed": lambda texts: [[0.1] * (DIMS + 1) for _ in texts]})
    with pytest.raises(ValueError, match="65-dimensional"):
        store.put(NS, "k", {"text": "x"})
    assert store.get(NS, "k") is None
    with pytest.raises(ValueError, match="dimensional vectors"):
        make_store(tmp_path / "store", index={"dims": 32, "embed": lambda t: []})


def test_async_twins(make_store, embeddings):
    async def aembed(texts: list[str]) -> list[list[float]]:
        return embeddings.embed_documents(texts)

    store = make_store(index={"dims": DIMS, "embed": aembed, "fields": ["text"]})

    async def main() -> None:
        await store.aput(NS, "a", {"text": "pizza night"})
        await asyncio.gather(*(store.aput(NS, f"k{i}", {"text": f"note {i}"}) for i in range(5)))
        assert (await store.aget(NS, "a")).value == {"text": "pizza night"}
        hits = await store.asearch(NS, query="pizza")
        assert hits[0].key == "a" and hits[0].score > 0.5
        assert await store.alist_namespaces() == [NS]
        await store.adelete(NS, "a")
        assert await store.aget(NS, "a") is None
        assert await store.asweep_ttl() == 0

    asyncio.run(main())
    store.put(NS, "sync", {"text": "sync put with an async-only embedder"})
    assert store.search(NS, query="sync embedder")[0].key == "sync"


def test_plain_key_value_store_without_index(make_store, tmp_path):
    store = make_store(tmp_path / "kv", index=None)
    store.put(NS, "k", {"text": "pizza"})
    assert [r.key for r in store.search(NS, query="pizza")] == ["k"]
    assert not (tmp_path / "kv" / "faiss").exists()
