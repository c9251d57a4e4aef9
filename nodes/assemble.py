"""assemble: turn what was recalled into the system prompt (see nodes/prompt.py)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import Context
from nodes import clock
from nodes.env import context_of
from nodes.knowledge.prompt import knowledge_block
from nodes.prompt import render_system_prompt


def memory_prompt(ctx: Context, recalled: list[dict[str, Any]], summary: str = "") -> str:
    """The system prompt for ``recalled`` memories and passages: the block ``assemble`` puts before the model.

    Memories and knowledge have separate budgets, so a long document never crowds out the profile.
    """
    return render_system_prompt(
        ctx.persona,
        recalled,
        summary,
        clock.now(),  # MEMORY_NOW / --now moves the prompt's date too
        ctx.memory_budget_tokens,
        knowledge_block(recalled, ctx.knowledge_budget_tokens),
    )


def assemble(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: build the system prompt from the recalled memories and the summary."""
    recalled, summary = state.get("recalled") or [], state.get("summary") or ""
    return {"system_prompt": memory_prompt(context_of(runtime), recalled, summary)}
