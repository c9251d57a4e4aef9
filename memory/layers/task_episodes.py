"""Task episodes: procedural memory by example.

Write policy (``on_turn``, no LLM): a user message that asks for a piece of work
(``memory/tasks/rules.py``) becomes an episode in the user's ``TASKS`` namespace,
through the gate like every memory: the task, the approach (the reply's outline by
rule), the outcome, the turn's duration and token cost, a quality score and notes.
The score comes from the answer check at first (passed: 0.7, passed after retries:
0.5, flagged: 0.2, not checked: 0.5) and from the user's explicit verdict when the
next message gives one ("thanks, that worked": 1.0, "that didn't work": 0.0),
which replaces it. Outcome is success when the score is 0.5 or more. The key is
the task message's id, so a re-run writes the same episode again, never twice.

Write policy (``on_session_end``): with a chat model able to call tools (a capable
one, ``chat_tools_enabled``), the model rewrites each of the session's episodes'
approach and notes in one line each; the embedded model keeps the rules' text.

Read policy (``recall``): only for a message that is a task, the ``task_k`` most
similar successful episodes whose cosine reaches ``task_floor`` (and, with the
operator's ``task_pool`` on, the shared pool's too). Failures are offered only when
no success passes the floor: the prompt then shows them as what did not work.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.messages.utils import count_tokens_approximately

from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.tasks.episode import INDEXED, check_quality, episode_text, outcome
from memory.tasks.rules import approach_of, is_task, task_text, verdict
from memory.tasks.summary import rewrite_episodes
from models.loader import chat_tools_enabled
from stores.namespaces import TASK_POOL, TASKS

_CANDIDATES = 4  # searched per episode wanted, so failures do not crowd the successes out
_STARTS = 256  # turn start times kept (recall to on_turn), oldest dropped first


def turn_tokens(messages: Sequence[BaseMessage], system_prompt: str) -> int:
    """The turn's token cost: the model's reported usage, else an approximate count of what was sent and said."""
    turn = _latest_turn(messages)
    reported = sum(int(m.usage_metadata["total_tokens"]) for m in turn
                   if isinstance(m, AIMessage) and m.usage_metadata)
    if reported:
        return reported
    return count_tokens_approximately([*turn, AIMessage(content=system_prompt)])


def _latest_turn(messages: Sequence[BaseMessage]) -> Sequence[BaseMessage]:
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return messages[i:]
    return []


def _previous_human(messages: Sequence[BaseMessage]) -> str | None:
    """The id of the user message before the latest one (the task a verdict judges)."""
    humans = [m for m in messages if isinstance(m, HumanMessage)]
    return str(humans[-2].id) if len(humans) >= 2 else None


class TaskEpisodeLayer(LayerBase):
    """Past tasks as few-shot examples; see the module docstring."""

    name = "tasks"

    def __init__(self) -> None:
        self._started: OrderedDict[tuple[str, str], float] = OrderedDict()

    # -- read policy ---------------------------------------------------------------

    def can_recall(self, env: LayerEnv, query: str) -> bool:
        # Not ``task_k``: a task's recall also starts its clock (``duration_s``), even with no examples shown.
        return is_task(query)

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        self._started[(env.scope.user_id, query)] = time.monotonic()
        while len(self._started) > _STARTS:
            self._started.popitem(last=False)
        ctx = env.context
        if ctx.task_k <= 0 or not is_task(query):
            return []
        spaces = [(env.scope.ns(TASKS), False)] + ([(TASK_POOL, True)] if ctx.task_pool else [])
        found: list[Recalled] = []
        for ns, pooled in spaces:
            for hit in env.store.search(ns, query=task_text(query), limit=ctx.task_k * _CANDIDATES):
                if hit.score is not None and hit.score >= ctx.task_floor:
                    found.append(_recalled(hit.key, hit.value, float(hit.score), pooled))
        found.sort(key=lambda r: -r.score)
        wins = [r for r in found if r.meta["outcome"] == "success"]
        return (wins or [r for r in found if r.meta["outcome"] == "failure"])[: ctx.task_k]

    # -- write policy ----------------------------------------------------------------

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        users = [m for m in turn if m.role == "user"]
        replies = [m for m in turn if m.role == "assistant"]
        if not users:
            return None
        asked = users[-1]
        messages = list(env.state.get("messages") or [])
        judged = verdict(asked.text)
        earlier = _previous_human(messages)
        if judged is not None and earlier is not None:
            self._judge(env, earlier, judged, asked)
        if replies and is_task(asked.text):
            self._record(env, asked, replies[-1], messages)
        return None

    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        model = env.chat_model
        if model is None or not chat_tools_enabled(env.context.chat_model, env.context.chat_tools):
            return None
        rewrite_episodes(env, model, [m.id for m in session if m.role == "user"])
        return None

    def _record(self, env: LayerEnv, asked: LoggedMessage, reply: LoggedMessage,
                messages: list[BaseMessage]) -> None:
        ns = env.scope.ns(TASKS)
        if env.store.get(ns, asked.id) is not None:
            return  # a re-run of the same turn (an interrupt resumed): recorded already
        quality, source = check_quality(env.state.get("answer_check"))
        started = self._started.pop((env.scope.user_id, asked.text), None)
        value = {
            "task": task_text(asked.text),
            "approach": approach_of(reply.text),
            "outcome": outcome(quality),
            "quality": quality,
            "quality_from": source,
            "duration_s": round(time.monotonic() - started, 3) if started is not None else None,
            "tokens": turn_tokens(messages, str(env.state.get("system_prompt") or "")),
            "notes": "",
            "thread": asked.thread,
            "time": asked.time.isoformat(),
            "sources": [asked.id, reply.id],
        }
        env.store.put(ns, asked.id, {**value, "text": episode_text(value)}, index=INDEXED)

    def _judge(self, env: LayerEnv, key: str, quality: float, said: LoggedMessage) -> None:
        ns = env.scope.ns(TASKS)
        item = env.store.get(ns, key)
        if item is None or said.id in item.value.get("sources", []):
            return
        value = {**item.value, "quality": quality, "quality_from": "feedback", "outcome": outcome(quality),
                 "notes": task_text(said.text), "sources": [*item.value.get("sources", []), said.id]}
        env.store.put(ns, key, {**value, "text": episode_text(value)}, index=INDEXED)


def _recalled(key: str, value: dict[str, Any], score: float, pooled: bool) -> Recalled:
    meta = {k: value.get(k) for k in ("approach", "outcome", "quality", "notes")}
    return Recalled(kind="task", text=str(value.get("task", "")), score=score, key=key,
                    sources=tuple(value.get("sources") or ()), meta={**meta, "pool": pooled})
