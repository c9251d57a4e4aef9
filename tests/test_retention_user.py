"""A user's own, shorter retention (CLI and plain words in chat), other users untouched, and a
sweep killed with SIGKILL that its rerun completes to the same end state.
"""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.privacy.export import iter_items
from memory.tools.memory_files import MemoryFiles
from memory.upkeep.items import PAUSE_ENV
from nodes.importer import import_messages, read_import
from stores.namespaces import UserScope
from tests.support.retention_world import FAST, NOW, ROOT, cli, cli_env, export, import_file, markers, ok

CUTOFF_30 = "2026-01-30T09:00:00+00:00"


def _seed(tmp: Path, data: Path, *users: str) -> None:
    """Import each user's 14 months; episodes' own TTL out of reach, so every change is retention's."""
    for user in users:
        ctx = Context(user_id=user, data_dir=str(data), chat_model="scripted", embedding_model="hash:384",
                      episode_ttl_days=100000.0)
        with MemoryAgent(ctx) as agent:
            import_messages(read_import(str(import_file(tmp, user)), 10_000), agent.env(), agent.layers,
                            progress=False)
        MemoryFiles(data, UserScope(user)).create("/memories/notes.md", f"notes of {user}\n")


def _user_state(data: Path, user: str) -> dict[str, Any]:
    """Everything stored for ``user``, as stored (values and the store's own times), and their files' bytes."""
    ctx = Context(user_id="nobody", data_dir=str(data), chat_model="scripted", embedding_model="hash:384")
    with MemoryAgent(ctx) as agent:
        items = {(tuple(i.namespace), i.key): (i.value, i.created_at, i.updated_at)
                 for i in iter_items(agent.store, UserScope(user).root)}
    files = {v: real.read_bytes() for v, real in MemoryFiles(data, UserScope(user)).iter_files()}
    return {"items": items, "files": files}


def _on_disk(data: Path, word: str) -> bool:
    return any(word.encode() in p.read_bytes() for p in data.rglob("*") if p.is_file())


@pytest.fixture
def two_users(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    _seed(tmp_path, data, "alice", "bob")
    return data


def test_a_users_shorter_limit_applies_to_that_user_only(two_users: Path) -> None:
    data, env = two_users, cli_env({"MEMORY_BACKEND": "local"})
    bob = _user_state(data, "bob")
    out = ok(cli(data, env, "--now", NOW, "retention", "--user", "alice", "--days", "30"))
    assert "retention: 30 days (your own limit)" in out and "messages" in out, out
    again = ok(cli(data, env, "--now", NOW, "expire"))  # the operator's limit is off; alice's own still holds
    assert "retention for" not in again, again
    assert _user_state(data, "bob") == bob  # bob's data is exactly as it was
    for word in markers("alice", old=True, cutoff=datetime.fromisoformat(CUTOFF_30)):
        assert not _on_disk(data, word), word
    assert all(_on_disk(data, w) for w in markers("bob", old=True))
    assert "30 days (your own limit)" in ok(cli(data, env, "retention", "--user", "alice"))
    assert "off" in ok(cli(data, env, "retention", "--user", "bob"))


def test_longer_than_the_operator_or_bad_days_is_a_one_line_refusal(two_users: Path) -> None:
    data, env = two_users, cli_env({"MEMORY_BACKEND": "local"})
    before = _user_state(data, "alice")
    for days, extra in (("600", {"MEMORY_RETENTION_DAYS": "500"}), ("0", {}), ("-3", {})):
        done = cli(data, {**env, **extra}, "--now", NOW, "retention", "--user", "alice", "--days", days)
        assert done.returncode == 2 and done.stderr.strip().count("\n") == 0, done.stderr
    assert _user_state(data, "alice") == before


def test_only_keep_the_last_30_days_in_plain_words(two_users: Path) -> None:
    data, env = two_users, cli_env({"MEMORY_BACKEND": "local"})
    out = ok(cli(data, env, "--now", NOW, "chat", "--user", "alice", "--thread", "t1",
                 stdin="Please only keep the last 30 days.\n/quit\n"))
    assert "retention: 30 days (your own limit)" in out, out
    assert "30 days (your own limit)" in ok(cli(data, env, "retention", "--user", "alice"))
    assert not _on_disk(data, markers("alice", old=True)[-1])
    refused = ok(cli(data, {**env, "MEMORY_RETENTION_DAYS": "20"}, "--now", NOW, "chat", "--user", "bob",
                     stdin="only keep the last 30 days\n/quit\n"))
    assert "I can't do that" in refused and "20 days at most" in refused, refused


def _items(data: Path) -> int:
    with sqlite3.connect(f"file:{data / 'store' / 'store.sqlite'}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM items").fetchone()[0])


def _comparable(data: Path, env: dict[str, str]) -> dict[str, Any]:
    out = export(data, env, "alice")
    for kind in ("facts", "episodes", "rules", "people"):
        out[kind] = {e["key"]: e["value"] for e in out[kind]}
    out["profile"] = {part: {e["key"]: e["value"] for e in rows} for part, rows in out["profile"].items()}
    return out


def test_kill_minus_9_mid_sweep_then_rerun_gives_the_same_end_state(tmp_path: Path) -> None:
    data, reference = tmp_path / "data", tmp_path / "reference"
    _seed(tmp_path, data, "alice")
    shutil.copytree(data, reference)
    env = cli_env({"MEMORY_BACKEND": "local"}, MEMORY_RETENTION_DAYS="90")
    ok(cli(reference, env, "--now", NOW, "expire"))
    expected = _comparable(reference, env)

    start = _items(data)
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", str(data), *FAST, "--now", NOW, "expire"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**env, PAUSE_ENV: "0.3"}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _items(data) >= start and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # until the sweep has deleted its first item
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert _comparable(data, cli_env({"MEMORY_BACKEND": "local"})) != expected  # it was killed midway

    ok(cli(data, env, "--now", NOW, "expire"))
    assert _comparable(data, env) == expected
    assert not any(_on_disk(data, w) for w in markers("alice", old=True))


def test_the_server_store_sweeps_retention_as_it_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``langgraph dev``'s store factory (graph/studio.py) starts the retention timer; its first sweep runs at once."""
    import asyncio

    from graph.studio import make_store

    data = tmp_path / "data"
    _seed(tmp_path, data, "alice")
    for name, value in (("MEMORY_DATA_DIR", str(data)), ("MEMORY_EMBEDDING_MODEL", "hash:384"),
                        ("MEMORY_RETENTION_DAYS", "90"), ("MEMORY_NOW", NOW)):
        monkeypatch.setenv(name, value)
    start = _items(data)

    async def serve() -> None:
        async with make_store():
            for _ in range(600):
                if _items(data) < start:
                    break
                await asyncio.sleep(0.05)
        # closing waited for the sweep to finish

    asyncio.run(serve())
    assert _items(data) < start
    assert not any(_on_disk(data, w) for w in markers("alice", old=True))
