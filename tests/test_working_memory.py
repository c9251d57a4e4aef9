"""Working memory: compaction keeps identifiers verbatim and cuts only at safe boundaries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately
from langgraph.graph.message import add_messages
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv
from memory.layers.identifiers import extract_identifiers
from memory.layers.working import WorkingMemoryLayer, compact, safe_cut
from models.loader import HashEmbeddings
from stores.namespaces import UserScope

PLANTED = [
    "ORD-48213",
    "$1,249.99",
    "2026-03-14",
    "/var/log/app/error.log",
    "pip install -e .",
    "ValueError: invalid literal for int() with base 10: 'abc'",
]
FILLER = "Let me think about that for a moment and get back to you with more information soon. " * 3


def thread() -> list[AnyMessage]:
    return [
        HumanMessage("My order ORD-48213 for $1,249.99 never arrived.", id="h1"),
        AIMessage("I'm sorry to hear that. " + FILLER, id="a1"),
        HumanMessage("It was placed on 2026-03-14. The app log is at /var/log/app/error.log.", id="h2"),
        AIMessage("", id="a2", tool_calls=[{"name": "run_shell", "args": {"cmd": "tail error.log"}, "id": "c1"}]),
        ToolMessage("ValueError: invalid literal for int() with base 10: 'abc'", tool_call_id="c1", name="run_shell", id="t1"),
        AIMessage("The log shows a parsing error. " + FILLER, id="a3"),
        HumanMessage("I reinstalled with `pip install -e .` as you said.", id="h3"),
        AIMessage("Thanks. " + FILLER, id="a4"),
        HumanMessage("ok", id="h4"),
        AIMessage("", id="a5", tool_calls=[{"name": "lookup_order", "args": {"id": "ORD-48213"}, "id": "c2"}]),
        ToolMessage("status: lost in transit", tool_call_id="c2", name="lookup_order", id="t2"),
        ToolMessage("carrier: DHL", tool_call_id="c2", name="lookup_order", id="t3"),
        AIMessage("Your parcel was lost; I will send a replacement.", id="a6"),
    ]


def test_planted_identifiers_are_all_found() -> None:
    text = "\n".join(str(m.content) for m in thread())
    assert [i for i in PLANTED if i in extract_identifiers(text)] == PLANTED


def test_under_budget_nothing_changes() -> None:
    msgs = thread()
    budget = count_tokens_approximately(msgs)
    assert compact(msgs, "earlier summary", budget, keep_last=2) == ([], "earlier summary")


def test_compaction_keeps_every_identifier_verbatim() -> None:
    msgs = thread()
    removed, summary = compact(msgs, "", budget_tokens=200, keep_last=4)
    assert removed == ["h1", "a1", "h2", "a2", "t1", "a3", "h3", "a4"]
    for planted in PLANTED:
        assert planted in summary
    assert FILLER.strip() not in summary


def test_previous_summary_is_merged_and_its_identifiers_survive() -> None:
    previous = "User: Invoice INV-2024-001 was paid on 2026-01-02.\nDetails kept verbatim:\n- /etc/hosts"
    removed, summary = compact(thread(), previous, budget_tokens=200, keep_last=4)
    for planted in [*PLANTED, "INV-2024-001", "2026-01-02", "/etc/hosts"]:
        assert planted in summary
    assert summary.count("Details kept verbatim:") <= 1
    assert summary.count("INV-2024-001") == 1


@pytest.mark.parametrize("keep_last", range(0, 14))
def test_cut_never_splits_tool_calls_and_keeps_latest_human(keep_last: int) -> None:
    msgs = thread()
    removed, _ = compact(msgs, "", budget_tokens=50, keep_last=keep_last)
    kept = [m for m in msgs if m.id not in removed]
    assert removed == [m.id for m in msgs[: len(removed)]]  # a prefix
    assert "h4" in [m.id for m in kept]
    kept_ids = {m.id for m in kept}
    for m in msgs:
        if isinstance(m, AIMessage) and m.tool_calls:
            results = [t.id for t in msgs if isinstance(t, ToolMessage) and t.tool_call_id in {c["id"] for c in m.tool_calls}]
            assert all(r in kept_ids for r in results) == (m.id in kept_ids)
            assert all(r not in kept_ids for r in results) == (m.id not in kept_ids)


def test_safe_cut_steps_back_over_tool_results() -> None:
    msgs = thread()
    assert safe_cut(msgs, keep_last=2) == 8  # index 11 is a ToolMessage; h4 (index 8) is the latest human
    assert safe_cut(msgs, keep_last=3) == 8
    assert safe_cut(msgs[:8], keep_last=4) == 3  # index 4 is t1: keep its a2 call


def test_llm_summary_gets_missing_identifiers_appended() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("The order never arrived and the log showed a parsing error.")]))
    removed, summary = compact(thread(), "", budget_tokens=200, keep_last=4, chat_model=model)
    assert summary.startswith("The order never arrived and the log showed a parsing error.\nDetails kept verbatim:\n")
    for planted in PLANTED:
        assert planted in summary


def test_ungrounded_llm_summary_is_replaced_by_extractive() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("User lives in Berlin and loves Hugging Face.")]))
    _, summary = compact(thread(), "", budget_tokens=200, keep_last=4, chat_model=model)
    assert "Berlin" not in summary
    assert summary.startswith("User: My order ORD-48213 for $1,249.99 never arrived.")


def test_messages_without_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="ids"):
        compact([HumanMessage(FILLER), AIMessage(FILLER), HumanMessage("hi", id="x")], "", 10, keep_last=1)


def make_env(state: dict[str, Any]) -> LayerEnv:
    emb = HashEmbeddings(384)
    return LayerEnv(
        store=InMemoryStore(),
        scope=UserScope("alice"),
        context=Context(user_id="alice", working_budget_tokens=200, keep_last_messages=4),
        embeddings=emb,
        now=datetime(2026, 3, 20, tzinfo=UTC),
        state=state,
    )


def test_layer_returns_a_state_update_that_compacts_the_thread() -> None:
    layer = WorkingMemoryLayer()
    state: dict[str, Any] = {"messages": thread(), "summary": ""}
    assert layer.recall(make_env(state), "order") == []
    update = layer.on_turn(make_env(state), [])
    assert update is not None
    assert all(isinstance(m, RemoveMessage) for m in update["messages"])
    state = {"messages": add_messages(state["messages"], update["messages"]), "summary": update["summary"]}
    assert [m.id for m in state["messages"]] == ["h4", "a5", "t2", "t3", "a6"]
    [recalled] = layer.recall(make_env(state), "order")
    assert (recalled.kind, recalled.score, recalled.text) == ("summary", 1.0, update["summary"])
    assert layer.on_turn(make_env(state), []) is None  # now under budget


def test_failing_llm_falls_back_to_extractive() -> None:
    model = GenericFakeChatModel(messages=iter([]))  # raises on the first call
    _, summary = compact(thread(), "", budget_tokens=200, keep_last=4, chat_model=model)
    assert summary == compact(thread(), "", budget_tokens=200, keep_last=4)[1]


def test_mixed_letter_digit_codes_are_identifiers() -> None:
    """Tracking numbers and hashes have no separator; they must still be kept verbatim."""
    found = extract_identifiers("Parcel 1Z999AA10123456784 left; build a3f9c2d1e failed. Thanks everyone!")
    assert "1Z999AA10123456784" in found and "a3f9c2d1e" in found
    assert not any(w in found for w in ("Parcel", "everyone", "Thanks"))


def test_a_secret_is_never_lifted_out_as_an_identifier() -> None:
    """Listed alone, "s3cr3tSauce" loses its "pwd:" cue and would pass the redactor downstream."""
    found = extract_identifiers("token=ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2 and pwd: s3cr3tSauce, order 1Z999AA10123456784")
    assert "1Z999AA10123456784" in found
    assert not any("s3cr3tSauce" in f or "ghp_" in f for f in found)
