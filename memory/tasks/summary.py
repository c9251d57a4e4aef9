"""At session end, a capable chat model rewrites each task episode's approach and notes.

Optional: only the task-episode layer calls it, and only for a model that is offered
tools (a function-calling endpoint). The rules' text stays when the model fails or
answers in another form; the rewrite goes through the gate like the first write.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from memory.layers.base import LayerEnv
from memory.tasks.episode import INDEXED, episode_text
from memory.tasks.rules import MAX_APPROACH_CHARS, task_text
from stores.namespaces import TASKS

log = logging.getLogger("memory.tasks")
ASK = ("You keep notes on how tasks went. Given a task, the approach taken and the outcome, answer with one "
       'JSON object {"approach": "...", "notes": "..."}: the approach in one sentence a colleague could follow, '
       "and one sentence on what to repeat or avoid next time.")


def rewrite_episodes(env: LayerEnv, model: BaseChatModel, task_ids: Sequence[str]) -> int:
    """Rewrite the episodes keyed by ``task_ids``; returns how many changed."""
    ns, changed = env.scope.ns(TASKS), 0
    for key in task_ids:
        item = env.store.get(ns, key)
        if item is None:
            continue
        v = item.value
        asked = f"Task: {v['task']}\nApproach: {v['approach']}\nOutcome: {v['outcome']}\nNotes: {v.get('notes', '')}"
        try:
            raw = model.invoke([SystemMessage(content=ASK), HumanMessage(content=asked)]).text
            out = json.loads(raw[raw.index("{"): raw.rindex("}") + 1])
            approach, notes = str(out["approach"]).strip(), str(out.get("notes", "")).strip()
        except Exception as err:  # any failure keeps the rules' text
            log.info("task episode %s kept as written by rule: %s", key, err)
            continue
        if approach:
            new = {**v, "approach": approach[:MAX_APPROACH_CHARS], "notes": task_text(notes), "written_by": "model"}
            env.store.put(ns, key, {**new, "text": episode_text(new)}, index=INDEXED)
            changed += 1
    return changed
