"""``memory-agent ui``: the memory page for one user's local data dir, on 127.0.0.1 by default.

With no auth configured it refuses any non-loopback address (the MCP server's
rule, app/mcp_run.py). On a non-loopback address with auth configured
(``MEMORY_AUTH_TOKENS`` or a JWT key) every request needs a bearer token of the
``--user`` it serves; on loopback the page is this machine's, as the data dir is.
Either way a request must name one of the page's own hosts (app/host_check.py):
a web page that rebinds its DNS name to this machine gets 421, not the page.
"""

from __future__ import annotations

import argparse
import sys

from app.flags import context_from
from app.host_check import HostCheck, host_settings, is_loopback
from app.mcp_run import configured_user, http_verifier
from app.runtime import MemoryAgent
from app.ui.source import Identity, LocalSource, NotAllowed
from app.ui.web import build_app
from core.auth_tokens import Unauthenticated, bearer_user


class GuardedLocal(LocalSource):
    """The local source behind a token (the active verifier, core/auth_tokens.py): only the served user's opens it."""

    def identity(self, authorization: str | None) -> Identity:
        try:
            user = bearer_user(authorization)
        except Unauthenticated as err:
            raise NotAllowed(str(err)) from None
        if user != self.agent.context.user_id:
            raise NotAllowed(f"this page serves {self.agent.context.user_id!r} only")
        return Identity(user)


def serve(args: argparse.Namespace) -> int:
    """Open the data dir once and serve the page until interrupted."""
    import uvicorn

    verifier = http_verifier(args.host)  # refused before anything is opened
    args.user = configured_user(args.user)
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1-65535, got {args.port}")
    hosts = host_settings(args.host, args.port, getattr(args, "allowed_host", ()))
    with MemoryAgent(context_from(args, consolidation_delay_s=0.0)) as agent:
        open_here = verifier is None or is_loopback(args.host)
        source = LocalSource(agent) if open_here else GuardedLocal(agent)
        print(f"memory page for {args.user!r} at http://{args.host}:{args.port}/", file=sys.stderr, flush=True)
        if not is_loopback(args.host):
            print(f"answering only Host {', '.join(hosts.allowed_hosts)} (more with --allowed-host)",
                  file=sys.stderr, flush=True)
        app = HostCheck(build_app(source), hosts)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
