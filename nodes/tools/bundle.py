"""The tools a capable model gets in ``respond``: long-term memory and the /memories files.

Built per run from the run's config, so the user they act for is fixed before
the model sees them. The embedded tiny model gets no tools (it cannot call them
reliably); the same operations are chat commands there.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graph.context import Context
from nodes.env import make_env
from nodes.tools.memory_file_tool import memory_file_tool
from nodes.tools.memory_tools import make_memory_tools


def memory_tools(runtime: Runtime[Context], state: dict[str, Any]) -> list[BaseTool]:
    env = make_env(runtime, state)
    return [*make_memory_tools(env), memory_file_tool(env.context.data_dir, env.gate)]
