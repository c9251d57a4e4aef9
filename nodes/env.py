"""Build a layer's view of the world (``LayerEnv``) from the graph's runtime.

The user scope is made here from ``runtime.context.user_id`` — configuration,
never model output — so every layer of every node reads and writes the same
namespaces.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from graph.context import Context
from models.loader import load_embeddings
from nodes.layers.base import LayerEnv, approve_all
from nodes.write_gate import MemoryGate
from stores.namespaces import UserScope


class MissingStore(RuntimeError):
    """The graph was compiled without a long-term store."""


def context_of(runtime: Runtime[Context] | None) -> Context:
    """The run's context; a dict (as sent by LangGraph Server clients) becomes a Context."""
    ctx = getattr(runtime, "context", None)
    if ctx is None:
        return Context()
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, dict):
        known = {f.name for f in fields(Context)}
        return Context(**{k: v for k, v in ctx.items() if k in known})
    raise TypeError(f"context must be a Context or a dict, not {type(ctx).__name__}")


def make_env(
    runtime: Runtime[Context],
    state: dict[str, Any],
    *,
    chat_model: BaseChatModel | None = None,
    approve: Callable[[dict[str, Any]], bool] = approve_all,
) -> LayerEnv:
    ctx = context_of(runtime)
    if runtime.store is None:
        raise MissingStore("this graph needs a long-term store: compile it with store=... or run it under langgraph dev")
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
