"""The one small builder that wires memory layers into the turn graph, each layer a node.

    START ─┬─ (turn) ──► commands ─► retrieve ─┬► recall_<layer> (one per layer, in parallel) ─┬► assemble
           │               │           │       └───────── (memory off) ──────────────────────┘     │
           │               │           └► END (refused input)                                     ▼
           │               └► END (a memory command in plain words)           check ◄──── respond ⇄ tools
           │                                                 ┌─ (verdict "retry") ─► respond
           ├─ (end_session) ──► consolidate ◄── (ok / flagged / off)
           │                      │   └► END (another user's thread)
           │                      ▼
           │      consolidate_<layer> (one per layer, in parallel) ─► consolidate_done ─► END
           └─ (consolidate_thread) ──► consolidate_deferred ─► END

Pass ``layers`` to swap, add or remove a memory layer: each one is a
``recall_<name>`` and a ``consolidate_<name>`` node (names must be unique); pass
``chat_model`` to use a model object instead of the ``chat_model`` spec in the
context; pass ``tool_factory`` to give capable models other tools (None: no
tools); pass ``context_schema`` for what a run's ``context`` may carry (the
server's graph takes ``RunContext``, per-run settings only). Whether a model is
offered tools at all is the context's ``chat_tools`` setting.

Inputs (``TurnInput``): a turn's ``messages``, and the run's ``mode``
(core/run_mode.py): START routes a "turn" to ``commands``, an "end_session"
straight to ``consolidate`` and a "consolidate_thread" run to
``consolidate_deferred``. They are entries of this graph, not graphs of their
own, because they act on the chat thread's own state (docs/architecture.md,
"Input, output and run modes"). ``defer_consolidation`` splits a turn's
consolidation. Outputs (``TurnOutput``): what the CLI and a server client read
of a run.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import tools_condition
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from core.context import Context
from core.run_mode import CONSOLIDATE_THREAD, END_SESSION, TURN, run_mode
from core.state import State, TurnInput, TurnOutput
from memory.env import make_env
from memory.layers import default_layers
from memory.layers.base import MemoryLayer
from memory.tools.bundle import memory_tools
from memory.tools.tool_node import ToolFactory, make_tool_node
from nodes.assemble import make_assemble
from nodes.background import settle
from nodes.check.node import make_check
from nodes.check.retry import RETRY
from nodes.commands import make_commands
from nodes.consolidate import NONE, log_of, make_consolidate, make_consolidate_done
from nodes.consolidate_deferred import make_consolidate_deferred
from nodes.consolidate_layer import make_consolidate_layer
from nodes.respond import make_respond
from nodes.retrieve import make_recall, make_retrieve, recalling_layers

NODES = (
    "commands", "retrieve", "assemble", "respond", "check", "consolidate", "consolidate_done", "consolidate_deferred"
)
# Where each run mode (a ``RunMode``) enters the graph: the labels of START's edges in Studio.
ENTRIES: dict[Hashable, str] = {
    TURN: "commands", END_SESSION: "consolidate", CONSOLIDATE_THREAD: "consolidate_deferred"
}


def recall_node(layer: MemoryLayer) -> str:
    """The name of ``layer``'s recall node, as Studio shows it."""
    return f"recall_{layer.name}"


def consolidate_node(layer: MemoryLayer) -> str:
    """The name of ``layer``'s consolidation node."""
    return f"consolidate_{layer.name}"


def _after_respond(state: dict[str, Any]) -> str:
    return "tools" if tools_condition(state) == "tools" else "check"


def _after_check(state: dict[str, Any]) -> str:
    return "respond" if state.get("check_verdict") == RETRY else "consolidate"


def _settler(layers: Sequence[MemoryLayer]) -> Callable[[Any, dict[str, Any]], int]:
    """What the tools node runs before a memory read or forget: settle background consolidation."""
    return lambda runtime, state: settle(make_env(runtime, state), layers)


def _unique(layers: Sequence[MemoryLayer]) -> list[MemoryLayer]:
    names = [layer.name for layer in layers]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two layers share the name {twice[0]!r}: each layer is a node, name them apart")
    return list(layers)


