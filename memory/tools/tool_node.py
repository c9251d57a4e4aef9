"""The ``tools`` node: LangGraph's ``ToolNode`` running the tools built for this run.

Tools are made per run by a ``ToolFactory`` from the run's runtime (its context
names the user, its store holds the memories), so the user they act for is fixed
before the model sees them and no tool argument can change it. ``ToolNode``
knows tools only by name at build time; the documented way to give it tools made
later is ``wrap_tool_call``, which swaps the run's tool into each request.

Errors go back to the model as ``status="error"`` tool messages, so it can
correct itself: an unknown tool name, arguments that are not JSON or fail
validation, or a tool that raises. Every call the model made gets its answer,
so the thread stays valid for providers that require one per call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.tool_node import (
    INVALID_TOOL_NAME_ERROR_TEMPLATE,
    ToolCallRequest,
    ToolInvocationError,
)
from langgraph.store.base import BaseStore
from langgraph.types import Command


class RunView(Protocol):
    """What a tool factory may read: LangGraph's ``Runtime`` and ``ToolRuntime`` both fit."""

    @property
    def context(self) -> Any:
        """The run's context (a ``Context``, or a dict from a server client)."""

    @property
    def store(self) -> BaseStore | None:
        """The long-term store the graph was compiled with."""


ToolFactory = Callable[[RunView, dict[str, Any]], Sequence[BaseTool]]
BeforeRead = Callable[[RunView, dict[str, Any]], Any]
MALFORMED = "__malformed_arguments__"
READS_MEMORY = "reads_memory"  # tool metadata: the tool reads or forgets long-term memory


def reads_memory(tool: BaseTool) -> bool:
    """Whether ``tool`` must see consolidation settled first (``metadata[READS_MEMORY]``)."""
    return bool((tool.metadata or {}).get(READS_MEMORY))


def with_malformed_calls_kept(reply: AIMessage) -> AIMessage:
    """The reply with calls whose arguments did not parse kept as calls, marked.

    LangChain sets those aside as ``invalid_tool_calls``, which ``ToolNode`` never
    sees; turned back into calls, the tools node answers each with an error.
    """
    if not reply.invalid_tool_calls:
        return reply
    marked = [
        {"name": c.get("name") or "", "args": {MALFORMED: c.get("args") or "", "error": c.get("error") or ""},
         "id": c.get("id") or f"malformed-{i}", "type": "tool_call"}
        for i, c in enumerate(reply.invalid_tool_calls)
    ]
    return reply.model_copy(update={"tool_calls": [*reply.tool_calls, *marked], "invalid_tool_calls": []})


def tool_error(err: Exception) -> str:
    """The tool message a failed call gets (bad arguments keep ToolNode's own wording)."""
    if isinstance(err, ToolInvocationError):
        return err.message
    return f"Error: {type(err).__name__}: {err}"


def _answer_or_request(
    request: ToolCallRequest, tools: Sequence[BaseTool]
) -> ToolMessage | ToolCallRequest:
    """The error answer for a call that cannot run, else the request with this run's tool in it."""
    call = request.tool_call
    if MALFORMED in call["args"]:
        content = (
            f"Error: the arguments for {call['name']!r} are not a JSON object "
            f"({call['args'].get('error') or 'unparsable'}): {call['args'][MALFORMED]!r}. Send them again."
        )
        return ToolMessage(content, name=call["name"], tool_call_id=call["id"], status="error")
    by_name = {t.name: t for t in tools}
    tool = by_name.get(call["name"])
    if tool is None:
        content = INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
            requested_tool=call["name"], available_tools=", ".join(by_name)
        )
        return ToolMessage(content, name=call["name"], tool_call_id=call["id"], status="error")
    return request.override(tool=tool)


def make_tool_node(tool_factory: ToolFactory, name: str = "tools", before_read: BeforeRead | None = None) -> ToolNode:
    """A ``ToolNode`` that runs each call with the tool of that name built for this run.

    ``before_read`` runs before a tool that ``reads_memory`` (the graph settles
    background consolidation there, so a search or a forget sees every earlier turn).
    """

    def state_of(request: ToolCallRequest) -> dict[str, Any]:
        return request.state if isinstance(request.state, dict) else {}

    def prepare(request: ToolCallRequest) -> ToolMessage | ToolCallRequest:
        ready = _answer_or_request(request, tool_factory(request.runtime, state_of(request)))
        if before_read is not None and isinstance(ready, ToolCallRequest) and reads_memory(ready.tool):
            before_read(request.runtime, state_of(request))
        return ready

    def run(
        request: ToolCallRequest, execute: Callable[[ToolCallRequest], ToolMessage | Command]
    ) -> ToolMessage | Command:
        ready = prepare(request)
        return ready if isinstance(ready, ToolMessage) else execute(ready)

    async def arun(
        request: ToolCallRequest, execute: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]
    ) -> ToolMessage | Command:
        # Building tools (and settling) touch the disk; the server's event loop must not block.
        ready = await asyncio.to_thread(prepare, request)
        return ready if isinstance(ready, ToolMessage) else await execute(ready)

    return ToolNode([], name=name, wrap_tool_call=run, awrap_tool_call=arun, handle_tool_errors=tool_error)
