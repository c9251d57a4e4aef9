"""The lean memory block: nothing in the prompt says again what is already shown, and episode
summaries keep the user's words without the assistant's filler."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from langchain_core.embeddings import Embeddings

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.episodic import EpisodicLayer
from memory.prompt import select_within_budget
from models.loader import HashEmbeddings
from stores.namespaces import UserScope

NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)


def item(kind: str, text: str, score: float, sources: tuple[str, ...] = (), key: str = "k") -> dict:
    return {"kind": kind, "text": text, "score": score, "sources": list(sources), "key": key, "meta": {}}


PROFILE = item("profile", "The user is vegan.", 1.0, ("m1",), "diet")


def texts(kept: list[dict]) -> list[str]:
    return [k["text"] for k in kept]


def test_a_message_a_profile_slot_came_from_is_left_out() -> None:
    recalled = [PROFILE, item("message", "[1 March 2026] user: I'm vegan, no dairy please.", 0.9, ("m1",)),
                item("message", "[2 March 2026] user: I booked Porto.", 0.5, ("m2",))]
    assert texts(select_within_budget(recalled, 800)) == ["[2 March 2026] user: I booked Porto."]


def test_a_message_a_shown_episode_came_from_is_left_out_even_when_it_scored_higher() -> None:
    episode = item("episode", "User: I booked the Porto trip for May.", 0.6, ("m2", "m3"))
    recalled = [PROFILE, item("message", "[2 March 2026] user: Porto, May, booked.", 0.9, ("m3",)), episode,
                item("message", "[9 March 2026] user: new laptop", 0.4, ("m9",))]
    assert texts(select_within_budget(recalled, 800)) == [episode["text"], "[9 March 2026] user: new laptop"]


def test_the_room_a_dropped_message_leaves_is_filled_again() -> None:
    long_msg = "[2 March 2026] user: " + "Porto trip details " * 12
    episode = item("episode", "User: Porto trip.", 0.5, ("m3",))
    other = item("message", "[9 March 2026] user: " + "laptop question " * 12, 0.4, ("m9",))
    recalled = [item("message", long_msg, 0.9, ("m3",)), episode, other]
    budget = 90  # the long message and the episode fit; the other message only once the long one goes
    assert texts(select_within_budget(recalled, budget)) == [episode["text"], other["text"]]


def test_an_episode_or_fact_the_profile_already_says_is_left_out() -> None:
    recalled = [PROFILE, item("episode", "User: I'm vegan.\nAssistant: Vegan!", 0.9, ("m7",)),
                item("fact", "The user is vegan.", 0.8, ("m8",)),
                item("episode", "User: I'm vegan and I booked Porto.", 0.5, ("m9",))]
    assert texts(select_within_budget(recalled, 800)) == ["User: I'm vegan and I booked Porto."]


def memory_lines(prompt: str) -> dict[str, list[str]]:
    blocks = re.findall(r'<memories kind="(\w+)">\n# [^\n]*\n(.*?)\n</memories>', prompt, flags=re.S)
    return {kind: [json.loads(line[2:]) for line in body.splitlines()] for kind, body in blocks}


def test_an_episode_a_shown_rollup_cites_is_left_out_whichever_scored_higher() -> None:
    week = item("episode", "Week 2025-W02:\nUser: I adopted a kitten called Miso.\nUser: I moved.", 0.5,
                ("a1", "a2", "b1", "b2"), "week-2025-W02")
    member = item("episode", "User: I adopted a kitten called Miso.", 0.6, ("a1", "a2"), "ep-a")
    other = item("episode", "User: I ran in Lisbon.", 0.4, ("c1",), "ep-c")
    assert texts(select_within_budget([member, week, other], 800)) == [week["text"], other["text"]]
    assert texts(select_within_budget([week, member], 800)) == [week["text"]]


def test_an_episode_the_profile_and_shown_facts_already_say_is_left_out() -> None:
    fact = item("fact", "The user's partner is Alex.", 0.9, ("m2",), "f1")
    restated = item("episode", "User: I'm vegan. My partner is Alex.", 0.8, ("m3",), "e1")
    news = item("episode", "User: My partner Alex got a new job.", 0.7, ("m4",), "e2")
    kept = texts(select_within_budget([PROFILE, fact, restated, news], 800))
    assert kept == [fact["text"], news["text"]]


def test_no_line_of_a_real_prompt_repeats_what_is_shown(ctx: Context) -> None:
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        agent.say("I'm vegan.", "t0")
        agent.say("I'm allergic to peanuts.", "t0")
        agent.end_session("t0")
        result = agent.say("I'm vegan and allergic to peanuts: what can I eat?", "t1")
    by_kind = {r["kind"]: r for r in result.recalled}
    assert "profile" in by_kind and "message" in by_kind  # recall offered repeats...
    lines = memory_lines(result.system_prompt)
    shown = [r for r in result.recalled if r["kind"] in ("profile", "fact", "episode")
             and r["text"] in lines.get(r["kind"], [])]
    covered = {s for r in shown for s in r["sources"]}
    for r in result.recalled:  # ...the prompt shows none of them
        if r["kind"] == "message" and r["text"] in lines.get("message", []):
            assert not covered & set(r["sources"]), r
    assert "I'm vegan." not in json.dumps(lines.get("message", []))
    assert "episode" not in lines  # the session said nothing the profile does not


def _env(embeddings: Embeddings) -> LayerEnv:
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore(index={"dims": 384, "embed": embeddings, "fields": ["text"]})
    return LayerEnv(store=store, scope=UserScope("alice"), context=Context(user_id="alice"), embeddings=embeddings,
                    now=NOW)


def msg(i: int, role: str, text: str) -> LoggedMessage:
    return LoggedMessage(id=f"m{i}", thread="t1", time=NOW + timedelta(minutes=i), role=role, text=text)  # type: ignore[arg-type]


def test_episode_summaries_keep_the_users_words_and_drop_assistant_filler() -> None:
    filler = ("Great question! I'd be happy to help you with planning your trip to Porto. "
              "Porto is a wonderful city with lots of interesting places to visit and explore together.")
    session = [
        msg(0, "user", "I want to plan a trip to Porto in May with my sister Ana."),
        msg(1, "assistant", filler),
        msg(2, "user", "We decided on the train, the budget is tight."),
        msg(3, "assistant", "Let me know if there is anything else I can help you with today. "
                            "Your booking reference is BK-4471."),
    ]
    text = EpisodicLayer().summarize(_env(HashEmbeddings(384)), session).text
    assert "User: I want to plan a trip to Porto in May with my sister Ana." in text
    assert "User: We decided on the train, the budget is tight." in text
    assert "happy to help" not in text and "wonderful city" not in text and "anything else" not in text
    assert "Assistant: Your booking reference is BK-4471." in text  # a detail only the assistant gave


def test_a_session_whose_user_lines_do_not_score_is_never_summed_up_by_the_assistant() -> None:
    """No fallback to the whole session (issue 25): the user's lines as said, or no episode at all."""
    layer, env = EpisodicLayer(), _env(HashEmbeddings(384))
    chat = [msg(0, "user", "hi"), msg(1, "assistant", "Hello there! The museum opens at nine on Mondays.")]
    assert layer.summarize(env, chat) is None
    told = [msg(0, "user", "I'm vegetarian."), msg(1, "assistant", "I don't have anything remembered about you yet.")]
    assert layer.summarize(env, told).text == "User: I'm vegetarian."


