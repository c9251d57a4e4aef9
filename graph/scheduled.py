"""Runs the server starts on its own, for a cron: they act for the cron's owner.

A client's request reaches ``graph/auth.py`` with the permission ``AUTHENTICATED``
that its ``authenticate`` granted. The cron scheduler of LangGraph Server makes
its runs itself, with no request: it calls the same handlers as
``SimpleUser(cron.user_id)`` and no permissions. ``cron.user_id`` is the
identity the server recorded from the authenticated caller who created the cron
(``Crons.put``); no client can set or change it. So such a context is the
cron's owner, and its run is stamped as an authenticated run of that owner:
the graph then acts for the owner only (``core/identity.py``), as in the run
the owner would have started by hand. An owner whose account the verifier no
longer holds (their last token removed) has their crons' runs refused.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from core.auth_tokens import account_active
from core.identity import AUTHENTICATED
from stores.namespaces import InvalidUserId, validate_user_id

OPEN_IDENTITY = "anonymous"  # what graph/auth.py names the caller while the server runs open


def scheduled_owner(user: Any, permissions: Any) -> str | None:
    """The cron owner a scheduler's context acts for; None for any other context."""
    if AUTHENTICATED in (permissions or ()):
        return None
    server = sys.modules.get("langgraph_api.auth.custom")  # loaded only inside the server, which has the scheduler
    scheduler_user = getattr(server, "SimpleUser", None)
    identity = str(getattr(user, "identity", "") or "")
    if scheduler_user is None or type(user) is not scheduler_user or not identity or identity == OPEN_IDENTITY:
        return None  # not the scheduler, or a cron made while the server ran without auth
    try:
        owner = validate_user_id(identity)
    except InvalidUserId:
        return None
    return owner if account_active(owner) else None  # a revoked owner's crons are refused, not run


def stamp_owner(kwargs: Mapping[str, Any], owner: str) -> None:
    """Mark a scheduled run as an authenticated run of ``owner`` (in place: the server stores ``kwargs``)."""
    config = kwargs.get("config")
    configurable = config.get("configurable") if isinstance(config, dict) else None
    if isinstance(configurable, dict):
        configurable["langgraph_auth_user_id"] = owner
        configurable["langgraph_auth_permissions"] = [AUTHENTICATED]
