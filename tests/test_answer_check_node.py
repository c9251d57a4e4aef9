"""The check node in the real graph (real store and checkpointer, scripted chat model)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from app.chat_repl import handle_command
from app.runtime import MemoryAgent
from memory.layers.semantic import remember
from models.scripted_chat import ScriptedChatModel
from stores.namespaces import MESSAGES, UserScope

MEATY = "Try a chicken stir-fry with rice."
CLEAN = "Try a tofu stir-fry with rice."


class CountingModel(ScriptedChatModel):
    """Scripted replies that record every call's messages and keyword arguments."""

    seed: int = 0
    calls: list[dict[str, Any]]

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        self.calls.append({"messages": messages, "kwargs": kwargs})
        return super()._generate(messages, stop, run_manager, **kwargs)


def _agent(ctx, responses: list[str], facts: tuple[str, ...] = ("I'm vegetarian.",)) -> tuple[MemoryAgent, CountingModel]:
    model = CountingModel(responses=responses, calls=[])
    agent = MemoryAgent(ctx, chat_model=model)
    for fact in facts:
        remember(agent.env(), fact)
    return agent, model


def test_a_conflicting_reply_is_retried_once_and_replaced(ctx) -> None:
    agent, model = _agent(ctx, [MEATY, CLEAN])
    with agent:
        result = agent.say("What should I cook tonight?", "t1")
        assert result.reply == CLEAN
        assert len(model.calls) == 2
        record = agent.state("t1")["answer_check"]
        assert record["retries"] == 1 and not record["flagged"] and record["conflicts"] == []
        assert record["tries"][0]["conflicts"][0]["items"] == ["chicken"]
        assert "diet: vegetarian" in record["checked"]
        # The retry restates the memory next to the user's message, with a seed and a temperature.
        retry = model.calls[1]
        assert '"The user is vegetarian."' in retry["messages"][-1].text
        assert retry["messages"][-1].text.startswith("What should I cook tonight?")
        assert retry["kwargs"]["seed"] == 1234 and retry["kwargs"]["temperature"] > 0
        # The thread keeps only the checked reply, and it is what consolidation logged.
        assert [m.text for m in agent.thread_messages("t1")] == ["What should I cook tonight?", CLEAN]
        logged = [i.value["text"] for i in agent.store.search(UserScope(ctx.user_id).ns(MESSAGES), limit=50)]
        assert CLEAN in logged and MEATY not in logged


def test_a_reply_that_always_conflicts_carries_the_memory_check_line(ctx) -> None:
    agent, model = _agent(ctx, [MEATY])
    with agent:
        result = agent.say("What should I cook tonight?", "t1")
        assert len(model.calls) == 1 + ctx.check_retries
        assert result.reply == f"{MEATY}\n\nMemory check: this suggests chicken, but you are vegetarian."
        assert [c["kwargs"]["seed"] for c in model.calls[1:]] == [1234, 1235]
        record = agent.state("t1")["answer_check"]
        assert record["flagged"] and record["retries"] == 2
        shown = handle_command(agent, "t1", "/prompt")
        assert "----- answer check -----" in shown and "diet: vegetarian (chicken)" in shown
        assert "retries: 2, flagged: yes" in shown


def test_the_best_try_is_kept(ctx) -> None:
    two = "Try chicken with bacon."
    agent, _ = _agent(ctx, [two, MEATY, two])
    with agent:
        reply = agent.say("Dinner idea?", "t1").reply
        assert reply.startswith(MEATY + "\n\nMemory check: this suggests chicken,")


def test_no_constraint_means_no_retry_and_no_extra_call(ctx) -> None:
    agent, model = _agent(ctx, [MEATY], facts=("I live in Lisbon.",))
    with agent:
        assert agent.say("What should I cook tonight?", "t1").reply == MEATY
        assert len(model.calls) == 1
        record = agent.state("t1")["answer_check"]
        assert record["checked"] == [] and record["retries"] == 0 and not record["flagged"]


def test_a_clean_reply_costs_no_extra_call(ctx) -> None:
    agent, model = _agent(ctx, [CLEAN])
    with agent:
        assert agent.say("What should I cook tonight?", "t1").reply == CLEAN
        assert len(model.calls) == 1
        assert agent.state("t1")["answer_check"]["tries"] == [{"conflicts": []}]


def test_switched_off_the_check_passes_the_reply_on(ctx) -> None:
    from dataclasses import replace

    agent, model = _agent(replace(ctx, check_answers=False), [MEATY])
    with agent:
        assert agent.say("What should I cook tonight?", "t1").reply == MEATY
        assert len(model.calls) == 1
        assert "(off: check_answers is false)" in handle_command(agent, "t1", "/prompt")


def test_zero_retries_still_discloses(ctx) -> None:
    from dataclasses import replace

    agent, model = _agent(replace(ctx, check_retries=0), [MEATY])
    with agent:
        assert agent.say("Dinner?", "t1").reply.endswith("Memory check: this suggests chicken, but you are vegetarian.")
        assert len(model.calls) == 1


def test_a_rule_conflict_is_retried(ctx) -> None:
    agent, model = _agent(ctx, ["Noted.", "Here you go 🍲", "Here you go."], facts=())
    with agent:
        agent.say("Please don't use emojis.", "t0")  # the procedural layer stores the rule
        model.calls.clear()
        assert agent.say("A soup idea?", "t1").reply == "Here you go."
        assert len(model.calls) == 2
        assert agent.state("t1")["answer_check"]["tries"][0]["conflicts"][0]["label"] == "rule: no emojis"


def test_bad_retry_setting_is_refused() -> None:
    from core.context import Context

    with pytest.raises(ValueError, match="check_retries"):
        Context(check_retries=-1)
