"""The FTS index stays compact: few segments means few probes per query term.

A user's search among 1M items cost twice what it cost alone while every batch
(and, before, every document) left its own FTS5 segment; these tests pin the two
mechanisms that keep it near 1x.
"""

from __future__ import annotations

from langgraph.store.base import PutOp

from stores.faiss_sqlite import lexical


def segments(store) -> int:
    return store._conn.execute("SELECT COUNT(DISTINCT segid) FROM fts_idx").fetchone()[0]


def test_a_batch_writes_one_segment(store):
    store.batch([PutOp(("u", "a"), f"k{i}", {"text": f"apple {i} pear"}) for i in range(100)])
    assert segments(store) == 1
    store.batch([PutOp(("u", "a"), f"k{i}", {"text": f"plum {i}"}) for i in range(0, 100, 2)])  # updates
    assert segments(store) <= 2
    hits = store.search(("u", "a"), query="plum", limit=100)
    assert {h.key for h in hits if "plum" in h.value["text"]} == {f"k{i}" for i in range(0, 100, 2)}
    assert len(store.search(("u", "a"), query="apple", limit=100)) == 100  # dense fills up; lexical checked below
    conn = store._conn
    ns_id = conn.execute("SELECT id FROM namespaces").fetchone()[0]
    apple = lexical.search(conn, "apple", [ns_id], 100, 200)
    assert len(apple) == 50  # updated items lost their old words, the others kept them


def test_index_is_merged_once_enough_has_changed(store, monkeypatch):
    monkeypatch.setattr(lexical, "COMPACT_MIN", 30)
    monkeypatch.setattr(lexical, "COMPACT_SHARE", 0.5)
    for b in range(5):  # 5 batches of 10: a merge once 30 writes are >= half the items
        store.batch([PutOp(("u", "a"), f"k{b}-{i}", {"text": f"word{i} batch{b}"}) for i in range(10)])
        written = store._conn.execute("SELECT v FROM meta WHERE k = 'fts_writes'").fetchone()
        if b < 2:
            assert segments(store) == b + 1 and int(written[0]) == 10 * (b + 1)
        if b == 2:
            assert segments(store) == 1 and written is None  # merged, counter reset
    conn = store._conn
    ns_id = conn.execute("SELECT id FROM namespaces").fetchone()[0]
    assert len(lexical.search(conn, "word3", [ns_id], 50, 50)) == 5  # nothing lost in the merge

