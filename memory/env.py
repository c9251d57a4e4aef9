"""Build a layer's view of the world (``LayerEnv``) from the graph's runtime.

The user scope is made here from ``runtime.context.user_id`` — configuration,
never model output — so every layer of every node reads and writes the same
namespaces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.config import get_config
from langgraph.runtime import Runtime

from core.context import Context
from core.identity import authenticated_user, check_asked_user
from core.run_context import RunContext, RunSettings
from memory.layers.base import LayerEnv, approve_all
from memory.write_policy.gate import MemoryGate
from models.loader import load_embeddings
from stores.namespaces import UserScope


class MissingStore(RuntimeError):
    """The graph was compiled without a long-term store."""


def context_of(runtime: Runtime[Context] | None) -> Context:
    """The run's context; server settings from the server, the user from its auth when on.

    A server client's context arrives as a ``RunContext`` (or a dict), which
    cannot carry server settings. Under server auth the user id is the
    authenticated caller's; a context naming anyone else is refused.
    """
    ctx = getattr(runtime, "context", None)
    asked: str | None = None
    if ctx is None:
        full = Context()
    elif isinstance(ctx, Context):
        full, asked = ctx, ctx.user_id
    elif isinstance(ctx, (dict, RunSettings)):
        run = ctx if isinstance(ctx, RunSettings) else RunContext.model_validate(ctx)
        full = run.to_context()
        asked = full.user_id if "user_id" in run.model_fields_set else None
    else:
        raise TypeError(f"context must be a Context or a dict, not {type(ctx).__name__}")
    caller = _caller()
    if caller is None:
        return full
    return replace(full, user_id=check_asked_user(asked, caller))


def _caller() -> str | None:
    """The authenticated caller of this server run, if the server's auth verified one."""
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # called outside a run: no server, no caller
        return None
    return authenticated_user(configurable)


def make_env(
    runtime: Runtime[Context],
    state: dict[str, Any],
    *,
    chat_model: BaseChatModel | None = None,
    approve: Callable[[dict[str, Any]], bool] = approve_all,
) -> LayerEnv:
    """The ``LayerEnv`` the memory layers need for this run: store, user scope, settings and models."""
    ctx = context_of(runtime)
    if runtime.store is None:
        raise MissingStore(
            "this graph needs a long-term store: compile it with store=... or run it under langgraph dev"
        )
    scope = UserScope(ctx.user_id)
    return LayerEnv(
        store=MemoryGate(runtime.store, scope),  # every long-term write of the run passes the gate
        scope=scope,
        context=ctx,
        embeddings=load_embeddings(ctx.embedding_model),
        chat_model=chat_model,
        approve=approve,
        state=state,
    )
