"""Custom auth for ``langgraph dev`` / LangGraph Server (``"auth"`` in langgraph.json).

Authentication: ``Authorization: Bearer <token>``, checked by a swappable
verifier (``core/auth_tokens.py``; ``use_verifier`` plugs in your own). The
environment picks the built-in one: ``MEMORY_AUTH_JWT_KEY`` (signed tokens) or
``MEMORY_AUTH_TOKENS`` (``token=user_id`` pairs). With neither, the server runs
open, as local Studio always has, and says so once in its log. The routes this
file never sees (``/docs``, ``/info``, ...) are closed by ``graph/server_app.py``.

Authorization, when auth is on (each handler refuses rather than rewrites, except
where it says so):
- threads, runs, crons: stamped with ``metadata.owner`` on create and filtered
  by it on every read, search, update, delete, copy and run, so one user
  cannot see, resume, copy, run on or delete another's thread; an update may
  not change ``metadata.owner`` (no handing a thread over); a cron's runs act
  for its owner (``graph/scheduled.py``), and its update is checked as its creation;
- a run, cron or assistant whose context names another ``user_id`` is refused
  (the graph refuses it again, ``memory/env.py``, for contexts merged later);
- assistants: owned by their creator and seen (read, searched, run) by no one
  else; the system assistants of langgraph.json's graphs (``created_by:
  system``, a mark no client may set) are everyone's;
- store: only namespaces under the caller's root (``UserScope``); listing with
  no prefix (or just ``("users",)``) is narrowed to the caller's own; a put
  passes the write gate (``MemoryGate.aadmit``): size, provenance, consent, and
  its secrets are redacted (rewritten) before it is stored; the shared
  knowledge base (``("knowledge", ...)``) is read by every caller and written
  or deleted only by an identity in ``MEMORY_AUTH_OPERATORS`` (never while the
  server runs open);
- anything else (a resource this file does not know) is refused.

Whether auth is on or not, a run's (or cron's) input must fit the server's
limits (``core/limits.py``; 413 before anything is stored), a webhook URL holding a
credential is refused (422; ``graph/auth_redaction.py``), and its secrets are
redacted from what the server records (the run's ``input`` and ``command``,
listed by ``GET /threads/{id}/runs``, and the metadata, context and config of
threads, runs, crons and assistants) while the server redacts input.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import Auth

import settings
from core.auth_tokens import Unauthenticated, active_verifier, bearer_user, operators, use_verifier
from core.identity import AUTHENTICATED
from graph.auth_redaction import admit_run, finish_split_key, redact_fields, redact_open_put
from graph.scheduled import scheduled_owner, stamp_owner
from memory.write_policy.gate import MemoryGate, MemoryOff, OutsideScope, TooLarge, WriteRefused
from stores.namespaces import ROOT, InvalidUserId, UserScope, is_knowledge, user_of_label

__all__ = ["auth", "use_verifier"]

log = logging.getLogger("memory.auth")
auth = Auth()

OPERATORS_ENV = settings.AUTH_OPERATORS.name  # comma-separated user ids that may write knowledge over HTTP
OPEN_USER: Auth.types.MinimalUserDict = {"identity": "anonymous", "is_authenticated": False, "permissions": []}
SYSTEM = {"created_by": "system"}  # how the server marks the assistants it makes from langgraph.json

if active_verifier() is None:
    log.warning(
        "MEMORY_AUTH_TOKENS (or MEMORY_AUTH_JWT_KEY) is not set: this server runs WITHOUT auth; "
        "any client that reaches its port can read and write every user's memories"
    )


def _refuse(status: int, detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail)


@auth.authenticate
async def authenticate(authorization: str | None = None) -> Auth.types.MinimalUserDict:
    """The caller's user id from a bearer token; 401 without a valid one."""
    if active_verifier() is None:
        return OPEN_USER
    try:
        user = bearer_user(authorization)
    except Unauthenticated as err:
        raise _refuse(401, str(err)) from None
    return {"identity": user, "is_authenticated": True, "permissions": [AUTHENTICATED]}


def _caller(ctx: Auth.types.AuthContext) -> str | None:
    """The authenticated caller; None when the server runs open."""
    if active_verifier() is None:
        return None
    if AUTHENTICATED in (ctx.permissions or ()):
        return str(ctx.user.identity)
    if owner := scheduled_owner(ctx.user, ctx.permissions):
        return owner  # the cron scheduler, acting for the cron's owner (graph/scheduled.py)
    raise _refuse(403, "this server accepts only callers authenticated by its own auth")


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


def _no_claims(caller: str, value: Mapping[str, Any]) -> None:
    """Refuse metadata that would hand a resource to someone else, or pass it off as the system's."""
    metadata = value.get("metadata") or {}
    if "owner" in metadata and metadata["owner"] != caller:
        raise _refuse(403, "metadata.owner is set by the server and cannot be changed")
    if "created_by" in metadata:
        raise _refuse(403, "metadata.created_by is set by the server")


@auth.on.threads.create
async def on_thread_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """New threads belong to their creator."""
    redact_fields(value)
    caller = _caller(ctx)
    return None if caller is None else _own(caller, value)


