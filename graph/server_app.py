"""The guard around every route of ``langgraph dev`` (the middleware of langgraph.json's ``"http"`` app).

LangGraph Server's custom auth (``graph/auth.py``) checks ownership inside the
API routes only; the server answers many more (``graph/server_routes.py``). While
auth is on, this middleware finds the route each request goes to and applies its
class: the health check ``/ok`` is open; meta, API and memory-page routes need a
valid bearer token (the API's handlers and the page then check ownership);
``/metrics`` needs an operator's token (``MEMORY_AUTH_OPERATORS``); routes with no
place on a shared server (``/internal/*``, ``/deploy``, the MCP and A2A bridges,
the event-streaming protocol) and any route in no class are refused, token or
not. CORS preflights and the server's own in-process calls (``root_path``
``/noauth``, which no client can set) pass. With auth off (local Studio)
everything passes, as before.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.routing import get_route_path
from starlette.types import ASGIApp, Receive, Scope, Send

from core.auth_tokens import Unauthenticated, active_verifier, bearer_user, operators
from graph.server_routes import OPEN, OPERATOR, REFUSED, Served, route_class, served


class TokenOnEveryRoute:
    """ASGI middleware: each request is let through by its route's class, or refused in one line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._routes: tuple[int, list[Served]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = None if self._bypass(scope) else self._refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[1]})
        else:
            await JSONResponse({"detail": refusal[1]}, status_code=refusal[0])(scope, receive, send)

    @staticmethod
    def _bypass(scope: Scope) -> bool:
        if scope["type"] not in ("http", "websocket") or active_verifier() is None:
            return True
        if str(scope.get("root_path", "")).startswith("/noauth"):
            return True
        return scope.get("method") == "OPTIONS"

    def _served(self, scope: Scope) -> list[Served]:
        """The running app's routes (``scope["app"]`` is the server), listed once."""
        app = scope.get("app")
        if self._routes is None or self._routes[0] != id(app):
            self._routes = (id(app), list(served(getattr(app, "routes", None) or [])))
        return self._routes[1]

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        path = get_route_path(scope)  # what the router matches (the path under any root_path)
        cls = route_class(self._served(scope), scope["type"], str(scope.get("method", "")), path)
        if cls == OPEN:
            return None
        try:
            user = bearer_user(Headers(scope=scope).get("authorization"))
        except Unauthenticated as err:
            return 401, str(err)
        if cls == REFUSED:
            return 403, f"{path} is not served on a shared server (graph/server_routes.py)"
        if cls == OPERATOR and user not in operators():
            return 403, f"{path} is for the server's operators (MEMORY_AUTH_OPERATORS) only"
        return None


app: Any = Starlette(middleware=[Middleware(TokenOnEveryRoute)])
