"""Server auth end to end: a real ``langgraph dev`` with ``MEMORY_AUTH_TOKENS`` set.

One server for the module (tokens ``tok-a`` = alice, ``tok-b`` = bob; scripted
chat model, hash embeddings), driven with ``langgraph_sdk`` as two clients.
Alice's own flows must still work; bob's token must get nothing of alice's:
not her store items, not her threads, not a run in her name; and no client may
move a server setting (data dir, embedding model) through a run's context.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from stores.data_dir import EMBEDDINGS_FILE
from tests.support.langgraph_dev import LANGGRAPH, RUN_TIMEOUT_S, dev_server
from tests.support.server_client import SCRIPTED
from tests.support.server_client import alice_states_a_fact as _alice_states_a_fact
from tests.support.server_client import assistant as _assistant
from tests.support.server_client import client as _client
from tests.support.server_client import items as _items
from tests.support.server_client import mentions as _mentions
from tests.support.server_client import run as _run
from tests.support.server_client import say as _say
from tests.support.server_client import status as _status

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not LANGGRAPH.exists(), reason="langgraph-cli[inmem] is not installed in this venv"),
]

TOKENS = "tok-a=alice,tok-b=bob"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The running server, its data dir and log; alice's vegetarian fact already consolidated."""
    work = tmp_path_factory.mktemp("auth")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMORY_AUTH_TOKENS", TOKENS)
        with dev_server(work, work / "data") as (url, _proc, log):
            srv = {"url": url, "data_dir": work / "data", "work": work, "log": log}
            srv.update(asyncio.run(_alice_states_a_fact(url)))
            yield srv



def test_no_token_or_a_wrong_one_is_rejected(server: dict[str, Any]) -> None:
    url = server["url"]
    for headers in ({}, {"Authorization": "Bearer tok-zzz"}, {"Authorization": "tok-a"}, {"x-auth-scheme": "langsmith"}):
        resp = httpx.post(f"{url}/threads/search", json={}, headers=headers, timeout=RUN_TIMEOUT_S)
        assert resp.status_code == 401, (headers, resp.status_code, resp.text)
        resp = httpx.post(f"{url}/store/items/search", json={"namespace_prefix": ["users", "alice"]}, headers=headers)
        assert resp.status_code == 401, (headers, resp.status_code, resp.text)
    assert httpx.get(f"{url}/ok").status_code == 200  # the health check stays open


def test_alice_recalls_her_fact_in_a_new_thread(server: dict[str, Any]) -> None:
    async def go() -> dict[str, Any]:
        alice = _client(server["url"], "tok-a")
        thread = (await alice.threads.create())["thread_id"]
        # no user_id in the context: the identity comes from the token
        return await _run(alice, thread, SCRIPTED, input=_say("What should I cook for dinner tonight?"))

    out = asyncio.run(go())
    assert any("vegetarian" in r["text"].lower() for r in out["recalled"]), out["recalled"]


def test_bob_cannot_search_get_put_or_delete_alices_store(server: dict[str, Any]) -> None:
    async def go() -> None:
        alice, bob = _client(server["url"], "tok-a"), _client(server["url"], "tok-b")
        before = await _items(alice, ["users", "alice"])
        fact = next(i for i in before if _mentions(i, "vegetarian"))
        ns, key = fact["namespace"], fact["key"]
        assert await _status(bob.store.search_items(["users", "alice"])) == 403
        assert await _status(bob.store.search_items(["users"])) == 403
        assert await _status(bob.store.search_items([])) == 403
        assert await _status(bob.store.get_item(ns, key)) == 403
        assert await _status(bob.store.put_item(ns, key, {"text": "I eat meat."})) == 403
        assert await _status(bob.store.put_item(["users", "alice", "facts"], "new", {"text": "x"})) == 403
        assert await _status(bob.store.delete_item(ns, key)) == 403
        assert await _status(bob.store.list_namespaces(prefix=["users", "alice"])) == 403
        # bob's own listing, even unprefixed, shows only bob's namespaces
        await bob.store.put_item(["users", "bob", "notes"], "k1", {"text": "I like tea.", "sources": ["client"]})
        listed = (await bob.store.list_namespaces())["namespaces"]
        assert listed and all(n[:2] == ["users", "bob"] for n in listed), listed
        # alice's data is exactly as it was
        assert (await alice.store.get_item(ns, key))["value"] == fact["value"]
        assert len(await _items(alice, ["users", "alice"])) == len(before)

    asyncio.run(go())


