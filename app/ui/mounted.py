"""The ``langgraph dev`` HTTP app (langgraph.json ``"http"``): the server's guard, with the memory page at /memory.

``graph/server_app.py``'s middleware still wraps every route (a valid bearer
token or 401); the page then acts for that token's user only, and an identity in
``MEMORY_AUTH_OPERATORS`` sees the knowledge base and per-user counts only.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount

from app.ui.source import ServerSource
from app.ui.web import build_app
from graph.server_app import TokenOnEveryRoute

PREFIX = "/memory"


async def _server_store() -> Any:
    from langgraph_api.store import get_store  # the server's store; this module runs only inside it

    return await get_store()


app: Any = Starlette(routes=[Mount(PREFIX, app=build_app(ServerSource(_server_store)))],
                     middleware=[Middleware(TokenOnEveryRoute)])
