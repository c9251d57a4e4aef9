"""The tools a capable model gets: long-term memory and the /memories files.

Built per run from the run's context and store (``RunView``), so the user they
act for is fixed before the model sees them. ``respond`` offers them to the
model and the ``tools`` node runs them; the embedded tiny model gets none
(``chat_tools``), the same operations are chat commands there.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool

from memory.env import make_env
from memory.tools.memory_file_tool import memory_file_tool
from memory.tools.memory_tools import make_memory_tools
from memory.tools.tool_node import RunView


def memory_tools(runtime: RunView, state: dict[str, Any]) -> list[BaseTool]:
    """``remember``, ``search_memory``, ``forget`` and ``memory``, for this run's user."""
    env = make_env(runtime, state)  # type: ignore[arg-type]  # reads .context and .store only
    return [*make_memory_tools(env), memory_file_tool(env.context.data_dir, env.gate)]
