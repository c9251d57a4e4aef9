"""A capable (tool-calling) model drives memory through the ``tools`` node, bound to the configured user."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from app.runtime import MemoryAgent
from nodes.respond import MAX_TOOL_ROUNDS, NO_ANSWER
from stores.namespaces import FACTS, PROFILE, UserScope
from tests.support.tool_calls import call, capable, fake


def facts_of(agent: MemoryAgent, user: str) -> list[str]:
    scope = UserScope(user)
    items = agent.store.search(scope.ns(FACTS), limit=20) + agent.store.search(scope.ns(PROFILE), limit=20)
    return [i.value["text"] for i in items]


def nodes_run(agent: MemoryAgent, text: str, thread: str) -> Iterator[str]:
    msg = HumanMessage(content=text, id=f"{thread}-h")
    for update in agent.graph.stream({"messages": [msg]}, agent.config(thread), context=agent.context, stream_mode="updates"):
        yield from update


def test_tool_call_runs_as_a_tools_step_for_the_configured_user(ctx) -> None:
    model = fake(call("remember", {"text": "I love hiking in the Alps"}, "c1"), AIMessage(content="Got it, you love hiking."))
    with MemoryAgent(capable(ctx), chat_model=model) as agent:
        run = list(nodes_run(agent, "Tell me something nice.", "t1"))
        layers = [layer.name for layer in agent.layers]
        recall = [n for n in run if n.startswith("recall_")]  # in parallel: any order
        consolidate = run[-1 - len(layers) : -1]
        assert recall == run[2 : 2 + len(recall)]  # all of them between retrieve and assemble
        # the layers with something to recall run; an empty one is skipped (tests/test_recall_skip.py)
        assert {"recall_semantic", "recall_episodic", "recall_message_log"} <= set(recall)
        assert set(recall) <= {f"recall_{n}" for n in layers} and len(set(recall)) == len(recall)
        assert sorted(consolidate) == sorted(f"consolidate_{n}" for n in layers)
        assert [n for n in run if n not in recall + consolidate] == [
            "commands", "retrieve", "assemble", "respond", "tools", "respond", "check", "consolidate",
            "consolidate_done"
        ]
        assert set(model.offered[0]) == {"remember", "search_memory", "forget", "memory"}
        thread = agent.thread_messages("t1")
        assert [m.type for m in thread] == ["human", "ai", "tool", "ai"]
        assert thread[-1].text == "Got it, you love hiking."
        assert thread[2].status == "success" and thread[2].text.startswith("Saved")
        assert any("hiking" in t for t in facts_of(agent, "alice"))
        assert agent.store.search(("users", "bob"), limit=10) == []


def test_a_user_id_argument_from_the_model_is_ignored(ctx) -> None:
    model = fake(
        call("remember", {"text": "I keep bees on the roof", "user_id": "bob"}, "c1"),
        call("memory", {"command": "create", "path": "/memories/bees.md", "file_text": "bees", "user_id": "bob"}, "c2"),
        AIMessage(content="Noted."),
    )
    with MemoryAgent(capable(ctx), chat_model=model) as agent:
        assert agent.say("Remember my bees.", "t1").reply == "Noted."
        results = [m for m in agent.thread_messages("t1") if isinstance(m, ToolMessage)]
        assert [m.status for m in results] == ["success", "success"]
        assert any("bees" in t for t in facts_of(agent, "alice"))
        assert facts_of(agent, "bob") == [] and agent.store.search(("users", "bob"), limit=10) == []
    bob_files = [p for p in agent.data_dir.rglob("*") if "bob" in p.parts]
    alice_files = [p.name for p in agent.data_dir.rglob("bees.md") if "alice" in str(p)]
    assert bob_files == [] and alice_files == ["bees.md"]


def test_tool_rounds_are_capped_then_the_model_answers_without_tools(ctx) -> None:
    looping = [call("search_memory", {"query": f"q{i}"}, f"c{i}") for i in range(MAX_TOOL_ROUNDS)]
    model = fake(*looping, AIMessage(content="Here is what I found."))
    with MemoryAgent(capable(ctx), chat_model=model) as agent:
        assert agent.say("Find everything.", "t1").reply == "Here is what I found."
        assert [bool(o) for o in model.offered] == [True] * MAX_TOOL_ROUNDS + [False]
        thread = agent.thread_messages("t1")
        assert sum(isinstance(m, ToolMessage) for m in thread) == MAX_TOOL_ROUNDS
        assert thread[-1].type == "ai" and not thread[-1].tool_calls
        assert agent.state("t1")["tool_rounds"] == 0
        # the counter starts again on the next turn
        model.messages = iter([call("search_memory", {"query": "again"}, "d1"), AIMessage(content="Again.")])
        model.offered = []
        assert agent.say("Once more.", "t1").reply == "Again."
        assert model.offered and all(model.offered)


def test_a_model_that_keeps_calling_at_the_cap_still_ends_on_an_answer(ctx) -> None:
    looping = [call("search_memory", {"query": f"q{i}"}, f"c{i}") for i in range(MAX_TOOL_ROUNDS + 1)]
    with MemoryAgent(capable(ctx), chat_model=fake(*looping)) as agent:
        assert agent.say("Loop forever.", "t1").reply == NO_ANSWER
        last = agent.thread_messages("t1")[-1]
        assert last.type == "ai" and not last.tool_calls and last.text == NO_ANSWER


def test_unknown_tool_is_reported_to_the_model_not_raised(ctx) -> None:
    model = fake(call("drop_database", {}, "c1"), AIMessage(content="Sorry."))
    with MemoryAgent(capable(ctx), chat_model=model) as agent:
        assert agent.say("Hi", "t1").reply == "Sorry."
        tool_msg = next(m for m in agent.thread_messages("t1") if isinstance(m, ToolMessage))
        assert tool_msg.status == "error"
        assert "drop_database is not a valid tool" in tool_msg.text and "remember" in tool_msg.text


def test_bad_arguments_come_back_as_tool_errors_and_store_nothing(ctx) -> None:
    model = fake(
        call("remember", {"txt": "I like tea"}, "c1"),  # fails the tool's schema
        AIMessage(content="", invalid_tool_calls=[{"name": "remember", "args": "{text: tea", "id": "c2", "error": "bad JSON", "type": "invalid_tool_call"}]),
        call("memory", {"command": "explode"}, "c3"),  # the file tool's own validation
        AIMessage(content="I could not save that."),
    )
    with MemoryAgent(capable(ctx), chat_model=model) as agent:
        assert agent.say("Save a note for me.", "t1").reply == "I could not save that."
        results = [m for m in agent.thread_messages("t1") if isinstance(m, ToolMessage)]
        assert [m.tool_call_id for m in results] == ["c1", "c2", "c3"]
        assert results[0].status == "error" and "text" in results[0].text and "Field required" in results[0].text
        assert results[1].status == "error" and "not a JSON object" in results[1].text
        assert results[2].text.startswith("Error: invalid arguments") and "unknown command 'explode'" in results[2].text
        assert facts_of(agent, "alice") == []


def test_tools_off_or_auto_for_the_embedded_spec_offers_no_tools(ctx) -> None:
    for setting in ("off", "auto"):  # ctx's spec is 'scripted': auto means no tools, like 'local'
        model = fake(call("remember", {"text": "I like tea"}, "c1"))
        with MemoryAgent(replace(ctx, chat_tools=setting), chat_model=model) as agent:
            reply = agent.say("Save a note for me.", f"t-{setting}")
            assert model.offered == [[]]
            # a call the model makes anyway is dropped, not run, and the turn ends on an answer
            assert [m.type for m in agent.thread_messages(f"t-{setting}")] == ["human", "ai"]
            assert not agent.thread_messages(f"t-{setting}")[-1].tool_calls
            assert reply.reply == NO_ANSWER and facts_of(agent, "alice") == []


def test_tools_step_runs_on_the_async_path_too(ctx) -> None:
    """The dev server runs graphs with ``astream``: the tools node must work there, off the event loop."""
    import asyncio

    from langgraph.checkpoint.memory import InMemorySaver

    from graph.builder import build_graph

    model = fake(call("remember", {"text": "I collect old maps"}, "c1"), call("nope", {}, "c2"), AIMessage(content="Done."))
    with MemoryAgent(capable(ctx)) as agent:
        graph = build_graph(chat_model=model).compile(checkpointer=InMemorySaver(), store=agent.store)
        msg = HumanMessage(content="Note my hobby.", id="h1")
        out = asyncio.run(graph.ainvoke({"messages": [msg]}, {"configurable": {"thread_id": "a"}}, context=agent.context))
        results = [m for m in out["messages"] if isinstance(m, ToolMessage)]
        assert [m.status for m in results] == ["success", "error"]
        assert out["messages"][-1].text == "Done."
        assert any("old maps" in t for t in facts_of(agent, "alice"))


def test_the_answer_checks_retry_goes_back_through_respond_with_tools(ctx) -> None:
    """check -> respond is an edge: the retry is respond's call, so the model keeps its tools."""
    from memory.layers.semantic import remember

    model = fake(
        AIMessage(content="Try a chicken stir-fry."),  # goes against the stored diet
        call("search_memory", {"query": "diet"}, "c1"),  # the retry may use a tool
        AIMessage(content="Try a tofu stir-fry."),
    )
    with MemoryAgent(capable(ctx), chat_model=model) as agent:
        remember(agent.env(), "I'm vegetarian.")
        run = list(nodes_run(agent, "What should I cook tonight?", "t1"))
        turn = [n for n in run if n in {"respond", "tools", "check"}]
        assert turn == ["respond", "check", "respond", "tools", "respond", "check"]
        assert all(model.offered[i] for i in range(3))  # every call, the retry's included, had tools
        assert agent.thread_messages("t1")[-1].text == "Try a tofu stir-fry."
        record = agent.state("t1")["answer_check"]
        assert record["retries"] == 1 and not record["flagged"]
        assert agent.state("t1")["check_verdict"] == "ok" and agent.state("t1")["check_retry"] == 0
