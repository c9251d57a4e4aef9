"""Host and Origin checks against DNS rebinding, shared by the memory page and the MCP HTTP server.

A page on ``evil.example`` can point its own name at 127.0.0.1 (DNS rebinding)
and then talk to a local server as same-origin: the browser sends
``Host: evil.example:PORT``. So a local server answers only the names it is
really reached by (127.0.0.1, localhost, [::1] on its port, plus the ones the
operator configures), and an ``Origin`` header, when present, must be one of
them. The checking itself is the MCP SDK's ``TransportSecurityMiddleware``
(421 for a foreign Host, 403 for a foreign Origin); this module only says what
is allowed, so both servers enforce one rule.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is only reachable from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _name(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _check_extra(extra: str) -> str:
    value = extra.strip().lower()
    if not value or "/" in value or any(c.isspace() for c in value):
        raise ValueError(f"--allowed-host takes a name or name:port, got {extra!r}")
    return value


def host_settings(host: str, port: int, extra: Iterable[str] = ()) -> TransportSecuritySettings:
    """What a server bound to ``host:port`` answers: loopback names on its port, its own address, ``extra``.

    ``extra`` are ``name`` (any port) or ``name:port`` entries the operator allows
    (``--allowed-host``). A server bound to all addresses without ``extra`` still
    answers its loopback names only: the operator names the public ones.
    """
    names = list(LOOPBACK_NAMES)
    if host not in WILDCARDS and not is_loopback(host):
        names.append(_name(host))
    hosts = [f"{n}:{port}" for n in names]
    for raw in extra:
        value = _check_extra(raw)
        has_port = value.rsplit(":", 1)[-1].isdigit() and not value.endswith("]")
        hosts.extend([value] if has_port else [value, f"{value}:*"])
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


class HostCheck:
    """ASGI middleware: every HTTP request passes the Host/Origin check of ``settings`` or gets its one-line refusal."""

    def __init__(self, app: ASGIApp, settings: TransportSecuritySettings) -> None:
        self.app = app
        self.check = TransportSecurityMiddleware(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = await self.check.validate_request(Request(scope), is_post=False)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)
