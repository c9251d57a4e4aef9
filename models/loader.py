"""Chat and embedding models, chosen by a spec string and loaded once per process.

Specs:
  chat:       local | llamacpp | openai:<model> | <provider>:<model> | scripted
  embeddings: local | openai:<model> | hash:<dims>

``local`` is the embedded default and runs offline on any CPU: SmolLM2-135M
run by a numpy forward pass over its GGUF (models/local_chat.py) and MiniLM on
onnxruntime (models/local_embeddings.py), neither on torch.
``llamacpp`` is the same model through llama.cpp (``ChatLlamaCpp``), faster
but built from source (``make llamacpp``). ``openai:<model>`` is LangChain's ``ChatOpenAI`` (sending the reply
limit in the field the server reads: models/openai_chat.py) and
``init_embeddings``; set ``OPENAI_BASE_URL`` to point it at Ollama, vLLM or a
llama.cpp server and no code changes. ``scripted`` and ``hash`` are
deterministic stand-ins for tests and for Studio runs without a model. Any
other ``<provider>:<model>`` that LangChain's ``init_chat_model`` knows
(``anthropic:``, ``ollama:``, ``google_genai:``, ...) goes to it unchanged, once
its integration package is installed.

Which chat models get tools is a setting (``chat_tools``), not a guess from the
class: ``ChatLlamaCpp`` implements ``bind_tools`` but the 135M model behind it
cannot use tools, whichever runtime reads it.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from models.word_split import plain_words

CHAT_SPECS = "'local', 'llamacpp', 'scripted', 'openai:<model>' or '<provider>:<model>' (any init_chat_model provider)"
EMBEDDED_CHAT = ("local", "llamacpp", "scripted")
CHAT_TOOLS = ("auto", "on", "off")
EMBEDDED_EMBEDDINGS = ("local",)  # 384-d and offline
EMBED_SPECS = "'local', 'openai:<model>' or 'hash:<dims>'"

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class UnknownModelSpec(ValueError):
    """A model spec that names no known provider."""


def chat_providers() -> frozenset[str]:
    """The providers LangChain's ``init_chat_model`` can build (``openai``, ``anthropic``, ``ollama``, ...)."""
    from langchain.chat_models.base import _BUILTIN_PROVIDERS

    return frozenset(_BUILTIN_PROVIDERS)


def validate_chat_spec(spec: str) -> str:
    """Return ``spec`` if it is a known chat model spec, else raise ``UnknownModelSpec``."""
    if spec in EMBEDDED_CHAT:
        return spec
    provider, _, model = (spec or "").partition(":")
    if re.fullmatch(r"[\w.\-:/]+", model) and provider in chat_providers():
        return spec
    raise UnknownModelSpec(f"unknown chat model spec {spec!r}; valid forms: {CHAT_SPECS}")


def validate_embedding_spec(spec: str) -> str:
    """Return ``spec`` if it is a known embedding model spec, else raise ``UnknownModelSpec``."""
    if spec in EMBEDDED_EMBEDDINGS or re.fullmatch(r"openai:[\w.\-:/]+|hash:\d+", spec or ""):
        return spec
    raise UnknownModelSpec(f"unknown embedding model spec {spec!r}; valid forms: {EMBED_SPECS}")


def chat_tools_enabled(spec: str, setting: str = "auto") -> bool:
    """Whether ``respond`` offers tools: ``on``/``off`` as set; ``auto`` by spec.

    ``auto`` means every provider spec (``openai:*``, ``anthropic:*``, ...: function-calling
    endpoints); the embedded models and the ``scripted`` stand-in get none.
    """
    if setting not in CHAT_TOOLS:
        raise ValueError(f"chat_tools must be one of {', '.join(CHAT_TOOLS)}, not {setting!r}")
    if setting != "auto":
        return setting == "on"
    return spec not in EMBEDDED_CHAT


_lock = threading.Lock()


