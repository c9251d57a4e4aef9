"""One server user must not reach another, nor lift the server's limits: a real ``langgraph dev``.

Issue 25, section 3: each test drives a hole that was found from outside, with
the tokens of several users (two look alike once their ids are squeezed into
namespace labels). One server for the module; the tests use fresh threads.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from stores.namespaces import UserScope
from tests.support.langgraph_dev import LANGGRAPH, RUN_TIMEOUT_S, dev_server
from tests.support.server_client import SCRIPTED
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

# Identity providers' ids: a pipe, a dot; and look-alikes that a lossy label would merge.
USERS = {
    "tok-a": "alice",
    "tok-b": "bob",
    "tok-c": "carol",
    "tok-d": "auth0|abc123",
    "tok-e": "auth0~7Cabc123",
    "tok-f": "alice.smith@example.com",
}
SECRET = "hunter2-Xq9zT"
FLUSH_WAIT_S = 40  # langgraph dev writes .langgraph_api/ every 10 s


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    work = tmp_path_factory.mktemp("isolation")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMORY_AUTH_TOKENS", ",".join(f"{t}={u}" for t, u in USERS.items()))
        with dev_server(work, work / "data") as (url, _proc, log):
            yield {"url": url, "data_dir": work / "data", "work": work, "log": log}


def _go(coro: Any) -> Any:
    return asyncio.run(coro)


def test_threads_and_assistants_cannot_be_handed_to_another_user(server: dict[str, Any]) -> None:
    async def go() -> None:
        alice, bob = _client(server["url"], "tok-a"), _client(server["url"], "tok-b")
        thread = (await bob.threads.create())["thread_id"]
        await _run(bob, thread, SCRIPTED, input={"mode": "end_session"})
        assert await _status(bob.threads.update(thread, metadata={"owner": "alice"})) == 403
        assert await _status(alice.threads.get(thread)) == 404
        assert (await bob.threads.get(thread))["metadata"]["owner"] == "bob"
        made = await bob.assistants.create("agent", context={"persona": "You are Bob's helper."})
        assert await _status(bob.assistants.update(made["assistant_id"], metadata={"owner": "alice"})) == 403
        # "created_by: system" is how the server marks its own assistants: a client may not claim it
        assert await _status(bob.assistants.update(made["assistant_id"], metadata={"created_by": "system"})) == 403
        assert await _status(bob.assistants.create("agent", metadata={"created_by": "system"})) == 403
        assert (await bob.assistants.get(made["assistant_id"]))["metadata"]["owner"] == "bob"

    _go(go())


def test_one_users_assistant_never_reaches_anothers_run(server: dict[str, Any]) -> None:
    persona = "You are Captain Bobbeard, a pirate."

    async def go() -> None:
        alice, bob = _client(server["url"], "tok-a"), _client(server["url"], "tok-b")
        bobs = await bob.assistants.create("agent", context={**SCRIPTED, "persona": persona})
        seen = await alice.assistants.search(graph_id="agent", limit=100)
        assert bobs["assistant_id"] not in {a["assistant_id"] for a in seen}
        assert all(a["metadata"].get("owner") in (None, "alice") for a in seen), seen
        assert await _status(alice.assistants.get(bobs["assistant_id"])) == 404
        thread = (await alice.threads.create())["thread_id"]
        out = await _run(alice, thread, SCRIPTED, input=_say("Hello there."))  # the common idiom: search()[0]
        assert "Bobbeard" not in out["system_prompt"], out["system_prompt"]
        other = (await alice.threads.create())["thread_id"]
        run = alice.runs.wait(other, bobs["assistant_id"], input=_say("Hello."), context=SCRIPTED)
        assert await _status(run) == 404
        # bob's own runs still get his persona
        mine = (await bob.threads.create())["thread_id"]
        out = await asyncio.wait_for(
            bob.runs.wait(mine, bobs["assistant_id"], input=_say("Hello there.")), timeout=RUN_TIMEOUT_S
        )
        assert "Bobbeard" in out["system_prompt"], out["system_prompt"]

    _go(go())


def test_client_store_writes_pass_the_write_gate(server: dict[str, Any]) -> None:
    async def go() -> None:
        alice, carol = _client(server["url"], "tok-a"), _client(server["url"], "tok-c")
        notes = ["users", "alice", "notes"]
        huge = {"text": "x" * 1_000_000, "sources": ["client"]}
        assert await _status(alice.store.put_item(notes, "huge", huge)) == 413
        assert not await alice.store.get_item(notes, "huge")
        assert await _status(alice.store.put_item(notes, "bare", {"text": "no provenance"})) == 422
        await alice.store.put_item(notes, "pw", {"text": f"my password is {SECRET}", "sources": ["client"]})
        stored = (await alice.store.get_item(notes, "pw"))["value"]
        assert SECRET not in json.dumps(stored) and "[REDACTED:password]" in stored["text"], stored
        # memory off: a client write is refused like the graph's own
        thread = (await carol.threads.create())["thread_id"]
        await _run(carol, thread, SCRIPTED, input=_say("Stop remembering things about me."))
        assert await _status(carol.store.put_item(["users", "carol", "facts"], "f", {"text": "I like tea.",
                                                                                     "sources": ["client"]})) == 403
        assert not await _items(carol, ["users", "carol", "facts"])

    _go(go())


def test_limits_are_server_settings_checked_before_anything_is_written(server: dict[str, Any]) -> None:
    async def go() -> str:
        alice = _client(server["url"], "tok-a")
        schema = (await alice.assistants.get_schemas(await _assistant(alice))).get("context_schema") or {}
        assert not set(schema.get("properties", {})) & {"max_message_chars", "max_new_tokens", "check_retries"}
        thread = (await alice.threads.create())["thread_id"]
        lifted = {**SCRIPTED, "max_message_chars": 2_000_000}
        big = alice.runs.wait(thread, await _assistant(alice), input=_say("y" * 1_000_000), context=lifted)
        assert await _status(big) == 413
        assert not (await alice.threads.get_state(thread))["values"]
        return str(thread)

    thread = _go(go())
    with sqlite3.connect(server["data_dir"] / "checkpoints.sqlite") as conn:
        (n,) = conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread,)).fetchone()
    assert n == 0


def _api_files_hold(work: Path, needle: bytes) -> bool:
    return any(needle in p.read_bytes() for p in (work / ".langgraph_api").glob("*") if p.is_file())


def test_run_records_keep_no_secrets_and_go_with_their_thread(server: dict[str, Any]) -> None:
    async def go() -> tuple[str, list[dict[str, Any]]]:
        alice = _client(server["url"], "tok-a")
        thread = (await alice.threads.create())["thread_id"]
        out = await _run(alice, thread, SCRIPTED, input=_say(f"My password is {SECRET}, and I live in Gdansk."))
        assert "password" in out["notice"], out  # the user is still told what was removed
        return str(thread), list(await alice.runs.list(thread))

    thread, runs = _go(go())
    assert runs and SECRET not in json.dumps(runs, default=str), runs
    assert "[REDACTED:password]" in json.dumps(runs, default=str)
    deadline = time.monotonic() + FLUSH_WAIT_S
    while not _api_files_hold(server["work"], runs[0]["run_id"].encode()) and time.monotonic() < deadline:
        time.sleep(1)
    assert _api_files_hold(server["work"], runs[0]["run_id"].encode()), "the run was never written to .langgraph_api"
    assert not _api_files_hold(server["work"], SECRET.encode())

    async def delete() -> int:
        alice = _client(server["url"], "tok-a")
        await alice.threads.delete(thread)
        return await _status(alice.runs.list(thread))

    assert _go(delete()) == 404  # deleting the thread takes its run records with it


def test_webhooks_to_private_addresses_or_with_credentials_are_refused_at_creation(server: dict[str, Any]) -> None:
    async def go() -> None:
        bob = _client(server["url"], "tok-b")
        thread = (await bob.threads.create())["thread_id"]
        assistant = await _assistant(bob)
        for hook in ("http://10.0.0.1/", "https://10.0.0.1/hook", "https://192.168.1.20/", "https://172.16.0.5/"):
            # delayed an hour: were it accepted, the test still sends nothing anywhere
            run = bob.runs.create(thread, assistant, input=_say("Hi."), context=SCRIPTED, webhook=hook,
                                  after_seconds=3600)
            status = await _status(run)
            if status == 200:
                for r in await bob.runs.list(thread):
                    await bob.runs.cancel(thread, r["run_id"])
            assert status == 422, hook
        # a credential in the URL would be stored with the run in plain text: refused, nothing kept
        hook = "https://ops:hunter2@hooks.example.com/done"
        assert await _status(bob.runs.create(thread, assistant, input=_say("Hi."), context=SCRIPTED, webhook=hook,
                                             after_seconds=3600)) == 422
        assert "hunter2" not in json.dumps(await bob.runs.list(thread))

    _go(go())


def test_provider_ids_are_accepted_and_look_alikes_never_share_a_namespace(server: dict[str, Any]) -> None:
    pipe, tilde, dotted = _client(server["url"], "tok-d"), _client(server["url"], "tok-e"), _client(server["url"], "tok-f")
    roots = [list(UserScope(USERS[t]).root) for t in ("tok-d", "tok-e", "tok-f")]
    assert len({tuple(r) for r in roots}) == 3 and all("." not in r[1] for r in roots), roots

    async def go() -> None:
        for client, text in ((pipe, "I'm vegetarian."), (tilde, "I'm allergic to peanuts."), (dotted, "I'm vegan.")):
            thread = (await client.threads.create())["thread_id"]
            await _run(client, thread, SCRIPTED, input=_say(text))
        mine = await _items(pipe, roots[0])
        assert any(_mentions(i, "vegetarian") for i in mine) and not any(_mentions(i, "peanuts") for i in mine)
        assert any(_mentions(i, "peanuts") for i in await _items(tilde, roots[1]))
        assert await _status(pipe.store.search_items(roots[1])) == 403
        assert await _status(tilde.store.search_items(roots[0])) == 403
        assert await _status(dotted.store.search_items(["users", "alice"])) == 403

    _go(go())


def test_only_ok_answers_without_a_token(server: dict[str, Any]) -> None:
    url = server["url"]
    thread = _go(_client(url, "tok-a").threads.create())["thread_id"]
    assert httpx.get(f"{url}/ok").status_code == 200
    for path in ("/docs", "/openapi.json", "/metrics", "/info", "/", f"/internal/debug/thread/{thread}",
                 "/internal/truncate", "/deploy"):
        resp = httpx.get(f"{url}{path}", timeout=RUN_TIMEOUT_S)
        assert resp.status_code == 401, (path, resp.status_code, resp.text[:200])
    token = {"Authorization": "Bearer tok-a"}
    assert httpx.get(f"{url}/info", headers=token).status_code == 200
    assert httpx.get(f"{url}/openapi.json", headers=token).status_code == 200
