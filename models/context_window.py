"""How many tokens a chat model takes in one request, and what a context-length error says.

The window, first found wins:
1. the ``context_window_tokens`` setting (``MEMORY_CONTEXT_WINDOW_TOKENS``), when above 0
   (or the window an error stated, when that is smaller: the setting was wrong);
2. what an earlier context-length error of this model stated (``learn``): the errors of
   llama-cpp-python's server, vLLM and OpenAI all name the window;
3. what the model's server reports (models/endpoint.py), or the embedded model's ``n_ctx``;
4. unknown (None): the request is not fitted, and the first context-length error teaches it.

``is_context_length_error`` recognises the error of every provider by its code or its
words, whatever the exception class: OpenAI's ``BadRequestError`` with
``context_length_exceeded``, "maximum context length" (OpenAI, vLLM, llama-cpp-python),
"exceed context window" (llama-cpp-python in process), "prompt is too long" (Anthropic),
"input is too long", "too many tokens".
"""

from __future__ import annotations

import re
import threading
from typing import Any

from models.endpoint import endpoint_of, reported_context_window

_CONTEXT_ERROR = re.compile(
    r"context_length_exceeded|maximum context length|context window|context length|prompt is too long"
    r"|input is too long|too many tokens|reduce the length of the messages",
    re.IGNORECASE,
)
_STATED_WINDOW = re.compile(
    r"(?:maximum context length is|context window of|context length of|context length is|max_model_len(?: is|=)?)"
    r"\s*(\d+)",
    re.IGNORECASE,
)

_learned: dict[str, int] = {}
_lock = threading.Lock()


def model_key(model: Any) -> str:
    """One name per model and endpoint, for what is learned about it."""
    found = endpoint_of(model)
    if found is not None:
        return f"{found[0]}|{found[1]}"
    return f"{type(model).__name__}|{getattr(model, 'model_path', '') or getattr(model, 'model_name', '')}"


def context_window(setting: int, model: Any) -> int | None:
    """The model's window in tokens (see the module docstring), or None when it is unknown."""
    with _lock:
        learned = _learned.get(model_key(model))
    if setting > 0:
        return min(setting, learned) if learned else setting  # an error proved the setting too large
    if learned:
        return learned
    found = endpoint_of(model)
    if found is not None:
        from models.openai_chat import is_openai_itself  # only a client model has an endpoint

        return None if is_openai_itself(found[0]) else reported_context_window(*found)  # OpenAI reports none
    n_ctx = getattr(model, "n_ctx", None)
    return n_ctx if isinstance(n_ctx, int) and n_ctx > 0 else None


def is_context_length_error(err: BaseException) -> bool:
    """Whether ``err`` says the request did not fit the model's context window."""
    code = getattr(err, "code", None)
    return code == "context_length_exceeded" or bool(_CONTEXT_ERROR.search(str(err)))


def stated_window(err: BaseException) -> int | None:
    """The window a context-length error names, if it names one."""
    found = _STATED_WINDOW.search(str(err))
    return int(found.group(1)) if found else None


def learn(model: Any, err: BaseException) -> int | None:
    """Remember the window ``err`` states for ``model`` (this process); returns it, or None."""
    window = stated_window(err)
    if window:
        with _lock:
            _learned[model_key(model)] = window
    return window
