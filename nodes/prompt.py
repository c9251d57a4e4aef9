"""How recalled memories become a system prompt.

Layout, in this order:
1. the stable prefix — persona, memory rules, procedural rules, profile. It is
   byte-identical from turn to turn while none of them changes, so providers'
   prompt caches can reuse it;
2. the volatile part — recalled facts, episodes, past messages, the summary of
   earlier turns, and today's date — within a token budget, lowest scores
   dropped first.

Every recalled text is rendered as quoted data (a JSON string inside a fenced
<memories> block), never as an instruction, so a stored "ignore previous
instructions" stays inert text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.messages.utils import count_tokens_approximately

from graph.prompts import MEMORY_INSTRUCTIONS

VOLATILE_KINDS = ("fact", "episode", "message")
_TITLES = {
    "profile": "What you know about the user (current profile)",
    "rule": "How the user wants you to work (follow these)",
    "fact": "Facts recalled for this message",
    "episode": "Past sessions recalled for this message",
    "message": "Past messages recalled for this message",
}


def quote(text: str) -> str:
    """A memory as inert data: a JSON string with angle brackets escaped."""
    return json.dumps(text, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")


def _block(kind: str, items: Iterable[dict[str, Any]]) -> str:
    lines = [f"- {quote(item['text'])}" for item in items]
    return f"<memories kind=\"{kind}\">\n# {_TITLES[kind]}\n" + "\n".join(lines) + "\n</memories>"


def stable_prefix(persona: str, recalled: list[dict[str, Any]]) -> str:
    """Persona, memory rules, rules and profile — unchanged while they are unchanged."""
    parts = [persona.strip(), MEMORY_INSTRUCTIONS]
    rules = [r for r in recalled if r["kind"] == "rule"]
    if rules:
        # Rules are the user's own instructions about style: shown as a list, still quoted.
        parts.append(_block("rule", rules))
    profile = sorted((r for r in recalled if r["kind"] == "profile"), key=lambda r: str(r.get("key") or r["text"]))
    if profile:
        parts.append(_block("profile", profile))
    return "\n\n".join(parts)


def select_within_budget(recalled: list[dict[str, Any]], budget_tokens: int) -> list[dict[str, Any]]:
    """The volatile memories that fit ``budget_tokens``, best scores kept first."""
    candidates = sorted((r for r in recalled if r["kind"] in VOLATILE_KINDS), key=lambda r: -float(r["score"]))
    kept, used, seen = [], 0, set()
    for item in candidates:
        if item["text"] in seen:
            continue
        cost = count_tokens_approximately([SystemMessage(content=f"- {quote(item['text'])}")])
        if used + cost > budget_tokens:
            continue
        kept.append(item)
        used += cost
        seen.add(item["text"])
    return kept


def volatile_part(recalled: list[dict[str, Any]], summary: str, now: datetime, budget_tokens: int) -> str:
    """The per-turn part of the system prompt: budgeted recalled memories, the summary and the date."""
    kept = select_within_budget(recalled, budget_tokens)
    parts = [
        _block(kind, [r for r in kept if r["kind"] == kind])
        for kind in VOLATILE_KINDS
        if any(r["kind"] == kind for r in kept)
    ]
    if summary:
        parts.append("<memories kind=\"summary\">\n# Summary of earlier turns in this conversation\n"
                     f"- {quote(summary)}\n</memories>")
    parts.append(f"Current date: {now.date().isoformat()}")
    return "\n\n".join(parts)


def render_system_prompt(
    persona: str, recalled: list[dict[str, Any]], summary: str, now: datetime, budget_tokens: int
) -> str:
    """The full system prompt: the stable (cacheable) prefix, then the volatile part."""
    return stable_prefix(persona, recalled) + "\n\n" + volatile_part(recalled, summary, now, budget_tokens)
