"""The message log's ranking levers, each on a tiny crafted log in the real FAISS + SQLite store.

One test per lever of the LoCoMo ablation (bench/README.md): the spread across
sessions, query decomposition, session-level ranking, pseudo-relevance feedback,
the fusion through the shared scorer, and facts and episodes as pointers to their messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from langgraph.store.base import SearchItem

from bench.message_levers.layer import LeverMessageLog
from bench.message_levers.pointers import Pointers, pointed
from bench.message_levers.rank import analysed, entity_share, feedback_words, session_lift, spread, sub_queries
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_query import analyse
from memory.layers.message_rank import cue_score, cues, features
from memory.layers.scoring import boosted, fuse_orders, rank_prior
from models.loader import HashEmbeddings
from nodes.importer import import_messages
from stores.namespaces import FACTS, MESSAGES, UserScope
from stores.open import open_store

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


def _msg(session: int, i: int, text: str, name: str = "Priya") -> LoggedMessage:
    return LoggedMessage(id=f"s{session}-m{i}", thread=f"s{session}", time=T0 + timedelta(days=7 * session, minutes=i),
                         role="user" if name == "Priya" else "assistant", text=text, name=name)


# Session 1 talks about pottery at length; session 2 mentions it once, beside a trip.
LOG = [
    *(_msg(1, i, f"My pottery class made {thing} today, the pottery glaze was blue.")
      for i, thing in enumerate(["a bowl", "a mug", "a vase", "a plate", "a jug"])),
    _msg(2, 0, "I travelled to Lisbon by train last weekend."),
    _msg(2, 1, "The pottery studio in Lisbon had a kiln bigger than my kitchen."),
    _msg(3, 0, "Work was busy, three meetings about budgets."),
]


@pytest.fixture
def env(tmp_path: Path) -> Iterator[LayerEnv]:
    store = open_store(str(tmp_path / "data"), "hash:128")
    env = LayerEnv(store=store, scope=UserScope("priya"),
                   context=Context(top_k=3), embeddings=HashEmbeddings(128), now=T0 + timedelta(days=30))
    MessageLogLayer().on_turn(env, LOG[:5])
    MessageLogLayer().on_turn(env, LOG[5:7])
    MessageLogLayer().on_turn(env, LOG[7:])
    yield env
    store.close()  # type: ignore[attr-defined]


def _threads(env: LayerEnv, layer: LeverMessageLog | MessageLogLayer, query: str, k: int = 3) -> list[str]:
    return [r.meta["thread"] for r in layer.search(env, query, k)]


def test_at_most_n_per_session_lets_another_session_into_the_first_results(env: LayerEnv) -> None:
    assert _threads(env, MessageLogLayer(), "What colour was the pottery glaze?") == ["s1", "s1", "s1"]
    capped = _threads(env, LeverMessageLog(per_session=2), "What colour was the pottery glaze?")
    assert capped.count("s1") == 2 and "s2" in capped


def test_spread_keeps_the_passed_over_results_after_the_head() -> None:
    hits = [(1.0 - i / 10, SearchItem(namespace=("m",), key=f"k{i}", value={"thread": t}, created_at=T0, updated_at=T0))
            for i, t in enumerate(["a", "a", "a", "b", "a"])]
    assert [h.key for _, h in spread(hits, 2, 3)] == ["k0", "k1", "k3", "k2", "k4"]
    assert [h.key for _, h in spread(hits, 0, 3)] == ["k0", "k1", "k2", "k3", "k4"]


def test_decomposition_splits_what_asks_for_several_things() -> None:
    assert sub_queries("What did Priya cook and also where did she travel?") == [
        "What did Priya cook?", "where did she travel?"]
    assert sub_queries("When did Priya see her aunt, cousins, and grandmother?") == [
        "When did Priya see her aunt?", "When did Priya see cousins?", "When did Priya see grandmother?"]
    assert sub_queries("What do Caroline and Melanie both like?") == []
    assert sub_queries("What did Melanie and her kids make?") == []
    assert sub_queries("Where does Rosa's family come from?") == []


def test_decomposition_finds_the_second_thing_asked_for(env: LayerEnv) -> None:
    query = "What did Priya make in pottery class and also how did she travel to Lisbon?"
    whole = [r.key for r in MessageLogLayer().search(env, query, 3)]
    parts = [r.key for r in LeverMessageLog(decompose=True).search(env, query, 3)]
    assert "s2-m0" not in whole and "s2-m0" in parts


def test_session_lift_prefers_a_turn_from_the_session_that_keeps_turning_up() -> None:
    def hit(key: str, thread: str) -> SearchItem:
        return SearchItem(namespace=("m",), key=key, value={"thread": thread}, created_at=T0, updated_at=T0)

    scored = [(1.0, hit("lone", "b")), (0.99, hit("x1", "a")), (0.9, hit("x2", "a")), (0.9, hit("x3", "a"))]
    lifted = sorted(session_lift(scored, 0.3), key=lambda p: -p[0])
    assert lifted[0][1].key == "x1"
    assert session_lift(scored, 0.0) == scored


def test_feedback_words_are_shared_by_the_top_results_and_new_to_the_query() -> None:
    info = analyse("What did Priya make?", {"priya"}, T0)
    texts = ["Priya: the pottery glaze was blue", "Priya: my pottery bowl cracked", "Priya: a busy day at work"]
    assert feedback_words(texts, info, 3) == ["pottery"]
    assert feedback_words(texts, info, 0) == []


def test_fusion_goes_through_the_shared_scorer() -> None:
    assert rank_prior(0) == 1.0 and rank_prior(61) == 0.5
    assert boosted(1.0, [(0.3, 1.0), (0.5, 0.5)]) == pytest.approx(1.3 * 1.25)
    assert fuse_orders([["a", "b", "c"], ["b", "c"]]) == ["b", "c", "a"]


def test_entity_cue_lifts_the_message_that_names_the_thing_asked_about() -> None:
    info = analysed("Which kiln did Priya see in Lisbon?", {"priya"}, T0)
    assert info.entities == {"lisbon"}
    named, other = ({"text": t, "name": "Priya"} for t in ("the kiln in Lisbon was huge", "the kiln I did see was huge"))
    weights = (0.3, 0.3, 0.3, 0.5)

    def score(value: dict, rank: int, entity: float) -> float:
        base = cue_score(rank, cues(value, info, features(value["text"])), weights)
        return boosted(base, [(entity, entity_share(info, features(value["text"])[0]))])

    assert score(other, 0, 0.0) > score(named, 1, 0.0)
    assert score(named, 1, 0.3) > score(other, 0, 0.3)
    assert entity_share(analyse("Which kiln did Priya see in Lisbon?", {"priya"}, T0), frozenset({"lisbon"})) == 0.0


# Priya's sister climbs at the gym on Sundays (s1-m3, the one fact about her sister). A later,
# wordier message (s2-m3) holds every word of the question, so the log alone ranks it first.
CLIMBING = [
    _msg(1, 0, "How was the weekend? Did you get to the coast?", "Sam"),
    _msg(1, 1, "We did, and I finally signed up for a climbing gym near the office."),
    _msg(1, 2, "Nice! Is it the one with the big bouldering wall?", "Sam"),
    _msg(1, 3, "Yes, the wall is huge. My sister climbs there on Sundays too."),
    _msg(2, 0, "Do you see your sister on Sundays?", "Sam"),
    _msg(2, 1, "Sundays with my sister are for long walks, where we talk about everything?"),
    _msg(2, 2, "Where does your sister live now?", "Sam"),
    _msg(2, 3, "Funny, my sister never climbs on Sundays now, she climbs Saturdays, Sundays she rests?"),
    _msg(3, 0, "Work was busy, three meetings about budgets.", "Sam"),
    _msg(3, 1, "Where do we go on Sundays now that my sister moved?"),
]
ASKED = "Where does Priya's sister climb on Sundays?"
OFF, FACTS_ONLY = Pointers(weight=0), Pointers(0.3, episodes=False)


@pytest.fixture
def imported(tmp_path: Path) -> Iterator[LayerEnv]:
    """The climbing log imported through every default layer (rules extraction, no LLM)."""
    store = open_store(str(tmp_path / "data"), "hash:128")
    env = LayerEnv(store=store, scope=UserScope("priya"),
                   context=Context(top_k=3), embeddings=HashEmbeddings(128), now=T0 + timedelta(days=30))
    import_messages(CLIMBING, env, default_layers(), progress=False)
    yield env
    store.close()  # type: ignore[attr-defined]


def _keys(env: LayerEnv, pointers: Pointers, k: int = 3, pool: int = 50) -> list[str]:
    """The first k for ASKED; on the hand-set rerank, whose base order these tests know."""
    return [r.key for r in LeverMessageLog(pool=pool, pointers=pointers).search(env, ASKED, k)]


def test_a_fact_lifts_the_message_it_was_read_from(imported: LayerEnv) -> None:
    facts = imported.store.search(imported.scope.ns(FACTS), query=ASKED, limit=1)
    assert facts[0].value["sources"] == ["s1-m3"]  # the semantic layer's rules read it from that message
    assert _keys(imported, OFF)[:2] == ["s2-m3", "s1-m3"]
    assert _keys(imported, FACTS_ONLY)[:2] == ["s1-m3", "s2-m3"]


def test_a_pointed_message_outside_the_candidate_pool_joins_it(imported: LayerEnv) -> None:
    alone = _keys(imported, OFF, k=1, pool=1)  # the store's first candidate, whatever it is
    assert alone != ["s1-m3"]
    assert _keys(imported, Pointers(0.3, episodes=False, join=False), k=1, pool=1) == alone
    assert _keys(imported, FACTS_ONLY, k=1, pool=1) == ["s1-m3"]


def test_an_episode_points_at_the_messages_its_summary_quotes_not_its_whole_session(imported: LayerEnv) -> None:
    pool = imported.store.search(imported.scope.ns(MESSAGES), query="climbing gym near the office", limit=1)
    lift, joined = pointed(imported, "climbing gym near the office", Pointers(0.3, facts=False, limit=1), pool)
    assert {"s1-m1", "s1-m3"} <= set(lift) and not {"s1-m0", "s1-m2"} & set(lift)  # Sam's turns are not quoted
    assert {h.key for h in joined} == set(lift) - {h.key for h in pool}
    assert pointed(imported, ASKED, OFF, pool) == ({}, [])