@lru_cache(maxsize=8)
def _load_chat(spec: str, max_tokens: int, limit_field: str) -> BaseChatModel:
    if spec == "local":
        from models.local_chat import local_chat_model

        return local_chat_model(max_tokens)
    if spec == "llamacpp":
        from models.llamacpp_chat import llamacpp_chat_model

        return llamacpp_chat_model(max_tokens)
    if spec == "scripted":
        from models.scripted_chat import ScriptedChatModel

        return ScriptedChatModel()
    # Split once, so model names with colons (Ollama tags) stay whole.
    provider, model = spec.split(":", 1)
    if provider == "openai":
        from models.openai_chat import openai_chat_model

        return openai_chat_model(model, max_tokens, limit_field)  # type: ignore[arg-type]
    from langchain.chat_models import init_chat_model

    limit = {"ollama": "num_predict"}.get(provider, "max_tokens")  # the reply limit under each class's own name
    try:
        return init_chat_model(model, model_provider=provider, temperature=0, **{limit: max_tokens})
    except ImportError as err:
        raise UnknownModelSpec(f"chat model {spec!r} needs its LangChain package: {err}") from None


def load_chat_model(spec: str, max_tokens: int = 256) -> BaseChatModel:
    """The chat model for ``spec``, loaded once per process (per endpoint limit field)."""
    validate_chat_spec(spec)
    limit_field = ""
    if spec.startswith("openai:"):
        from models.openai_chat import token_limit_field

        limit_field = token_limit_field()
    with _lock:
        return _load_chat(spec, max_tokens, limit_field)


@lru_cache(maxsize=8)
def _load_embeddings(spec: str) -> Embeddings:
    if spec == "local":
        from models.local_embeddings import LocalEmbeddings

        return CachedEmbeddings(LocalEmbeddings())
    if spec.startswith("hash:"):
        return HashEmbeddings(int(spec.split(":", 1)[1]))
    from langchain.embeddings import init_embeddings

    return CachedEmbeddings(init_embeddings(spec.split(":", 1)[1], provider="openai"))


class CachedEmbeddings(Embeddings):
    """Remembers recent texts' vectors, so one turn embeds its query once.

    Several layers search with the same user message (and the store embeds each
    query it is given); without this, a turn paid for the same embedding 3-4 times.
    """

    def __init__(self, inner: Embeddings, size: int = 2048) -> None:
        self.inner = inner
        self.size = size
        self._cache: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _get(self, kind: str, texts: list[str], compute: Callable[[list[str]], list[list[float]]]) -> list[list[float]]:
        with self._lock:
            hits = {t: self._cache.get((kind, t)) for t in texts}
        todo = list(dict.fromkeys(t for t, v in hits.items() if v is None))
        if todo:
            for text, vec in zip(todo, compute(todo)):
                hits[text] = vec
            with self._lock:
                for text in todo:
                    self._cache[(kind, text)] = hits[text]  # type: ignore[assignment]
                while len(self._cache) > self.size:
                    self._cache.popitem(last=False)
        return [hits[t] for t in texts]  # type: ignore[misc]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._get("doc", list(texts), self.inner.embed_documents)

    def embed_query(self, text: str) -> list[float]:
        return self._get("query", [text], lambda ts: [self.inner.embed_query(t) for t in ts])[0]


def load_embeddings(spec: str) -> Embeddings:
    """The embedding model for ``spec``, loaded once per process."""
    validate_embedding_spec(spec)
    with _lock:
        return _load_embeddings(spec)


def embedding_dims(spec: str) -> int:
    """Vector size of the embedding model ``spec`` (loads the model only for OpenAI specs)."""
    if spec in EMBEDDED_EMBEDDINGS:
        return 384
    if spec.startswith("hash:"):
        return int(spec.split(":", 1)[1])
    return len(load_embeddings(spec).embed_query("dimension probe"))


class HashEmbeddings(Embeddings):
    """Deterministic bag-of-words embeddings (signed feature hashing).

    Not a semantic model: it makes tests fast and exact while exercising the real
    vector index. Texts sharing words get a high cosine; unrelated texts get ~0.
    """

    def __init__(self, dims: int = 384) -> None:
        if dims < 8:
            raise ValueError("hash embeddings need at least 8 dimensions")
        self.dims = dims

    def _one(self, text: str) -> list[float]:
        vec = np.zeros(self.dims, dtype=np.float32)
        for tok in plain_words(text):
            h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "little")
            vec[h % self.dims] += 1.0 if (h >> 63) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        return (vec / norm).tolist() if norm else vec.tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)
