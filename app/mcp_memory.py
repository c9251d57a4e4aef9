"""The memory operations the MCP server offers, for one caller at a time.

Each method takes the caller's user id (from ``--user`` on stdio, from the
verified token over HTTP; never from a tool argument) and calls the code the
chat and the CLI use: ``remember`` through the user's write gate, the CLI's
recall ranking, the chat's forget preview and ``forget``, the export, the memory
switch, ``MemoryFiles`` and the graph's ``end_session``. Nothing here stores,
searches or deletes on its own. Answers are bounded (``MAX_ANSWER_TOKENS``), so
no call returns an unbounded dump. Calls are serialised by one lock: the store
and the checkpointer are shared by every user of the process.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
import uuid
from typing import Any

from langchain_core.messages.utils import count_tokens_approximately
from mcp.server.mcpserver.exceptions import ToolError

from app.mcp_rules import CONFIRM_TTL_S, PendingRules, save_confirmed
from app.runtime import MemoryAgent
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.semantic import recall_profile, remember_outcomes
from memory.privacy.consent import is_memory_enabled, set_memory_enabled
from memory.privacy.export import export_user, iter_items
from memory.tools.memory_files import MemoryFiles
from memory.write_policy.gate import MemoryOff, WriteRefused
from nodes.assemble import memory_prompt
from nodes.commands import forget_preview, pick_forget_target
from nodes.consolidate import is_long_term
from nodes.input_check import InvalidInput, check_identifier, check_user_text
from nodes.ownership import register_thread
from nodes.recall import recall_ranked
from nodes.retrieve import recall_all
from stores.redaction.names import SecretInIdentifier
from stores.redaction.secrets import contains_secret, redact

MAX_ANSWER_TOKENS = 2000  # the most any tool answer may cost the client's context
MAX_K = 50
TEXT_CHARS = 600  # one memory's text in an answer
PAGE_ITEMS = 25
DEFAULT_CONVERSATION = "mcp"


class ToolRefused(ToolError):
    """A call the server refuses with a message for the model; nothing was stored or deleted."""


def _cut(text: str, limit: int = TEXT_CHARS) -> str:
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


def _date(meta: dict[str, Any]) -> str | None:
    for key in ("updated_at", "time", "ended_at", "valid_to"):
        if isinstance(meta.get(key), str):
            return str(meta[key])
    return None


class McpMemory:
    """One process's memory (a ``MemoryAgent``) as the MCP tools call it."""

    def __init__(self, agent: MemoryAgent) -> None:
        self.agent = agent
        self.lock = threading.Lock()
        self._pending: dict[str, tuple[str, str, float]] = {}  # confirm token -> (user, match, expiry)
        self._pending_rules = PendingRules()  # rules log_turn found, awaiting the user (app/mcp_rules.py)
        self._last: dict[str, str] = {}  # thread -> its last logged message, redacted: a key split over two

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
        stored = [{"id": r.get("id"), "text": r.get("text"), "category": r.get("category"), "status": done}
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

    # ---- reads ----------------------------------------------------------
    def recall(self, user: str, query: str, kinds: list[str] | None = None, k: int = 10) -> dict[str, Any]:
        """The best memories for ``query`` with scores, dates and sources, within the token budget."""
        query = self._text(query, "query")
        if not 1 <= k <= MAX_K:
            raise ToolRefused(f"k must be between 1 and {MAX_K}, not {k}")
        with self.lock:
            agent = self._for(user)
            env = agent.env()
            if not is_memory_enabled(env.store, env.scope):
                return {"results": [], "note": "long-term memory is off for this user: nothing is recalled"}
            try:
                ranked = recall_ranked(env, agent.layers, query, k, kinds)
            except ValueError as err:
                raise ToolRefused(str(err)) from None
        rows = [{"kind": kind, "id": item.key, "text": _cut(item.text), "score": round(float(item.score), 4),
                 "date": _date(item.meta), "sources": list(item.sources)[:5]} for kind, item in ranked]
        kept, cut = within_budget(rows)
        return {"results": kept, **({"note": "more results were left out to stay within the budget"} if cut else {})}

    def export_page(self, user: str, page: int = 1) -> dict[str, Any]:
        """One page of everything kept about the user (the export), with dates and sources."""
        if page < 1:
            raise ToolRefused("page must be 1 or more")
        with self.lock:
            agent = self._for(user)
            data = export_user(agent.store, agent.env().scope, agent.data_dir)
        entries = [
            {"kind": kind, "id": e["key"], "text": _cut(e.get("text") or str(e["value"].get("value") or e["key"])),
             "date": e.get("updated_at") or e.get("created_at"), "sources": e["sources"][:5]}
            for kind, items in (("profile", data["profile"]["current"]), ("fact", data["facts"]),
                                ("episode", data["episodes"]), ("rule", data["rules"]))
            for e in items
        ] + [{"kind": "memory_file", "path": f["path"], "bytes": f["bytes"]} for f in data["memory_files"]]
        pages = max(1, -(-len(entries) // PAGE_ITEMS))
        kept, _ = within_budget(entries[(page - 1) * PAGE_ITEMS: page * PAGE_ITEMS])
        return {"user_id": data["user_id"], "memory_enabled": data["memory_enabled"], "page": page, "pages": pages,
                "total": len(entries), "items": kept, "messages": data["messages"]["total"]}

    def profile(self, user: str) -> list[dict[str, Any]]:
        """The user's current profile slots, most important first."""
        with self.lock:
            env = self._for(user).env()
            slots = recall_profile(env)
        return [{"slot": r.key, "text": r.text, "updated_at": r.meta.get("updated_at")} for r in slots]

    def rules(self, user: str) -> list[dict[str, Any]]:
        """The user's rules (the procedural layer's, all of them: rules are few)."""
        with self.lock:
            agent = self._for(user)
            env = agent.env()
            return [{"id": r.key, "text": r.text} for layer in agent.layers if layer.name == "procedural"
                    for r in layer.recall(env, "")]

    def memory_block(self, user: str, query: str) -> str:
        """The system prompt the graph's ``assemble`` builds for ``query`` (no thread summary)."""
        query = self._text(query, "query")
        with self.lock:
            agent = self._for(user)
            env = agent.env()
            recalled = recall_all(env, agent.layers, query) if is_memory_enabled(env.store, env.scope) else []
            return memory_prompt(agent.context, recalled)

    # ---- forget ---------------------------------------------------------
    def forget(self, user: str, target: str, confirm: str | None = None) -> dict[str, Any]:
        """Without ``confirm``: the preview, count and a token. With the token: delete, for real."""
        if confirm is not None:
            return self._confirm(user, confirm)
        target = self._text(target, "text_or_id")
        with self.lock:
            env = self._for(user).env()
            needle = self._by_id(env, target.strip())
            picked = pick_forget_target(env, needle or target, [])
            if picked is None:
                return {"count": 0, "preview": [], "note": "nothing matches; nothing was deleted"}
            match, found, _ = picked
            count, shown = forget_preview(found, 0)
            token = secrets.token_urlsafe(16)
            now = time.monotonic()
            self._pending = {t: p for t, p in self._pending.items() if p[2] > now}
            self._pending[token] = (user, match, now + CONFIRM_TTL_S)
        return {"count": count, "match": match, "preview": shown, "confirm": token,
                "note": "nothing is deleted yet: call forget again with this confirm token to delete"}

    def _confirm(self, user: str, token: str) -> dict[str, Any]:
        with self.lock:
            pending = self._pending.get(token)
            if pending is None or pending[0] != user or pending[2] < time.monotonic():
                raise ToolRefused("unknown or expired confirm token; call forget without confirm for a new preview")
            del self._pending[token]
            report = self._for(user).forget(pending[1])
        return {"deleted": report.counts(), "match": pending[1]}

    @staticmethod
    def _by_id(env: LayerEnv, target: str) -> str | None:
        """The text of the user's own memory whose id is ``target`` (ids are never looked up across users)."""
        for item in iter_items(env.store, env.scope.root):
            if item.key == target and isinstance(item.value.get("text"), str):
                return str(item.value["text"])
        return None

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
