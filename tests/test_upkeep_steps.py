"""Each upkeep step on planted data, on a real FAISS + SQLite store."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.runtime import MemoryAgent
from memory.layers.semantic_records import store_fact
from memory.upkeep.expire import expire_step
from memory.upkeep.merge import merge_step
from memory.upkeep.promote import promote_step
from memory.upkeep.reflect import reflect_step
from memory.upkeep.rollup import rollup_step
from memory.upkeep.run import run_upkeep
from memory.write_policy.base import CandidateFact
from stores.namespaces import EPISODES, FACTS, PROFILE, PROFILE_HISTORY
from tests.support.upkeep_helpers import context, env_at, plant, session, snapshot, values


@pytest.fixture
def agent(tmp_path: Path):
    with MemoryAgent(context(tmp_path, episode_ttl_days=60.0)) as a:
        yield a


def _fact(text: str, sources: list[str], day_env, **kw) -> None:
    store_fact(day_env, CandidateFact(text=text, sources=sources, stated_at=day_env.now, **kw))


def test_merge_keeps_one_fact_with_the_union_of_sources(agent: MemoryAgent) -> None:
    env = env_at(agent, 1)
    _fact("The user has a dog named Rex.", ["m1"], env)
    # Planted past write-time dedup (as an older version or a race would leave it): same words, other sources.
    env.store.put(env.scope.ns(FACTS), "dup", {**values(agent, FACTS)[0], "id": "dup", "sources": ["m2", "m3"],
                                               "created_at": env_at(agent, 5).now.isoformat()})
    assert len(values(agent, FACTS)) == 2
    report = merge_step(env_at(agent, 10), dry_run=False)
    assert report.counts["facts merged"] == 1
    [kept] = values(agent, FACTS)
    assert kept["text"] == "The user has a dog named Rex." and kept["sources"] == ["m1", "m2", "m3"]


def test_merge_settles_a_new_partner_and_keeps_the_old_one_in_history(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "My partner is Sam."), session("s2", 40, "My partner is called Alex."))
    assert len(values(agent, FACTS)) == 2
    report = merge_step(env_at(agent, 50), dry_run=False)
    assert report.counts["facts superseded"] == 1
    assert [f["text"] for f in values(agent, FACTS)] == ["The user's partner is called Alex."]
    [old] = [h for h in values(agent, PROFILE_HISTORY) if "Sam" in h["text"]]
    assert old["superseded_by"] == "The user's partner is called Alex."


def test_promotion_needs_the_threshold_of_sessions(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "I ordered the vegetarian lasagna."),
          session("s2", 3, "Tonight I had a vegetarian curry."))
    assert promote_step(env_at(agent, 5), dry_run=False).changed == 0  # two sessions: under the threshold of 3
    assert agent.env().store.get(agent.env().scope.ns(PROFILE), "diet") is None
    plant(agent, session("s3", 6, "We ordered vegetarian pizza again."), session("s4", 7, "I didn't eat vegan food."))
    report = promote_step(env_at(agent, 8), dry_run=False)
    assert report.counts == {"facts promoted": 1}
    diet = agent.env().store.get(agent.env().scope.ns(PROFILE), "diet").value
    assert diet["text"] == "The user is vegetarian."
    assert sorted(diet["sources"]) == ["s1-u0", "s2-u0", "s3-u0"]  # the evidence, not the negated sentence
    assert promote_step(env_at(agent, 9), dry_run=False).changed == 0


def test_promotion_never_overrides_what_the_user_said(agent: MemoryAgent) -> None:
    plant(agent, *(session(f"s{i}", i, "I ordered the vegetarian lasagna.") for i in range(3)),
          session("s9", 9, "I'm vegan now."))
    assert promote_step(env_at(agent, 10), dry_run=False).changed == 0
    assert agent.env().store.get(agent.env().scope.ns(PROFILE), "diet").value["value"] == "vegan"


def test_rollup_writes_weeks_then_months_citing_their_members(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "I booked the dentist for the ORD-7731 crown."),
          session("s2", 2, "I decided to paint the kitchen blue."),
          session("s3", 8, "I'm planning a trip to Lisbon in May."))
    episodes = {i["thread"]: i for i in values(agent, EPISODES)}
    report = rollup_step(env_at(agent, 60), dry_run=False)
    assert report.counts == {"weekly roll-ups": 2, "monthly roll-ups": 1}
    rollups = {v["period"]: v for v in values(agent, EPISODES) if v.get("level")}
    week = rollups["2025-W02"]
    assert "ORD-7731" in week["text"] and "kitchen blue" in week["text"] and "Lisbon" not in week["text"]
    assert set(week["sources"]) == set(episodes["s1"]["sources"]) | set(episodes["s2"]["sources"])
    assert len(week["cites"]) == 2
    month = rollups["2025-01"]
    assert month["cites"] == ["week-2025-W02", "week-2025-W03"] and "Lisbon" in month["text"]
    assert len([v for v in values(agent, EPISODES) if not v.get("level")]) == 3  # originals kept
    assert rollup_step(env_at(agent, 61), dry_run=False).changed == 0


def test_expiry_removes_the_bytes_from_disk(agent: MemoryAgent, tmp_path: Path) -> None:
    plant(agent, session("s1", 0, "I booked the dentist for Friday."))
    env = env_at(agent, 0)
    marker = "Quillfeather"
    env.store.put(env.scope.ns(FACTS), "temp", {"text": f"The user visits the {marker} exhibit this week.",
                                                "sources": ["s1-u0"], "created_at": env.now.isoformat(),
                                                "updated_at": env.now.isoformat(), "importance": 3,
                                                "expires_at": env_at(agent, 7).now.isoformat()})
    store_dir = tmp_path / "data" / "store"

    def on_disk() -> list[str]:
        return [p.name for p in store_dir.rglob("*") if p.is_file() and marker.encode() in p.read_bytes()]

    assert on_disk()
    assert expire_step(env_at(agent, 30), dry_run=False).counts == {"facts expired": 1}  # the fact's own TTL
    assert on_disk() == [] and values(agent, FACTS) == []
    report = expire_step(env_at(agent, 61), dry_run=False)  # the episode TTL is 60 days
    assert report.counts == {"episodes expired": 1} and values(agent, EPISODES) == []


def test_review_dates_follow_the_last_confirmation(agent: MemoryAgent) -> None:
    plant(agent, session("s1", 0, "I'm vegetarian.", "My name is Alice."))
    assert expire_step(env_at(agent, 1), dry_run=False).counts == {"review dates set": 1}
    diet = agent.env().store.get(agent.env().scope.ns(PROFILE), "diet").value
    assert diet["review_at"].startswith("2025-05-06")  # 120 days after 6 January
    assert "review_at" not in agent.env().store.get(agent.env().scope.ns(PROFILE), "name").value


REFLECT_SESSIONS = [("I decided to train for the Berlin marathon.", "I booked a physio appointment."),
                    ("I ran 30 km on Sunday, it was urgent to test my shoes.", "I ordered new running shoes."),
                    ("I signed up for a nutrition course.", "I scheduled a rest week in March.")]


def test_reflection_is_skipped_on_the_scripted_model_and_says_so(agent: MemoryAgent) -> None:
    plant(agent, *(session(f"s{i}", i * 3, *lines) for i, lines in enumerate(REFLECT_SESSIONS)))
    agent.context.upkeep_reflect_importance = 10.0
    report = reflect_step(env_at(agent, 20), dry_run=False)
    assert report.changed == 0 and "skipped" in report.note and "scripted" in report.note


def test_reflection_with_a_capable_model_stores_insights_citing_evidence(agent: MemoryAgent) -> None:
    from langchain_core.language_models import FakeListChatModel

    plant(agent, *(session(f"s{i}", i * 3, *lines) for i, lines in enumerate(REFLECT_SESSIONS)))
    agent.context.upkeep_reflect_importance = 10.0
    model = FakeListChatModel(responses=['{"insights": [{"text": "The user is training for a race.", '
                                         '"evidence": [1, 2]}, {"text": "The user likes cake.", "evidence": [1]}]}'])
    report = reflect_step(env_at(agent, 40), dry_run=False, model=model)
    assert report.counts == {"insights": 1}  # the one citing a single memory is dropped
    [insight] = [f for f in values(agent, FACTS) if f["category"] == "insight"]
    assert insight["text"] == "The user is training for a race." and len(insight["sources"]) >= 2
    assert "under" in reflect_step(env_at(agent, 41), dry_run=False, model=model).note  # watermark moved


def test_a_second_pass_changes_nothing_and_dry_run_writes_nothing(agent: MemoryAgent) -> None:
    plant(agent, *(session(f"s{i}", i * 4, "I ordered the vegetarian lasagna.", f"I painted room {i} today.")
                   for i in range(10)), session("p1", 1, "My partner is Sam."), session("p2", 30, "My partner is Alex."))
    before = snapshot(agent)
    dry = run_upkeep(env_at(agent, 70), dry_run=True)
    assert dry.changed > 0 and snapshot(agent) == before
    first = run_upkeep(env_at(agent, 70))
    assert first.changed >= dry.changed  # a dry run cannot see what its own earlier steps would have written
    after = snapshot(agent)
    assert run_upkeep(env_at(agent, 70)).changed == 0
    assert snapshot(agent) == after
