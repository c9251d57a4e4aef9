"""A plain-words forget in Studio: the confirmation interrupt resumed both ways through the SDK,
and a listing or a forget that consolidates the turns still deferred first.

One real ``langgraph dev`` (tests/support/langgraph_dev.py), scripted
chat model and hash embeddings.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.support.langgraph_dev import NEEDS_LANGGRAPH, RUN_TIMEOUT_S, dev_server

pytestmark = NEEDS_LANGGRAPH


async def _drive(url: str) -> None:
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=RUN_TIMEOUT_S)
    assistant = (await client.assistants.search(graph_id="agent"))[0]["assistant_id"]
    ctx = {"user_id": "A", "chat_model": "scripted", "embedding_model": "hash:384", "review_rules": False}

    async def run(thread: str, **kwargs: Any) -> dict[str, Any]:
        out = await asyncio.wait_for(client.runs.wait(thread, assistant, context=ctx, **kwargs), timeout=RUN_TIMEOUT_S)
        assert isinstance(out, dict), out
        return out

    async def remembered() -> str:
        return json.dumps((await client.store.search_items(["users", "A"], limit=100))["items"]).lower()

    def say(text: str) -> dict[str, Any]:
        return {"messages": [{"role": "user", "content": text}]}

    t1 = (await client.threads.create())["thread_id"]
    await run(t1, input=say("I'm vegetarian. My name is Zed."))
    await run(t1, input={"mode": "end_session"})
    assert "vegetarian" in await remembered()

    # Asked, then declined: nothing changes.
    t2 = (await client.threads.create())["thread_id"]
    paused = await run(t2, input=say("Forget that I'm vegetarian."))
    interrupts = paused.get("__interrupt__") or []
    assert interrupts and interrupts[0]["value"]["type"] == "forget_confirm", paused
    assert (await client.threads.get_state(t2))["next"] == ["commands"]
    out = await run(t2, command={"resume": False})
    assert "Nothing was deleted" in out["messages"][-1]["content"]
    assert "vegetarian" in await remembered()

    # Asked again, confirmed: gone from the store and from both threads' state.
    assert (await run(t2, input=say("Please forget that I'm vegetarian."))).get("__interrupt__")
    out = await run(t2, command={"resume": {"approve": True}})
    assert out["messages"][-1]["content"].startswith("Done: I deleted"), out["messages"]
    assert "vegetarian" not in await remembered()
    assert "vegetarian" not in json.dumps(out).lower()
    state = await client.threads.get_state(t2)
    assert state["next"] == [] and "vegetarian" not in json.dumps(state["values"]).lower()
    kept = json.dumps((await client.threads.get_state(t1))["values"]).lower()  # rewritten, not deleted
    assert "vegetarian" not in kept and "my name is zed." in kept


async def _deferred(url: str) -> None:
    """Turns sent with ``defer_consolidation`` wait for a side-thread run; a listing or a forget first
    consolidates them (nodes/background.py ``settle``), so the forget leaves nothing for that run to store."""
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=RUN_TIMEOUT_S)
    assistant = (await client.assistants.search(graph_id="agent"))[0]["assistant_id"]
    ctx = {"user_id": "B", "chat_model": "scripted", "embedding_model": "hash:384", "review_rules": False}

    async def run(thread: str, **kwargs: Any) -> dict[str, Any]:
        out = await asyncio.wait_for(client.runs.wait(thread, assistant, context=ctx, **kwargs), timeout=RUN_TIMEOUT_S)
        assert isinstance(out, dict), out
        return out

    async def profile() -> str:
        found = await client.store.search_items(["users", "B", "profile"], limit=100)
        return json.dumps(found["items"]).lower()

    chat, other, side = [(await client.threads.create())["thread_id"] for _ in range(3)]
    await run(chat, input={"messages": [{"role": "user", "content": "I'm vegan."}], "defer_consolidation": True})
    assert "vegan" not in await profile()  # queued for the side-thread run
    listing = await run(other, input={"messages": [{"role": "user", "content": "What do you remember about me?"}]})
    assert "vegan" in listing["messages"][-1]["content"]
    await run(chat, input={"messages": [{"role": "user", "content": "I live in Porto."}], "defer_consolidation": True})
    assert (await run(other, input={"messages": [{"role": "user", "content": "Forget that I live in Porto."}]}))
    out = await run(other, command={"resume": True})
    assert out["messages"][-1]["content"].startswith("Done: I deleted"), out["messages"]
    await run(side, input={"mode": "consolidate_thread", "chat_thread": chat})  # the delayed run comes later: nothing is left for it
    assert "porto" not in json.dumps((await client.store.search_items(["users", "B"], limit=100))["items"]).lower()
    assert "vegan" in await profile()


def test_forget_confirmation_in_studio(tmp_path: Path) -> None:
    with dev_server(tmp_path, tmp_path / "data") as (url, _proc, log):
        asyncio.run(_drive(url))
        asyncio.run(_deferred(url))
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "BlockingError" not in text, text[-3000:]
