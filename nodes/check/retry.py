"""What a retry asked by the answer check changes in ``respond``'s request.

The check node (nodes/check/node.py) does not call the model: on a conflict it
sets ``check_verdict`` to ``"retry"`` and the graph's edge sends the turn back
to ``respond``, tools included. ``respond`` then sends the same prompt with the
violated memories restated after the user's message (only in the request, the
thread keeps the user's words) and a fixed seed per try, reproducible where the
model takes a seed.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

RETRY = "retry"
RETRY_TEMPERATURE = 0.7
BASE_SEED = 1234


def is_retry(state: dict[str, Any]) -> bool:
    """Whether this ``respond`` call is a retry the answer check asked for."""
    return state.get("check_verdict") == RETRY


def restated(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with the last user message restating the memories the reply went against."""
    messages = list(state.get("messages") or [])
    reminders = ((state.get("answer_check") or {}).get("pending") or {}).get("reminders") or []
    humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    if not humans or not reminders:
        return state
    i = humans[-1]
    note = "\n".join(dict.fromkeys(reminders))
    messages[i] = HumanMessage(content=f"{messages[i].text}\n\n({note})", id=messages[i].id)
    return {**state, "messages": messages}


def sampling_kwargs(model: BaseChatModel, attempt: int) -> dict[str, Any]:
    """Seed and temperature for one retry, for models that declare a ``seed`` field."""
    fields = getattr(type(model), "model_fields", {})
    if "seed" not in fields:
        return {}
    return {"seed": BASE_SEED + attempt, "temperature": RETRY_TEMPERATURE}
