"""Who a server run acts for, as the server's auth established it.

``graph/auth.py`` grants ``AUTHENTICATED`` to a caller whose token it verified;
LangGraph Server copies the caller's identity and permissions into the run's
``configurable`` (``langgraph_auth_user_id``, ``langgraph_auth_permissions``),
keys a client cannot set. Only with that permission does the identity replace
the client's ``context.user_id``; without it (local Studio, the CLI, tests) the
context's user id stands, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

AUTHENTICATED = "memory:authenticated"


class IdentityMismatch(PermissionError):
    """A run asked to act for a user other than the authenticated caller."""


def authenticated_user(configurable: Mapping[str, Any]) -> str | None:
    """The verified caller's user id, or None when the run was not authenticated by us."""
    if AUTHENTICATED not in (configurable.get("langgraph_auth_permissions") or ()):
        return None
    user = configurable.get("langgraph_auth_user_id")
    return str(user) if user else None


def check_asked_user(asked: str | None, caller: str) -> str:
    """The caller's id; a different ``asked`` id is refused, never silently replaced."""
    if asked is not None and asked != caller:
        raise IdentityMismatch(
            f"context.user_id {asked!r} is not the authenticated user {caller!r}: a run acts only for its caller"
        )
    return caller
