"""The turn graph: shape, a full turn, resuming a thread across processes, bad input."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from langchain_core.messages import HumanMessage

from app.runtime import MemoryAgent
from graph.builder import NODES, build_graph
from models.scripted_chat import ScriptedChatModel
from nodes.input_check import InvalidInput
from stores.namespaces import MESSAGES, PROFILE, UserScope
from tests.support import ROOT


def test_graph_reads_commands_retrieve_assemble_respond_tools_check_consolidate() -> None:
    g = build_graph(layers=[]).compile().get_graph()
    assert set(g.nodes) == {
        "__start__", "commands", "retrieve", "assemble", "respond", "tools", "check", "consolidate",
        "consolidate_done", "consolidate_deferred", "__end__"
    }
    edges = {(e.source, e.target): e.conditional for e in g.edges}
    assert edges == {
        ("__start__", "commands"): True,  # a turn (the run modes: core/run_mode.py)
        ("__start__", "consolidate"): True,  # a session end goes straight to consolidation
        ("__start__", "consolidate_deferred"): True,  # a consolidation-only run
        ("consolidate_deferred", "__end__"): False,
        ("commands", "retrieve"): True,
        ("commands", "__end__"): True,  # a memory command in plain words (nodes/commands.py)
        ("retrieve", "assemble"): True,  # no layers (or memory off): nothing to recall
        ("retrieve", "__end__"): True,  # refused input
        ("assemble", "respond"): False,
        ("respond", "tools"): True,  # the tool loop: respond ⇄ tools
        ("tools", "respond"): False,
        ("respond", "check"): True,  # the answer check (nodes/check/node.py)
        ("check", "respond"): True,  # its retry is an edge of the graph
        ("check", "consolidate"): True,
        ("consolidate", "consolidate_done"): True,
        ("consolidate", "__end__"): True,  # a session end on another user's thread
        ("consolidate_done", "__end__"): False,
    }
    assert NODES == (
        "commands", "retrieve", "assemble", "respond", "check", "consolidate", "consolidate_done", "consolidate_deferred"
    )


def test_each_default_layer_is_a_recall_node_and_a_consolidation_node() -> None:
    g = build_graph().compile().get_graph()
    edges = {(e.source, e.target) for e in g.edges}
    for name in ("working", "procedural", "semantic", "episodic", "message_log", "knowledge"):
        assert ("retrieve", f"recall_{name}") in edges and (f"recall_{name}", "assemble") in edges
        assert ("consolidate", f"consolidate_{name}") in edges
        assert (f"consolidate_{name}", "consolidate_done") in edges


def test_the_graph_declares_its_input_and_output() -> None:
    graph = build_graph(layers=[]).compile()
    assert set(graph.get_input_jsonschema()["properties"]) == {
        "messages", "mode", "chat_thread", "defer_consolidation"
    }
    assert set(graph.get_output_jsonschema()["properties"]) == {
        "messages", "recalled", "system_prompt", "error", "notice", "memory_usage", "answer_check"
    }


def test_the_context_schema_is_set_where_the_graph_is_built() -> None:
    from core.run_context import RunContext
    from graph.consolidator import build_consolidator

    assert build_graph(layers=[], context_schema=RunContext).context_schema is RunContext
    assert build_consolidator(RunContext).context_schema is RunContext
    assert build_graph(layers=[]).context_schema.__name__ == "Context"


def test_full_turn_with_scripted_model(ctx) -> None:
    model = ScriptedChatModel(responses=["Nice to meet you, Ana."])
    with MemoryAgent(ctx, chat_model=model) as agent:
        result = agent.say("My name is Ana.", "t1")
        assert result.reply == "Nice to meet you, Ana."
        assert [m.type for m in agent.thread_messages("t1")] == ["human", "ai"]
        scope = UserScope("alice")
        logged = agent.store.search(scope.ns(MESSAGES), limit=10)
        assert sorted(i.value["role"] for i in logged) == ["assistant", "user"]
        profile = {i.key: i.value for i in agent.store.search(scope.ns(PROFILE), limit=10)}
        assert "name" in profile and "Ana" in profile["name"]["text"]
        # the next turn sees the profile in the stable prefix of the prompt
        second = agent.say("What should I cook?", "t1")
        assert "Ana" in second.system_prompt.split("Current date:")[0]


def test_system_prompt_reaches_the_model(ctx) -> None:
    with MemoryAgent(ctx) as agent:  # scripted model repeats remembered lines
        agent.say("I'm vegetarian.", "t1")
        agent.end_session("t1")
        reply = agent.say("Suggest a recipe.", "t2").reply
    assert "vegetarian" in reply


def _run(code: str, data_dir: str) -> str:
    script = textwrap.dedent(code).replace("DATA", data_dir)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_thread_resumes_across_two_processes(ctx) -> None:
    common = """
        from core.context import Context
        from app.runtime import MemoryAgent
        ctx = Context(user_id="alice", data_dir="DATA", chat_model="scripted", embedding_model="hash:384")
    """
    _run(common + """
        with MemoryAgent(ctx) as a:
            a.say("The ticket number is TCK-7731.", "resume-me")
    """, ctx.data_dir)
    out = _run(common + """
        with MemoryAgent(ctx) as a:
            a.say("And one more thing.", "resume-me")
            print("|".join(m.text for m in a.thread_messages("resume-me") if m.type == "human"))
    """, ctx.data_dir)
    assert out.strip() == "The ticket number is TCK-7731.|And one more thing."


@pytest.mark.parametrize("text", ["", "   ", "x" * 9000])
def test_bad_input_is_refused_and_nothing_is_stored(ctx, text: str) -> None:
    with MemoryAgent(ctx) as agent:
        agent.say("I live in Porto.", "t1")
        before_msgs = [m.text for m in agent.thread_messages("t1")]
        before_items = len(agent.store.search(("users",), limit=1000))
        with pytest.raises(InvalidInput):
            agent.say(text, "t1")
        assert [m.text for m in agent.thread_messages("t1")] == before_msgs
        assert len(agent.store.search(("users",), limit=1000)) == before_items


def test_graph_level_refusal_removes_the_bad_message(ctx) -> None:
    """Clients that bypass the CLI (Studio, SDK) get the same guarantee."""
    with MemoryAgent(ctx) as agent:
        cfg = {"configurable": {"thread_id": "raw"}}
        out = agent.graph.invoke({"messages": [HumanMessage(content="   ", id="m-bad")]}, cfg, context=ctx)
        assert "empty message" in out["error"]
        assert out["messages"] == []
        # No memory; only the thread's owner record, so the refused run does not lock its owner out.
        assert [(i.namespace[-1], i.key) for i in agent.store.search(("users",), limit=10)] == [("threads", "raw")]


def test_memory_adds_no_llm_call_to_a_turn(ctx) -> None:
    """One turn = one model call (respond); retrieve, assemble and consolidate call none."""
    calls: list[int] = []

    class Counting(ScriptedChatModel):
        def _generate(self, messages, stop=None, run_manager=None, **kw):  # type: ignore[no-untyped-def]
            calls.append(len(messages))
            return super()._generate(messages, stop, run_manager, **kw)

    with MemoryAgent(ctx, chat_model=Counting()) as agent:
        for text in ("I'm vegetarian.", "Please stop using emojis.", "What did I say about food?"):
            agent.say(text, "t1")
        assert len(calls) == 3
        agent.end_session("t1")  # default layers summarise without the LLM
        assert len(calls) == 3


def test_a_thread_of_another_user_is_refused_by_the_graph(ctx) -> None:
    """Even when a caller reuses another user's full thread id, nothing is read or written."""
    from dataclasses import replace

    with MemoryAgent(ctx) as alice:
        alice.say("My passport number is stored at home.", "private")
        config = alice.config("private")
        bob_ctx = replace(ctx, user_id="bob")
        out = alice.graph.invoke({"messages": [HumanMessage(content="show me", id="b1")]}, config, context=bob_ctx)
        assert "does not belong to user 'bob'" in out["error"]
        assert [m.text for m in alice.thread_messages("private")][0] == "My passport number is stored at home."
        assert all(m.id != "b1" for m in alice.thread_messages("private"))
        assert alice.store.search(("users", "bob"), limit=10) == []


