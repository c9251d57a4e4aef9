"""A fact past its review date is asked about in the prompt; the user's answer updates or removes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.runtime import MemoryAgent
from memory.clock import NOW_ENV
from memory.upkeep.run import run_upkeep
from stores.namespaces import PROFILE, PROFILE_HISTORY
from tests.support.upkeep_helpers import context, env_at, plant, session, values

QUESTION = "I have it that you are vegetarian — is that still right?"


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with MemoryAgent(context(tmp_path)) as a:
        plant(a, session("s1", 0, "I'm vegetarian."))
        run_upkeep(env_at(a, 1))  # sets the review date: 120 days after it was said
        monkeypatch.setenv(NOW_ENV, env_at(a, 130).now.isoformat())  # the clock every layer reads
        yield a


def diet(agent: MemoryAgent) -> dict | None:
    item = agent.env().store.get(agent.env().scope.ns(PROFILE), "diet")
    return item.value if item is not None else None


def test_not_asked_before_the_review_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with MemoryAgent(context(tmp_path)) as a:
        plant(a, session("s1", 0, "I'm vegetarian."))
        run_upkeep(env_at(a, 1))
        monkeypatch.setenv(NOW_ENV, env_at(a, 100).now.isoformat())
        assert QUESTION not in a.say("What should I cook tonight?", "t1").system_prompt
        monkeypatch.setenv(NOW_ENV, env_at(a, 121).now.isoformat())
        assert QUESTION in a.say("What should I cook tonight?", "t1").system_prompt


def test_yes_confirms_the_fact_and_moves_its_review_date(agent: MemoryAgent) -> None:
    assert QUESTION in agent.say("What should I cook tonight?", "t1").system_prompt
    agent.say("Yes, still am.", "t1")
    record = diet(agent)
    assert record is not None and record["value"] == "vegetarian"
    assert record["updated_at"].startswith("2025-05-16") and record["review_at"].startswith("2025-09-13")
    assert len(record["sources"]) == 2  # the original statement and the confirmation
    assert QUESTION not in agent.say("Any dinner ideas?", "t1").system_prompt


def test_a_new_value_replaces_the_fact(agent: MemoryAgent) -> None:
    agent.say("What should I cook tonight?", "t1")
    agent.say("No, I'm vegan now.", "t1")
    assert diet(agent)["value"] == "vegan"  # type: ignore[index]
    assert any(h["value"] == "vegetarian" for h in values(agent, PROFILE_HISTORY))
    assert "is that still right" not in agent.say("Any dinner ideas?", "t1").system_prompt


def test_no_removes_the_fact_to_history(agent: MemoryAgent) -> None:
    agent.say("What should I cook tonight?", "t1")
    agent.say("Not anymore.", "t1")
    assert diet(agent) is None
    [old] = [h for h in values(agent, PROFILE_HISTORY) if h["value"] == "vegetarian"]
    assert old["valid_to"].startswith("2025-05-16")
    assert "vegetarian" not in agent.say("Any dinner ideas?", "t1").system_prompt


def test_an_unrelated_reply_leaves_the_question_pending(agent: MemoryAgent) -> None:
    agent.say("What should I cook tonight?", "t1")
    agent.say("Tell me a joke about pasta.", "t1")
    assert diet(agent)["value"] == "vegetarian"  # type: ignore[index]
    assert QUESTION in agent.say("Any dinner ideas?", "t1").system_prompt
