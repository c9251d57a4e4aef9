"""consolidate: hand the finished turn (or the whole session) to every layer's write policy.

Three steps in the graph: ``consolidate`` decides what the run consolidates
(state ``consolidation``: the mode, the turn's clock, consent, whether the turn
is split); the builder fans out to one ``consolidate_<layer>`` node per layer
(nodes/consolidate_layer.py), run in parallel, each seeing the same state; they
fan in to ``consolidate_done``, which does the run's bookkeeping.

After each turn every layer's ``on_turn`` runs (cheap, no LLM). With the input
flag ``defer_consolidation`` the background layers' part (fact extraction) is
left to a later, debounced run instead (nodes/background.py): the hot path keeps
message logging, working-memory compaction and rule feedback. A run in mode
``consolidate_thread`` is that later run. In mode ``end_session``, deferred turns
are consolidated first, then every layer's ``on_session_end`` runs on the
session — that is where LLM-backed summaries and extraction happen, off the hot
path. Each mode has its entry (core/run_mode.py): a session end enters here
(START -> consolidate), so this node is its first and checks the thread's owner,
as ``commands`` does for a turn; a ``consolidate_thread`` run enters
``consolidate_deferred`` (nodes/consolidate_deferred.py). Each turn also records
which shown memories the reply used (nodes/usage.py) and tallies it per session
(``memory_usage``).
Rule review uses LangGraph's ``interrupt`` in the procedural layer's node: that
node re-runs on resume (the other layers' nodes have finished), which is why
every layer's writes are idempotent.

Session bookkeeping is a watermark, not a transcript in thread state. The state
keeps one fixed-size marker, ``session_mark``: the time of the latest message the
last ``end_session`` closed in this thread (or when it ran, if later) and the last
message it closed. The session that ``end_session`` consolidates is what the
**message log** holds for this thread after that time. A turn's clock is never at
or before the mark (``turn_clock``): a simulated clock that stands still (``--now``)
or a system clock stepped back would otherwise log the next session at or before
the mark, and the next ``end_session`` would find nothing to close.
Why the message log: it is durable (the working layer compacts old messages out
of ``messages``, so the thread state cannot be the record), every record carries
its id, thread and time, and it only ever holds turns made while memory was on —
so a turn said with memory off is never handed to a long-term layer, and a
message forgotten before ``/end`` is not summarised back. Chatting after ``/end``
starts a new session in the same thread.

A graph built without the message-log layer falls back to the messages still in
working memory after the marker's message id; there a turn made with memory off
moves the marker past itself, so it (and the part of the session before it) is
never consolidated: consent wins over completeness.

Every message handed to a layer is redacted first (``stores/redaction/secrets.py``),
whatever ``redact_input`` says: that setting is about the thread and checkpoints;
long-term memory never receives a secret.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from core.context import Context
from core.run_mode import END_SESSION, run_mode
from memory.clock import parse_time
from memory.env import context_of, make_env
from memory.layers.base import LayerEnv, LoggedMessage, MemoryLayer
from memory.layers.message_log import MessageLogLayer
from memory.privacy.consent import is_memory_enabled
from memory.prompt import shown_memories
from nodes.background import consolidate_pending, mark_deferred
from nodes.commands import COMMAND_KEY, stale_replies
from nodes.consolidation_queue import has_backlog, read_mark
from nodes.ownership import claim_thread
from nodes.usage import Use, countable, record_usage, tally, used_memories, uses_of
from stores.redaction.names import identifier_secret
from stores.redaction.secrets import redact

TURN, SESSION, NONE = "turn", "session", "none"  # what a run consolidates (state ``consolidation``)


def ask_user(proposal: dict[str, Any]) -> bool:
    """Pause the graph and ask the user; resume with True/False or {"approve": bool}."""
    answer = interrupt(proposal)
    if isinstance(answer, dict):
        answer = answer.get("approve", answer.get("approved", False))
    if isinstance(answer, str):
        return answer.strip().lower() in {"y", "yes", "true", "approve", "ok"}
    return bool(answer)


def _logged(msg: BaseMessage, thread: str, time: datetime) -> LoggedMessage | None:
    if COMMAND_KEY in (msg.additional_kwargs or {}):
        return None  # the agent's own line (a model failure): not something said in the conversation
    if isinstance(msg, HumanMessage):
        role = "user"
    elif isinstance(msg, AIMessage) and not msg.tool_calls and msg.text.strip():
        role = "assistant"
    else:
        return None
    return LoggedMessage(id=log_id(str(msg.id)), thread=thread, time=time, role=role, text=redact(msg.text),
                         name=msg.name)


def log_id(message_id: str) -> str:
    """The id a message is logged under: its own, or a stable digest of it when it looks like a secret.

    A client picks its messages' ids, and the log keys each message by id (every memory's
    sources cite it), so a card-shaped id would be a card number on disk; the write gate refuses
    such a key. The digest keeps the message loggable, and the same message logs to the same key.
    """
    if identifier_secret(message_id) is None:
        return message_id
    return "h-" + hashlib.sha256(message_id.encode()).hexdigest()[:32]


def _logged_all(messages: Sequence[BaseMessage], thread: str, now: datetime) -> list[LoggedMessage]:
    """Loggable messages, each a microsecond after the one before, so time orders them."""
    out: list[LoggedMessage] = []
    for msg in messages:
        logged = _logged(msg, thread, now + timedelta(microseconds=len(out)))
        if logged is not None:
            out.append(logged)
    return out


def _latest_turn(messages: Sequence[BaseMessage]) -> Sequence[BaseMessage]:
    """The last user message and everything after it (tool calls, the reply)."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return messages[i:]
    return []


