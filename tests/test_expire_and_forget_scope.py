"""Expiry removes bytes, and the forget tool touches only its user's files.

Both byte-level: the store's files are read as bytes after the operation, as a
disk forensics tool would, not through the store API.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.tools.memory_tools import make_memory_tools
from tests.support.agent_cli import MODELS, Cli


def _store_bytes(store_dir: Path, needle: bytes) -> list[str]:
    return sorted(str(p.relative_to(store_dir)) for p in store_dir.rglob("*") if p.is_file() and needle in p.read_bytes())


def _episode_keys(store_dir: Path, user: str) -> list[str]:
    conn = sqlite3.connect(f"file:{store_dir / 'store.sqlite'}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT i.key FROM items i JOIN namespaces n ON n.id = i.ns_id WHERE n.ns = ?", (f"users.{user}.episodes",)
        ).fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


def test_expire_removes_expired_episodes_from_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    cli = Cli(data, MODELS["scripted"])
    monkeypatch.setenv("MEMORY_EPISODE_TTL_DAYS", "0.000001")  # about 0.09 s
    cli.chat("alice", "t1", "I booked the ryokan in Kyoto for October.", "/end")
    monkeypatch.delenv("MEMORY_EPISODE_TTL_DAYS")
    (key,) = _episode_keys(data / "store", "alice")
    assert _store_bytes(data / "store", key.encode()) != []  # on disk until swept
    # A minute on (the clock every command reads): past the TTL however fast the calls come, no sleep.
    later = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    out = cli.run("--now", later, "expire")
    assert out.startswith("1 expired item(s) removed")
    assert _store_bytes(data / "store", key.encode()) == []
    assert _store_bytes(data / "store", b'"summarizer":"extractive"') == []  # no episode value left anywhere
    assert cli.export("alice")["episodes"] == []
    assert cli.export("alice")["messages"]["total"] == 2  # what has no TTL stays


def _partition_files(store_dir: Path, user: str) -> dict[str, tuple[int, bytes]]:
    conn = sqlite3.connect(f"file:{store_dir / 'store.sqlite'}?mode=ro", uri=True)
    try:
        ids = [r[0] for r in conn.execute("SELECT id FROM namespaces WHERE ns LIKE ?", (f"users.{user}.%",))]
    finally:
        conn.close()
    files = [store_dir / "faiss" / f"{i}.faiss" for i in ids]
    return {f.name: (f.stat().st_mtime_ns, f.read_bytes()) for f in files if f.exists()}


def test_forget_tool_leaves_other_users_partition_files_alone(ctx: Context) -> None:
    for user, text in (("bob", "I keep bees in Porto."), ("alice", "My cat is called Zorblax.")):
        with MemoryAgent(Context(**{**ctx.__dict__, "user_id": user})) as agent:
            agent.say(text, "t1")
            agent.say("Also I like long walks.", "t1")
            agent.end_session("t1")
    store_dir = Path(ctx.data_dir) / "store"
    bob_before = _partition_files(store_dir, "bob")
    assert bob_before  # bob has FAISS files on disk
    with MemoryAgent(ctx) as agent:
        forget = next(t for t in make_memory_tools(agent.env()) if t.name == "forget")
        answer = forget.invoke({"text": "Zorblax"})
    assert _partition_files(store_dir, "bob") == bob_before
    assert "deleted" in answer and "threads were not searched" in answer
    assert _store_bytes(store_dir, b"Zorblax") == []
