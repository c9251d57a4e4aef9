"""Every route ``langgraph dev`` serves has a class, and each class holds on a real server with tokens.

The route list comes from the server app itself: ``langgraph_api.server`` imported
in a subprocess with the environment ``langgraph dev`` gives it for this
project's langgraph.json, every route walked (mounted apps included). A route a
later langgraph-api adds fails the first test until ``graph/server_routes.py``
classifies it; meanwhile the guard refuses it. Then one ``langgraph dev`` with
three tokens (alice, bob, an operator) checks the classes from outside.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from core.auth_tokens import StaticTokens, active_verifier, use_verifier
from graph.server_app import TokenOnEveryRoute
from graph.server_routes import REFUSED, ROUTE_CLASSES
from tests.support.langgraph_dev import LANGGRAPH, RUN_TIMEOUT_S, SERVER_ENV, dev_server
from tests.support.langgraph_dev import config_copy as _config_copy
from tests.support.server_client import alice_states_a_fact as _alice_states_a_fact
from tests.support.server_client import client as _client

pytestmark = pytest.mark.skipif(not LANGGRAPH.exists(), reason="langgraph-cli[inmem] is not installed in this venv")

TOKENS = "tok-a=alice,tok-b=bob,tok-o=op"
ALICE, BOB, OP = ({"Authorization": f"Bearer {t}"} for t in ("tok-a", "tok-b", "tok-o"))

LIST_ROUTES = """
import json, os, sys
config = json.load(open(sys.argv[1]))
os.environ.update(
    MIGRATIONS_PATH="__inmem", DATABASE_URI=":memory:", REDIS_URI="fake", N_JOBS_PER_WORKER="1",
    LANGSMITH_LANGGRAPH_API_VARIANT="local_dev", LANGGRAPH_RUNTIME_EDITION="inmem", LANGGRAPH_API_URL="http://x",
    LANGSERVE_GRAPHS=json.dumps(config["graphs"]), LANGGRAPH_AUTH=json.dumps(config["auth"]),
    LANGGRAPH_HTTP=json.dumps(config["http"]), LANGGRAPH_STORE=json.dumps(config["store"]),
    LANGGRAPH_CHECKPOINTER=json.dumps(config["checkpointer"]), LANGGRAPH_WEBHOOKS=json.dumps(config["webhooks"]),
)
from langgraph_api.server import app
from graph.server_routes import served
print("ROUTES=" + json.dumps([key for route in served(app.routes) for key in route.keys()]))
"""


def _served_keys(work: Path) -> list[str]:
    """``"METHOD /pattern"`` of every route the server app of this project's langgraph.json serves."""
    config = _config_copy(work, work / "data")
    env = {**SERVER_ENV, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", LIST_ROUTES, str(config)], capture_output=True, text=True,
                          env=env, cwd=work, timeout=120)
    line = next((x for x in done.stdout.splitlines() if x.startswith("ROUTES=")), None)
    assert done.returncode == 0 and line, done.stderr[-3000:]
    return list(json.loads(line.removeprefix("ROUTES=")))


def test_every_served_route_is_classified(tmp_path: Path) -> None:
    keys = _served_keys(tmp_path)
    assert len(keys) > 60, keys  # the API, the meta routes, langgraph dev's own, the memory page
    unclassified = sorted(set(keys) - set(ROUTE_CLASSES))
    assert not unclassified, f"classify these in graph/server_routes.py (refused until then): {unclassified}"
    stale = sorted(set(ROUTE_CLASSES) - set(keys))
    assert not stale, f"graph/server_routes.py classifies routes the server no longer serves: {stale}"
    for key in ("POST /internal/truncate", "GET /internal/debug/thread/{thread_id}", "GET /deploy", "POST /mcp"):
        assert ROUTE_CLASSES[key] == REFUSED, key


