"""Persistence, crash safety, multi-process use and physical forgetting."""

from __future__ import annotations

import json
import logging
import os
import signal
import time
from pathlib import Path

from langgraph.store.base import PutOp

NS = ("users", "u1", "messages")


def keys(results) -> list[str]:
    return [r.key for r in results]


def test_reopen_in_a_new_process_sees_everything(make_store, python, open_store_code, tmp_path):
    path = tmp_path / "store"
    writer = python(open_store_code + """
for i in range(30):
    store.put(("users", "u1", "messages"), f"m{i}", {"text": f"message {i} about topic {i % 3}"})
store.search(("users", "u1", "messages"), query="topic 1")  # loads and saves nothing: no close()
""", str(path))
    assert writer.returncode == 0, writer.stderr
    store = make_store(path)
    assert store.get(NS, "m7").value == {"text": "message 7 about topic 1"}
    hits = store.search(NS, query="message 7 about topic 1", limit=3)
    assert hits[0].key == "m7" and abs(hits[0].score - 1.0) < 1e-5


def test_missing_or_corrupt_faiss_file_is_rebuilt(make_store, tmp_path, caplog):
    path = tmp_path / "store"
    store = make_store(path)
    for i in range(40):
        store.put(NS, f"m{i}", {"text": f"note {i} on subject {i % 4}"})
    expected = [(r.key, round(r.score, 6)) for r in store.search(NS, query="subject 2", limit=8)]
    store.close()
    (faiss_file,) = (path / "faiss").glob("*.faiss")
    for damage in ("corrupt", "truncate", "delete"):
        if damage == "corrupt":
            data = bytearray(faiss_file.read_bytes())
            data[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64
            faiss_file.write_bytes(bytes(data))
        elif damage == "truncate":
            faiss_file.write_bytes(faiss_file.read_bytes()[:100])
        else:
            faiss_file.unlink()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="stores.faiss_sqlite"):
            store = make_store(path)
            assert [(r.key, round(r.score, 6)) for r in store.search(NS, query="subject 2", limit=8)] == expected
            store.close()
        assert any("rebuilding" in rec.getMessage() for rec in caplog.records), damage
        assert faiss_file.exists()


def test_stale_file_catches_up(make_store, tmp_path):
    path = tmp_path / "store"
    store = make_store(path)
    for i in range(10):
        store.put(NS, f"m{i}", {"text": f"alpha {i}"})
    store.search(NS, query="alpha")
    store.close()  # file saved at version N
    store = make_store(path)
    store.put(NS, "new", {"text": "beta gamma"})  # partition not loaded: only SQLite changes
    store.delete(NS, "m3")
    assert keys(store.search(NS, query="beta gamma", limit=1)) == ["new"]
    assert "m3" not in keys(store.search(NS, query="alpha", limit=20))


def test_hnsw_partition_with_deletes_and_reopen(make_store, tmp_path):
    path = tmp_path / "store"
    store = make_store(path, hnsw_threshold=50)
    store.batch([PutOp(NS, f"m{i}", {"text": f"word{i} shared"}) for i in range(60)])
    assert keys(store.search(NS, query="word5", limit=1)) == ["m5"]
    part = next(iter(store._vectors.parts.values()))
    assert part.hnsw
    store.batch([PutOp(NS, f"m{i}", None) for i in range(5, 10)])
    assert keys(store.search(NS, query="word5", limit=1)) != ["m5"]
    store.close()
    store = make_store(path, hnsw_threshold=50)
    hits = store.search(NS, query="word7 shared", limit=60)
    assert len(hits) == 55 and "m7" not in keys(hits)
    assert keys(store.search(NS, query="word42", limit=1)) == ["m42"]