@auth.on.threads.create_run
async def on_run_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Runs only on the caller's threads, only for the caller, and within the server's limits."""
    kwargs = value.get("kwargs")
    redact_fields(value)
    if isinstance(kwargs, dict):
        admit_run(kwargs)
        await finish_split_key(value.get("thread_id"), kwargs)
    caller = _acting_caller(ctx, kwargs or {})
    if caller is not None and isinstance(kwargs, dict) and scheduled_owner(ctx.user, ctx.permissions):
        stamp_owner(kwargs, caller)
    return None if caller is None else _own(caller, value)


@auth.on.crons.create
async def on_cron_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Scheduled runs act for their creator only, within the server's limits."""
    payload = value.get("payload")
    redact_fields(value)
    if isinstance(payload, dict):
        admit_run(payload)
    caller = _acting_caller(ctx, payload or {})
    return None if caller is None else _own(caller, value)


@auth.on.threads.update
@auth.on.crons.update
async def on_update(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Only the owner updates, and an update never changes the owner.

    A cron's new payload is checked as a new cron's is: within the limits, acting for the caller only.
    """
    redact_fields(value)
    payload = value.get("payload") if ctx.resource == "crons" else None
    if isinstance(payload, dict):
        admit_run(payload)
    caller = _acting_caller(ctx, payload or {})
    if caller is None:
        return None
    _no_claims(caller, value)
    return {"owner": caller}


@auth.on.threads
@auth.on.crons
async def owner_only(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Read, search and delete see only the caller's own threads, runs and crons."""
    caller = _caller(ctx)
    return None if caller is None else {"owner": caller}


@auth.on.assistants.create
async def on_assistant_create(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """A saved configuration belongs to its creator and may not act for anyone else."""
    redact_fields(value)
    caller = _acting_caller(ctx, value)
    if caller is None:
        return None
    _no_claims(caller, value)
    return _own(caller, value)


@auth.on.assistants.read
@auth.on.assistants.search
async def mine_or_system(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """A caller sees (and runs) their own assistants and the system's, never another user's.

    An assistant carries run settings (persona, checks, TTLs) into every run made with it.
    """
    caller = _caller(ctx)
    return None if caller is None else {"$or": [{"owner": caller}, SYSTEM]}


@auth.on.assistants.update
@auth.on.assistants.delete
async def own_assistant(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Only an assistant's owner changes it (the system's have none), and never hands it over."""
    redact_fields(value)
    caller = _acting_caller(ctx, value)
    if caller is None:
        return None
    _no_claims(caller, value)
    return {"owner": caller}


@auth.on.store
async def own_namespaces(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Store access only under the caller's root; a put passes the write gate."""
    caller = _caller(ctx)
    namespace = tuple(value.get("namespace") or ())
    if is_knowledge(namespace):
        _knowledge_access(ctx.action, caller)
        return _redacted_put(ctx.action, namespace, value)  # the operator's text is redacted too
    if caller is not None:
        mine = UserScope(caller).root
        if ctx.action == "list_namespaces" and namespace in ((), (ROOT,)):
            value["namespace"] = mine
            return None
        if namespace[:2] != mine:
            raise _refuse(403, f"namespace {list(namespace)} is not under {list(mine)}")
    if ctx.action == "put" and value.get("value") is not None and namespace[:1] == (ROOT,):
        value["value"] = await _gated(caller, namespace, value)
        return None
    return _redacted_put(ctx.action, namespace, value)  # an open server's other namespaces


def _redacted_put(action: str, namespace: tuple[str, ...], value: dict[str, Any]) -> None:
    if (problem := redact_open_put(action, namespace, value)) is not None:
        raise _refuse(422, problem)


def _knowledge_access(action: str, caller: str | None) -> None:
    """Every caller reads the knowledge base; only an authenticated operator writes or deletes there."""
    if action in ("get", "search", "list_namespaces"):
        return None
    if caller is None or caller not in operators():
        raise _refuse(403, "the knowledge base is written only by the operator (memory-agent knowledge add, "
                           f"or an identity in {OPERATORS_ENV} under server auth)")
    return None


async def _gated(caller: str | None, namespace: tuple[str, ...], value: dict[str, Any]) -> dict[str, Any]:
    """The value a client's put may store, by the rules of the graph's own writes (``MemoryGate``)."""
    from langgraph_api.store import get_store  # the server's store; this module runs only inside it

    try:
        scope = UserScope(caller if caller is not None else user_of_label(namespace[1] if len(namespace) > 1 else ""))
        return await MemoryGate(await get_store(), scope).aadmit(namespace, str(value.get("key")), value["value"])
    except TooLarge as err:
        raise _refuse(413, str(err)) from None
    except (MemoryOff, OutsideScope) as err:
        raise _refuse(403, str(err)) from None
    except (WriteRefused, InvalidUserId) as err:
        raise _refuse(422, str(err)) from None


@auth.on
async def refuse_the_rest(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Any:
    """Deny by default: a resource or action added to the server later is not left open."""
    if _caller(ctx) is None:
        return None
    raise _refuse(403, f"{ctx.resource}.{ctx.action} is not allowed")