def _after(messages: Sequence[BaseMessage], mark_id: str | None) -> Sequence[BaseMessage]:
    """Messages after the one with ``mark_id``; all of them when it is gone or unset."""
    ids = [str(m.id) for m in messages]
    return messages[ids.index(mark_id) + 1 :] if mark_id in ids else messages


def is_long_term(layer: MemoryLayer) -> bool:
    """Working memory is thread state, so the consent switch does not stop it."""
    return bool(getattr(layer, "long_term", layer.name != "working"))


def turn_of(state: dict[str, Any], thread: str, at: datetime) -> list[LoggedMessage]:
    """The run's new turn as the layers see it (none for an ``end_session`` input)."""
    plan = state.get("consolidation") or {}
    if plan.get("mode") != TURN:
        return []
    return _logged_all(_latest_turn(state.get("messages") or []), thread, at)


def session_of(
    env: LayerEnv, log: MessageLogLayer | None, state: dict[str, Any], thread: str
) -> list[LoggedMessage]:
    """The session an ``end_session`` closes: the message log's records after the session mark."""
    mark = state.get("session_mark") or {}
    if log is not None:
        return log.session(env, thread, parse_time(mark.get("time")))
    return _logged_all(_after(state.get("messages") or [], mark.get("id")), thread, env.now)


def turn_clock(state: dict[str, Any], now: datetime) -> datetime:
    """The time a turn is logged at: ``now``, or just after the session mark when ``now`` is not later."""
    mark = parse_time((state.get("session_mark") or {}).get("time"))
    return now if mark is None or now > mark else mark + timedelta(microseconds=1)


def _mark_time(env: LayerEnv, log: MessageLogLayer | None, state: dict[str, Any], at: datetime) -> datetime:
    """The new session mark's time: the latest message this ``end_session`` closed, or ``at`` when later."""
    closed = session_of(env, log, state, thread_of_run()) if log is not None else []
    return max([at, *(m.time for m in closed)])


def log_of(layers: Sequence[MemoryLayer]) -> MessageLogLayer | None:
    """The message-log layer among ``layers``, if there is one."""
    return next((layer for layer in layers if isinstance(layer, MessageLogLayer)), None)


