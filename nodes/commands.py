"""commands: memory commands said in plain words, handled before the model sees them.

Runs first in every turn (START -> commands for a run whose mode is "turn":
core/run_mode.py), so the CLI, Studio and the SDK all get it, and on every
model: a capable model keeps its tools, but the rule answers an unambiguous
request first. A handled request goes to END: it is not
recalled against, answered by the model, logged or consolidated. Before acting
it settles background consolidation (nodes/background.py): a listing or a
forget sees the facts of turns still queued, or being consolidated right now.

A forget request shows what it would delete and asks first, through LangGraph's
``interrupt`` (resume with ``Command(resume=True/False)`` or ``{"approve": ...}``);
nothing is deleted on a guess. Once confirmed, the request leaves no trace:

- the store, memory files and the user's other threads: ``memory/privacy/forget.py``;
- this thread's checkpoints (the request, and the confirmation that quotes what
  it deletes, are in them): deleted here with ``delete_thread`` before forget
  scrubs the file, so the run's next checkpoint starts a fresh history;
- this thread's state, which the run writes back: the request is removed
  (``RemoveMessage``), and every message that mentions the forgotten text loses
  that part (``forget_parts.Needle``: the same cut as the message log's; a message
  left with nothing goes), as do the session log entries and summary lines; the
  last prompt is cleared.

Command replies are marked (``additional_kwargs[COMMAND_KEY]``) and removed at the
start of the next input (``stale_replies``; ``consolidate`` does it for a session
end), so a memory listing is never logged or fed to the model.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from langgraph.config import get_config
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from core.context import Context
from memory.env import make_env
from memory.layers.base import LayerEnv, MemoryLayer
from memory.privacy.consent import set_memory_enabled
from memory.privacy.export import export_user, render_memories
from memory.privacy.forget import UserData, forget, would_forget
from memory.privacy.forget_parts import Needle
from memory.privacy.retention_sweep import change_retention
from nodes.background import settle
from nodes.intents import Intent, needles, parse_intent
from nodes.ownership import claim_thread, register_thread
from stores.redaction.scrub import strings_in

COMMAND_KEY = "memory_command"
CONFIRM_TYPE = "forget_confirm"
PREVIEW_LINES = 3
PREVIEW_CHARS = 80
YES = frozenset({"y", "yes", "true", "approve", "ok", "confirm", "delete"})


def _reply(kind: str, text: str) -> AIMessage:
    return AIMessage(content=text, id=f"cmd-{uuid.uuid4().hex}", additional_kwargs={COMMAND_KEY: kind})


def stale_replies(messages: Sequence[AnyMessage]) -> list[RemoveMessage]:
    """Removals of the command replies still in the thread (they are never kept past the next input)."""
    return [RemoveMessage(id=str(m.id)) for m in messages if COMMAND_KEY in (m.additional_kwargs or {})]


def _mentions(obj: Any, needle: str) -> bool:
    return Needle(needle).in_any(strings_in(obj))


def approved(answer: Any) -> bool:
    """A resume value as yes/no: True/False, "y"/"n", or {"approve": bool}."""
    if isinstance(answer, dict):
        answer = answer.get("approve", answer.get("approved", False))
    if isinstance(answer, str):
        return answer.strip().casefold() in YES
    return answer is True


def _thread_id() -> str:
    return str(get_config().get("configurable", {}).get("thread_id", "default"))


class _LoopBridge:
    """The sync calls forget needs (``list``, ``delete_thread``, ``get_tuple``, ``put``) on an async-only saver.

    LangGraph Server wraps a custom checkpointer in an adapter that only speaks
    async; this node runs in a worker thread, so the calls go to the saver's loop.
    """

    def __init__(self, saver: BaseCheckpointSaver, loop: asyncio.AbstractEventLoop) -> None:
        self.saver, self.loop = saver, loop

    def list(self, config: Any) -> Iterator[CheckpointTuple]:
        async def collect() -> list[CheckpointTuple]:
            return [t async for t in self.saver.alist(config)]

        return iter(asyncio.run_coroutine_threadsafe(collect(), self.loop).result())

    def delete_thread(self, thread_id: str) -> None:
        asyncio.run_coroutine_threadsafe(self.saver.adelete_thread(thread_id), self.loop).result()

    def get_tuple(self, config: Any) -> CheckpointTuple | None:
        return asyncio.run_coroutine_threadsafe(self.saver.aget_tuple(config), self.loop).result()

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        """Forget rewrites a thread that said more than the forgotten words as one clean checkpoint."""
        return asyncio.run_coroutine_threadsafe(self.saver.aput(config, checkpoint, metadata, new_versions),
                                                self.loop).result()


def _checkpointer() -> BaseCheckpointSaver | None:
    """The run's checkpointer, with working sync ``list``/``delete_thread``."""
    saver = get_config().get("configurable", {}).get(CONFIG_KEY_CHECKPOINTER)
    if not isinstance(saver, BaseCheckpointSaver):
        return None
    if type(saver).delete_thread is not BaseCheckpointSaver.delete_thread:
        return saver
    loop = getattr(saver, "loop", None)
    return cast(BaseCheckpointSaver, _LoopBridge(saver, loop)) if isinstance(loop, asyncio.AbstractEventLoop) else None


