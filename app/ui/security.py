"""The page's guards: a CSRF token on every POST, strict headers on every answer, a rate limit on deletes.

CSRF: a random token in a ``SameSite=Strict`` cookie, repeated in every form
(double submit); a POST whose form token does not match the cookie is refused
before it is read further. Headers: a Content-Security-Policy with no script at
all, no framing, no inline style, same-origin only. Templates autoescape, so a
remembered ``<script>`` is text (app/ui/web.py).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_COOKIE = "memory_csrf"
CSRF_FIELD = "csrf"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
DESTRUCTIVE_PER_MINUTE = 10


def new_token() -> str:
    """A fresh unguessable CSRF token."""
    return secrets.token_urlsafe(32)


def csrf_ok(cookie: str | None, sent: str | None) -> bool:
    """Whether the form's token is the cookie's (constant-time)."""
    return bool(cookie) and bool(sent) and hmac.compare_digest(str(cookie), str(sent))


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
