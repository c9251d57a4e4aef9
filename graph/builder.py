"""The one small builder that wires memory layers into the turn graph.

    START ─► commands ─► retrieve ─► assemble ─► respond ─► check ─► consolidate ─► END
                │  │                             ▲     │                  ▲
                │  │                             └tools┘                  │
                │  └──── (end_session) ───────────────────────────────────┘
                └─────── (a memory command in plain words: nodes/commands.py) ─► END

Pass ``layers`` to swap, add or remove a memory layer; pass ``chat_model`` to
use a model object instead of the ``chat_model`` spec in the context; pass
``tool_factory`` to give capable models other tools (None: no tools). Whether a
model is offered tools at all is the context's ``chat_tools`` setting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import tools_condition
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from graph.context import Context
from graph.state import State
from nodes.assemble import assemble
from nodes.background import settle
from nodes.check.node import make_check
from nodes.commands import make_commands
from nodes.consolidate import make_consolidate
from nodes.env import make_env
from nodes.layers import default_layers
from nodes.layers.base import MemoryLayer
from nodes.respond import make_respond
from nodes.retrieve import make_retrieve
from nodes.tools.bundle import memory_tools
from nodes.tools.tool_node import ToolFactory, make_tool_node

NODES = ("commands", "retrieve", "assemble", "respond", "check", "consolidate")


def _after_retrieve(state: dict[str, Any]) -> str:
    return END if state.get("error") else "assemble"


def _after_respond(state: dict[str, Any]) -> str:
    return "tools" if tools_condition(state) == "tools" else "check"


def _settler(layers: Sequence[MemoryLayer]) -> Callable[[Any, dict[str, Any]], int]:
    """What the tools node runs before a memory read or forget: settle background consolidation."""
    return lambda runtime, state: settle(make_env(runtime, state), layers)


def build_graph(
    layers: Sequence[MemoryLayer] | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    tool_factory: ToolFactory | None = memory_tools,
) -> StateGraph[State, Context, State, State]:
    """The uncompiled turn graph (``langgraph dev`` compiles it with its own persistence)."""
    layers = list(default_layers() if layers is None else layers)
    g = StateGraph(State, context_schema=Context)
    g.add_node("commands", make_commands(layers), destinations=("retrieve", "consolidate", END))
    g.add_node("retrieve", make_retrieve(layers))
    g.add_node("assemble", assemble)
    g.add_node("respond", make_respond(chat_model, tool_factory))
    g.add_node("tools", make_tool_node(tool_factory or (lambda runtime, state: []), before_read=_settler(layers)))
    g.add_node("check", make_check(chat_model))
    g.add_node("consolidate", make_consolidate(layers, chat_model))
    g.add_edge(START, "commands")
    g.add_conditional_edges("retrieve", _after_retrieve, ["assemble", END])
    g.add_edge("assemble", "respond")
    g.add_conditional_edges("respond", _after_respond, ["tools", "check"])
    g.add_edge("tools", "respond")
    g.add_edge("check", "consolidate")
    g.add_edge("consolidate", END)
    return g


def compile_graph(
    checkpointer: Checkpointer,
    store: BaseStore,
    layers: Sequence[MemoryLayer] | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    tool_factory: ToolFactory | None = memory_tools,
) -> CompiledStateGraph[State, Context, State, State]:
    """The graph with persistence, for the CLI, notebooks and tests."""
    return build_graph(layers, chat_model=chat_model, tool_factory=tool_factory).compile(
        checkpointer=checkpointer, store=store
    )
