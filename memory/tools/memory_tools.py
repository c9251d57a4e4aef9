"""Memory tools for function calling: ``remember``, ``search_memory``, ``forget``.

The tools are made per run from a ``LayerEnv`` built from config, so the user
they act for is fixed before the model sees them; no tool takes a user id, and
a model cannot reach another user's memory by naming one. Writes go through
``env.store``, the user's ``MemoryGate`` (consent, redaction, provenance).
Searches read only the user's own namespaces (through the gate) and rank as the CLI
and MCP ``recall`` do (memory/search_rank.py: a profile slot by its relevance, not
first); each result is tagged with its kind (memory/kinds.py) and redacted before it
goes back into the prompt.
``search_memory`` and ``forget`` are marked ``READS_MEMORY``: the graph's tools
node settles background consolidation before either runs (memory/tools/tool_node.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from langgraph.checkpoint.base import BaseCheckpointSaver

from core.prompts import FORGET_TOOL, REMEMBER_TOOL, SEARCH_MEMORY_TOOL
from memory import clock
from memory.layers.base import LayerBase, LayerEnv, MemoryLayer, Recalled
from memory.layers.episodic import EpisodicLayer
from memory.layers.semantic import recall_facts, recall_profile
from memory.privacy.consent import is_memory_enabled
from memory.privacy.forget import DEFAULT_THRESHOLD, UserData, forget
from memory.search_rank import rank_memories
from memory.tools.tool_node import READS_MEMORY
from memory.write_policy.gate import MemoryOff
from stores.redaction.secrets import find_secrets, redact

SEARCHED_KINDS = ("profile", "fact", "episode")  # memory/kinds.py; rules are the prompt's, messages the chat's
MEMORY_OFF = "Long-term memory is switched off for this user, so nothing is saved or recalled."


def _text_of(value: dict[str, Any]) -> str:
    """The memory's text; structured values (a profile) as their plain fields."""
    if isinstance(value.get("text"), str):
        return value["text"]
    return "; ".join(
        f"{k}: {v}" for k, v in value.items() if isinstance(v, (str, int, float)) and not k.endswith("_at")
    )


class _ProfileAndFacts(LayerBase):
    """The semantic layer's current profile and loose facts, without its prompt-only extras."""

    name = "semantic"

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        return recall_profile(env) + recall_facts(env, query)


def _searched_layers() -> list[MemoryLayer]:
    return [_ProfileAndFacts(), EpisodicLayer()]


def _describe(saved: Any) -> str:
    """One saved memory as text, whatever the semantic layer returns for it."""
    if isinstance(saved, str):
        return saved
    if isinstance(saved, dict):
        return _text_of(saved)
    return str(getattr(saved, "text", saved))


def make_memory_tools(
    env: LayerEnv,
    *,
    checkpointer: BaseCheckpointSaver | None = None,
    forget_threshold: float = DEFAULT_THRESHOLD,
    k: int = 5,
) -> list[BaseTool]:
    """``remember``, ``search_memory`` and ``forget`` bound to ``env.scope``."""
    scope = env.scope

    def remember(text: str) -> str:
        """Save a durable fact about the user, in the user's own words."""
        kinds = sorted({kind for _, _, kind in find_secrets(text)})
        if kinds:
            return f"Not saved: that contains a secret ({', '.join(kinds)}). I never store secrets."
        from memory.layers.semantic import KNOWN, NEW, remember_outcomes  # written alongside; import on use

        try:  # the write gate decides; with memory off it refuses and nothing is stored
            saved = remember_outcomes(replace(env, now=clock.now()), text)
        except MemoryOff:
            return MEMORY_OFF
        if not saved or all(done == KNOWN for done, _ in saved):
            return "Nothing new to save: I already know that."
        return "Saved: " + "; ".join(_describe(s) + ("" if done == NEW else f" ({done})") for done, s in saved)

    def search_memory(query: str) -> str:
        """Search what you remember about the user (facts, profile, past conversations)."""
        if not is_memory_enabled(env.store, scope):
            return MEMORY_OFF
        hits = [hit for hit in rank_memories(env, _searched_layers(), query, k, SEARCHED_KINDS)
                if hit.text.strip()]
        if not hits:
            return "No matching memories."
        return "\n".join(f"- [{hit.kind}] {redact(hit.text)}" for hit in hits)

    def forget_memory(text: str) -> str:
        """Delete every memory about the user that matches the text, everywhere."""
        try:  # forgetting re-indexes what survives, which must work with memory off
            target = UserData.of(replace(env, store=env.gate.forgetting()), checkpointer)
            return str(forget(target, text, threshold=forget_threshold))
        except ValueError as err:
            return f"Error: {err}"

    return [
        StructuredTool.from_function(remember, name="remember", description=REMEMBER_TOOL),
        StructuredTool.from_function(search_memory, name="search_memory", description=SEARCH_MEMORY_TOOL,
                                     metadata={READS_MEMORY: True}),
        StructuredTool.from_function(forget_memory, name="forget", description=FORGET_TOOL,
                                     metadata={READS_MEMORY: True}),
    ]
