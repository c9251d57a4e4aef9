"""Crons on a real ``langgraph dev`` with tokens: they run, as their owner, and their updates are checked.

The scheduler makes a cron's runs with no request and no token; before, each
one was refused ("this server accepts only callers authenticated by its own
auth") and a cron never ran. Now it runs as the owner who created it, and an
update may no more make a cron act for someone else than its creation could.
The crons fire every few seconds (croniter's sixth field), so the wait is short
and bounded.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.langgraph_dev import LANGGRAPH, dev_server
from tests.support.server_client import SCRIPTED
from tests.support.server_client import assistant as _assistant
from tests.support.server_client import client as _client
from tests.support.server_client import items as _items
from tests.support.server_client import mentions as _mentions
from tests.support.server_client import say as _say
from tests.support.server_client import status as _status

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not LANGGRAPH.exists(), reason="langgraph-cli[inmem] is not installed in this venv"),
]

EVERY_5S = "* * * * * */5"
WAIT_S = 90
REFUSED_LINE = "accepts only callers authenticated"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    work = tmp_path_factory.mktemp("crons")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMORY_AUTH_TOKENS", "tok-a=alice,tok-b=bob")
        with dev_server(work, work / "data") as (url, _proc, log):
            yield {"url": url, "log": log}


async def _runs_done(client: Any, thread: str) -> list[dict[str, Any]]:
    return [r for r in await client.runs.list(thread, limit=50) if r["status"] == "success"]


def test_a_users_crons_run_as_that_user(server: dict[str, Any]) -> None:
    """A thread cron with a context, and a stateless cron with none: both act for their creator."""
    async def teal_stored(client: Any) -> bool:
        return any(_mentions(i, "teal") for i in await _items(client, ["users", "alice"]))

    async def go() -> tuple[list[dict[str, Any]], bool, list[dict[str, Any]], list[dict[str, Any]]]:
        alice, bob = _client(server["url"], "tok-a"), _client(server["url"], "tok-b")
        assistant = await _assistant(alice)
        thread = (await alice.threads.create())["thread_id"]
        crons = [await alice.crons.create_for_thread(thread, assistant, schedule=EVERY_5S,
                                                     input=_say("I like green tea."), context=SCRIPTED),
                 await alice.crons.create(assistant, schedule=EVERY_5S, input=_say("My favourite colour is teal."))]
        try:
            deadline = time.monotonic() + WAIT_S
            while time.monotonic() < deadline and not (await _runs_done(alice, thread) and await teal_stored(alice)):
                await asyncio.sleep(2)
            done, teal = await _runs_done(alice, thread), await teal_stored(alice)
        finally:
            for cron in crons:
                await alice.crons.delete(cron["cron_id"])
        return done, teal, await _items(alice, ["users", "alice"]), await _items(bob, ["users", "bob"])

    done, teal, alices, bobs = asyncio.run(go())
    log = Path(server["log"]).read_text(errors="replace")
    assert done and teal, f"no cron run within {WAIT_S}s; refused in the log: {log.count(REFUSED_LINE)}"
    assert REFUSED_LINE not in log
    assert all(r["metadata"].get("owner") == "alice" for r in done), done
    assert any(_mentions(i, "green tea") for i in alices), [i["value"] for i in alices]
    assert not any(_mentions(i, "green tea") or _mentions(i, "teal") for i in bobs)


def test_a_cron_update_is_checked_like_its_creation(server: dict[str, Any]) -> None:
    async def go() -> None:
        alice, bob = _client(server["url"], "tok-a"), _client(server["url"], "tok-b")
        assistant = await _assistant(bob)
        thread = (await bob.threads.create())["thread_id"]
        later = "0 0 1 1 *"  # never fires during the test
        bobs = await bob.crons.create_for_thread(thread, assistant, schedule=later, input=_say("hi"), context=SCRIPTED)
        alices = await alice.crons.create_for_thread((await alice.threads.create())["thread_id"], assistant,
                                                     schedule=later, input=_say("hi"), context=SCRIPTED)
        as_alice = {**SCRIPTED, "user_id": "alice"}
        assert await _status(bob.crons.update(bobs["cron_id"], context=as_alice)) == 403
        cfg = {"configurable": {"user_id": "alice"}}
        assert await _status(bob.crons.update(bobs["cron_id"], config=cfg)) == 403
        assert await _status(bob.crons.update(bobs["cron_id"], input=_say("x" * 2_000_000))) == 413
        assert await _status(bob.crons.update(bobs["cron_id"], metadata={"owner": "alice"})) == 403
        assert await _status(bob.crons.update(alices["cron_id"], schedule="* * * * *")) == 404
        alices_thread = alices["thread_id"]
        assert await _status(bob.crons.create_for_thread(alices_thread, assistant, schedule=later)) in (403, 404)
        # the owner's own update, naming herself, still works
        assert await _status(alice.crons.update(alices["cron_id"], context=as_alice)) == 200
        stored = await bob.crons.search(limit=50)
        assert [c["cron_id"] for c in stored] == [bobs["cron_id"]]
        assert "alice" not in json.dumps(stored[0]["payload"])
        for client, cron in ((bob, bobs), (alice, alices)):
            await client.crons.delete(cron["cron_id"])

    asyncio.run(go())
