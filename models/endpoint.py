"""What a chat model's endpoint says about itself: that it answers, and its context window.

``check_chat_endpoint`` runs once when the chat or the demo starts, so a capable model that
is misconfigured (its LangChain package missing, no API key, a server address where nothing
listens, a key the server refuses) is one line and exit 2, not a traceback at the first
message. An OpenAI-compatible server is asked ``GET {base}/models``, which every compatible
server answers (a server without it, any other status, counts as answering); Ollama ``/api/tags``.

``reported_context_window`` reads the window where a server reports one: vLLM's
``max_model_len`` and LM Studio's or OpenRouter's ``context_length`` on
``/models``, llama.cpp's own server ``default_generation_settings.n_ctx`` on
``/props``. llama-cpp-python's server (``python -m llama_cpp.server``) reports
none, and neither does OpenAI: there the window is the ``context_window_tokens``
setting, or learned from the first context-length error (models/context_window.py).
"""

from __future__ import annotations

import threading
from typing import Any

import httpx

import settings

PROBE_TIMEOUT_S = 5.0
WINDOW_FIELDS = ("max_model_len", "context_length", "context_window", "n_ctx")

_reported: dict[tuple[str, str], int | None] = {}
_lock = threading.Lock()


class EndpointError(RuntimeError):
    """A chat endpoint that cannot be used as configured; the message is one line for the user."""


def endpoint_of(model: Any) -> tuple[str, str, str] | None:
    """``(base URL, model name, API key)`` of an OpenAI-client chat model, else None."""
    client = getattr(model, "root_client", None)
    if client is None:
        return None
    key = getattr(model, "openai_api_key", None)
    secret = key.get_secret_value() if key is not None else ""
    return str(client.base_url).rstrip("/"), str(getattr(model, "model_name", "")), secret


def _get(base: str, path: str, key: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.get(f"{base}{path}", headers=headers, timeout=PROBE_TIMEOUT_S)


def _probe(spec: str, model: Any) -> tuple[str, str, str] | None:
    """``(base, path, key)`` of a cheap GET that a local or compatible server answers, else None.

    ``openai:`` asks ``/models`` (every compatible server has it), ``ollama:`` asks ``/api/tags``.
    A hosted provider's API (Anthropic, Google, ...) is not probed: its package and key are what a
    start can check without spending a call.
    """
    if spec.startswith("openai:"):
        base, _, key = endpoint_of(model) or ("", "", "")
        return base, "/models", key
    if spec.startswith("ollama:"):
        return ollama_base(getattr(model, "base_url", None) or settings.OLLAMA_HOST.read()), "/api/tags", ""
    return None


def ollama_base(host: str | None) -> str:
    """The URL the Ollama client talks to: ``base_url``, else ``OLLAMA_HOST`` (a bare host gets the default port)."""
    host = (host or "localhost:11434").rstrip("/")
    scheme, sep, rest = host.rpartition("://")
    rest = rest if ":" in rest.rsplit("]", 1)[-1] else f"{rest}:11434"
    return f"{scheme if sep else 'http'}://{rest}"


def check_chat_endpoint(spec: str, max_tokens: int = 256) -> None:
    """Build the chat model of any provider spec and ask its server, where it has one, whether it answers.

    Every ``<provider>:<model>`` spec is checked the same way before the first message: a missing
    integration package, a missing key, or a server where nothing listens is ``EndpointError``, one
    line. The embedded models need no check (the install's smoke check ran them).
    """
    from models.loader import EMBEDDED_CHAT, UnknownModelSpec, load_chat_model

    if spec in EMBEDDED_CHAT:
        return
    try:
        model = load_chat_model(spec, max_tokens)
    except UnknownModelSpec as err:
        raise EndpointError(first_line(err).removeprefix("UnknownModelSpec: ")) from None
    except Exception as err:  # the clients refuse to start without a key
        if spec.startswith("openai:") and "api_key" in str(err):
            raise EndpointError(f"chat model {spec!r} needs OPENAI_API_KEY (for a compatible server at "
                                "OPENAI_BASE_URL, any value such as 'unused')") from None
        raise EndpointError(f"chat model {spec!r} cannot start: {first_line(err)}") from None
    probe = _probe(spec, model)
    if probe is None:
        return
    base, path, key = probe
    try:
        answer = _get(base, path, key)
    except httpx.TimeoutException:
        raise EndpointError(f"chat model {spec!r}: no answer from {base} within {PROBE_TIMEOUT_S:.0f} s") from None
    except httpx.HTTPError as err:
        where = "OPENAI_BASE_URL" if spec.startswith("openai:") else "the server's address (base_url)"
        raise EndpointError(f"chat model {spec!r}: cannot reach {base} ({first_line(err)}); start the server or "
                            f"fix {where}") from None
    if answer.status_code in (401, 403):
        raise EndpointError(f"chat model {spec!r}: {base} refused the API key (HTTP {answer.status_code}); "
                            "check OPENAI_API_KEY")


def reported_context_window(base: str, model_name: str, key: str) -> int | None:
    """The context window the server at ``base`` reports for ``model_name``, asked once per process."""
    with _lock:
        if (base, model_name) in _reported:
            return _reported[(base, model_name)]
    window = _from_models(base, model_name, key) or _from_props(base, key)
    with _lock:
        _reported[(base, model_name)] = window
    return window


def _json(base: str, path: str, key: str) -> Any:
    try:
        answer = _get(base, path, key)
        return answer.json() if answer.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _window_in(entry: Any) -> int | None:
    if not isinstance(entry, dict):
        return None
    for name in WINDOW_FIELDS:
        value = entry.get(name)
        if isinstance(value, int) and value > 0:
            return value
    return None


def _from_models(base: str, model_name: str, key: str) -> int | None:
    body = _json(base, "/models", key)
    entries = body.get("data") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        return None
    named = [e for e in entries if isinstance(e, dict) and e.get("id") == model_name]
    for entry in named or (entries if len(entries) == 1 else []):
        window = _window_in(entry) or _window_in(entry.get("meta"))
        if window:
            return window
    return None


def _from_props(base: str, key: str) -> int | None:
    root = base.removesuffix("/v1")
    body = _json(root, "/props", key)
    return _window_in(body.get("default_generation_settings")) if isinstance(body, dict) else None


def first_line(err: BaseException) -> str:
    """An exception as one short line: its type and the first line of its message."""
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0][:300]}" if text else type(err).__name__
