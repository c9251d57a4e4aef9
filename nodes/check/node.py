"""check: test the reply against what memory says; send it back to respond, then disclose.

Runs after ``respond``. The reply is tested against the checkable memories
recalled for this turn (see ``memories.py`` and ``rules.py``); that costs a few
regular expressions and no model call. This node never calls the model: on a
conflict it sets the verdict ``retry`` and a retry count in state, takes the
reply out of the thread, and the graph's conditional edge routes the turn back
to ``respond`` (tools included), which restates the violated memories
(nodes/check/retry.py). At most ``context.check_retries`` times; then the
verdict is ``ok`` or ``flagged`` and the turn goes on to consolidation. When
every try still conflicts, the reply with the fewest conflicts is kept and one
line starting with ``Memory check:`` says where it goes against memory: a reply
is never passed on with a known conflict and no word about it. A retry the model
fails (an error line instead of a reply) ends the retries: the best reply so
far is kept, with its flag.

What was checked, what conflicted and how many tries it took are kept in state
(``answer_check``), so Studio and the chat's ``/prompt`` show them.

When ``respond`` held its reply back as a draft (nodes/check/draft.py: there is
something to check, so the reply may change), the reply is read from ``draft``,
a retry just drops it, and the turn's last word is added to the thread under a
new id: the one message a client streaming ``messages`` gets of this reply.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage
from langgraph.runtime import Runtime

from core.context import Context
from memory.env import context_of
from nodes.check.checks import Check
from nodes.check.draft import DRAFT, draft_of, published
from nodes.check.memories import gather_checks
from nodes.check.retry import RETRY
from nodes.commands import COMMAND_KEY

FLAG_PREFIX = "Memory check:"
OK, FLAGGED, OFF = "ok", "flagged", "off"


def find_conflicts(checks: list[Check], text: str) -> list[dict[str, Any]]:
    """One entry per check the text goes against: which memory, which items."""
    return [
        {"label": c.label, "memory": c.memory, "items": items, "flag": c.flag(items), "reminder": c.reminder}
        for c in checks
        if (items := c.find(text))
    ]


def flag_line(conflicts: list[dict[str, Any]]) -> str:
    """'Memory check: this suggests chicken, but you are vegetarian.' (one line)."""
    return f"{FLAG_PREFIX} " + "; ".join(c["flag"] for c in conflicts) + "."


def _reply(messages: list[BaseMessage]) -> tuple[int, AIMessage] | None:
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if isinstance(msg, HumanMessage):
            return None
        if isinstance(msg, AIMessage) and not msg.tool_calls and msg.text.strip():
            return i, msg
    return None


def _rank(conflicts: list[dict[str, Any]]) -> tuple[int, int]:
    return len(conflicts), sum(len(c["items"]) for c in conflicts)


def _public(conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"label": c["label"], "memory": c["memory"], "items": c["items"]} for c in conflicts]


def _off(enabled: bool, draft: AIMessage | None) -> dict[str, Any]:
    record = {"enabled": enabled, "checked": [], "unchecked": [], "tries": [], "retries": 0, "conflicts": [],
              "flagged": False, "check_ms": 0.0}
    update = {"answer_check": record, "check_verdict": OFF, "check_retry": 0, DRAFT: None}
    return {**update, "messages": [published(draft)]} if draft is not None else update


def _final(
    record: dict[str, Any], best: dict[str, Any], reply: AIMessage | None, draft: AIMessage | None
) -> dict[str, Any]:
    """The turn's last word: the best try, with the flag line when it still conflicts."""
    conflicts = best["conflicts"]
    text = best["text"] + (f"\n\n{flag_line(conflicts)}" if conflicts else "")
    done = {k: v for k, v in record.items() if k != "pending"}
    done.update(retries=len(record["tries"]) - 1, conflicts=_public(conflicts), flagged=bool(conflicts))
    update: dict[str, Any] = {"answer_check": done, "check_verdict": FLAGGED if conflicts else OK, "check_retry": 0,
                              DRAFT: None}
    if draft is not None:  # held back: the thread and the stream get only this reply, under a new id
        kept = draft if draft.id == best["id"] else AIMessage(content=text, id=best["id"], name=best["name"])
        return {**update, "messages": [published(kept, text)]}
    messages: list[Any] = []
    if reply is not None and reply.id != best["id"]:
        messages.append(RemoveMessage(id=str(reply.id)))  # a failed retry's line, or a worse try
    if reply is None or reply.id != best["id"] or text != reply.text:
        messages.append(AIMessage(content=text, id=best["id"], name=best["name"]))
    if messages:
        update["messages"] = messages
    return update


def make_check() -> Callable[..., dict[str, Any]]:
    """The ``check`` node: a verdict on the reply; ``retry`` routes the graph back to ``respond``."""

    def check(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        retry = int(state.get("check_retry") or 0)
        record = dict(state.get("answer_check") or {}) if retry else {}
        pending = record.get("pending")
        draft = draft_of(state)
        found = _reply(list(state.get("messages") or [])) if draft is None else None
        reply = draft if draft is not None else found[1] if found is not None else None
        failed = reply is not None and COMMAND_KEY in (reply.additional_kwargs or {})
        if pending is None:
            if not ctx.check_answers or reply is None or failed:
                return _off(ctx.check_answers, draft)  # nothing to check, or the agent's own line about a failure
            spent = time.perf_counter()
            checks, unchecked = gather_checks(state.get("recalled") or [])
            conflicts = find_conflicts(checks, reply.text)
            best = {"text": reply.text, "id": reply.id, "name": reply.name, "conflicts": conflicts}
            record = {"enabled": True, "checked": [c.label for c in checks], "unchecked": unchecked,
                      "tries": [{"conflicts": _public(conflicts)}]}
            reminders = [c["reminder"] for c in conflicts]
        else:
            best, reminders = pending["best"], list(pending["reminders"])
            if reply is None or failed:
                return _final(record, best, reply, draft)  # the model failed: keep the best reply so far
            spent = time.perf_counter()
            checks, _ = gather_checks(state.get("recalled") or [])
            again = find_conflicts(checks, reply.text) if reply.text.strip() else best["conflicts"]
            record["tries"] = [*record["tries"], {"conflicts": _public(again)}]
            if reply.text.strip() and _rank(again) < _rank(best["conflicts"]):
                best = {"text": reply.text.strip(), "id": reply.id, "name": reply.name, "conflicts": again}
            reminders += [c["reminder"] for c in again]
        record["check_ms"] = round(float(record.get("check_ms") or 0.0) + (time.perf_counter() - spent) * 1000, 3)
        if not best["conflicts"] or retry >= ctx.check_retries:
            return _final(record, best, reply, draft)
        record.update(pending={"best": best, "reminders": reminders}, retries=len(record["tries"]) - 1,
                      conflicts=_public(best["conflicts"]), flagged=False)
        # This try leaves the thread (or was never in it: a draft); respond answers again
        # (the graph's check -> respond edge).
        retried = {"answer_check": record, "check_verdict": RETRY, "check_retry": retry + 1, DRAFT: None}
        return retried if draft is not None else {**retried, "messages": [RemoveMessage(id=str(reply.id))]}

    return check
