"""Usage tracking: a memory the answer used counts a use, one it ignored does not; the session
tally; ranking's small usage weight; bookkeeping writes keep the memory's provenance."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.scoring import USAGE_WEIGHT, combined_score, usage_bonus
from models.scripted_chat import ScriptedChatModel
from nodes.usage import is_used, usage_line
from stores.namespaces import FACTS, PROFILE

NOW = datetime(2026, 5, 1, tzinfo=UTC)


def profile(agent: MemoryAgent) -> dict[str, dict]:
    scope = agent._env().scope
    return {i.key: i.value for i in agent.store.search(scope.ns(PROFILE), limit=50)}


def test_the_signal_is_the_memorys_own_words_in_the_reply() -> None:
    assert is_used("The user is vegan.", "Try a vegan curry tonight.", "What should I cook?")
    assert not is_used("The user lives in Lisbon.", "Try a vegan curry tonight.", "What should I cook?")
    # words the question already said prove nothing
    assert not is_used("The user lives in Lisbon.", "You asked where you live.", "Where do I live? Lisbon?")
    # a long memory needs two of its words, not one
    assert not is_used("Planned a trip to Porto by train with Ana in June.", "Ana says hi.")
    assert is_used("Planned a trip to Porto by train with Ana in June.", "Your Porto trip with Ana.")


def chat(ctx: Context, replies: list[str], delay: float = 0) -> MemoryAgent:
    model = ScriptedChatModel(responses=replies)
    return MemoryAgent(replace(ctx, consolidation_delay_s=delay, check_answers=False), chat_model=model)


def test_a_used_memorys_count_rises_and_an_unused_ones_does_not(ctx: Context) -> None:
    replies = ["Noted.", "Noted.", "Try a vegan curry tonight.", "A chickpea stew, also vegan."]
    with chat(ctx, replies) as agent:
        agent.say("I'm vegan.", "t1")
        agent.say("I live in Lisbon.", "t1")
        before = profile(agent)
        assert {k: v.get("use_count", 0) for k, v in before.items()} == {"diet": 0, "location": 0}
        agent.say("What should I cook?", "t1")
        first = profile(agent)
        assert first["diet"]["use_count"] == 1 and first["diet"]["last_used"]
        assert "use_count" not in first["location"]
        # bookkeeping keeps the memory as it was: same text, same provenance
        assert first["diet"]["sources"] == before["diet"]["sources"]
        assert first["diet"]["text"] == before["diet"]["text"]
        result = agent.say("Another idea?", "t1")
        assert profile(agent)["diet"]["use_count"] == 2
        assert result.usage["used"] == 2 and result.usage["shown"] >= 4
        closing = agent.end_session("t1")
        assert closing.usage == result.usage
        assert agent.state("t1").get("memory_usage") == {}  # a new session starts its own tally
    assert usage_line(closing.usage).startswith("Memories used this session: 2 of ")


def test_deferred_turns_count_uses_when_the_run_happens(ctx: Context) -> None:
    with chat(ctx, ["Noted.", "Try a vegan curry tonight."], delay=30) as agent:
        agent.say("I'm vegan.", "t1")
        agent.flush("t1")  # the profile exists before the question
        agent.say("What should I cook?", "t1")
        assert "use_count" not in profile(agent)["diet"]  # queued with the deferred turn
        agent.flush("t1")
        assert profile(agent)["diet"]["use_count"] == 1
    with MemoryAgent(replace(ctx, consolidation_delay_s=30)) as agent:
        pass  # nothing pending: opening and closing counts nothing twice
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        assert profile(agent)["diet"]["use_count"] == 1


def test_a_used_fact_keeps_its_index_and_ranks_a_little_higher(ctx: Context) -> None:
    # not a fact about a person or pet: those are shown once, in their person's line (memory/layers/people.py)
    with chat(ctx, ["Noted.", "You love surfing at the beach."]) as agent:
        agent.say("I love surfing at the beach.", "t1")
        agent.say("Tell me about surfing.", "t1")
        env = agent._env()
        hits = agent.store.search(env.scope.ns(FACTS), query="surfing beach", limit=5)
        assert hits and hits[0].value.get("use_count") == 1
        assert hits[0].score is not None  # still in the vector index after the bookkeeping write


def test_usage_weight_is_small_and_saturating() -> None:
    assert usage_bonus(0) == 0.0
    assert 0 < usage_bonus(1) < usage_bonus(5) < USAGE_WEIGHT
    args = (0.5, NOW, 5.0, NOW, (0.4, 0.4, 0.2), 7.0)
    assert abs(combined_score(*args, use_count=3) - combined_score(*args) - usage_bonus(3)) < 1e-12
    # never enough to beat a clearly more relevant memory (cosine 0.5 against 0.3)
    assert combined_score(0.3, NOW, 5.0, NOW, (0.4, 0.4, 0.2), 7.0, use_count=100) < combined_score(*args)


def test_the_repl_shows_the_share_in_prompt_and_at_end(ctx: Context) -> None:
    from app.chat_repl import handle_command

    with chat(ctx, ["Noted.", "Try a vegan curry tonight."]) as agent:
        agent.say("I'm vegan.", "t1")
        agent.say("What should I cook?", "t1")
        assert "Memories used this session: 1 of 1 recalled (100%)." in (handle_command(agent, "t1", "/prompt") or "")
        ended = handle_command(agent, "t1", "/end") or ""
        assert ended.endswith("Memories used this session: 1 of 1 recalled (100%).")
