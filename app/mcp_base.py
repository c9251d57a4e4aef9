"""What every MCP memory operation shares: the caller's agent, one lock, checked input, bounded answers.

``McpMemory`` (app/mcp_memory.py) is put together from the operations by concern: writes there,
reads in app/mcp_reads.py, forget in app/mcp_forget.py; each builds on ``McpBase``. Calls are
serialised by one lock: the store and the checkpointer are shared by every user of the process.
"""

from __future__ import annotations

import threading
from typing import Any

from langchain_core.messages.utils import count_tokens_approximately
from mcp.server.mcpserver.exceptions import ToolError

from app.runtime import MemoryAgent
from nodes.input_check import InvalidInput, check_identifier, check_user_text
from stores.redaction.names import SecretInIdentifier

MAX_ANSWER_TOKENS = 2000  # the most any tool answer may cost the client's context
TEXT_CHARS = 600  # one memory's text in an answer
DEFAULT_CONVERSATION = "mcp"


class ToolRefused(ToolError):
    """A call the server refuses with a message for the model; nothing was stored or deleted."""


def cut(text: str, limit: int = TEXT_CHARS) -> str:
    """``text`` within ``limit`` characters, an ellipsis saying it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def within_budget(rows: list[dict[str, Any]], budget: int = MAX_ANSWER_TOKENS) -> tuple[list[dict[str, Any]], bool]:
    """The leading rows that fit ``budget`` tokens, and whether any were left out."""
    kept: list[dict[str, Any]] = []
    used = 0
    for row in rows:
        used += count_tokens_approximately([str(row)])
        if used > budget:
            return kept, True
        kept.append(row)
    return kept, False


class McpBase:
    """One process's memory (a ``MemoryAgent``), its lock, and the checks every tool's input passes."""

    def __init__(self, agent: MemoryAgent) -> None:
        self.agent = agent
        self.lock = threading.Lock()

    def _for(self, user: str) -> MemoryAgent:
        return self.agent.for_user(user)

    @staticmethod
    def _conversation(conversation: Any) -> str:
        try:
            return check_identifier(conversation, "conversation")
        except SecretInIdentifier as err:  # its message already says nothing was stored
            raise ToolRefused(str(err)) from None
        except InvalidInput as err:
            raise ToolRefused(f"{err}; nothing was stored") from None

    def _text(self, text: Any, what: str = "text") -> str:
        try:
            return check_user_text(text, self.agent.context.max_message_chars)
        except InvalidInput as err:
            raise ToolRefused(f"{what}: {err}") from None
