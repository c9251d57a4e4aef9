"""End to end through ``langgraph dev``: the Studio path with our store and checkpointer.

Starts the real dev server (``langgraph dev --no-browser``) on a free port, with
a temporary data dir, the scripted chat model and hash embeddings (offline,
deterministic), and drives it with ``langgraph_sdk`` the way Studio does:
memory across threads, namespace isolation in the store API, a rule review
interrupt resumed with a ``Command``, a ``messages`` stream through a retry of
the answer check (an OpenAI-compatible stub as the model: the client never gets
the rejected draft), and the data on disk after a clean stop.

The server runs from a temporary copy of langgraph.json (absolute paths, ``env``
pointing at a .env written here) so that a developer's own ``.env`` cannot
redirect it to their real data dir, and with ``--no-reload`` so that edits to
the tree during the test cannot restart it.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.support.langgraph_dev import ANSI as _ANSI
from tests.support.langgraph_dev import NEEDS_LANGGRAPH, RUN_TIMEOUT_S, dev_server
from tests.support.langgraph_dev import log_tail as _log_tail
from tests.support.langgraph_dev import mentions as _mentions
from tests.support.langgraph_dev import stop as _stop
from tests.support.langgraph_dev import texts as _texts
from tests.support.openai_stub import StubServer, completion

pytestmark = NEEDS_LANGGRAPH


async def _drive(url: str) -> dict[str, Any]:
    """Everything a Studio user would do, through the SDK. Returns ids for the disk checks."""
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=RUN_TIMEOUT_S)
    assistant = (await client.assistants.search(graph_id="agent"))[0]["assistant_id"]

    schemas = await client.assistants.get_schemas(assistant)
    context_fields = (schemas.get("context_schema") or {}).get("properties", {})
    assert {"user_id", "review_rules", "persona", "chat_model"} <= set(context_fields), schemas.get("context_schema")
    # the run modes: one typed input field, and one entry from START each in the graph Studio draws
    assert schemas["input_schema"]["properties"]["mode"]["enum"] == ["turn", "end_session", "consolidate_thread"]
    drawn = await client.assistants.get_graph(assistant)
    entries = {(e["target"], e.get("data")) for e in drawn["edges"] if e["source"] == "__start__"}
    assert entries == {("commands", "turn"), ("consolidate", "end_session"),
                       ("consolidate_deferred", "consolidate_thread")}, entries

    ctx_a = {"user_id": "A", "chat_model": "scripted", "embedding_model": "hash:384", "review_rules": False}

    async def run(thread: str, user: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        out = await asyncio.wait_for(
            client.runs.wait(thread, assistant, context=user, **kwargs), timeout=RUN_TIMEOUT_S
        )
        assert isinstance(out, dict), out
        return out

    def say(text: str) -> dict[str, Any]:
        return {"messages": [{"role": "user", "content": text}]}

    # (1) user A states a fact in thread 1; the session ends and is consolidated.
    t1 = (await client.threads.create())["thread_id"]
    await run(t1, ctx_a, input=say("I'm vegetarian."))
    await run(t1, ctx_a, input={"mode": "end_session"})

    # (2) a new thread of the same user recalls it, in state and in the prompt.
    t2 = (await client.threads.create())["thread_id"]
    out = await run(t2, ctx_a, input=say("What should I cook for dinner tonight?"))
    assert any("vegetarian" in r["text"].lower() for r in out["recalled"]), out["recalled"]
    assert "vegetarian" in out["system_prompt"].lower(), out["system_prompt"]

    # (3) the store API shows the fact under A's namespace and nothing of A's under B's.
    a_items = (await client.store.search_items(["users", "A"], limit=100))["items"]
    assert any(_mentions(i["value"], "vegetarian") for i in a_items), a_items
    assert all(tuple(i["namespace"][:2]) == ("users", "A") for i in a_items)
    assert (await client.store.search_items(["users", "B"], limit=100))["items"] == []

    # ... and user B, asking the same in a thread of their own, gets nothing of A's.
    t_b = (await client.threads.create())["thread_id"]
    out_b = await run(t_b, {**ctx_a, "user_id": "B"}, input=say("What should I cook for dinner tonight?"))
    assert not any("vegetarian" in r["text"].lower() for r in out_b["recalled"]), out_b["recalled"]
    b_items = (await client.store.search_items(["users", "B"], limit=100))["items"]
    assert b_items and not any(_mentions(i["value"], "vegetarian") for i in b_items), b_items

    # (4) rule review: the procedural layer's consolidation node interrupts; Command(resume=...) answers it.
    review = {**ctx_a, "review_rules": True}
    t3 = (await client.threads.create())["thread_id"]
    paused = await run(t3, review, input=say("Please stop using emojis."))
    interrupts = paused.get("__interrupt__") or []
    assert interrupts and interrupts[0]["value"]["type"] == "rule_review", paused
    assert interrupts[0]["value"]["rule"] == "Do not use emojis."
    state = await client.threads.get_state(t3)
    assert state["next"] == ["consolidate_procedural"], state["next"]
    await run(t3, review, command={"resume": {"approve": True}})
    rules = _texts((await client.store.search_items(["users", "A", "rules"], limit=100))["items"])
    assert rules == ["Do not use emojis."], rules

    # A rejected proposal is not stored.
    t4 = (await client.threads.create())["thread_id"]
    paused = await run(t4, review, input=say("Please be more concise."))
    assert paused.get("__interrupt__"), paused
    await run(t4, review, command={"resume": False})
    rules = _texts((await client.store.search_items(["users", "A", "rules"], limit=100))["items"])
    assert rules == ["Do not use emojis."], rules
    return {"t1": t1}


MEATY = "Try a chicken stir-fry with rice tonight."
CLEAN = "Try a tofu stir-fry with rice tonight."
FOR_B = "Try a lentil soup with bread tonight."
# What the stub model answers, in order: A's draft the check rejects, A's retry, B's reply.
STUB_SCRIPT = (completion(MEATY), completion(CLEAN), completion(FOR_B))


async def _stream(client: Any, assistant: str, user: str, text: str) -> tuple[list[tuple[str, Any]], str]:
    """One turn streamed with ``stream_mode="messages"`` on the stub model: (events, thread)."""
    ctx = {"user_id": user, "chat_model": "openai:stub", "embedding_model": "hash:384", "review_rules": False}
    thread = (await client.threads.create())["thread_id"]
    events = [(part.event, part.data) async for part in client.runs.stream(
        thread, assistant, input={"messages": [{"role": "user", "content": text}]}, context=ctx,
        stream_mode="messages")]
    return events, thread


async def _stream_through_a_retry(url: str, stub: StubServer) -> None:
    """A (vegetarian) gets only the checked reply; B (nothing to check) gets tokens as they come."""
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=RUN_TIMEOUT_S)
    assistant = (await client.assistants.search(graph_id="agent"))[0]["assistant_id"]
    events, thread = await asyncio.wait_for(_stream(client, assistant, "A", "What should I cook tonight?"),
                                            RUN_TIMEOUT_S)
    assert len(stub.requests) == 2 and all(r.get("stream") for r in stub.requests), stub.requests  # a retry
    messages = [data for event, data in events if event.startswith("messages/")]
    assert "chicken" not in json.dumps(messages).lower(), messages  # no token, no message of the draft
    complete = [m["content"] for event, data in events if event == "messages/complete" for m in data]
    assert complete == [CLEAN], events
    state = await client.threads.get_state(thread)
    assert state["values"]["messages"][-1]["content"] == CLEAN

    events, _ = await asyncio.wait_for(_stream(client, assistant, "B", "What should I cook tonight?"),
                                       RUN_TIMEOUT_S)
    partial = [data[0]["content"] for event, data in events if event == "messages/partial"]
    assert len(partial) > 2 and partial[-1] == FOR_B, events  # token by token, growing to the reply


def test_langgraph_dev_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data_dir = tmp_path / "data"
    stub = StubServer(list(STUB_SCRIPT))
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url)  # the server's openai: models talk to the stub
    monkeypatch.setenv("OPENAI_API_KEY", "stub")
    try:
        with dev_server(tmp_path, data_dir) as (url, proc, log):
            ids = asyncio.run(_drive(url))
            asyncio.run(_stream_through_a_retry(url, stub))
            rc = _stop(proc)
    finally:
        stub.close()
    server_log = _ANSI.sub("", log.read_text(errors="replace"))
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it: -15 is a clean stop.
    assert rc in (0, -signal.SIGTERM), f"server did not stop cleanly (rc={rc}):\n{_log_tail(log)}"
    assert "memory store closed" in server_log, _log_tail(log)
    assert "BlockingError" not in server_log and "Traceback" not in server_log, _log_tail(log)
    assert "Using custom store" in server_log and "Using custom checkpointer: RedactingAsyncSqliteSaver" in server_log

    # (5) the data outlived the server: read it back through the CLI/notebook path.
    with sqlite3.connect(data_dir / "checkpoints.sqlite") as conn:
        (n,) = conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (ids["t1"],)).fetchone()
    assert n > 0

    from app.runtime import MemoryAgent
    from core.context import Context
    from stores.namespaces import FACTS, PROFILE, RULES, UserScope

    ctx = Context(user_id="A", data_dir=str(data_dir), chat_model="scripted", embedding_model="hash:384")
    with MemoryAgent(ctx) as agent:
        scope = UserScope("A")
        remembered = [i.value for kind in (FACTS, PROFILE) for i in agent.store.search(scope.ns(kind), limit=100)]
        assert any(_mentions(v, "vegetarian") for v in remembered), remembered
        assert [i.value["text"] for i in agent.store.search(scope.ns(RULES), limit=100)] == ["Do not use emojis."]
        assert agent.store.search(UserScope("B").ns(FACTS), limit=100) == []