def pick_forget_target(
    env: LayerEnv, target: str, others: list[AnyMessage]
) -> tuple[str, dict[str, list[str]], int] | None:
    """The most specific search text that finds something: (text, store matches, thread messages).

    Shared with the MCP ``forget`` tool (app/mcp_memory.py), so both preview the same match.
    """
    for needle in needles(target):
        found = would_forget(env, needle)
        in_thread = sum(1 for m in others if _mentions(m.content, needle))
        if found or in_thread:
            return needle, found, in_thread
    return None


def forget_preview(found: dict[str, list[str]], in_thread: int) -> tuple[int, list[str]]:
    """The count and the few shortened lines a forget confirmation shows."""
    texts = [" / ".join(t.split("\n")) for kind in sorted(found) for t in found[kind]]
    shown = [t if len(t) <= PREVIEW_CHARS else t[: PREVIEW_CHARS - 1] + "…" for t in texts[:PREVIEW_LINES]]
    if in_thread:
        shown.append(f"{in_thread} message(s) in this conversation")
    return len(texts) + in_thread, shown


def _scrub(state: dict[str, Any], needle: str, request: HumanMessage) -> dict[str, Any]:
    """State updates that take ``needle`` (and the request) out of this thread, keeping the rest of each message."""
    words = Needle(needle)
    changed: list[AnyMessage] = []
    for m in state.get("messages") or []:
        cut = m if m.id == request.id else words.deep(m)
        if cut is m and m.id != request.id:
            continue
        said = "".join(strings_in(cut.content)).strip() or getattr(cut, "tool_calls", None)
        changed.append(cut if said and m.id != request.id else RemoveMessage(id=str(m.id)))  # type: ignore[arg-type]
    updates: dict[str, Any] = {"messages": changed, "recalled": [], "system_prompt": ""}
    session = state.get("session") or []
    if any(words.in_any(strings_in(entry)) for entry in session):
        kept = [e for e in (words.deep(e) for e in session) if any(s.strip() for s in strings_in(e))]
        updates["session"] = [{"clear": True}, *kept]
    summary = state.get("summary") or ""
    if words.in_text(summary):
        updates["summary"] = words.cut(summary)
    return updates


