"""``langgraph dev`` on the Postgres backend: one turn, the end of the session, the item read back.

The same dev server as tests/test_studio_e2e.py (tests/support/langgraph_dev.py), started with
``MEMORY_BACKEND=postgres`` and the test database's ``POSTGRES_URI``: graph/studio.py's
factories then open the Postgres store and async checkpointer, and nothing of the
memory lands in the data dir.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.support import langgraph_dev as e2e
from tests.support.backends import BackendUnderTest

pytestmark = e2e.NEEDS_LANGGRAPH  # needs langgraph-cli[inmem], as the local Studio test
CTX = {"user_id": "A", "chat_model": "scripted", "embedding_model": "hash:384", "review_rules": False}


async def _turn_and_end(url: str) -> dict[str, Any]:
    """One turn and an end_session through the SDK; what the store API then shows of user A."""
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=e2e.RUN_TIMEOUT_S)
    assistant = (await client.assistants.search(graph_id="agent"))[0]["assistant_id"]
    thread = (await client.threads.create())["thread_id"]
    for given in ({"messages": [{"role": "user", "content": "I'm vegetarian."}]}, {"mode": "end_session"}):
        out = await asyncio.wait_for(client.runs.wait(thread, assistant, input=given, context=CTX), e2e.RUN_TIMEOUT_S)
        assert isinstance(out, dict), out
    items = (await client.store.search_items(["users", "A"], limit=100))["items"]
    return {"thread": thread, "items": items, "other": (await client.store.search_items(["users", "B"]))["items"]}


def test_langgraph_dev_on_postgres(tmp_path: Path, pg_database: BackendUnderTest, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in pg_database.env.items():  # the server inherits them (its .env sets neither)
        monkeypatch.setenv(name, value)
    data_dir = tmp_path / "data"
    with e2e.dev_server(tmp_path, data_dir) as (url, proc, log):
        seen = asyncio.run(_turn_and_end(url))
        rc = e2e.stop(proc)
    server_log = e2e.ANSI.sub("", log.read_text(errors="replace"))
    assert rc in (0, -signal.SIGTERM), f"server did not stop cleanly (rc={rc}):\n{e2e.log_tail(log)}"
    assert "Using custom checkpointer: ScrubbingAsyncPostgresSaver" in server_log, e2e.log_tail(log)
    assert "Traceback" not in server_log, e2e.log_tail(log)

    # The fact came back through the store API, under A's namespace only.
    assert any(e2e.mentions(i["value"], "vegetarian") for i in seen["items"]), seen["items"]
    assert all(tuple(i["namespace"][:2]) == ("users", "A") for i in seen["items"])
    assert seen["other"] == []
    # ... and it lives in the database, thread included, not in the data dir.
    with psycopg.connect(pg_database.uri) as conn:
        facts = conn.execute("SELECT value::text FROM store WHERE prefix LIKE 'users.A.%'").fetchall()
        (checkpoints,) = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", (seen["thread"],)).fetchone()
    assert any("vegetarian" in v for (v,) in facts) and checkpoints > 0
    assert not (data_dir / "store").exists() and not (data_dir / "checkpoints.sqlite").exists()
