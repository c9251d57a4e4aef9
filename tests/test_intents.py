"""Memory commands in plain words: the rules on the labelled held-out sentences, and the commands node.

The labelled set (bench/datasets/intents_labelled.tsv) was written before the
rules; its ``heldout`` part, never used to tune them, is copied to
tests/fixtures/intents_heldout.tsv. Its size and balance are checked by
``bench.check_datasets`` (make lint).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from app.runtime import MemoryAgent
from bench.intents_eval import load, score
from memory.privacy.consent import is_memory_enabled
from memory.privacy.export import export_user
from nodes.commands import COMMAND_KEY, CONFIRM_TYPE
from nodes.intents import needles, parse_intent
from stores.namespaces import UserScope

HELD_OUT = Path(__file__).resolve().parent / "fixtures" / "intents_heldout.tsv"


def test_heldout_precision_and_recall() -> None:
    rows = load(HELD_OUT)
    assert len(rows) >= 40 and {r[0] for r in rows} == {"heldout"}
    held = score(rows)["heldout"]
    assert held.precision >= 0.98, held.errors
    assert held.recall >= 0.9, held.errors


@pytest.mark.parametrize(
    "text", ["I always forget my keys.", "Don't forget to remind me about the dentist.", "I forgot my password.",
             "Forget it.", "Delete the last paragraph of my essay.", "Remember that I live in Oslo."]
)
def test_look_alikes_are_not_commands(text: str) -> None:
    assert parse_intent(text) is None


def test_forget_target_and_search_texts() -> None:
    intent = parse_intent("Please don't remember that I live in Oslo.")
    assert intent is not None and (intent.kind, intent.target) == ("forget", "I live in Oslo")
    assert needles(intent.target)[0] == "oslo"  # memories are kept in the third person
    assert needles("my job")[-1] == "work"  # the extractor files jobs under "work"


def _memories(agent: MemoryAgent) -> dict:
    data = export_user(agent.store, UserScope(agent.context.user_id), agent.data_dir)
    return {k: v for k, v in data.items() if k != "exported_at"}


def _vegetarian(agent: MemoryAgent, thread: str = "t1") -> None:
    agent.say("I'm vegetarian.", thread)
    agent.end_session(thread)


def test_forget_asks_first_and_declining_changes_nothing(ctx) -> None:
    with MemoryAgent(ctx) as agent:
        _vegetarian(agent)
        before = _memories(agent)
        asked = agent.say("Forget that I'm vegetarian.", "t1")
        assert asked.interrupt and asked.interrupt["type"] == CONFIRM_TYPE
        assert asked.interrupt["count"] >= 1 and any("vegetarian" in p for p in asked.interrupt["preview"])
        assert _memories(agent) == before  # nothing deleted while asking
        declined = agent.resume("t1", False)
        assert "Nothing was deleted" in declined.reply
        assert _memories(agent) == before


def test_forget_confirmed_leaves_no_trace_in_thread_or_store(ctx) -> None:
    with MemoryAgent(ctx) as agent:
        _vegetarian(agent)
        agent.say("Forget that I'm vegetarian.", "t1")
        done = agent.resume("t1", True)
        assert done.reply.startswith("Done: I deleted")
        assert "vegetarian" not in str(_memories(agent)).lower()
        history = list(agent.graph.get_state_history(agent.config("t1")))
        assert history and not any("vegetarian" in str(s.values).lower() for s in history)
        # the thread is still the user's, and the next turn recalls nothing of it
        nxt = agent.say("What should I cook tonight?", "t1")
        assert "vegetarian" not in nxt.system_prompt.lower()
        assert not any(COMMAND_KEY in m.additional_kwargs for m in agent.thread_messages("t1"))


def test_unclear_or_unknown_target_deletes_nothing(ctx) -> None:
    with MemoryAgent(ctx) as agent:
        _vegetarian(agent)
        before = _memories(agent)
        out = agent.say("Forget that I have a pet iguana.", "t1")
        assert out.interrupt is None and "Nothing was deleted" in out.reply
        assert _memories(agent) == before


def test_show_and_consent_in_plain_words(ctx) -> None:
    with MemoryAgent(ctx) as agent:
        _vegetarian(agent)
        shown = agent.say("What do you remember about me?", "t2")
        assert "The user is vegetarian." in shown.reply
        # the request and the listing stay out of the thread's later turns and the log
        assert [m.type for m in agent.thread_messages("t2")] == ["ai"]
        agent.say("Stop remembering things about me.", "t2")
        assert not is_memory_enabled(agent.store, UserScope("alice"))
        agent.say("You can remember again.", "t2")
        assert is_memory_enabled(agent.store, UserScope("alice"))
        agent.say("hello", "t2")
        assert [m.type for m in agent.thread_messages("t2")] == ["human", "ai"]
        logged = [i.value["text"] for i in agent.store.search(UserScope("alice").ns("messages"), limit=50)]
        commands = ("remember about me", "here is what i remember", "stop remembering", "remember again")
        assert "hello" in logged and not any(c in t.lower() for t in logged for c in commands), logged


def test_capable_model_still_gets_the_rule_first(ctx) -> None:
    from models.scripted_chat import ScriptedChatModel

    model = ScriptedChatModel(responses=["(the model should not answer a memory command)"])
    with MemoryAgent(ctx, chat_model=model) as agent:
        out = agent.say("What do you know about me?", "t3")
        assert "I don't remember anything about you" in out.reply
        assert isinstance(agent.thread_messages("t3")[-1], AIMessage)
        assert not any(isinstance(m, HumanMessage) for m in agent.thread_messages("t3"))