def test_bob_cannot_read_resume_copy_delete_or_run_on_alices_thread(server: dict[str, Any]) -> None:
    async def go() -> None:
        url = server["url"]
        alice, bob = _client(url, "tok-a"), _client(url, "tok-b")
        review = {**SCRIPTED, "review_rules": True}
        thread = (await alice.threads.create())["thread_id"]
        paused = await _run(alice, thread, review, input=_say("Please stop using emojis."))
        assert paused.get("__interrupt__"), paused
        old = server["alice_thread"]
        for name, call in (
            ("get", bob.threads.get(old)),
            ("state", bob.threads.get_state(old)),
            ("history", bob.threads.get_history(old)),
            ("copy", bob.threads.copy(old)),
            ("update state", bob.threads.update_state(thread, {"messages": []})),
            ("list runs", bob.runs.list(old)),
            ("run", bob.runs.wait(old, await _assistant(bob), input=_say("What do I eat?"), context=SCRIPTED)),
            ("resume", bob.runs.wait(thread, await _assistant(bob), command={"resume": {"approve": True}}, context=review)),
            ("delete", bob.threads.delete(old)),
        ):
            # the server answers a copy of a thread it cannot find with 409
            assert await _status(call) in ((403, 404, 409) if name == "copy" else (403, 404)), name
        bobs = await bob.threads.search(limit=100)
        assert old not in {t["thread_id"] for t in bobs}
        assert all(t["metadata"]["owner"] == "bob" and "vegetarian" not in json.dumps(t).lower() for t in bobs)
        # the interrupt is still alice's to answer, and her thread is intact
        assert (await alice.threads.get_state(thread))["next"] == ["consolidate_procedural"]
        assert (await alice.threads.get(old))["metadata"]["owner"] == "alice"
        await _run(alice, thread, review, command={"resume": {"approve": True}})
        rules = [i["value"]["text"] for i in await _items(alice, ["users", "alice", "rules"])]
        assert rules == ["Do not use emojis."], rules

    asyncio.run(go())


def test_bob_cannot_run_a_turn_as_alice(server: dict[str, Any]) -> None:
    async def go() -> None:
        url = server["url"]
        alice, bob = _client(url, "tok-a"), _client(url, "tok-b")
        before = {(tuple(i["namespace"]), i["key"]) for i in await _items(alice, ["users", "alice"])}
        thread = (await bob.threads.create())["thread_id"]
        assistant = await _assistant(bob)
        as_alice = {**SCRIPTED, "user_id": "alice"}
        assert await _status(bob.runs.wait(thread, assistant, input=_say("I hate vegetables."), context=as_alice)) == 403
        cfg = {"configurable": {"user_id": "alice", "chat_model": "scripted"}}
        assert await _status(bob.runs.wait(thread, assistant, input=_say("I hate vegetables."), config=cfg)) == 403
        assert await _status(bob.assistants.create("agent", context={"user_id": "alice"})) == 403
        after = {(tuple(i["namespace"]), i["key"]) for i in await _items(alice, ["users", "alice"])}
        assert after == before
        assert not (await bob.threads.get_state(thread))["values"]
        # bob's own turn is stored under bob, whatever the context would have said
        out = await _run(bob, thread, {**SCRIPTED, "user_id": "bob"}, input=_say("I'm allergic to peanuts."))
        assert not any("vegetarian" in r["text"].lower() for r in out["recalled"]), out["recalled"]
        assert any(_mentions(i, "peanuts") for i in await _items(bob, ["users", "bob"]))

    asyncio.run(go())


def test_a_client_cannot_move_server_settings(server: dict[str, Any]) -> None:
    elsewhere: Path = server["work"] / "elsewhere"

    async def go() -> None:
        alice = _client(server["url"], "tok-a")
        schema = (await alice.assistants.get_schemas(await _assistant(alice))).get("context_schema") or {}
        shown = set(schema.get("properties", {}))
        assert {"user_id", "chat_model", "persona", "review_rules"} <= shown, shown
        assert not shown & {"data_dir", "embedding_model", "redact_input"}, shown
        thread = (await alice.threads.create())["thread_id"]
        # langgraph-api drops context keys the schema lacks; RunContext would drop them too
        moved = {**SCRIPTED, "data_dir": str(elsewhere), "embedding_model": "hash:64"}
        await _run(alice, thread, moved, input=_say("My favourite colour is teal."))
        assert any(_mentions(i, "teal") for i in await _items(alice, ["users", "alice"]))

    asyncio.run(go())
    assert not elsewhere.exists()
    recorded = json.loads((server["data_dir"] / EMBEDDINGS_FILE).read_text())
    assert recorded == {"embedding_model": "hash:384"}, recorded


def test_alice_forgets_through_the_store(server: dict[str, Any]) -> None:
    async def go() -> None:
        alice = _client(server["url"], "tok-a")
        thread = (await alice.threads.create())["thread_id"]
        await _run(alice, thread, SCRIPTED, input=_say("My lucky number is 4711."))
        mine = [i for i in await _items(alice, ["users", "alice"]) if _mentions(i, "4711")]
        assert mine
        for item in mine:
            await alice.store.delete_item(item["namespace"], item["key"])
        assert not any(_mentions(i, "4711") for i in await _items(alice, ["users", "alice"]))

    asyncio.run(go())
