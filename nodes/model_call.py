"""One chat-model call that never ends the turn, let alone the chat.

The request is fitted into the model's context window first (nodes/request_fit.py,
models/context_window.py). On a context-length error from any provider the call
learns the window the error states, fits the request again into less
(``RETRY_SQUEEZE``) and tries once more; when that fails too, or on any other
model or server error (no key, nothing listening, a timeout, a 500), the turn
gets one clear line instead of a reply. That line is the agent's own, marked like a
command's reply (``COMMAND_KEY``): it is never logged to long-term memory, never
checked against memory, and removed at the next input. The user's message is
logged as usual, so nothing the user said is lost.

``stream=False`` tags the call ``nostream``: LangGraph's ``stream_mode="messages"``
then carries none of its tokens (a draft the answer check may still replace,
nodes/check/draft.py).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langgraph.constants import TAG_NOSTREAM

from models.context_window import context_window, is_context_length_error, learn
from models.endpoint import first_line
from nodes.commands import COMMAND_KEY
from nodes.request_fit import FittedRequest, tokens

RETRY_SQUEEZE = 0.6
MODEL_ERROR = "model_error"
log = logging.getLogger("memory.model")

Fit = Callable[[int | None, float], FittedRequest]


def failure_reply(text: str) -> AIMessage:
    """The agent's own line for a turn the model could not answer (marked: not logged, not kept)."""
    return AIMessage(content=text, id=f"cmd-{uuid.uuid4().hex}", additional_kwargs={COMMAND_KEY: MODEL_ERROR})


def _failed(err: BaseException) -> AIMessage:
    log.warning("chat model call failed: %s", first_line(err))
    return failure_reply(f"(The chat model failed: {first_line(err)}. Your message is kept; try again.)")


def _too_long(window: int | None) -> AIMessage:
    size = f" ({window} tokens)" if window else ""
    return failure_reply(f"(Your message with what I remember does not fit the model's context window{size}, "
                         "even trimmed. Your message is kept; try a shorter one, or give the model server a "
                         "larger context.)")


def call_model(
    model: BaseChatModel, fit: Fit, setting: int, *, stream: bool = True, **kwargs: Any
) -> tuple[AIMessage, FittedRequest]:
    """``model`` on the fitted request, with the tools the fit kept; see the module docstring."""
    window = context_window(setting, model)
    request = fit(window, 1.0)
    try:
        return _invoke(model, request, stream, **kwargs), request
    except Exception as err:  # any provider, any transport: the turn goes on
        if not is_context_length_error(err):
            return _failed(err), request
        window = learn(model, err) or window or tokens(request.messages)
    log.info("request over the context window (%s tokens); trimming harder and retrying once", window)
    request = fit(window, RETRY_SQUEEZE)
    try:
        return _invoke(model, request, stream, **kwargs), request
    except Exception as err:
        return (_too_long(window) if is_context_length_error(err) else _failed(err)), request


def _invoke(model: BaseChatModel, request: FittedRequest, stream: bool, **kwargs: Any) -> AIMessage:
    runnable: Any = model.bind_tools(request.tools) if request.tools else model
    if not stream:
        runnable = runnable.with_config(tags=[TAG_NOSTREAM])
    return runnable.invoke(request.messages, **kwargs)
