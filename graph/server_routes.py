"""Every route ``langgraph dev`` serves, in one class each; a route in no class is refused.

The ownership rules of ``graph/auth.py`` run only inside the API routes
(threads, runs, crons, assistants, store). The server has more routes than
those: meta routes, ``langgraph dev``'s ``/internal/*`` and ``/deploy``, the MCP
and A2A bridges (which call the API through the in-process client that skips
auth), the event-streaming protocol. A valid token is not enough for them:
Bob's token read Alice's raw thread at ``/internal/debug/thread/{id}``, and any
token wiped the server at ``/internal/truncate``. So ``graph/server_app.py``
finds the route a request goes to, as the router will, and lets it through
only by its class here. A route a later langgraph-api adds is in no class, so
it is refused until someone reads it and classifies it
(tests/test_server_routes.py lists the running app's routes against this table).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from starlette.routing import Mount, compile_path

OPEN = "open"  # no token: the health check
TOKEN = "token"  # any valid token; no user's data behind it
OWNED = "owned"  # any valid token; graph/auth.py's handlers check ownership inside
PAGE = "page"  # any valid token; the memory page checks its user itself (app/ui/source.py)
OPERATOR = "operator"  # a token of an identity in MEMORY_AUTH_OPERATORS
REFUSED = "refused"  # no place on a shared server

_TABLE = {
    OPEN: "GET /ok",
    TOKEN: """GET /  GET /info  GET /docs  GET /openapi.json  POST /ui/{graph_id}  MOUNT /ui""",
    OPERATOR: "GET /metrics",
    REFUSED: """
        POST /internal/truncate  GET /internal/debug/thread/{thread_id}
        GET /deploy  POST /deploy  GET /deploy/{operation_id}/stream
        DELETE,GET,POST /mcp
        DELETE,GET,POST /a2a/{assistant_id}  DELETE,GET,POST /a2a/{assistant_id}/
        GET /a2a/{assistant_id}/.well-known/agent-card.json  GET /a2a/{assistant_id}/.well-known/agent.json
        GET /.well-known/agent-card.json
        POST /threads/{thread_id}/stream/events  WS /threads/{thread_id}/stream/events
        POST /threads/{thread_id}/commands
    """,
    PAGE: """
        GET /memory/  GET /memory/list/{kind}  GET /memory/message/{key:path}  GET /memory/why
        GET /memory/reviews  POST /memory/reviews  POST /memory/profile  POST /memory/forget/preview
        POST /memory/forget  POST /memory/delete-all  POST /memory/consent  GET /memory/export
        GET /memory/upkeep  MOUNT /memory/static
    """,
    OWNED: """
        POST /assistants  POST /assistants/search  POST /assistants/count
        POST /assistants/{assistant_id}/latest  POST /assistants/{assistant_id}/versions
        GET /assistants/{assistant_id}  PATCH /assistants/{assistant_id}  DELETE /assistants/{assistant_id}
        GET /assistants/{assistant_id}/graph  GET /assistants/{assistant_id}/schemas
        GET /assistants/{assistant_id}/subgraphs  GET /assistants/{assistant_id}/subgraphs/{namespace}
        POST /runs/stream  POST /runs/wait  POST /runs  POST /runs/batch  POST /runs/cancel
        POST /runs/crons  POST /runs/crons/search  POST /runs/crons/count
        GET /runs/crons/{cron_id}  PATCH /runs/crons/{cron_id}  DELETE /runs/crons/{cron_id}
        GET /threads/{thread_id}/runs/{run_id}/join  GET /threads/{thread_id}/runs/{run_id}/stream
        POST /threads/{thread_id}/runs/{run_id}/cancel
        GET /threads/{thread_id}/runs/{run_id}  DELETE /threads/{thread_id}/runs/{run_id}
        POST /threads/{thread_id}/runs/stream  POST /threads/{thread_id}/runs/wait
        POST /threads/{thread_id}/runs  GET /threads/{thread_id}/runs  POST /threads/{thread_id}/runs/crons
        POST /threads  POST /threads/search  POST /threads/count  POST /threads/prune
        GET /threads/{thread_id}  PATCH /threads/{thread_id}  DELETE /threads/{thread_id}
        GET /threads/{thread_id}/state  POST /threads/{thread_id}/state  GET /threads/{thread_id}/storage
        GET /threads/{thread_id}/history  POST /threads/{thread_id}/history  POST /threads/{thread_id}/copy
        GET /threads/{thread_id}/state/{checkpoint_id}  POST /threads/{thread_id}/state/checkpoint
        GET /threads/{thread_id}/stream
        PUT /store/items  GET /store/items  DELETE /store/items  POST /store/items/search
        POST /store/namespaces
    """,
}


def _parse(table: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for cls, text in table.items():
        words = text.split()
        for verbs, path in zip(words[::2], words[1::2], strict=True):
            for verb in verbs.split(","):
                out[f"{verb} {path}"] = cls
    return out


ROUTE_CLASSES: dict[str, str] = _parse(_TABLE)
"""``"METHOD /pattern"`` (``WS`` for a websocket, ``MOUNT`` for a mounted app) -> its class."""


@dataclass(frozen=True)
class Served:
    """One route of the running app: its full pattern, the methods it answers, how a path matches it."""

    pattern: str
    methods: frozenset[str]  # {"WS"} for a websocket, {"MOUNT"} for a mounted app
    regex: re.Pattern[str]

    def keys(self) -> list[str]:
        return [f"{m} {self.pattern}" for m in sorted(self.methods - {"HEAD"})]


def served(routes: Iterable[Any], prefix: str = "") -> Iterator[Served]:
    """The app's routes in the router's order, mounted sub-apps included (their routes, or the mount)."""
    for route in routes:
        path = prefix + str(getattr(route, "path", ""))
        if isinstance(route, Mount):
            inner = list(route.routes or [])
            if inner:
                yield from served(inner, path)
            else:
                yield Served(path, frozenset({"MOUNT"}), re.compile("^" + re.escape(path) + "(/.*)?$"))
            continue
        methods = getattr(route, "methods", None)
        regex = compile_path(path)[0]
        yield Served(path, frozenset(methods) if methods else frozenset({"WS"}), regex)


def route_class(routes: Iterable[Served], scope_type: str, method: str, path: str) -> str | None:
    """The class of the route that serves ``method path``; None for no route (the app answers 404 or 405).

    A route that is served but is in no class here is ``REFUSED``.
    """
    verb = "WS" if scope_type == "websocket" else ("GET" if method == "HEAD" else method)
    for route in routes:
        if not route.regex.match(path):
            continue
        if "MOUNT" in route.methods:
            return ROUTE_CLASSES.get(f"MOUNT {route.pattern}", REFUSED)
        if verb in route.methods:
            return ROUTE_CLASSES.get(f"{verb} {route.pattern}", REFUSED)
    return None