def test_the_same_words_said_on_several_days_are_shown_once() -> None:
    recalled = [item("message", "[3 March 2026] user: I'm training for the Berlin marathon.", 0.9, ("m1",), "m1"),
                item("message", "[10 March 2026] user: I'm training for the Berlin marathon.", 0.8, ("m2",), "m2"),
                item("message", "[9 March 2026] user: I work as a nurse now.", 0.5, ("m3",), "m3")]
    assert texts(select_within_budget(recalled, 800)) == ["[3 March 2026] user: I'm training for the Berlin marathon.",
                                                         "[9 March 2026] user: I work as a nurse now."]


def test_an_answer_that_repeated_a_memory_is_not_shown_beside_it() -> None:
    episode = item("episode", "User: I went to a Coldplay concert at Wembley.", 0.5, ("m1",), "e1")
    recalled = [item("message", "[3 March 2026] assistant: You went to a Coldplay concert at Wembley.", 0.9,
                     ("m2",), "m2"), episode,
                item("message", "[4 March 2026] assistant: Your tracking number is 1Z999AA101.", 0.4, ("m3",), "m3")]
    assert texts(select_within_budget(recalled, 800)) == [episode["text"],
                                                         "[4 March 2026] assistant: Your tracking number is 1Z999AA101."]


def test_a_restatement_with_now_or_still_adds_nothing_to_the_profile_or_a_fact_shown_below_it() -> None:
    profile = item("profile", "The user lives in Berlin.", 1.0, ("m1",), "location")
    fact = item("fact", "The user's partner is Alex.", 0.3, ("m5",), "f1")
    recalled = [profile, item("episode", "User: I live in Berlin now.", 0.9, ("m2",), "e1"),
                item("episode", "User: My partner is still Alex.", 0.8, ("m3",), "e2"), fact,
                item("episode", "User: I still live in Berlin and I adopted a cat.", 0.2, ("m4",), "e3")]
    assert texts(select_within_budget(recalled, 800)) == [fact["text"],
                                                         "User: I still live in Berlin and I adopted a cat."]
