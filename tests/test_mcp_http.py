"""`memory-agent mcp --http`: token users over streamable HTTP, driven by the SDK's own client."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.mcp_client import (
    SECRET,
    call,
    cli,
    fails,
    files_holding,
    http_server,
    http_session,
    resource_json,
    server_env,
)

TOKENS = "tok-alice-7f3a=alice,tok-bob-91cd=bob"
ALICE, BOB = "tok-alice-7f3a", "tok-bob-91cd"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("mcp-http") / "data"
    with http_server(data, TOKENS) as url:
        yield {"url": url, "data": data}


def test_no_token_or_a_wrong_token_is_refused(server: dict[str, Any]) -> None:
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream"}
    for auth in ({}, {"Authorization": "Bearer tok-alice-7f3b"}, {"Authorization": "Basic tok-alice-7f3a"},
                 {"Authorization": "Bearer"}):
        reply = httpx.post(server["url"], json=hello, headers={**headers, **auth}, timeout=10)
        assert reply.status_code == 401, (auth, reply.status_code)

    async def go() -> None:
        with pytest.raises(BaseException):  # noqa: B017 -- the SDK raises its transport's error, in a group
            async with http_session(server["url"], "tok-nobody") as s:
                await s.list_tools()

    asyncio.run(go())


def test_two_users_never_reach_each_other(server: dict[str, Any]) -> None:
    async def go() -> None:
        async with http_session(server["url"], ALICE) as a, http_session(server["url"], BOB) as b:
            await call(a, "remember", text="I live in Lisbon.")
            await call(b, "remember", text="I live in Tromso.")  # the same slot id, "location", for both
            await call(a, "memory_file_create", path="/memories/alice.md", file_text="Lisbon notes")
            assert not [r for r in (await call(b, "recall", query="Lisbon"))["results"] if "Lisbon" in r["text"]]
            assert "Lisbon" not in str(await call(b, "what_do_you_remember"))
            assert "Lisbon" not in str(resource_json(await b.read_resource("memory://profile")))
            assert "Lisbon" not in (await b.get_prompt("memory_block", {"query": "Lisbon"})).messages[0].content.text
            await fails(b, "memory_file_view", path="/memories/alice.md")
            await fails(b, "memory_file_view", path="/memories/../alice/alice.md")
            assert "alice.md" not in await call(b, "memory_file_view")
            # a forget by bob of alice's text, of a look-alike id, or with alice's token touches only bob
            assert (await call(b, "forget", text_or_id="Lisbon"))["count"] == 0
            alices = await call(a, "forget", text_or_id="Lisbon")
            await fails(b, "forget", text_or_id="Lisbon", confirm=alices["confirm"])
            bobs = await call(b, "forget", text_or_id="location")
            await call(b, "forget", text_or_id="location", confirm=bobs["confirm"])
            assert any("Lisbon" in r["text"] for r in (await call(a, "recall", query="Lisbon"))["results"])
            assert not [r for r in (await call(b, "recall", query="Tromso"))["results"] if "Tromso" in r["text"]]
            # a rule alice is asked to confirm cannot be confirmed by bob
            asked = (await call(a, "log_turn", role="user", text="From now on, answer in Greek."))["rules_to_confirm"]
            await fails(b, "confirm_rule", confirm=asked[0]["confirm"])
            assert resource_json(await b.read_resource("memory://rules")) == []
            assert resource_json(await a.read_resource("memory://rules")) == []
            assert (await call(a, "confirm_rule", confirm=asked[0]["confirm"]))["saved"]
            assert resource_json(await b.read_resource("memory://rules")) == []
            # alice's own confirmation still works, and deletes for real
            await call(a, "forget", text_or_id="Lisbon", confirm=alices["confirm"])
            assert "Lisbon" not in str(await call(a, "what_do_you_remember"))

    asyncio.run(go())
    assert not files_holding(server["data"], b"Lisbon")
    assert not files_holding(server["data"], b"Tromso")


def test_memory_off_and_secrets_over_http(server: dict[str, Any]) -> None:
    async def go() -> None:
        async with http_session(server["url"], BOB) as b:
            assert (await call(b, "remember", text=f"my key is {SECRET}"))["refused"]
            assert (await call(b, "log_turn", role="user", text=f"deploy with {SECRET} please"))["redacted"]
            await call(b, "memory_off")
            assert (await call(b, "remember", text="I work at Kongsberg."))["refused"]
            assert not (await call(b, "log_turn", role="user", text="I work at Kongsberg."))["logged"]
            await fails(b, "memory_file_create", path="/memories/k.md", file_text="Kongsberg")
            await call(b, "memory_on")

    asyncio.run(go())
    assert not files_holding(server["data"], SECRET.encode())
    assert not files_holding(server["data"], b"Kongsberg")


def test_200_concurrent_writes_from_4_clients_lose_nothing(server: dict[str, Any]) -> None:
    async def client(token: str, n: int) -> None:
        async with http_session(server["url"], token) as s:
            await asyncio.gather(*(call(s, "log_turn", role="user", text=f"Concurrent note {n}-{i} about ferns.",
                                        conversation=f"load-{n}") for i in range(50)))

    async def count(token: str) -> int:
        async with http_session(server["url"], token) as s:
            return int((await call(s, "what_do_you_remember"))["messages"])

    async def go() -> tuple[int, int]:
        before = (await count(ALICE), await count(BOB))
        await asyncio.gather(client(ALICE, 0), client(ALICE, 1), client(BOB, 2), client(BOB, 3))
        after = (await count(ALICE), await count(BOB))
        return after[0] - before[0], after[1] - before[1]

    assert asyncio.run(go()) == (100, 100)


def test_foreign_hosts_and_origins_get_the_pages_refusals(tmp_path: Path) -> None:
    """The memory page's Host/Origin rule (app/host_check.py): its own port only, plus ``--allowed-host``."""
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {ALICE}"}
    with http_server(tmp_path / "data", TOKENS, "--allowed-host", "mcp.lan") as url:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        for host in (f"evil.example:{port}", f"localhost:{port + 1}", f"127.0.0.1:{port + 1}"):
            reply = httpx.post(url, json=hello, headers={**headers, "Host": host}, timeout=10)
            assert reply.status_code == 421, (host, reply.status_code)
        reply = httpx.post(url, json=hello, headers={**headers, "Origin": "http://evil.example"}, timeout=10)
        assert reply.status_code == 403
        for host in (f"mcp.lan:{port}", f"localhost:{port}"):
            reply = httpx.post(url, json=hello, headers={**headers, "Host": host}, timeout=10)
            assert reply.status_code == 200, (host, reply.status_code, reply.text[:200])
    bad = subprocess.run(cli(tmp_path / "data", "mcp", "--http", "--allowed-host", "a b"),
                         env=server_env(MEMORY_AUTH_TOKENS=TOKENS), capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--allowed-host" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_no_auth_refuses_a_non_loopback_address(tmp_path: Path) -> None:
    out = subprocess.run(cli(tmp_path / "data", "mcp", "--http", "--host", "0.0.0.0", "--user", "alice"),
                         env=server_env(), capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "refusing" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "data").exists()


def test_jwt_users_over_http(tmp_path: Path) -> None:
    """With MEMORY_AUTH_JWT_KEY the user is the verified token's `sub`; a forged, expired or foreign token gets 401."""
    import time

    import jwt

    key, data = "a-test-signing-key-of-32-bytes-or-more!", tmp_path / "data"

    def token(sub: str | None = "alice", signed_with: str = key, expires_in: int = 300, aud: str = "memory-agent") -> str:
        claims: dict[str, Any] = {"aud": aud, "exp": int(time.time()) + expires_in}
        if sub is not None:
            claims["sub"] = sub
        return jwt.encode(claims, signed_with, algorithm="HS256")

    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream"}
    unsigned = jwt.encode({"sub": "alice", "aud": "memory-agent", "exp": int(time.time()) + 300}, None, algorithm="none")
    with http_server(data, "", MEMORY_AUTH_JWT_KEY=key, MEMORY_AUTH_JWT_AUDIENCE="memory-agent") as url:
        for bad in (token(signed_with="another-key-of-32-bytes-or-more-!!!"), token(expires_in=-60),
                    token(aud="someone-else"), token(sub=None), unsigned, "tok-alice-7f3a"):
            reply = httpx.post(url, json=hello, headers={**headers, "Authorization": f"Bearer {bad}"}, timeout=10)
            assert reply.status_code == 401, (bad, reply.status_code)

        async def go() -> None:
            async with http_session(url, token("alice")) as a, http_session(url, token("bob")) as b:
                assert (await call(a, "remember", text="I live in Lisbon."))["stored"]
                assert any("Lisbon" in r["text"] for r in (await call(a, "recall", query="Lisbon"))["results"])
                assert not [r for r in (await call(b, "recall", query="Lisbon"))["results"] if "Lisbon" in r["text"]]
                assert "Lisbon" not in str(await call(b, "what_do_you_remember"))

        asyncio.run(go())
    assert files_holding(data, b"Lisbon")  # kept for alice, on disk, and reachable by her token only
