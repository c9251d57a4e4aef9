"""A capable model extracts memory at session end by setting, not code (issue 44).

``llm_extraction`` is 'auto' by default: on for every ``<provider>:<model>`` spec, off for the
embedded and scripted models. A scripted model with structured output stands in for the
capable one (a capable model's quality cannot be measured on these machines); everything else is
real: the graph, the write policy (screen, ground, store) and the files.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.write_policy.llm import ExtractedFact, ExtractedFacts, llm_extraction_on
from stores.namespaces import FACTS, PROFILE, UserScope
from tests.support.extract_helpers import StructuredFake


def stored_texts(agent: MemoryAgent) -> list[str]:
    scope = UserScope(agent.context.user_id)
    return [i.value["text"] for ns in (PROFILE, FACTS) for i in agent.store.search(scope.ns(ns), limit=100)]


KEPT = "The user has a rescue greyhound."


def run_session(ctx: Context, spec: str, setting: str) -> tuple[list[str], int]:
    said = "We adopted a rescue greyhound last spring and she sleeps on the sofa all day."
    answer = ExtractedFacts(facts=[
        ExtractedFact(text="The user has a rescue greyhound.", category="family", value="rescue greyhound",
                      importance=6, source_ids=[]),
        ExtractedFact(text="The user owns a boat.", category="other", value="a boat"),  # not said: never kept
    ])
    model = StructuredFake(responses=["Lovely!"], answer=answer, prompts=[])
    with MemoryAgent(replace(ctx, chat_model=spec, llm_extraction=setting, chat_tools="off"), chat_model=model) as agent:
        agent.say(said, "t1")
        assert KEPT not in stored_texts(agent)  # the per-turn rules keep only their own wording
        agent.end_session("t1")
        return stored_texts(agent), len(model.prompts)


def test_a_capable_spec_extracts_at_session_end_with_no_code_change(ctx: Context) -> None:
    texts, asked = run_session(ctx, "openai:gpt-4o-mini", "auto")
    assert asked == 1
    assert KEPT in texts, texts
    assert not any("boat" in t for t in texts), texts  # grounded in the user's words, as every extractor


@pytest.mark.parametrize(("spec", "setting"), [("openai:gpt-4o-mini", "off"), ("scripted", "auto")])
def test_extraction_stays_off_when_set_off_or_on_the_embedded_models(ctx: Context, spec: str, setting: str) -> None:
    texts, asked = run_session(ctx, spec, setting)
    assert asked == 0 and KEPT not in texts


def test_the_setting_reads_as_documented() -> None:
    assert llm_extraction_on("auto", "anthropic:claude-sonnet-4-5") and llm_extraction_on("on", "local")
    assert not llm_extraction_on("auto", "local") and not llm_extraction_on("off", "openai:gpt-4o")
    with pytest.raises(ValueError, match="llm_extraction"):
        Context(llm_extraction="sometimes")
