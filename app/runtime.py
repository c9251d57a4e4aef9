"""One process's memory agent: data dir, store, checkpointer and compiled graph.

The CLI, the demo and the notebooks all go through ``MemoryAgent`` so they open
the same files the same way. ``langgraph dev`` does not use it: the server
brings persistence through ``langgraph.json`` (see graph/studio.py).
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.types import Command

from app.consolidation_worker import ConsolidationWorker
from core.context import Context
from graph.builder import compile_graph
from memory import clock
from memory.layers import default_layers
from memory.layers.base import LayerEnv, MemoryLayer
from memory.tools.bundle import memory_tools
from memory.write_policy.gate import MemoryGate
from models.loader import load_embeddings, validate_chat_spec, validate_embedding_spec
from nodes.background import consolidate_pending, settle
from nodes.input_check import InvalidInput, check_identifier, check_user_text
from nodes.respond import ToolFactory
from stores.checkpointer import open_checkpointer
from stores.data_dir import prepare_data_dir
from stores.namespaces import UserScope
from stores.open import open_store
from stores.redaction.secrets import redact
from stores.user_fence import user_fence


@dataclass
class TurnResult:
    """What one chat turn produced: the reply, the recalled memories, the prompt and any interrupt."""
    reply: str
    recalled: list[dict[str, Any]] = field(default_factory=list)
    system_prompt: str = ""
    interrupt: dict[str, Any] | None = None
    notice: str = ""  # e.g. which kind of secret was removed from the message
    usage: dict[str, int] = field(default_factory=dict)  # this session's memories shown / used (nodes/usage.py)


class MemoryAgent:
    """The agent with its persistence, for one process."""

    def __init__(
        self,
        context: Context | None = None,
        *,
        layers: Sequence[MemoryLayer] | None = None,
        chat_model: BaseChatModel | None = None,
        tool_factory: ToolFactory | None = memory_tools,
    ) -> None:
        self.context = context or Context()
        UserScope(self.context.user_id)
        validate_chat_spec(self.context.chat_model)
        validate_embedding_spec(self.context.embedding_model)
        self.data_dir = prepare_data_dir(self.context.data_dir)
        self.context = replace(self.context, data_dir=str(self.data_dir))
        self.store = open_store(str(self.data_dir), self.context.embedding_model)
        try:
            self.checkpointer = open_checkpointer(self.data_dir, redact=self.context.redact_input)
        except Exception:
            getattr(self.store, "close", lambda: None)()
            raise
        # One layer list for the turn graph and for import/recall, so a custom list reaches all of them.
        self.layers: list[MemoryLayer] = list(default_layers() if layers is None else layers)
        self.graph = compile_graph(
            self.checkpointer, self.store, self.layers, chat_model=chat_model, tool_factory=tool_factory
        )
        self.sync_graph = self.graph  # the sync methods' graph (app/runtime_async.py swaps ``graph`` for an async one)
        self._chat_model, self._tool_factory = chat_model, tool_factory
        self._retain()
        # Fact extraction off the hot path, debounced per thread (app/consolidation_worker.py).
        delay = self.context.consolidation_delay_s
        self.worker = ConsolidationWorker(self._consolidate_now, delay) if delay > 0 else None

    def _retain(self) -> None:
        """The start-up sweep for this user's retention limit (memory/privacy/retention.py); off costs one read."""
        from memory.privacy.forget import UserData
        from memory.privacy.retention import enforce_retention

        scope = UserScope(self.context.user_id)
        gate = MemoryGate(self.store, scope).forgetting()
        where = UserData(gate, scope, self.data_dir, self.checkpointer)
        enforce_retention(where, self.context.retention_days, clock.now())

    def for_user(self, user_id: str) -> MemoryAgent:
        """This agent's store, checkpointer and graph, acting for ``user_id``.

        One process serving many users (the MCP server over HTTP) opens the files
        once; each call gets a view whose context names the caller. A view has no
        background worker and must not be closed: the agent it came from owns the files.
        """
        UserScope(user_id)
        view = copy.copy(self)
        view.context = replace(self.context, user_id=user_id)
        view.worker = None
        return view

    def state(self, thread: str) -> dict[str, Any]:
        """The thread's checkpointed state (messages, summary, last prompt...)."""
        return dict(self.sync_graph.get_state(self.config(thread)).values)

    def config(self, thread: str) -> dict[str, Any]:
        """The run config for ``thread``, scoped to this user.

        Thread ids are per user in the checkpointer, so one user's --thread can
        never open another user's conversation. A thread id that is no fit name (too long, control
        characters, undecodable bytes, a secret) is refused here, in one line, for every caller.
        """
        check_identifier(thread, "thread id")
        return {"configurable": {"thread_id": f"{UserScope(self.context.user_id).label}:{thread}"}}

    def _result(self, out: dict[str, Any]) -> TurnResult:
        if out.get("error"):
            raise InvalidInput(out["error"])  # the graph refused the turn and stored nothing
        interrupts = out.get("__interrupt__") or []
        replies = [m for m in out.get("messages") or [] if isinstance(m, AIMessage) and not m.tool_calls]
        return TurnResult(
            reply=replies[-1].text if replies else "",
            recalled=list(out.get("recalled") or []),
            system_prompt=out.get("system_prompt") or "",
            interrupt=interrupts[0].value if interrupts else None,
            notice=out.get("notice") or "",
            usage=dict(out.get("memory_usage") or {}),
        )

    def say(self, text: str, thread: str) -> TurnResult:
        """One turn. Bad input raises ``InvalidInput`` before anything is stored."""
        with self.writing():
            out = self.sync_graph.invoke(self._turn(text, thread), self.config(thread), context=self.context)
        self._schedule(thread)
        return self._result(out)

    def _turn(self, text: str, thread: str) -> dict[str, Any]:
        """A turn's graph input, after the input check (bad input raises ``InvalidInput``, nothing stored)."""
        check_user_text(text, self.context.max_message_chars)
        if self.context.redact_input:  # the rest of a key the previous message began goes too
            text = redact(text, self._last_said(thread))
        msg = HumanMessage(content=text, id=str(uuid.uuid4()))
        return {"messages": [msg], "mode": "turn", "defer_consolidation": self.worker is not None}

    def _last_said(self, thread: str) -> str:
        """The user's previous message on ``thread`` (as checkpointed, so redacted), or ""."""
        said = [m for m in self.thread_messages(thread) if isinstance(m, HumanMessage)]
        return said[-1].text if said else ""

    def resume(self, thread: str, approve: bool) -> TurnResult:
        """Answer a pending rule review."""
        with self.writing():
            out = self.sync_graph.invoke(Command(resume={"approve": approve}), self.config(thread),
                                         context=self.context)
        self._schedule(thread)
        return self._result(out)

    def end_session(self, thread: str) -> TurnResult:
        """Consolidate the session into long-term memory (episode, facts, rules).

        The result's ``usage`` is the closing session's tally of memories shown and used.
        """
        self.flush(thread)
        usage = dict(self.state(thread).get("memory_usage") or {})
        with self.writing():
            out = self.sync_graph.invoke({"mode": "end_session"}, self.config(thread), context=self.context)
        return replace(self._result(out), reply="", usage=usage)

    def flush(self, thread: str | None = None) -> None:
        """Finish the background consolidation of ``thread`` (of every thread of the user for None) now.

        Waits for a run in progress first. For None it also settles what another
        process left queued (nodes/background.py), so a read or a forget acts on
        everything said so far.
        """
        if self.worker is not None:
            self.worker.flush(None if thread is None else self._thread_id(thread))
        if thread is None:
            settle(self._env(), self.layers)

    def _schedule(self, thread: str) -> None:
        if self.worker is not None:
            self.worker.schedule(self._thread_id(thread))

    def _thread_id(self, thread: str) -> str:
        return str(self.config(thread)["configurable"]["thread_id"])

    def _consolidate_now(self, thread_id: str) -> int:
        """The worker's job: the deferred turns of one thread (nodes/background.py)."""
        with self.writing():
            return consolidate_pending(self._env(), self.layers, thread_id)

    def writing(self, user_id: str | None = None, *, exclusive: bool = False) -> Any:
        """This user's fence (stores/user_fence.py): shared for a run that writes, exclusive for a forget."""
        return user_fence(self.data_dir, UserScope(user_id or self.context.user_id).label, exclusive=exclusive)

    def thread_messages(self, thread: str) -> list[Any]:
        return list(self.state(thread).get("messages") or [])

    def env(self, chat_model: BaseChatModel | None = None) -> LayerEnv:
        """A layer environment for commands that act outside a turn (/remember, import, recall).

        Its store is the user's ``MemoryGate``: commands write under the same rules as the graph.
        Background consolidation is flushed first (``flush``), so a command reads what the turns stored.
        """
        self.flush()
        return self._env(chat_model)

    def _env(self, chat_model: BaseChatModel | None = None) -> LayerEnv:
        scope = UserScope(self.context.user_id)
        return LayerEnv(
            store=MemoryGate(self.store, scope),
            scope=scope,
            context=self.context,
            embeddings=load_embeddings(self.context.embedding_model),
            chat_model=chat_model,
        )

    def forget(self, text: str) -> Any:
        """Delete every memory of this user matching ``text``, everywhere (see memory/privacy/forget.py)."""
        from memory.privacy.forget import forget

        with self.writing(exclusive=True):  # a turn running in another process ends first, or starts after
            env = self.env()
            # Forgetting re-indexes what survives, which must work with memory off.
            return forget(replace(env, store=env.gate.forgetting()), text, checkpointer=self.checkpointer)

    def delete_user(self, user_id: str) -> Any:
        """Remove every trace of ``user_id``; other users are untouched."""
        from memory.privacy.forget import UserData, delete_user

        with self.writing(user_id, exclusive=True):
            self.flush()
            return delete_user(UserData(self.store, UserScope(user_id), self.data_dir), checkpointer=self.checkpointer)

    def close(self) -> None:
        """Finish background consolidation, then close the checkpointer and the store."""
        if self.worker is not None:
            self.worker.close()
            self.worker = None
        self.checkpointer.conn.close()
        close = getattr(self.store, "close", None)
        if close:
            close()

    def __enter__(self) -> MemoryAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
