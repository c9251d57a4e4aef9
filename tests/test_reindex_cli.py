"""`memory-agent reindex`: a message log written in the older form (one vector per message) is
brought to today's (a vector per sentence) through the real CLI, for the named user only."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

from app.runtime import MemoryAgent
from graph.context import Context
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_reindex import stale
from nodes.importer import import_messages, parse_import
from stores.namespaces import MESSAGES, UserScope
from tests.support import ROOT
from tests.support.agent_cli import MODELS, Cli

LINES = [
    '{"thread": "s1", "id": "m1", "time": "2024-03-01T10:00:00", "role": "user", "text": '
    '"Work was hectic all week. I also booked a short trip to Rome for May with my sister."}',
    '{"thread": "s1", "id": "m2", "time": "2024-03-01T10:01:00", "role": "assistant", "text": "Rome in May sounds lovely."}',
    '{"thread": "s1", "id": "m3", "time": "2024-03-01T10:02:00", "role": "user", "text": "ok"}',
]


def _old_log(data: Path, user: str) -> None:
    """The user's messages as a data dir from before the vectors per sentence holds them."""
    ctx = Context(data_dir=str(data), user_id=user, chat_model="scripted", embedding_model="hash:384")
    with MemoryAgent(ctx, layers=[MessageLogLayer(by_sentence=False)]) as agent:
        import_messages(parse_import(LINES), agent.env(), agent.layers, progress=False)


def _vectors_per_message(data: Path, user: str) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{data / 'store' / 'store.sqlite'}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT items.key, COUNT(iv.id) FROM items JOIN namespaces ON namespaces.id = items.ns_id "
            "LEFT JOIN item_vectors iv ON iv.item_id = items.id WHERE namespaces.ns = ? GROUP BY items.key",
            (".".join((*UserScope(user).root, MESSAGES)),),
        ).fetchall()
    finally:
        conn.close()
    return dict(rows)


def _stale_count(data: Path, user: str) -> int:
    ctx = Context(data_dir=str(data), user_id=user, chat_model="scripted", embedding_model="hash:384")
    with MemoryAgent(ctx) as agent:
        return len(stale(agent.env(), MessageLogLayer()))


def test_reindex_brings_one_users_old_log_to_a_vector_per_sentence(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for user in ("alice", "bob"):
        _old_log(data, user)
    assert _vectors_per_message(data, "alice") == {"m1": 1, "m2": 1, "m3": 1}
    assert _stale_count(data, "alice") == 3

    cli = Cli(data, MODELS["scripted"])
    out = cli.run("reindex", "--user", "alice")
    assert "3 message(s) of user 'alice' re-indexed" in out
    # the two-sentence message has a vector per sentence now; the others one copy each, as today's log writes
    assert _vectors_per_message(data, "alice") == {"m1": 2, "m2": 1, "m3": 1}
    assert cli.export("alice")["messages"]["total"] == 3
    ctx = Context(data_dir=str(data), user_id="alice", chat_model="scripted", embedding_model="hash:384")
    with MemoryAgent(ctx) as agent:  # texts and links as they were
        env = agent.env()
        m1 = env.store.get(env.scope.ns(MESSAGES), "m1")
        assert m1 is not None and m1.value["text"] == LINES[0].split('"text": "')[1].rstrip('"}')
        assert (m1.value["prev"], m1.value["next"]) == (None, "m2")
    # bob's log is untouched, and a second run finds nothing to do
    assert _vectors_per_message(data, "bob") == {"m1": 1, "m2": 1, "m3": 1}
    assert _stale_count(data, "bob") == 3
    assert "already indexed in today's form" in cli.run("reindex", "--user", "alice")


def test_a_log_written_today_is_not_stale_and_memory_off_refuses(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (tmp_path / "c.jsonl").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    cli = Cli(data, MODELS["scripted"])
    cli.run("import", "--user", "carol", "--no-progress", str(tmp_path / "c.jsonl"))
    assert _stale_count(data, "carol") == 0
    cli.chat("dave", "t1", "I booked a trip to Rome. It is in May.", "My sister comes too, she loves Italy.")
    assert cli.export("dave")["messages"]["total"] == 4
    assert _stale_count(data, "dave") == 0  # live turns, linked across turns, are written in today's form too
    cli.run("memory-off", "--user", "carol")
    done = subprocess.run([*cli.base, "reindex", "--user", "carol"], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 2 and "memory is off" in done.stderr and done.stderr.strip().count("\n") == 0
    assert cli.export("carol")["messages"]["total"] == 3  # nothing lost