def add_recall(
    g: StateGraph[State, Context, TurnInput, TurnOutput],
    layers: Sequence[MemoryLayer],
    after: str = "retrieve",
    into: str = "assemble",
) -> None:
    """``after`` fans out to one recall node per layer, which fan in to ``into``.

    ``after`` ends the run on ``error`` and skips the layers when it did not set
    ``recalling`` (memory off). ``into`` must exist (assemble, the fan-in). Only the
    layers that can recall this turn run (``recalling_layers``): every node LangGraph
    runs in parallel is a thread pool task, a cost the turn pays even when the layer
    has nothing (bench/README.md, "Per-turn memory overhead").
    """
    names = [recall_node(layer) for layer in layers]
    for layer, name in zip(layers, names):
        g.add_node(name, make_recall(layer))
        g.add_edge(name, into)

    def after_retrieve(state: dict[str, Any], runtime: Runtime[Context]) -> str | list[str]:
        if state.get("error"):
            return END
        if not state.get("recalling"):
            return into
        return [recall_node(layer) for layer in recalling_layers(make_env(runtime, state), layers)] or into

    g.add_conditional_edges(after, after_retrieve, [*names, into, END])


def _add_consolidation(
    g: StateGraph[State, Context, TurnInput, TurnOutput],
    layers: Sequence[MemoryLayer],
    chat_model: BaseChatModel | None,
) -> None:
    """Wire consolidate ─► consolidate_<layer> (in parallel) ─► consolidate_done ─► END."""
    log = log_of(layers)
    names = [consolidate_node(layer) for layer in layers]
    g.add_node("consolidate", make_consolidate(layers))
    for layer, name in zip(layers, names):
        g.add_node(name, make_consolidate_layer(layer, log, chat_model))
        g.add_edge(name, "consolidate_done")
    g.add_node("consolidate_done", make_consolidate_done(layers))

    def after_consolidate(state: dict[str, Any]) -> str | list[str]:
        if (state.get("consolidation") or {}).get("mode") == NONE:
            return END  # a session end refused (another user's thread): nothing to consolidate
        return names or "consolidate_done"

    g.add_conditional_edges("consolidate", after_consolidate, [*names, "consolidate_done", END])
    g.add_edge("consolidate_done", END)


def build_graph(
    layers: Sequence[MemoryLayer] | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    tool_factory: ToolFactory | None = memory_tools,
    context_schema: type[Any] = Context,
) -> StateGraph[State, Context, TurnInput, TurnOutput]:
    """The uncompiled turn graph (``langgraph dev`` compiles it with its own persistence)."""
    layers = _unique(default_layers() if layers is None else layers)
    g = StateGraph(State, context_schema=context_schema, input_schema=TurnInput, output_schema=TurnOutput)
    g.add_node("commands", make_commands(layers), destinations=("retrieve", END))
    g.add_node("retrieve", make_retrieve())
    g.add_node("assemble", make_assemble([layer.name for layer in layers]))
    add_recall(g, layers)
    g.add_node("respond", make_respond(chat_model, tool_factory))
    g.add_node("tools", make_tool_node(tool_factory or (lambda runtime, state: []), before_read=_settler(layers)))
    g.add_node("check", make_check())
    _add_consolidation(g, layers, chat_model)
    g.add_node("consolidate_deferred", make_consolidate_deferred(layers))
    g.add_edge("consolidate_deferred", END)
    g.add_conditional_edges(START, run_mode, ENTRIES)
    g.add_edge("assemble", "respond")
    g.add_conditional_edges("respond", _after_respond, ["tools", "check"])
    g.add_edge("tools", "respond")
    g.add_conditional_edges("check", _after_check, ["respond", "consolidate"])
    return g


def compile_graph(
    checkpointer: Checkpointer,
    store: BaseStore,
    layers: Sequence[MemoryLayer] | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    tool_factory: ToolFactory | None = memory_tools,
) -> CompiledStateGraph[State, Context, TurnInput, TurnOutput]:
    """The graph with persistence, for the CLI, notebooks and tests."""
    return build_graph(layers, chat_model=chat_model, tool_factory=tool_factory).compile(
        checkpointer=checkpointer, store=store
    )