def test_other_process_writes_are_seen_on_next_search(make_store, python, open_store_code, tmp_path):
    path = tmp_path / "store"
    store = make_store(path)
    store.put(NS, "mine", {"text": "local apple"})
    store.put(NS, "doomed", {"text": "local banana"})
    assert keys(store.search(NS, query="apple")) [0] == "mine"  # partition now loaded
    other = python(open_store_code + """
store.put(("users", "u1", "messages"), "theirs", {"text": "remote cherry"})
store.delete(("users", "u1", "messages"), "doomed")
""", str(path))
    assert other.returncode == 0, other.stderr
    assert keys(store.search(NS, query="remote cherry", limit=1)) == ["theirs"]
    assert "doomed" not in keys(store.search(NS, query="banana", limit=10))


def test_kill_9_mid_batch_loses_nothing_committed(make_store, python, open_store_code, tmp_path):
    path = tmp_path / "store"
    marker = tmp_path / "mid-batch"
    child = python(open_store_code + f"""
import time
from langgraph.store.base import PutOp
ns = ("users", "u1", "messages")
store.batch([PutOp(ns, f"done{{i}}", {{"text": f"committed {{i}}"}}) for i in range(50)])
seen = [0]
def trace(sql):
    if sql.startswith("INSERT INTO items"):
        seen[0] += 1
        if seen[0] == 300:
            open({str(marker)!r}, "w").close()
            time.sleep(60)
store._conn.set_trace_callback(trace)
store.batch([PutOp(ns, f"big{{i}}", {{"text": f"partial {{i}}"}}) for i in range(1000)])
""", str(path), wait=False)
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert child.poll() is None, child.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    store = make_store(path)
    stored = keys(store.search(NS, limit=2000))
    assert sorted(stored) == sorted(f"done{i}" for i in range(50))
    assert keys(store.search(NS, query="committed 7", limit=1)) == ["done7"]


def test_two_processes_writing_at_once(make_store, python, open_store_code, tmp_path):
    path = tmp_path / "store"
    make_store(path).close()  # create the schema once
    code = open_store_code + """
from langgraph.store.base import PutOp
who = sys.argv[2]
for b in range(40):
    store.batch([PutOp(("users", who, "messages"), f"{who}-{b}-{i}", {"text": f"{who} says {b} {i}"}) for i in range(5)])
    store.search(("users", who, "messages"), query=f"{who} says {b}")
    store.put(("shared",), f"{who}-{b}", {"text": f"shared {who} {b}"})
store.close()
print("ok")
"""
    procs = [python(code, str(path), who, wait=False) for who in ("ann", "bob")]
    outputs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outputs):
        assert p.returncode == 0 and out.strip() == "ok", err
        assert "locked" not in err
    store = make_store(path)
    for who in ("ann", "bob"):
        assert len(store.search(("users", who), limit=1000)) == 200
        assert keys(store.search(("users", who), query=f"{who} says 17 3", limit=1)) == [f"{who}-17-3"]
    assert len(store.search(("shared",), query="shared", limit=100)) == 80


def test_purge_leaves_no_trace_on_disk(make_store, tmp_path):
    path = tmp_path / "store"
    marker = "zqxforgetmarker"
    store = make_store(path)
    for i in range(20):
        store.put(NS, f"keep{i}", {"text": f"ordinary note {i}"})
    store.put(NS, "secret", {"text": f"my {marker} code", "note": marker})
    store.put(("users", marker, "facts"), "k", {"text": "namespace label is data too"})
    store.search(NS, query=marker)
    store.close()
    store = make_store(path)

    def files_with_marker() -> list[str]:
        return [str(f) for f in path.rglob("*") if f.is_file() and marker.encode() in f.read_bytes()]

    assert files_with_marker(), "the test must see the marker before forgetting it"
    store.delete(NS, "secret")
    store.delete(("users", marker, "facts"), "k")
    store.purge()
    assert len(store.search(NS, query="ordinary note", limit=50)) == 20
    store.close()
    assert files_with_marker() == []
    store = make_store(path)
    assert len(store.search(NS, limit=50)) == 20
    assert json.dumps([r.value for r in store.search(NS, limit=50)]).count(marker) == 0


def test_context_manager_closes(tmp_path: Path):
    from stores.faiss_sqlite import FaissSqliteStore

    with FaissSqliteStore(tmp_path / "s") as store:
        store.put(NS, "k", {"v": 1})
    assert store._closed
