"""``ChatOpenAI`` that sends the reply-length limit in the field the server reads.

LangChain's ``ChatOpenAI`` always sends ``max_completion_tokens``, OpenAI's
current name for the limit. Compatible servers do not all read it: the
llama.cpp (llama-cpp-python) server ignores it and writes until the model stops,
hundreds of tokens past the limit. Every compatible server reads the older
``max_tokens``, so that is what goes to a server at a base URL; OpenAI itself
keeps ``max_completion_tokens`` (its reasoning models refuse ``max_tokens``).

The choice is ``MEMORY_TOKEN_LIMIT_FIELD``: ``auto`` (the default) decides by
the base URL, or name the field outright.

Assistant messages that only call tools go out with ``content: ""``, not
``null``, to servers other than OpenAI: the llama.cpp server rejects ``null``.

Structured output (the session-end extraction) goes to servers other than
OpenAI as a forced function call: LangChain's default, a ``json_schema`` response
format, is refused by llama.cpp's server (which knows only ``json_object``),
while a named ``tool_choice`` is widely served, and llama.cpp constrains its
answer to the function's schema.

Tools are bound with ``tool_choice="auto"`` said outright. That is OpenAI's
default whenever tools are sent, but the llama.cpp server reads a missing
``tool_choice`` as ``none`` and never shows the model its tools.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal
from urllib.parse import urlparse

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_openai import ChatOpenAI

import settings

TOKEN_LIMIT_ENV = settings.TOKEN_LIMIT_FIELD.name
TOKEN_LIMIT_FIELDS = ("auto", "max_tokens", "max_completion_tokens")
TokenLimitField = Literal["max_tokens", "max_completion_tokens"]


def openai_base_url() -> str | None:
    """The base URL the OpenAI client will use (``OPENAI_BASE_URL``, or LangChain's ``OPENAI_API_BASE``)."""
    return settings.OPENAI_API_BASE.read() or settings.OPENAI_BASE_URL.read() or None


def token_limit_field(setting: str | None = None, base_url: str | None = None) -> TokenLimitField:
    """The request field for the reply limit: as set, or by ``auto``.

    ``auto``: ``max_completion_tokens`` for OpenAI itself (no base URL, or
    ``api.openai.com``), ``max_tokens`` for any other server.
    """
    chosen = (setting.strip() if setting is not None else settings.TOKEN_LIMIT_FIELD.read()) or "auto"
    if chosen not in TOKEN_LIMIT_FIELDS:
        raise ValueError(f"{TOKEN_LIMIT_ENV} must be one of {', '.join(TOKEN_LIMIT_FIELDS)}, not {chosen!r}")
    if chosen != "auto":
        return chosen  # type: ignore[return-value]
    return "max_completion_tokens" if is_openai_itself(base_url) else "max_tokens"


def is_openai_itself(base_url: str | None = None) -> bool:
    """Whether requests go to OpenAI's own API (no base URL set, or ``api.openai.com``)."""
    url = base_url if base_url is not None else openai_base_url()
    return (urlparse(url).hostname if url else None) in (None, "api.openai.com")


class CompatibleChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` whose Chat Completions requests carry the limit as ``token_limit_field``."""

    token_limit_field: TokenLimitField = "max_completion_tokens"
    string_content: bool = False
    """Send ``""`` for an assistant message's missing content (servers that refuse ``null``)."""

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        # The Responses API names the limit max_output_tokens; only Chat Completions is renamed.
        if self.token_limit_field == "max_tokens" and "max_completion_tokens" in payload:
            payload["max_tokens"] = payload.pop("max_completion_tokens")
        if self.string_content:
            for message in payload.get("messages") or []:
                if message.get("role") == "assistant" and message.get("content") is None:
                    message["content"] = ""
        return payload

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | BaseTool],
        *,
        tool_choice: dict | str | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """``ChatOpenAI.bind_tools``, with ``tool_choice`` ``auto`` unless one is given."""
        if tools and tool_choice is None:
            tool_choice = "auto"
        return super().bind_tools(tools, tool_choice=tool_choice, **kwargs)

    def with_structured_output(
        self, schema: Any = None, *, method: Any = None, **kwargs: Any
    ) -> Runnable[LanguageModelInput, Any]:
        """``ChatOpenAI.with_structured_output``, as a function call unless OpenAI itself answers."""
        if method is None:
            method = "function_calling" if self.string_content else "json_schema"
        return super().with_structured_output(schema, method=method, **kwargs)


def openai_chat_model(model: str, max_tokens: int, field: TokenLimitField) -> CompatibleChatOpenAI:
    """A chat model for ``model`` at the configured endpoint, its replies limited to ``max_tokens``."""
    return CompatibleChatOpenAI(
        model=model, max_tokens=max_tokens, token_limit_field=field, string_content=not is_openai_itself()
    )
