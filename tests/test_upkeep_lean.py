"""Upkeep keeps recall lean: roll-ups carry what the user told, once; episodes that add nothing
are forgotten; questions are no evidence of a habit; a question asked again is not recalled."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from app.runtime import MemoryAgent
from memory.layers.episodic import EpisodicLayer
from memory.layers.excerpt import excerpt
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_text import repeats_question
from memory.prompt import select_within_budget
from memory.upkeep.promote import promote_step
from memory.upkeep.prune import prune_step
from memory.upkeep.rollup import rollup_step
from nodes.usage import record_usage
from stores.namespaces import EPISODES, FACTS
from tests.support.upkeep_helpers import context, env_at, plant, session, values


@pytest.fixture
def agent(tmp_path: Path):
    with MemoryAgent(context(tmp_path, episode_ttl_days=180.0)) as a:
        yield a


def _episodes(agent: MemoryAgent) -> dict[str, dict]:
    return {v["thread"]: v for v in values(agent, EPISODES) if not v.get("level")}


def test_a_rollup_carries_statements_once_and_leaves_out_questions_and_requests(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "My partner is Sam.", "How do I boil an egg?"),
          session("s2", 1, "My partner is Sam.", "Tell me a joke."),
          session("s3", 2, "I adopted a kitten called Miso."),
          session("s4", 8, "What's a good podcast?", "Give me a word for happy."))
    rollup_step(env_at(agent, 60), dry_run=False)
    rollups = {v["period"]: v for v in values(agent, EPISODES) if v.get("level")}
    week = rollups["2025-W02"]["text"]
    assert week.count("My partner is Sam.") == 1 and "Miso" in week
    assert "egg" not in week and "joke" not in week
    assert "2025-W03" not in rollups  # a week of small talk only has nothing to carry
    assert "Week 2025-W03" not in rollups["2025-01"]["text"]


def test_prune_drops_unused_episodes_a_rollup_carries_and_keeps_the_rest(agent: MemoryAgent) -> None:
    plant(agent, session("restated", 0, "My partner is Sam.", "How do I boil an egg?"),
          session("used", 1, "My partner is Sam.", "Tell me a joke."),
          session("chatter", 2, "What's a good podcast?"),
          session("recent", 50, "My partner is Sam.", "What day is it?"))
    rollup_step(env_at(agent, 60), dry_run=False)
    used = _episodes(agent)["used"]
    key = next(i.key for i in agent.env().store.search(agent.env().scope.ns(EPISODES), limit=50)
               if i.value is not None and i.value.get("thread") == "used")
    assert record_usage(env_at(agent, 20), [("episode", key, "2025-01-26T10:00:00+00:00")]) == 1
    assert used["text"]
    report = prune_step(env_at(agent, 60), dry_run=False)
    assert report.counts == {"episodes forgotten": 2, "episodes trimmed to what they tell": 2}
    kept = _episodes(agent)
    assert set(kept) == {"used", "recent"}  # used once; too recent (30 days)
    # What stays is trimmed to what the user told; the session is still its evidence.
    assert kept["used"]["text"] == "User: My partner is Sam." and kept["recent"]["text"] == "User: My partner is Sam."
    assert kept["used"]["sources"] == used["sources"]
    assert [v for v in values(agent, EPISODES) if v.get("level")]  # the roll-ups stay
    assert prune_step(env_at(agent, 60), dry_run=False).changed == 0


def test_prune_keeps_an_episode_with_a_line_no_rollup_carries(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "I ran the Lisbon half marathon."))
    assert prune_step(env_at(agent, 60), dry_run=False).changed == 0  # not rolled up yet: nothing carries it
    assert set(_episodes(agent)) == {"s1"}


def test_questions_are_no_evidence_for_promotion(agent: MemoryAgent) -> None:
    plant(*[agent] + [session(f"q{n}", n, "Where did I go hiking?") for n in range(4)])  # type: ignore[arg-type]
    promote_step(env_at(agent, 10), dry_run=False)
    assert not any("hiking" in v["text"] for v in values(agent, FACTS))
    plant(*[agent] + [session(f"h{n}", 20 + n, "I went hiking in the hills.") for n in range(3)])  # type: ignore[arg-type]
    promote_step(env_at(agent, 30), dry_run=False)
    assert any("hiking" in v["text"] for v in values(agent, FACTS))


def test_a_question_asked_again_is_not_recalled_and_another_message_takes_its_place(agent: MemoryAgent) -> None:
    assert repeats_question("[3 May 2025] user: Where do I live?", "Where do I live?")
    assert not repeats_question("[3 May 2025] user: I live in Berlin.", "Where do I live?")
    assert not repeats_question("[3 May 2025] user: Where did I live in May?", "Where do I live?")
    plant(agent, session("s1", 0, "I live in Berlin."), *[session(f"q{n}", n + 1, "Where do I live?")
                                                        for n in range(6)])
    texts = [r.text for r in MessageLogLayer().recall(env_at(agent, 10), "Where do I live?")]
    assert any("I live in Berlin." in t for t in texts)
    assert not any(t.endswith("Where do I live?") for t in texts)


def test_small_talk_only_goes_at_the_first_pass_whatever_its_age(agent: MemoryAgent) -> None:
    plant(agent, session("chatter", 58, "What's a good podcast?", "Tell me a joke."),
          session("told", 58, "I adopted a kitten called Miso.", "What's a good podcast?"))
    report = prune_step(env_at(agent, 60), dry_run=True)
    assert report.counts == {"episodes forgotten": 1, "episodes trimmed to what they tell": 1}
    assert set(_episodes(agent)) == {"chatter", "told"}  # a dry run writes nothing
    prune_step(env_at(agent, 60), dry_run=False)
    assert {k: v["text"] for k, v in _episodes(agent).items()} == {"told": "User: I adopted a kitten called Miso."}


def test_a_rollup_is_shown_as_the_lines_that_bear_on_the_message(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "I live in Paris, near the canal.", "I adopted a kitten called Miso."),
          session("s2", 1, "I ran the Lisbon half marathon.", "I started learning the cello."),
          session("s3", 9, "I broke my wrist skiing in Chamonix."))
    env = env_at(agent, 60)
    rollup_step(env, dry_run=False)
    env = replace(env, context=replace(env.context, recency_half_life_days=90.0))  # old, still above the floor
    month = next(v for v in values(agent, EPISODES) if v.get("level") == "month")
    assert "Miso" in month["text"] and "Chamonix" in month["text"]  # stored whole
    shown = [r for r in EpisodicLayer().recall(env, "What is my kitten called?") if r.meta.get("level")]
    assert shown and all("Miso" in r.text for r in shown)
    assert not any(word in r.text for r in shown for word in ("Paris", "Lisbon", "cello", "Chamonix"))
    assert all(r.text.splitlines()[0].endswith(":") for r in shown)  # the period's title stays on top
    # A roll-up with no line that bears on the message is not shown at all.
    assert not [r for r in EpisodicLayer().recall(env, "Recommend a podcast about economics") if r.meta.get("level")]


def test_a_past_message_a_shown_excerpt_quotes_is_left_out(agent: MemoryAgent) -> None:
    # A one-off event, so no fact says it (an adopted kitten would be a family fact, shown instead of both).
    plant(agent, session("s1", 0, "I broke my wrist skiing in Chamonix.", "I live in Paris, near the canal."),
          session("s2", 9, "I ran the Lisbon half marathon."))
    rollup_step(env_at(agent, 60), dry_run=False)
    prune_step(env_at(agent, 60), dry_run=False)
    env = env_at(agent, 61)
    env = replace(env, context=replace(env.context, recency_half_life_days=90.0))
    recalled = [r.as_dict() for layer in agent.layers for r in layer.recall(env, "Where did I break my wrist?")]
    assert any(r["kind"] == "message" and r["text"].endswith("I broke my wrist skiing in Chamonix.") for r in recalled)
    shown = select_within_budget(recalled, 800)
    wrist = [r for r in shown if "Chamonix" in r["text"]]
    assert len(wrist) == 1 and wrist[0]["meta"].get("level")  # the excerpt, not the message it quotes again


class _TwoTopics(Embeddings):
    """Jobs and everything else, as far apart as can be: enough to show the semantic fallback."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0] if re.search(r"job|teacher|nurse", text, re.I) else [0.0, 1.0]


def test_an_excerpt_falls_back_to_lines_near_in_meaning_when_no_word_is_shared() -> None:
    rollup = "March 2025:\nWeek 2025-W10 (03 Mar–09 Mar 2025):\nUser: I'm a teacher.\nUser: I adopted a kitten."
    assert excerpt(rollup, "What job did I have before?") is None  # no shared word, no embeddings
    text, lines = excerpt(rollup, "What job did I have before?", _TwoTopics())
    assert lines == ["User: I'm a teacher."] and text.startswith("March 2025:\nWeek 2025-W10")
    assert excerpt(rollup, "What job did I have before?", _TwoTopics(), max_lines=3) is not None


def test_a_mood_of_the_day_is_not_carried_forward() -> None:
    from memory.chatter import told_lines

    text = ("User: Feeling really stressed right now.\nUser: I'm exhausted this morning!\n"
            "User: I'm tired of my commute.\nUser: I'm in Lyon today.\nUser: I'm happy with the new flat.")
    assert told_lines(text) == ["User: I'm tired of my commute.", "User: I'm in Lyon today.",
                                "User: I'm happy with the new flat."]