def thread_of_run() -> str:
    """The run's thread id (the checkpointer's, user-scoped)."""
    return str(get_config().get("configurable", {}).get("thread_id", "default"))


def make_consolidate(layers: Sequence[MemoryLayer]) -> Callable[..., dict[str, Any]]:
    """The ``consolidate`` node: decides what this run consolidates, before the layers' nodes do it.

    An ``end_session`` run (this node is its first) consolidates the deferred turns
    first (mode ``session``), or ends here on another user's thread (mode ``none``,
    ``error`` set); a turn (mode ``turn``) is split when asked to or while earlier
    deferred turns still wait: the background layers must then see it after them.
    """
    log = log_of(layers)

    def consolidate(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        thread = thread_of_run()
        env = make_env(runtime, state)
        remember = is_memory_enabled(env.store, env.scope)
        plan = {"mode": TURN, "at": turn_clock(state, env.now).isoformat(), "remember": remember, "split": False}
        if run_mode(state) == END_SESSION:  # a turn's input mode is gone by now: only a first node sees one
            refused = claim_thread(env, thread)
            if refused:
                return {"error": refused, "consolidation": {"mode": NONE}}
            consolidate_pending(env, layers, thread)  # deferred turns first (dropped with memory off)
            stale = stale_replies(state.get("messages") or [])
            return {"error": "", "messages": stale, "consolidation": {**plan, "mode": SESSION}}
        mark = read_mark(env, thread) if remember and log is not None else None
        plan["split"] = log is not None and (bool(state.get("defer_consolidation")) or has_backlog(mark))
        return {"consolidation": plan}

    return consolidate


def make_consolidate_done(layers: Sequence[MemoryLayer]) -> Callable[..., dict[str, Any]]:
    """The ``consolidate_done`` node: after every layer's node, the run's bookkeeping.

    Usage of the shown memories, the queue of a split turn (the message log holds it
    by now), the session mark, and ``defer_consolidation`` reset for the next run.
    """
    log = log_of(layers)

    def consolidate_done(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        plan = state.get("consolidation") or {}
        thread = thread_of_run()
        env = make_env(runtime, state)
        at = parse_time(plan.get("at")) or env.now
        env.now = at
        updates: dict[str, Any] = {"defer_consolidation": False} if state.get("defer_consolidation") else {}
        turn, remember = turn_of(state, thread, at), bool(plan.get("remember"))
        if turn and remember:
            uses = _track_usage(state, context_of(runtime), turn, env, updates)
            if plan.get("split"):
                mark_deferred(env, thread, turn, uses)
                if not state.get("defer_consolidation"):
                    consolidate_pending(env, layers, thread)  # a synchronous turn clears the backlog
            else:
                record_usage(env, uses)
        if turn and not remember and log is None:
            # No log to leave this turn out of the session: move the marker past it.
            updates["session_mark"] = {**(state.get("session_mark") or {}), "id": turn[-1].id}
        if plan.get("mode") == SESSION:
            messages = state.get("messages") or []
            last = str(messages[-1].id) if messages else ""
            mark = _mark_time(env, log, state, at)
            updates.update(session_mark={"time": mark.isoformat(), "id": last}, memory_usage={})
        return updates

    return consolidate_done


def _track_usage(
    state: dict[str, Any], ctx: Context, turn: Sequence[LoggedMessage], env: LayerEnv, updates: dict[str, Any]
) -> list[Use]:
    """Which shown memories the reply used (nodes/usage.py); tallies the session in ``updates``."""
    replies = [m.text for m in turn if m.role == "assistant"]
    if not replies:
        return []
    query = " ".join(m.text for m in turn if m.role == "user")
    shown = countable(shown_memories(list(state.get("recalled") or []), ctx.memory_budget_tokens))
    used = used_memories(shown, replies[-1], query)
    updates["memory_usage"] = tally(state.get("memory_usage"), len(shown), len(used))
    return uses_of(used, env.now)
