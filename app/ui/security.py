"""The page's guards: a CSRF token on every POST, an Origin check, strict headers, a rate limit on deletes.

CSRF: a random session id in a ``SameSite=Strict`` cookie, and in every form a
token that is the HMAC of that session and the user under a secret this process
drew at start. A plain double submit (any equal cookie/form pair passes) falls
to a planted cookie; this one does not, since nobody outside the process can
compute a token for a session. A POST with a wrong token, or whose ``Origin``
is not the page's own, is refused before its form is read further. Headers: a
Content-Security-Policy with no script at all, no framing, no inline style,
same-origin only, and ``Referrer-Policy: same-origin`` (with ``no-referrer``
a browser sends ``Origin: null`` on the page's own forms). Templates
autoescape, so a remembered ``<script>`` is text (app/ui/web.py).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_COOKIE = "memory_session"
CSRF_FIELD = "csrf"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
}
DESTRUCTIVE_PER_MINUTE = 10


_SECRET = secrets.token_bytes(32)  # per process: a restart voids every token, as it should
SESSION_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,64}")
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def new_session() -> str:
    """A fresh unguessable session id (the cookie)."""
    return secrets.token_urlsafe(32)


def session_of(cookie: str | None) -> tuple[str, bool]:
    """The request's session id, or a fresh one (and True) when its cookie holds none of the right shape."""
    if cookie and SESSION_SHAPE.fullmatch(cookie):
        return cookie, False
    return new_session(), True


def csrf_token(session: str, user: str) -> str:
    """The form token of ``session`` for ``user``: only this process can make it."""
    return hmac.new(_SECRET, f"{user}\0{session}".encode(), hashlib.sha256).hexdigest()


def csrf_ok(session: str | None, user: str, sent: str | None) -> bool:
    """Whether ``sent`` is the token of the cookie's session for ``user`` (constant-time)."""
    if not session or not sent:
        return False
    return hmac.compare_digest(csrf_token(str(session), user).encode(), str(sent).encode())


def same_origin(headers: Mapping[str, str]) -> bool:
    """Whether a present ``Origin`` names the host the request was sent to (absent passes: not a browser)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return bool(host) and origin.lower() in (f"http://{host}".lower(), f"https://{host}".lower())


class StrictHeaders:
    """ASGI middleware: the security headers on every response of the page."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in HEADERS.items() if k.encode() not in have]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


class RateLimit:
    """At most ``per_minute`` destructive actions per user in any 60 seconds (forget, delete all)."""

    def __init__(self, per_minute: int = DESTRUCTIVE_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, user: str) -> bool:
        now = time.monotonic()
        with self._lock:
            recent = self._seen.setdefault(user, deque())
            while recent and now - recent[0] > 60.0:
                recent.popleft()
            if len(recent) >= self.per_minute:
                return False
            recent.append(now)
            return True
