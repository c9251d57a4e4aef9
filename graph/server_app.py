"""The HTTP app langgraph.json mounts (``"http": {"app": ...}``): it closes the routes auth never sees.

LangGraph Server's custom auth (``graph/auth.py``) guards the API routes only.
Its meta routes answer anyone: ``/docs``, ``/openapi.json``, ``/info``,
``/metrics`` and ``/``; ``langgraph dev`` adds ``/internal/truncate`` (wipes its
threads and runs), ``/internal/debug/thread/{id}`` (any thread, raw) and
``/deploy``. This app has no routes of its own; its middleware wraps the whole
server and, while auth is on, lets a request through only with a valid bearer
token, except the health check ``/ok``, CORS preflights and the server's own
in-process calls (``root_path`` ``/noauth``, which no client can set). With auth
off (local Studio) it lets everything through, as before.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from graph.auth_tokens import Unauthenticated, active_verifier, bearer_user

OPEN_PATHS = frozenset({"/ok"})


class TokenOnEveryRoute:
    """ASGI middleware: 401 for a request without a valid token, on every route but ``OPEN_PATHS``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._open(scope):
            await self.app(scope, receive, send)
            return
        try:
            bearer_user(Headers(scope=scope).get("authorization"))
        except Unauthenticated as err:
            await JSONResponse({"detail": str(err)}, status_code=401)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _open(scope: Scope) -> bool:
        if scope["type"] != "http" or active_verifier() is None:
            return True
        if str(scope.get("root_path", "")).startswith("/noauth"):
            return True
        return scope.get("method") == "OPTIONS" or scope.get("path") in OPEN_PATHS


app: Any = Starlette(middleware=[Middleware(TokenOnEveryRoute)])
