""""Why this answer": ``/prompt`` as a page, for a message typed into it.

The recall is the turn's own (``nodes/retrieve.recall_all`` over the same
layers), the prompt is the turn's own (``nodes/assemble.memory_prompt``), and
what the lean rules keep is ``memory/prompt.select_within_budget``. A score is
split into its parts with the read policy's formula (``memory/layers/scoring``):
recency and importance from the item's dates and importance, relevance the
rest (it includes the small usage bonus). Nothing is stored.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.messages.utils import count_tokens_approximately

from app.ui.source import UserMemory
from memory.layers.scoring import recency
from memory.privacy.consent import is_memory_enabled
from memory.prompt import VOLATILE_KINDS, quote, select_within_budget
from nodes.assemble import memory_prompt
from nodes.input_check import check_user_text
from nodes.retrieve import recall_all

UNLIMITED = 10**9


def _parts(item: dict[str, Any], mem: UserMemory) -> dict[str, float]:
    """Weighted relevance, recency and importance (each 0..1 of the final score's scale)."""
    ctx, meta = mem.context, item.get("meta") or {}
    score = float(item["score"])
    if item["kind"] not in ("fact", "episode") or str(item.get("key") or "").startswith("review:"):
        return {"relevance": score, "recency": 0.0, "importance": 0.0, "score": score}
    w_rel, w_rec, w_imp = ctx.weights
    rec = w_rec * recency(meta.get("updated_at") or meta.get("time"), mem.env.now, ctx.recency_half_life_days)
    imp = w_imp * min(max(float(meta.get("importance") or 0), 0.0), 10.0) / 10.0
    return {"relevance": max(score - rec - imp, 0.0), "recency": rec, "importance": imp, "score": score}


def _tokens(text: str) -> int:
    return count_tokens_approximately([SystemMessage(content=text)])


def explain(mem: UserMemory, text: str) -> dict[str, Any]:
    """What a turn on ``text`` would recall, keep, leave out (and why), and the prompt it would send."""
    check_user_text(text, mem.context.max_message_chars)
    if not is_memory_enabled(mem.store, mem.env.scope):
        recalled: list[dict[str, Any]] = []
    else:
        recalled = recall_all(mem.env, mem.layers, text)
    budget = mem.context.memory_budget_tokens
    kept = select_within_budget(recalled, budget)
    lean = select_within_budget(recalled, UNLIMITED)
    kept_texts = {(k["kind"], k.get("key"), k["text"]) for k in kept}
    kept_keys = {(k["kind"], k.get("key")) for k in kept}
    lean_keys = {(k["kind"], k.get("key")) for k in lean}
    rows, left_out = [], []
    for item in sorted(recalled, key=lambda r: -float(r["score"])):
        parts = _parts(item, mem)
        row = {"kind": item["kind"], "text": item["text"], "sources": list(item.get("sources") or ()), **parts}
        ident = (item["kind"], item.get("key"))
        if item["kind"] not in VOLATILE_KINDS:
            row["shown"] = item["kind"] in ("rule", "profile")
        elif ident in kept_keys:
            row["shown"] = True
            row["trimmed"] = (item["kind"], item.get("key"), item["text"]) not in kept_texts
        else:
            row["shown"] = False
            why = (f"over the memory budget of {budget} tokens" if ident in lean_keys
                   else "says nothing a memory shown does not say already (lean rules)")
            left_out.append({"kind": item["kind"], "text": item["text"], "why": why})
        rows.append(row)
    top = max((r["score"] for r in rows), default=1.0) or 1.0
    for r in rows:
        r["bars"] = {k: round(100 * r[k] / top, 1) for k in ("relevance", "recency", "importance")}
    prompt = memory_prompt(mem.context, recalled)
    used = sum(_tokens(f"- {quote(k['text'])}") for k in kept)
    return {"text": text, "rows": rows, "left_out": left_out, "prompt": prompt, "budget": budget,
            "used": used, "prompt_tokens": _tokens(prompt), "memory_on": bool(recalled) or
            is_memory_enabled(mem.store, mem.env.scope)}