def _forget(env: LayerEnv, state: dict[str, Any], intent: Intent, request: HumanMessage) -> dict[str, Any]:
    others = [m for m in state.get("messages") or [] if m.id != request.id]
    undo = {"messages": [RemoveMessage(id=str(request.id))]}
    picked = pick_forget_target(env, intent.target, others)
    if picked is None:
        return {**undo, "reply": "I looked, and I don't remember anything about that. Nothing was deleted."}
    needle, found, in_thread = picked
    count, shown = forget_preview(found, in_thread)
    question = f"Delete {count} memory item(s) matching {needle!r}? This cannot be undone."
    answer = interrupt({"type": CONFIRM_TYPE, "question": question, "count": count, "match": needle, "preview": shown})
    if not approved(answer):
        return {**undo, "reply": "OK, I kept everything as it was. Nothing was deleted."}
    thread, saver = _thread_id(), _checkpointer()
    if saver is not None:
        saver.delete_thread(thread)  # its checkpoints hold the request; forget scrubs the file next
    report = forget(replace(env, store=env.gate.forgetting()), needle, checkpointer=saver)
    register_thread(env, thread)  # the run re-creates the thread: keep it this user's
    deleted = sum(len(keys) for keys in report.deleted.values()) + len(report.files) + in_thread
    kept = sum(len(keys) for kind, keys in report.cut.items() if kind != "threads")
    more = f" I removed it from {kept} more that also said other things, and kept those." if kept else ""
    return {**_scrub(state, needle, request), "reply": f"Done: I deleted {deleted} memory item(s).{more} It is gone."}


def _handle(env: LayerEnv, state: dict[str, Any], intent: Intent, request: HumanMessage) -> dict[str, Any]:
    if intent.kind == "forget":
        return _forget(env, state, intent, request)
    undo = {"messages": [RemoveMessage(id=str(request.id))]}
    if intent.kind == "retention":
        return {**undo, "reply": _retention(env, int(intent.target))}
    if intent.kind == "show":
        return {**undo, "reply": render_memories(export_user(env.store, env.scope, env.context.data_dir))}
    on = intent.kind == "memory_on"
    set_memory_enabled(env.store, env.scope, on)
    reply = (
        "OK, I'll remember things about you again."
        if on
        else "OK, I've stopped remembering new things about you. Say \"you can remember again\" to switch it back on."
    )
    return {**undo, "reply": reply}


def _retention(env: LayerEnv, days: int) -> str:
    """Set the user's shorter retention limit and apply it now (memory/privacy/retention_sweep.py)."""
    data_dir = env.context.data_dir
    where = UserData(env.gate.forgetting(), env.scope, Path(data_dir) if data_dir else None, _checkpointer())
    try:
        return "OK. " + change_retention(where, float(env.context.retention_days or 0), days, now=env.now)
    except ValueError as err:
        return f"I can't do that: {err}."


def _refused(state: dict[str, Any], error: str) -> Command[Any]:
    """End a run on someone else's thread, undoing the message it added, so nothing is kept."""
    last = (state.get("messages") or [None])[-1]
    undo = [RemoveMessage(id=str(last.id))] if isinstance(last, HumanMessage) and last.id else []
    return Command(update={"messages": undo, "error": error}, goto=END)


def make_commands(layers: Sequence[MemoryLayer] = ()) -> Callable[..., Command[Any]]:
    """The ``commands`` node: refuses another user's thread, goes to END when it handled the turn, else on.

    Before it acts it settles background consolidation (``settle``): a listing or a
    forget must see the facts of turns still queued or being consolidated.
    """

    def commands(state: dict[str, Any], runtime: Runtime[Context]) -> Command[Any]:
        env = make_env(runtime, state)
        # The owner is recorded before anything can refuse or stop the run (a bad message, a forget
        # confirmation left unanswered): the refused run still leaves checkpoints on the thread.
        refused = claim_thread(env, _thread_id())
        if refused:
            return _refused(state, refused)
        messages = state.get("messages") or []
        stale = stale_replies(messages)
        request = messages[-1] if messages and isinstance(messages[-1], HumanMessage) else None
        intent = parse_intent(request.text) if request is not None else None
        if request is None or intent is None:
            return Command(update={"messages": stale}, goto="retrieve")
        settle(env, layers)
        done = _handle(env, state, intent, request)
        reply = _reply(intent.kind, done.pop("reply"))
        removed = {m.id: m for m in [*stale, *done.get("messages", [])]}  # one RemoveMessage per id
        done["messages"] = [*removed.values(), reply]
        done["notice"] = ""  # a notice belongs to the turn whose message it is about, not to this one
        return Command(update=done, goto=END)

    return commands
