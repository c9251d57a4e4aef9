"""A capable model's standing rules at session end (issue 44): the mechanics, with a scripted model.

The scripted structured-output model stands in for the capable one (a capable model's quality
cannot be measured on these machines); the graph, the procedural layer, the review interrupt,
the write gate and the files are real. One extraction call per session serves facts and rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.base import LoggedMessage
from memory.write_policy.llm import ExtractedFact, ExtractedFacts, session_answer
from memory.write_policy.llm_rules import ExtractedRule, grounded_rules
from models.openai_chat import CompatibleChatOpenAI
from stores.namespaces import FACTS, PROFILE, RULES, UserScope
from tests.support.extract_helpers import SAID_AT, StructuredFake

FEEDBACK = "Honestly the long answers wear me out, short replies suit me better from here on."
FACT = "We adopted a rescue greyhound last spring."
SHORT = ExtractedRule(rule="keep answers short", topic="length", quote="short replies suit me better")
NEVER_SAID = ExtractedRule(rule="Answer in French.", topic="language", quote="please answer in French")
GREYHOUND = ExtractedFact(text="The user has a rescue greyhound.", category="family", value="rescue greyhound")


def rules_of(agent: MemoryAgent) -> list[dict[str, Any]]:
    return [i.value for i in agent.store.search(UserScope(agent.context.user_id).ns(RULES), limit=100)]


def facts_of(agent: MemoryAgent) -> list[str]:
    scope = UserScope(agent.context.user_id)
    return [i.value["text"] for ns in (PROFILE, FACTS) for i in agent.store.search(scope.ns(ns), limit=100)]


def session(ctx: Context, answer: ExtractedFacts, setting: str = "auto", **kw: Any) -> tuple[MemoryAgent, StructuredFake]:
    model = StructuredFake(responses=["Noted."] * 3, answer=answer, prompts=[])
    agent = MemoryAgent(replace(ctx, chat_model="openai:gpt-4o-mini", llm_extraction=setting, chat_tools="off", **kw),
                        chat_model=model)
    agent.say(FACT, "t1")
    agent.say(FEEDBACK, "t1")
    assert rules_of(agent) == []  # no per-turn pattern knows this wording
    return agent, model


def test_rules_and_facts_come_from_one_call_at_session_end_and_only_grounded_ones_are_kept(ctx: Context) -> None:
    agent, model = session(ctx, ExtractedFacts(facts=[GREYHOUND], rules=[SHORT, NEVER_SAID]))
    with agent:
        agent.end_session("t1")
        [rule] = rules_of(agent)
        assert rule["text"] == "Keep answers short." and rule["topic"] == "length" and rule["by"] == "model"
        feedback_id = next(m.id for m in agent.thread_messages("t1") if m.content == FEEDBACK)
        assert rule["sources"] == [feedback_id]  # the message holding the quote, not an id the model named
        assert "The user has a rescue greyhound." in facts_of(agent)
        assert len(model.prompts) == 1  # the semantic and procedural layers shared one extraction call
        assert "Keep answers short." in str(agent.say("How do I boil an egg?", "t2").system_prompt)  # recalled next turn


def test_a_model_rule_goes_through_review_like_a_pattern_rule(ctx: Context) -> None:
    agent, _ = session(ctx, ExtractedFacts(rules=[SHORT]), review_rules=True)
    with agent:
        asked = agent.end_session("t1").interrupt
        assert asked is not None and asked["type"] == "rule_review" and asked["rule"] == "Keep answers short."
        assert rules_of(agent) == []  # nothing written before the answer
        agent.resume("t1", approve=False)
        assert rules_of(agent) == []


@pytest.mark.parametrize(("spec", "setting"), [("openai:gpt-4o-mini", "off"), ("scripted", "auto")])
def test_no_model_rules_when_the_setting_is_off(ctx: Context, spec: str, setting: str) -> None:
    model = StructuredFake(responses=["Noted."] * 2, answer=ExtractedFacts(rules=[SHORT]), prompts=[])
    with MemoryAgent(replace(ctx, chat_model=spec, llm_extraction=setting, chat_tools="off"), chat_model=model) as agent:
        agent.say(FEEDBACK, "t1")
        agent.end_session("t1")
        assert rules_of(agent) == [] and model.prompts == []


def test_a_rule_the_patterns_already_kept_from_that_message_is_not_added_again(ctx: Context) -> None:
    paraphrase = ExtractedRule(rule="Be brief in every answer.", topic="custom", quote="be more concise")
    model = StructuredFake(responses=["Noted."], answer=ExtractedFacts(rules=[paraphrase]), prompts=[])
    with MemoryAgent(replace(ctx, chat_model="openai:gpt-4o-mini", chat_tools="off"), chat_model=model) as agent:
        agent.say("Please be more concise.", "t1")
        before = rules_of(agent)
        agent.end_session("t1")
        assert [r["text"] for r in before] == ["Keep answers concise."] and rules_of(agent) == before


def said(mid: str, text: str) -> LoggedMessage:
    return LoggedMessage(id=mid, thread="t", time=SAID_AT, role="user", text=text)


def test_grounding_needs_the_users_own_words_outside_any_secret() -> None:
    messages = [said("m1", "My card is 4111 1111 1111 1111 so never use emojis."), said("m2", "Use  bullet\npoints!"),
                LoggedMessage(id="a1", thread="t", time=SAID_AT, role="assistant", text="I will answer in German.")]
    proposals = [
        ExtractedRule(rule="Do not use emojis.", quote="never use emojis"),  # only in a sentence with a secret
        ExtractedRule(rule="Use bullet points", topic="Format", quote="use bullet points", source_id="m1"),
        ExtractedRule(rule="Answer in German.", quote="answer in German"),  # the assistant said it, not the user
        ExtractedRule(rule="Be nice.", quote="use"),  # too short to ground anything
    ]
    [kept] = grounded_rules(proposals, messages)
    assert (kept.rule, kept.topic, kept.message_id) == ("Use bullet points.", "format", "m2")


class RawFake(StructuredFake):
    """Structured output whose answer failed the schema: LangChain then hands back the raw message."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        assert kwargs.get("include_raw") is True
        raw = AIMessage("", tool_calls=[{"name": "ExtractedFacts", "id": "c1", "args": self.answer}])
        return RunnableLambda(lambda prompt: {"raw": raw, "parsed": None, "parsing_error": ValueError("bad item")})


def test_an_answer_that_fails_the_schema_is_read_item_by_item() -> None:
    answer = {"facts": [{"text": "The user speaks Welsh.", "value": "Welsh"}, {"text": ""}, "junk"],
              "rules": [{"rule": "Use bullet points.", "quote": "use bullet points"}, {"quote": 3}]}
    got = session_answer(RawFake(responses=[], answer=answer, prompts=[]), [said("m1", "I speak Welsh. Use bullet points.")])
    assert [f.text for f in got.facts] == ["The user speaks Welsh."] and [r.rule for r in got.rules] == ["Use bullet points."]


def test_a_server_other_than_openai_gets_structured_output_as_a_forced_function_call() -> None:
    other = CompatibleChatOpenAI(model="m", api_key="unused", base_url="http://127.0.0.1:9/v1", string_content=True)
    openai = CompatibleChatOpenAI(model="m", api_key="unused")
    forced = other.with_structured_output(ExtractedFacts).first.kwargs  # type: ignore[attr-defined]
    assert forced["tool_choice"]["function"]["name"] == "ExtractedFacts"
    assert "response_format" in openai.with_structured_output(ExtractedFacts).first.kwargs  # type: ignore[attr-defined]