def test_a_route_in_no_class_is_refused_even_with_a_token() -> None:
    async def hello(_request: Any) -> PlainTextResponse:
        return PlainTextResponse("hello")

    app = Starlette(routes=[Route("/threads/{thread_id}/dump", hello, methods=["POST"]),
                            Route("/info", hello), Route("/metrics", hello)],
                    middleware=[Middleware(TokenOnEveryRoute)])
    before = active_verifier()
    use_verifier(StaticTokens.parse("tok-a=alice"))
    try:
        with TestClient(app) as web:
            new = web.post("/threads/abc/dump", headers=ALICE)
            assert new.status_code == 403 and "not served" in new.json()["detail"], new.text
            assert web.post("/threads/abc/dump").status_code == 401
            assert web.get("/info", headers=ALICE).text == "hello"
            assert web.get("/metrics", headers=ALICE).status_code == 403  # alice is no operator
    finally:
        use_verifier(before)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    work = tmp_path_factory.mktemp("routes")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMORY_AUTH_TOKENS", TOKENS)
        mp.setenv("MEMORY_AUTH_OPERATORS", "op")
        with dev_server(work, work / "data") as (url, _proc, log):
            yield {"url": url, "log": log, **asyncio.run(_alice_states_a_fact(url))}


def _call(url: str, method: str, path: str, headers: dict[str, str]) -> httpx.Response:
    body = {} if method in ("POST", "PUT", "PATCH") else None
    return httpx.request(method, url + path, headers=headers, json=body, timeout=RUN_TIMEOUT_S)


@pytest.mark.slow
def test_no_token_opens_internal_routes_and_alices_thread_survives(server: dict[str, Any]) -> None:
    url, thread = server["url"], server["alice_thread"]
    refused = [("GET", f"/internal/debug/thread/{thread}"), ("POST", "/internal/truncate"), ("GET", "/deploy"),
               ("POST", "/deploy"), ("GET", "/deploy/abc/stream"), ("POST", "/mcp"), ("GET", "/mcp"),
               ("POST", "/a2a/x"), ("GET", "/.well-known/agent-card.json"),
               ("POST", f"/threads/{thread}/commands"), ("POST", f"/threads/{thread}/stream/events")]
    for headers in (BOB, ALICE, OP):
        for method, path in refused:
            resp = _call(url, method, path, headers)
            assert resp.status_code == 403, (headers, method, path, resp.status_code, resp.text[:300])
            assert "vegetarian" not in resp.text.lower()
    for method, path in refused:
        assert _call(url, method, path, {}).status_code == 401, path

    async def still_there() -> dict[str, Any]:
        return dict(await _client(url, "tok-a").threads.get_state(thread))

    state = asyncio.run(still_there())
    assert "vegetarian" in json.dumps(state["values"]).lower()


@pytest.mark.slow
def test_metrics_are_the_operators_and_meta_routes_any_users(server: dict[str, Any]) -> None:
    url = server["url"]
    assert _call(url, "GET", "/metrics", BOB).status_code == 403
    assert _call(url, "GET", "/metrics", ALICE).status_code == 403
    assert _call(url, "GET", "/metrics", OP).status_code == 200
    for path in ("/info", "/openapi.json", "/docs", "/"):
        assert _call(url, "GET", path, BOB).status_code == 200, path
    assert _call(url, "GET", "/ok", {}).status_code == 200
    # the ownership handlers still decide inside the API: bob reaches nothing of alice's thread
    thread = server["alice_thread"]
    assert _call(url, "GET", f"/threads/{thread}", BOB).status_code == 404
    assert _call(url, "GET", f"/threads/{thread}/storage", BOB).status_code in (404, 501)
    pruned = httpx.post(f"{url}/threads/prune", headers=BOB, json={"thread_ids": [thread]}, timeout=RUN_TIMEOUT_S)
    assert pruned.status_code in (403, 404), pruned.text[:300]
    assert _call(url, "GET", f"/threads/{thread}", ALICE).status_code == 200
