"""The memory operations the MCP server offers, for one caller at a time.

Each method takes the caller's user id (from ``--user`` on stdio, from the
verified token over HTTP; never from a tool argument) and calls the code the
chat and the CLI use: ``remember`` through the user's write gate, the CLI's
recall ranking, the chat's forget preview and ``forget``, the export, the memory
switch, ``MemoryFiles`` and the graph's ``end_session``. Nothing here stores,
searches or deletes on its own. Answers are bounded (``MAX_ANSWER_TOKENS``), so
no call returns an unbounded dump. By concern: the writes and the memory files
here, the reads in app/mcp_reads.py, forget in app/mcp_forget.py, the shared
lock and input checks in app/mcp_base.py.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

from app.mcp_base import DEFAULT_CONVERSATION, ToolRefused
from app.mcp_forget import McpForget
from app.mcp_reads import McpReads
from app.mcp_rules import PendingRules, save_confirmed
from app.runtime import MemoryAgent
from memory.layers.base import LoggedMessage
from memory.layers.semantic import record_kind, remember_outcomes
from memory.privacy.consent import is_memory_enabled, set_memory_enabled
from memory.tools.memory_files import MemoryFiles
from memory.write_policy.gate import MemoryOff, WriteRefused
from nodes.consolidate import is_long_term
from nodes.ownership import register_thread
from stores.redaction.secrets import contains_secret, redact

__all__ = ["DEFAULT_CONVERSATION", "McpMemory", "ToolRefused"]


class McpMemory(McpReads, McpForget):
    """One process's memory (a ``MemoryAgent``) as the MCP tools call it."""

    def __init__(self, agent: MemoryAgent) -> None:
        super().__init__(agent)
        self._pending_rules = PendingRules()  # rules log_turn found, awaiting the user (app/mcp_rules.py)
        self._last: dict[str, str] = {}  # thread -> its last logged message, redacted: a key split over two

    # ---- writes ---------------------------------------------------------
    def remember(self, user: str, text: str) -> dict[str, Any]:
        """Store what the user asked to remember, through the write gate; say what was refused."""
        text = self._text(text)
        with self.lock:
            env = self._for(user).env()
            if not is_memory_enabled(env.store, env.scope):
                return {"stored": [], "refused": "long-term memory is off for this user (memory_on to resume)"}
            if contains_secret(text):
                return {"stored": [], "refused": "the text contains a secret (a password, key or token); "
                                                 "nothing was stored"}
            try:
                records = remember_outcomes(env, text)
            except WriteRefused as err:
                return {"stored": [], "refused": str(err)}
        stored = [{"kind": record_kind(r), "id": r.get("id"), "text": r.get("text"), "category": r.get("category"),
                   "status": done}
                  for done, r in records]
        return {"stored": stored, "refused": None if stored else "nothing durable to keep in that text"}

    def log_turn(self, user: str, role: str, text: str, conversation: str = DEFAULT_CONVERSATION) -> dict[str, Any]:
        """One message of the client's conversation into the message log and the turn write policies.

        With rule review on (``review_rules``, the default) a rule found in the message is not
        kept: it comes back with a confirm token, as the chat asks before saving one.
        """
        if role not in ("user", "assistant"):
            raise ToolRefused(f"role must be 'user' or 'assistant', not {role!r}")
        text, conversation = self._text(text), self._conversation(conversation)
        asked: list[dict[str, Any]] = []

        def ask_later(review: dict[str, Any]) -> bool:
            asked.append(review)
            return False

        with self.lock:
            agent = self._for(user)
            env = agent.env()
            if not is_memory_enabled(env.store, env.scope):
                return {"logged": False, "refused": "long-term memory is off for this user; nothing was kept"}
            thread = str(agent.config(conversation)["configurable"]["thread_id"])
            msg = LoggedMessage(id=f"mcp-{uuid.uuid4().hex}", thread=thread, time=env.now, role=role,  # type: ignore[arg-type]
                                text=redact(text, self._last.get(thread, "")))
            self._last[thread] = msg.text
            register_thread(env, thread)
            turn_env = dataclasses.replace(env, state={}, approve=ask_later)
            for layer in agent.layers:
                if is_long_term(layer):  # working memory is a graph thread's state, which a client keeps itself
                    layer.on_turn(turn_env, [msg])
            held = [self._pending_rules.hold(user, msg, review) for review in asked]
        answer: dict[str, Any] = {"logged": True, "id": msg.id, "redacted": msg.text != text}
        if held:
            answer["rules_to_confirm"] = held
            answer["note"] = ("a rule is saved only if the user agrees: show it to them, and only then call "
                              "confirm_rule with its token")
        return answer

    def confirm_rule(self, user: str, token: str) -> dict[str, Any]:
        """Save a rule ``log_turn`` held back, now that the user agreed; the token is used once."""
        with self.lock:
            pending = self._pending_rules.take(user, token)
            if pending is None:
                raise ToolRefused("unknown or expired confirm token; the rule was not saved")
            rule = str(pending.review.get("rule"))
            agent = self._for(user)
            env = agent.env()
            if not is_memory_enabled(env.store, env.scope):
                return {"saved": False, "rule": rule, "note": "long-term memory is off for this user; nothing was kept"}
            kept = save_confirmed(env, agent.layers, pending)
        return {"saved": kept, "rule": rule, **({} if kept else {"note": "the rule was not saved"})}

    def end_session(self, user: str, conversation: str = DEFAULT_CONVERSATION) -> dict[str, Any]:
        """Consolidate the logged conversation (episode, facts, rules), as the chat's /end does."""
        conversation = self._conversation(conversation)
        with self.lock:
            self._for(user).end_session(self._conversation(conversation))
        return {"ended": True, "conversation": conversation}

    def set_memory(self, user: str, on: bool) -> dict[str, Any]:
        """The user's memory switch (memory/privacy/consent.py); nothing is deleted."""
        with self.lock:
            env = self._for(user).env()
            set_memory_enabled(env.store, env.scope, on)
        return {"memory_enabled": on}

    # ---- memory files ---------------------------------------------------
    def files(self, user: str, command: str, **args: Any) -> str:
        """One memory-file command in the user's folder, with the chat tool's path safety and gate."""
        from memory.tools.memory_paths import MemoryFileError

        with self.lock:
            agent = self._for(user)
            env = agent.env()
            try:
                return MemoryFiles(agent.data_dir, env.scope, gate=env.gate).execute(command, **args)
            except MemoryFileError as err:
                raise ToolRefused(str(err)) from None
            except MemoryOff as err:
                raise ToolRefused(str(err)) from None
