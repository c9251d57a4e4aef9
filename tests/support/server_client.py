"""A ``langgraph dev`` client as the server tests drive it: a bearer token, the agent's assistant, runs that finish."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from typing import Any

import httpx

from tests.support.langgraph_dev import RUN_TIMEOUT_S

SCRIPTED = {"chat_model": "scripted", "review_rules": False}


def client(url: str, token: str | None) -> Any:
    from langgraph_sdk import get_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    return get_client(url=url, headers=headers, timeout=RUN_TIMEOUT_S)


def say(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


async def assistant(client: Any) -> str:
    return str((await client.assistants.search(graph_id="agent"))[0]["assistant_id"])


async def run(client: Any, thread: str, context: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    out = await asyncio.wait_for(
        client.runs.wait(thread, await assistant(client), context=context, **kwargs), timeout=RUN_TIMEOUT_S
    )
    assert isinstance(out, dict), out
    return out


async def status(call: Awaitable[Any]) -> int:
    """The HTTP status a call ended with (200 when it succeeded)."""
    try:
        await call
    except httpx.HTTPStatusError as err:
        return err.response.status_code
    return 200


async def items(client: Any, prefix: list[str]) -> list[dict[str, Any]]:
    return list((await client.store.search_items(prefix, limit=200))["items"])


def mentions(item: dict[str, Any], word: str) -> bool:
    return word in json.dumps(item["value"]).lower()


async def alice_states_a_fact(url: str) -> dict[str, Any]:
    alice = client(url, "tok-a")
    thread = (await alice.threads.create())["thread_id"]
    await run(alice, thread, {**SCRIPTED, "user_id": "alice"}, input=say("I'm vegetarian."))
    await run(alice, thread, SCRIPTED, input={"mode": "end_session"})
    return {"alice_thread": thread}
