"""assemble: turn what was recalled into the system prompt (see nodes/prompt.py)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import Context
from nodes import clock
from nodes.env import context_of
from nodes.prompt import render_system_prompt


def system_prompt(state: dict[str, Any], ctx: Context, memory_budget_tokens: int) -> str:
    """The turn's system prompt with a memory block of at most ``memory_budget_tokens``
    (respond renders it again with less when the request must fit a small context window).
    """
    return render_system_prompt(
        ctx.persona,
        state.get("recalled") or [],
        state.get("summary") or "",
        clock.now(),  # MEMORY_NOW / --now moves the prompt's date too
        memory_budget_tokens,
    )


def assemble(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: build the system prompt from the recalled memories and the summary."""
    ctx = context_of(runtime)
    return {"system_prompt": system_prompt(state, ctx, ctx.memory_budget_tokens)}
