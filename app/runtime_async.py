"""``MemoryAgent`` for asyncio code: the same files, the graph compiled on LangGraph's async saver.

An async web app (FastAPI, a bot framework) awaits its turns instead of blocking its event
loop. ``MemoryAgent.graph`` runs on the sync ``SqliteSaver``, whose async methods raise
``NotImplementedError``; here ``graph`` is compiled on ``AsyncSqliteSaver`` (or the async
Postgres saver), the one ``langgraph dev`` uses, so ``ainvoke`` and ``astream`` work, and
``asay``/``aresume``/``aend_session`` mirror the sync methods. The sync methods stay
available for reads and privacy commands (``state``, ``forget``, ``memories``…): they use the
sync saver on the same files.

    async with AsyncMemoryAgent(Context(user_id="alice")) as agent:
        result = await agent.asay("I'm vegetarian.", "t1")
        async for chunk, meta in agent.graph.astream(agent.turn_input("Hi", "t1"), agent.config("t1"),
                                                     context=agent.context, stream_mode="messages"):
            ...
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from dataclasses import replace
from typing import Any

from langgraph.types import Command

from app.runtime import MemoryAgent, TurnResult
from graph.builder import compile_graph
from stores.checkpointer import async_checkpointer


class AsyncMemoryAgent(MemoryAgent):
    """A ``MemoryAgent`` whose ``graph`` is async; open it with ``async with``."""

    _exits: AsyncExitStack | None = None

    async def __aenter__(self) -> AsyncMemoryAgent:
        self._exits = AsyncExitStack()
        try:
            saver = await self._exits.enter_async_context(
                async_checkpointer(self.data_dir, redact=self.context.redact_input)
            )
        except BaseException:
            self.close()
            raise
        self.graph = compile_graph(saver, self.store, self.layers, chat_model=self._chat_model,
                                   tool_factory=self._tool_factory)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._exits is not None:
            await self._exits.aclose()
            self._exits = None
        self.graph = self.sync_graph
        self.close()

    def _async_graph(self) -> Any:
        if self.graph is self.sync_graph:
            raise RuntimeError("open the agent with `async with AsyncMemoryAgent(...)` before awaiting it")
        return self.graph

    def turn_input(self, text: str, thread: str) -> dict[str, Any]:
        """The graph input of one turn on ``thread``, checked and redacted (for ``graph.astream``);
        bad input raises ``InvalidInput``.
        """
        return self._turn(text, thread)

    async def asay(self, text: str, thread: str) -> TurnResult:
        """One turn, awaited. Bad input raises ``InvalidInput`` before anything is stored."""
        with self.writing():  # the user's fence, as the sync turn holds it (stores/user_fence.py)
            out = await self._async_graph().ainvoke(self._turn(text, thread), self.config(thread),
                                                    context=self.context)
        self._schedule(thread)
        return self._result(out)

    async def aresume(self, thread: str, approve: bool) -> TurnResult:
        """Answer a pending rule review, awaited."""
        with self.writing():
            out = await self._async_graph().ainvoke(Command(resume={"approve": approve}), self.config(thread),
                                                    context=self.context)
        self._schedule(thread)
        return self._result(out)

    async def aend_session(self, thread: str) -> TurnResult:
        """Consolidate the session into long-term memory, awaited."""
        graph = self._async_graph()
        self.flush(thread)
        usage = dict((await graph.aget_state(self.config(thread))).values.get("memory_usage") or {})
        with self.writing():
            out = await graph.ainvoke({"mode": "end_session"}, self.config(thread), context=self.context)
        return replace(self._result(out), reply="", usage=usage)

    async def astate(self, thread: str) -> dict[str, Any]:
        """The thread's checkpointed state, read through the async saver."""
        return dict((await self._async_graph().aget_state(self.config(thread))).values)
