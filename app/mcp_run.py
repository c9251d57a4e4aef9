"""Running the MCP server: stdio for one configured user, streamable HTTP for many.

Over HTTP the users come from the LangGraph server's auth (core/auth_tokens.py:
``MEMORY_AUTH_TOKENS`` token=user pairs, or the JWT verifier), plugged into the
SDK's bearer-token middleware: a request without a valid ``Authorization: Bearer``
header gets 401 before it reaches a tool, and every tool acts for the token's
user (``token_user``), never for a user a tool argument names. With no auth
configured the server runs open only on a loopback address, for the single user
``--user`` names; anywhere else it refuses to start.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

from app.host_check import host_settings, is_loopback
from app.mcp_memory import McpMemory, ToolRefused
from app.mcp_server import build_server
from core.auth_tokens import Verifier, verifier_from_env
from core.context import env_value

USER_ENV = "MEMORY_USER_ID"


class TokenUsers:
    """The SDK's ``TokenVerifier`` over one of the project's verifiers (token -> user id)."""

    def __init__(self, verifier: Verifier) -> None:
        self.verifier = verifier

    async def verify_token(self, token: str) -> AccessToken | None:
        user = self.verifier(token)
        return None if not user else AccessToken(token=token, client_id=user, scopes=[], subject=user)


def token_user() -> str:
    """The user of the request's verified bearer token."""
    token = get_access_token()
    if token is None or not token.subject:
        raise ToolRefused("not authenticated")
    return token.subject


def configured_user(given: str | None) -> str:
    """The user from ``--user`` or ``MEMORY_USER_ID``; an error when neither says."""
    user = given or env_value("user_id")
    if not user:
        raise ValueError(f"say whose memory this is: --user U (or {USER_ENV})")
    return user


def run_stdio(memory: McpMemory, user: str) -> None:
    """Serve ``user``'s memory on stdin/stdout (how Claude Desktop, Cursor and Claude Code start a server)."""
    build_server(memory, lambda: user, log_level="WARNING").run("stdio")


def http_verifier(host: str) -> Verifier | None:
    """The token verifier the environment configures; refuses no auth on a non-loopback ``host``."""
    verifier = verifier_from_env()
    if verifier is None and not is_loopback(host):
        raise ValueError(f"no auth configured (MEMORY_AUTH_TOKENS or MEMORY_AUTH_JWT_KEY): "
                         f"refusing to serve memory on non-loopback address {host}")
    return verifier


def run_http(memory: McpMemory, host: str, port: int, verifier: Verifier | None, user: str | None,
             allowed_hosts: Sequence[str] = ()) -> None:
    """Serve streamable HTTP at ``/mcp``: token users, or (loopback only, no auth) the one ``user``.

    Host and Origin are checked as the memory page checks them (app/host_check.py).
    """
    security = host_settings(host, port, allowed_hosts)
    if verifier is None:
        only = configured_user(user)
        server = build_server(memory, lambda: only, log_level="WARNING")
    else:
        base = f"http://{host}:{port}"
        auth = AuthSettings(issuer_url=base, resource_server_url=f"{base}/mcp", validate_token_resource=False)
        server = build_server(memory, token_user, log_level="WARNING", auth=auth, token_verifier=TokenUsers(verifier))
    server.run("streamable-http", host=host, port=port, streamable_http_path="/mcp", transport_security=security)
