"""A client's metadata and run context on a real ``langgraph dev`` reach no file (issue 43, item 3).

The server merges a run's metadata and context (``persona``) into every
checkpoint's ``metadata`` column, which LangGraph writes without the serializer,
and keeps thread and run metadata in its ops file under ``.langgraph_api/``. Both
held these secrets verbatim before; a byte search of the data dir and of
``.langgraph_api/`` now finds none of them, while the ordinary words stay.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from stores.namespaces import UserScope
from tests.support.agent_cli import files_with
from tests.support.langgraph_dev import LANGGRAPH, RUN_TIMEOUT_S, dev_server

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not LANGGRAPH.exists(), reason="langgraph-cli[inmem] is not installed in this venv"),
]

SECRETS = {
    "thread": "my password is velvet comet harbor stone",
    "dict_key": "api_key=Hx7Tq2LmPz90Qw",
    "persona": "user bob pass Wq8!zr5K",
    "run": "curl -u ops:Pl4ty9Qx https://ci.example",
    "update": "login: bob / Gr4nite-Owl",
}
NEEDLES = ["velvet comet harbor stone", "Hx7Tq2LmPz90Qw", "Wq8!zr5K", "Pl4ty9Qx", "Gr4nite-Owl", "Vb72KqLm0Zx4Tw",
           "Kv82!pqLz", "48213", "Mq71Zx92Lp04"]
SPLIT = ["here is my deploy token:", "Vb72KqLm0Zx4Tw"]  # a key's rest, sent in the run after its cue


async def _drive(url: str) -> None:
    from langgraph_sdk import get_client

    client = get_client(url=url, timeout=RUN_TIMEOUT_S)
    assistant = (await client.assistants.search(graph_id="agent"))[0]["assistant_id"]
    thread = await client.threads.create(metadata={"topic": f"ski trip; {SECRETS['thread']}",
                                                   SECRETS["dict_key"]: "x"})
    context: dict[str, Any] = {"user_id": "A", "chat_model": "scripted", "embedding_model": "hash:384",
                               "review_rules": False, "persona": f"a cheerful pirate; {SECRETS['persona']}"}
    out = await asyncio.wait_for(client.runs.wait(
        thread["thread_id"], assistant, input={"messages": [{"role": "user", "content": "hello"}]},
        context=context, metadata={"note": SECRETS["run"]}), timeout=RUN_TIMEOUT_S)
    assert isinstance(out, dict) and out.get("messages"), out
    await client.threads.update(thread["thread_id"], metadata={"later": SECRETS["update"]})
    # the store API: a key holding a secret is refused (in a user's namespace, and in any other an open
    # server takes); a value's strings and dict keys are redacted
    for namespace in ([*UserScope("A").root, "notes"], ["scratch"]):
        refused = client.store.put_item(namespace, "password=Kv82!pqLz", {"text": "x", "sources": ["m1"]})
        with pytest.raises(httpx.HTTPStatusError) as err:
            await refused
        assert err.value.response.status_code == 422
    await client.store.put_item(["scratch"], "k1", {"text": "my passcode is 48213 ok", "api_key=Mq71Zx92Lp04": 1})
    for text in SPLIT:
        await asyncio.wait_for(client.runs.wait(
            thread["thread_id"], assistant, input={"messages": [{"role": "user", "content": text}]},
            context=context), timeout=RUN_TIMEOUT_S)


def test_metadata_and_context_reach_no_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with dev_server(tmp_path, data) as (url, _proc, _log):
        asyncio.run(_drive(url))
    api = tmp_path / ".langgraph_api"
    assert api.is_dir() and any(p.is_file() for p in api.rglob("*"))
    found = {n: files_with(data, n) + files_with(api, n) for n in NEEDLES}
    assert {n: f for n, f in found.items() if f} == {}
    assert files_with(data, "cheerful pirate") != []  # the rest of the persona is kept