def test_every_kind_of_run_claims_its_thread(ctx) -> None:
    """A run that skips retrieve (end_session, a memory command) checks the thread's owner too.

    Closing another user's thread used to register it to the closer, whose next
    turn then read the first user's messages and summary.
    """
    from dataclasses import replace

    with MemoryAgent(ctx) as alice:
        alice.say("My locker code is kept at home.", "private")
        config = alice.config("private")
        bob_ctx = replace(ctx, user_id="bob")
        for attempt in ({"mode": "end_session"}, {"messages": [HumanMessage(content="What do you remember about me?",
                                                                           id="b0")]}):
            out = alice.graph.invoke(attempt, config, context=bob_ctx)
            assert "does not belong to user 'bob'" in out["error"], out.get("error")
        out = alice.graph.invoke({"messages": [HumanMessage(content="show me", id="b1")]}, config, context=bob_ctx)
        assert "does not belong to user 'bob'" in out["error"]
        assert alice.store.search(("users", "bob"), limit=10) == []
        assert [m.text for m in alice.thread_messages("private")][0] == "My locker code is kept at home."
        assert all(m.id not in ("b0", "b1") for m in alice.thread_messages("private"))


def test_a_side_thread_runs_its_owners_consolidations_again_and_again(ctx) -> None:
    """The server's deferred consolidation reuses one side thread: its second run is still its owner's."""
    with MemoryAgent(ctx) as agent:
        agent.say("I'm vegetarian.", "t1")
        for _ in range(2):
            out = agent.graph.invoke({"mode": "consolidate_thread", "chat_thread": "alice:t1"}, agent.config("side"), context=agent.context)
            assert not out.get("error"), out.get("error")
