"""Step 5: reflect — once enough has happened, derive a few insights that cite their evidence.

When the summed importance of facts and episodes created since the last
reflection passes ``upkeep_reflect_importance``, a chat model reads them and
proposes at most ``LIMIT`` insights ("The user is training for a marathon."),
each citing at least two memories; the insight is stored as a fact whose
sources are its evidence's sources. This needs a capable model: the embedded
SmolLM2-135M and the scripted test model would invent, so with them the step
is skipped and says so, and the watermark stays put for a later capable pass.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field, ValidationError

from core.prompts import REFLECT_PROMPT
from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.layers.semantic_records import store_fact
from memory.upkeep.items import all_items, read_state, union, write_state
from memory.upkeep.report import StepReport
from memory.write_policy.base import CandidateFact
from models.endpoint import first_line
from models.loader import EMBEDDED_CHAT
from stores.namespaces import EPISODES, FACTS
from stores.redaction.secrets import contains_secret

LIMIT = 3
MAX_MEMORIES = 40


class Insight(BaseModel):
    """One proposed insight and the numbers of the memories it rests on."""

    text: str = Field(min_length=8)
    evidence: list[int] = Field(min_length=2)


def capable(env: LayerEnv, model: BaseChatModel | None) -> bool:
    """A model given explicitly, or a hosted one by spec; never the embedded or scripted one."""
    spec = str(getattr(env.context, "chat_model", "") or "")
    return model is not None or (bool(spec) and spec not in EMBEDDED_CHAT)


def reflect_step(env: LayerEnv, *, dry_run: bool, model: BaseChatModel | None = None) -> StepReport:
    """Reflect when enough new importance has built up and a capable model is at hand."""
    report = StepReport("reflect")
    since = parse_time(read_state(env).get("reflected_at"))
    fresh = [i.value for kind in (FACTS, EPISODES) for i in all_items(env, kind)
             if since is None or (parse_time(i.value.get("created_at")) or env.now) > since]
    total = sum(float(v.get("importance", 0)) for v in fresh)
    threshold = float(env.context.upkeep_reflect_importance)
    if total < threshold:
        report.note = f"importance {total:g} since last reflection, under {threshold:g}"
        return report
    if not capable(env, model):
        report.note = (f"skipped: importance {total:g} is due for reflection, but chat model "
                       f"{env.context.chat_model!r} is not capable enough (needs openai:<model>)")
        return report
    if dry_run:
        report.note = f"importance {total:g}: would reflect"
        return report
    memories = sorted(fresh, key=lambda v: -float(v.get("importance", 0)))[:MAX_MEMORIES]
    try:
        if model is None:
            from models.loader import load_chat_model

            model = load_chat_model(env.context.chat_model, 400)
        insights = _ask(model, memories)
    except Exception as err:  # no key, no server, a 500: the pass keeps what the other steps did
        report.note = f"skipped: the chat model failed ({first_line(err)}); the next pass tries again"
        return report
    for insight in insights:
        cited = [memories[n - 1] for n in dict.fromkeys(insight.evidence) if 1 <= n <= len(memories)]
        if len(cited) < 2 or contains_secret(insight.text):
            continue
        fact = CandidateFact(text=insight.text, category="insight", importance=7, stated_at=env.now,
                             sources=union(*(v.get("sources", ()) for v in cited)))
        if store_fact(env, fact) is not None:
            report.add("insights")
    write_state(env, reflected_at=env.now.isoformat())
    return report


def _ask(model: BaseChatModel, memories: list[dict[str, Any]]) -> list[Insight]:
    listing = "\n".join(f"[{n}] {v['text']}" for n, v in enumerate(memories, 1))
    reply = model.invoke([HumanMessage(content=REFLECT_PROMPT.format(limit=LIMIT, memories=listing))])
    match = re.search(r"\{.*\}", str(reply.content), re.DOTALL)
    try:
        raw = json.loads(match.group(0) if match else "{}").get("insights") or []
    except (ValueError, AttributeError):
        return []
    kept: list[Insight] = []
    for item in raw if isinstance(raw, list) else []:
        try:  # one malformed or under-cited insight does not sink the others
            kept.append(Insight.model_validate(item))
        except ValidationError:
            continue
    return kept[:LIMIT]
