"""The memory page mounted in a real ``langgraph dev`` (``/memory``), behind the server's token auth.

Tokens: ``tok-a`` = alice, ``tok-b`` = bob, ``tok-o`` = op (in ``MEMORY_AUTH_OPERATORS``).
Alice states a fact through a run; bob's session must not open, search or forget
it by URL or form tampering, and the operator sees counts, never content.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import httpx
import pytest

from tests.support.langgraph_dev import LANGGRAPH, dev_server
from tests.support.server_client import alice_states_a_fact as _alice_states_a_fact

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not LANGGRAPH.exists(), reason="langgraph-cli[inmem] is not installed in this venv"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    work = tmp_path_factory.mktemp("ui-server")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMORY_AUTH_TOKENS", "tok-a=alice,tok-b=bob,tok-o=op")
        mp.setenv("MEMORY_AUTH_OPERATORS", "op")
        with dev_server(work, work / "data") as (url, _proc, _log):
            asyncio.run(_alice_states_a_fact(url))
            yield url


def _session(url: str, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=url + "/memory", headers=headers, timeout=60)


def _csrf(client: httpx.Client) -> str:
    """The form token of the client's session (its cookie is kept by the client)."""
    page = client.get("/")
    assert page.status_code == 200
    return re.findall(r'name="csrf" value="([^"]+)"', page.text)[0]


def _alice_fact_key(url: str) -> str:
    with _session(url, "tok-a") as alice:
        page = alice.get("/").text
    keys = re.findall(r'name="kind" value="profile"><input type="hidden" name="key" value="([^"]+)"', page)
    assert keys, page[-2000:]
    return keys[0]


def test_no_token_gets_nothing(server: str) -> None:
    with _session(server, None) as anon:
        assert anon.get("/").status_code == 401
        assert anon.get("/export").status_code == 401


def test_alice_sees_her_fact_with_its_source(server: str) -> None:
    with _session(server, "tok-a") as alice:
        home = alice.get("/")
        assert home.status_code == 200 and "vegetarian" in home.text
        assert "default-src 'none'" in home.headers["content-security-policy"]
        assert "vegetarian" in alice.get("/export").json()["profile"]["current"][0]["text"]


def test_bob_cannot_open_search_or_forget_alices_items(server: str) -> None:
    key = _alice_fact_key(server)
    with _session(server, "tok-b") as bob:
        assert "vegetarian" not in bob.get("/").text
        for kind in ("messages", "facts", "episodes"):
            assert "0 item(s) matching" in bob.get(f"/list/{kind}?q=vegetarian").text
        assert "vegetarian" not in bob.get("/export").text
        token = _csrf(bob)
        forged = bob.post("/forget/preview", data={"csrf": token, "kind": "profile", "key": key})
        assert forged.status_code == 400 and "in your memory" in forged.text
        done = bob.post("/forget", data={"csrf": token, "text": "vegetarian"})
        assert done.status_code == 200 and "nothing matched" in done.text
        assert bob.post("/delete-all", data={"csrf": token, "confirm": "alice"}).status_code == 400
    with _session(server, "tok-a") as alice:
        assert "vegetarian" in alice.get("/").text


def test_the_operator_sees_counts_and_no_content(server: str) -> None:
    with _session(server, "tok-o") as op:
        home = op.get("/")
        assert home.status_code == 200 and "Operator view" in home.text
        assert "alice" in home.text and "profile 1" in home.text
        assert "vegetarian" not in home.text
        for path in ("/list/facts", "/export", "/why?q=vegetarian", "/list/messages?q=vegetarian"):
            refused = op.get(path)
            assert refused.status_code == 403 and "vegetarian" not in refused.text, path


def test_the_mounted_page_refuses_foreign_origins_and_planted_csrf_pairs(server: str) -> None:
    with _session(server, "tok-a") as alice:
        token = _csrf(alice)
        for origin in ("http://evil.example", "null"):
            refused = alice.post("/delete-all", headers={"Origin": origin}, data={"csrf": token, "confirm": "alice"})
            assert refused.status_code == 403, origin
    planted = "B" * 43
    with _session(server, "tok-a") as forged:
        for cookie, sent in ((f"memory_session={planted}", planted), ("memory_csrf=same", "same")):
            forged.cookies.clear()
            refused = forged.post("/delete-all", headers={"Cookie": cookie}, data={"csrf": sent, "confirm": "alice"})
            assert refused.status_code == 403 and "CSRF" in refused.text, cookie
    with _session(server, "tok-b") as bob:  # bob's session token does not pass as alice's
        bobs = _csrf(bob)
        session = bob.cookies.get("memory_session")
    with _session(server, "tok-a") as alice:
        refused = alice.post("/consent", headers={"Cookie": f"memory_session={session}"},
                             data={"csrf": bobs, "memory": "off"})
        assert refused.status_code == 403 and "CSRF" in refused.text
        assert "vegetarian" in alice.get("/").text
