"""Custom auth for ``langgraph dev`` / LangGraph Server (``"auth"`` in langgraph.json).

Authentication: ``Authorization: Bearer <token>``, checked by a swappable
verifier (``graph/auth_tokens.py``; ``use_verifier`` plugs in your own). The
environment picks the built-in one: ``MEMORY_AUTH_JWT_KEY`` (signed tokens) or
``MEMORY_AUTH_TOKENS`` (``token=user_id`` pairs). With neither, the server runs
open, as local Studio always has, and says so once in its log.

Authorization, when auth is on (each handler refuses rather than rewrites):
- threads, runs, crons: stamped with ``metadata.owner`` on create and filtered
  by it on every read, search, update, delete, copy and run, so one user
  cannot see, resume, copy, run on or delete another's thread;
- a run, cron or assistant whose context names another ``user_id`` is refused
  (the graph refuses it again, ``nodes/env.py``, for contexts merged later);
- store: only namespaces under ``("users", <caller>, ...)``; listing with no
  prefix (or just ``("users",)``) is narrowed to the caller's own namespaces;
- assistants: anyone may read and search (the graph's default assistant has no
  owner); created ones are owned, and only their owner may change or delete them;
- anything else (a resource this file does not know) is refused.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import Auth

from graph.auth_tokens import Verifier, verifier_from_env
from graph.identity import AUTHENTICATED
from stores.namespaces import ROOT

log = logging.getLogger("memory.auth")
auth = Auth()

OPEN_USER: Auth.types.MinimalUserDict = {"identity": "anonymous", "is_authenticated": False, "permissions": []}

_verifier: Verifier | None = verifier_from_env()
if _verifier is None:
    log.warning(
        "MEMORY_AUTH_TOKENS (or MEMORY_AUTH_JWT_KEY) is not set: this server runs WITHOUT auth; "
        "any client that reaches its port can read and write every user's memories"
    )


def use_verifier(verifier: Verifier | None) -> None:
    """Swap the token verifier (``token -> user id or None``); None turns auth off."""
    global _verifier
    _verifier = verifier


def _refuse(status: int, detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail)


@auth.authenticate
async def authenticate(authorization: str | None = None) -> Auth.types.MinimalUserDict:
    """The caller's user id from a bearer token; 401 without a valid one."""
    verifier = _verifier
    if verifier is None:
        return OPEN_USER
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _refuse(401, "missing bearer token (Authorization: Bearer <token>)")
    user = verifier(token.strip())
    if not user:
        raise _refuse(401, "invalid or expired token")
    return {"identity": user, "is_authenticated": True, "permissions": [AUTHENTICATED]}


def _caller(ctx: Auth.types.AuthContext) -> str | None:
    """The authenticated caller; None when the server runs open."""
    if _verifier is None:
        return None
    if AUTHENTICATED not in (ctx.permissions or ()):
        raise _refuse(403, "this server accepts only callers authenticated by its own auth")
    return str(ctx.user.identity)


def _asked_user(context: Mapping[str, Any] | None, config: Mapping[str, Any] | None) -> str | None:
    """The user id a request's context (or configurable) asks the graph to act for."""
    for source in (context or {}, (config or {}).get("configurable") or {}):
        if "user_id" in source:
            return str(source["user_id"])
    return None


def _acting_caller(ctx: Auth.types.AuthContext, request: Mapping[str, Any]) -> str | None:
    """The caller, after refusing a request whose context/config names another user."""
    caller = _caller(ctx)
    if caller is None:
        return None
    asked = _asked_user(request.get("context"), request.get("config"))
    if asked is not None and asked != caller:
        raise _refuse(403, f"context.user_id {asked!r} is not the authenticated user {caller!r}")
    return caller


def _own(caller: str, value: dict[str, Any]) -> dict[str, str]:
    """Stamp the caller as owner (overwriting any owner the client sent); filter by it.

    The server keeps a reference to the request's metadata dict, so it is
    changed in place; a new dict would be silently dropped.
    """
    metadata = value.get("metadata")
    if metadata is None:
        metadata = value["metadata"] = {}
    metadata["owner"] = caller
    return {"owner": caller}


@auth.on.threads.create
async def on_thread_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """New threads belong to their creator."""
    caller = _caller(ctx)
    return None if caller is None else _own(caller, value)


@auth.on.threads.create_run
async def on_run_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Runs only on the caller's threads, and only for the caller."""
    caller = _acting_caller(ctx, value.get("kwargs") or {})
    return None if caller is None else _own(caller, value)


@auth.on.crons.create
async def on_cron_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Scheduled runs act for their creator only."""
    caller = _acting_caller(ctx, value.get("payload") or {})
    return None if caller is None else _own(caller, value)


@auth.on.threads
@auth.on.crons
async def owner_only(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Read, search, update and delete see only the caller's own threads, runs and crons."""
    caller = _caller(ctx)
    return None if caller is None else {"owner": caller}


@auth.on.assistants.create
async def on_assistant_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """A saved configuration belongs to its creator and may not act for anyone else."""
    caller = _acting_caller(ctx, value)
    return None if caller is None else _own(caller, value)


@auth.on.assistants.read
@auth.on.assistants.search
async def any_assistant(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Assistants are configuration, readable by every authenticated caller."""
    _caller(ctx)
    return None


@auth.on.assistants.update
@auth.on.assistants.delete
async def own_assistant(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Only an assistant's owner changes it; the system's default assistant has none."""
    caller = _acting_caller(ctx, value)
    return None if caller is None else {"owner": caller}


@auth.on.store
async def own_namespaces(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Store access only under ``("users", <caller>, ...)``; other namespaces are refused."""
    caller = _caller(ctx)
    if caller is None:
        return None
    mine = (ROOT, caller)
    namespace = tuple(value.get("namespace") or ())
    if ctx.action == "list_namespaces" and namespace in ((), (ROOT,)):
        value["namespace"] = mine
        return None
    if namespace[:2] != mine:
        raise _refuse(403, f"namespace {list(namespace)} is not under {list(mine)}")
    return None


@auth.on
async def refuse_the_rest(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Deny by default: a resource or action added to the server later is not left open."""
    if _caller(ctx) is None:
        return None
    raise _refuse(403, f"{ctx.resource}.{ctx.action} is not allowed")
