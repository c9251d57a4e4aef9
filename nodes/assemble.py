"""assemble: the fan-in of the recall nodes; turns what they recalled into the system prompt (memory/prompt.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langgraph.runtime import Runtime

from core.context import Context
from memory import clock
from memory.env import context_of
from memory.knowledge.prompt import knowledge_block
from memory.prompt import render_system_prompt
from memory.tasks.prompt import task_block


def memory_prompt(
    ctx: Context, recalled: list[dict[str, Any]], summary: str = "", memory_budget_tokens: int | None = None
) -> str:
    """The system prompt for ``recalled`` memories and passages, with a memory block of at most
    ``memory_budget_tokens`` (the context's budget by default; respond renders it again with less when
    the request must fit a small context window). The MCP prompt ``memory_block`` returns the same text.

    Memories and knowledge have separate budgets, so a long document never crowds out the profile;
    past tasks recalled as examples (memory/tasks/prompt.py) follow the knowledge, at most ``task_k``.
    """
    apart = [knowledge_block(recalled, ctx.knowledge_budget_tokens), task_block(recalled)]
    return render_system_prompt(
        ctx.persona,
        recalled,
        summary,
        clock.now(),  # MEMORY_NOW / --now moves the prompt's date too
        ctx.memory_budget_tokens if memory_budget_tokens is None else memory_budget_tokens,
        "\n\n".join(b for b in apart if b),
    )


def system_prompt(state: dict[str, Any], ctx: Context, memory_budget_tokens: int) -> str:
    """The turn's system prompt from its state's recalled memories and summary."""
    return memory_prompt(ctx, state.get("recalled") or [], state.get("summary") or "", memory_budget_tokens)


def in_layer_order(recall: dict[str, list[dict[str, Any]]] | None, names: Sequence[str]) -> list[dict[str, Any]]:
    """The recall nodes' findings (``recall``, by layer name) as one list, in the graph's layer order."""
    recall = recall or {}
    return [item for name in names for item in recall.get(name) or []]


def make_assemble(names: Sequence[str]) -> Callable[..., dict[str, Any]]:
    """The assemble node over the layers ``names`` (their order is the memories' order)."""
    order = tuple(names)

    def assemble(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        """Graph node: gather the layers' recall and build the system prompt with the summary."""
        ctx = context_of(runtime)
        recalled = in_layer_order(state.get("recall"), order)
        prompt = system_prompt({**state, "recalled": recalled}, ctx, ctx.memory_budget_tokens)
        return {"recalled": recalled, "system_prompt": prompt}

    return assemble
