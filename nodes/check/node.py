"""check: test the reply against what memory says; retry, then disclose.

Runs between ``respond`` and ``consolidate``. The reply is tested against the
checkable memories recalled for this turn (see ``memories.py`` and
``rules.py``); that costs a few regular expressions and no model call. Only on
a conflict is the model asked again, at most ``context.check_retries`` times,
with the violated memories restated next to the user's message and a fixed
seed per try (reproducible where the model takes a seed). When every try still
conflicts, the reply with the fewest conflicts is kept and one line starting
with ``Memory check:`` says where it goes against memory: a reply is never
passed on with a known conflict and no word about it.

What was checked, what conflicted and how many tries it took are kept in state
(``answer_check``), so Studio and the chat's ``/prompt`` show them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from graph.context import Context
from models.endpoint import first_line
from models.loader import load_chat_model
from nodes.check.checks import Check
from nodes.check.memories import gather_checks
from nodes.commands import COMMAND_KEY
from nodes.env import context_of
from nodes.window import working_window

FLAG_PREFIX = "Memory check:"
RETRY_TEMPERATURE = 0.7
BASE_SEED = 1234
log = logging.getLogger("memory.check")


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


def retry_prompt(state: dict[str, Any], ctx: Context, reminders: list[str]) -> list[BaseMessage]:
    """The turn's prompt again, with the violated memories restated after the user's message."""
    messages = list(state.get("messages") or [])
    last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
    history = working_window(messages[: last_human + 1], ctx.working_budget_tokens)
    human = history[-1]
    note = "\n".join(dict.fromkeys(reminders))
    restated = HumanMessage(content=f"{human.text}\n\n({note})", id=human.id)
    return [SystemMessage(content=state.get("system_prompt") or ctx.persona), *history[:-1], restated]


def sampling_kwargs(model: BaseChatModel, attempt: int) -> dict[str, Any]:
    """Seed and temperature for one retry, for models that declare a ``seed`` field."""
    fields = getattr(type(model), "model_fields", {})
    if "seed" not in fields:
        return {}
    return {"seed": BASE_SEED + attempt, "temperature": RETRY_TEMPERATURE}


def retry(model: BaseChatModel, prompt: list[BaseMessage], attempt: int) -> AIMessage | None:
    """One regeneration, or None when the model or its server fails (the turn keeps its reply)."""
    try:
        return model.invoke(prompt, **sampling_kwargs(model, attempt))
    except Exception as err:
        log.warning("answer check retry failed: %s", first_line(err))
        return None


def _rank(conflicts: list[dict[str, Any]]) -> tuple[int, int]:
    return len(conflicts), sum(len(c["items"]) for c in conflicts)


def _public(conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"label": c["label"], "memory": c["memory"], "items": c["items"]} for c in conflicts]


def make_check(chat_model: BaseChatModel | None = None) -> Callable[..., dict[str, Any]]:
    """The ``check`` node; ``chat_model`` overrides the context's model for retries."""

    def check(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        found = _reply(list(state.get("messages") or []))
        if found is not None and COMMAND_KEY in (found[1].additional_kwargs or {}):
            found = None  # the agent's own line about a model failure: nothing to check
        if not ctx.check_answers or found is None:
            return {"answer_check": {"enabled": ctx.check_answers, "checked": [], "unchecked": [], "tries": [],
                                     "retries": 0, "conflicts": [], "flagged": False, "check_ms": 0.0}}
        _, reply = found
        spent = time.perf_counter()
        checks, unchecked = gather_checks(state.get("recalled") or [])
        conflicts = find_conflicts(checks, reply.text)
        spent = time.perf_counter() - spent
        tries = [{"conflicts": _public(conflicts)}]
        best_text, best = reply.text, conflicts
        reminders = [c["reminder"] for c in conflicts]
        if conflicts and ctx.check_retries > 0:
            model = chat_model or load_chat_model(ctx.chat_model, ctx.max_new_tokens)
            for attempt in range(ctx.check_retries):
                out = retry(model, retry_prompt(state, ctx, reminders), attempt)
                if out is None:
                    break  # the model failed: keep the best reply so far, with its flag
                t0 = time.perf_counter()
                again = find_conflicts(checks, out.text) if out.text.strip() else best
                spent += time.perf_counter() - t0
                tries.append({"conflicts": _public(again)})
                if out.text.strip() and _rank(again) < _rank(best):
                    best_text, best = out.text.strip(), again
                if not best:
                    break
                reminders += [c["reminder"] for c in again]
        text = best_text + (f"\n\n{flag_line(best)}" if best else "")
        record = {
            "enabled": True,
            "checked": [c.label for c in checks],
            "unchecked": unchecked,
            "tries": tries,
            "retries": len(tries) - 1,
            "conflicts": _public(best),
            "flagged": bool(best),
            "check_ms": round(spent * 1000, 3),
        }
        update: dict[str, Any] = {"answer_check": record}
        if text != reply.text:
            update["messages"] = [AIMessage(content=text, id=reply.id, name=reply.name)]
        return update

    return check
