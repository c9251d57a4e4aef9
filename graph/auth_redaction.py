"""What the server's auth handlers admit and redact in what a request carries (used by graph/auth.py).

The server keeps the very dicts a request carries (thread, run, cron and assistant
metadata, a run's context and config), writes them to its ops file under
``.langgraph_api/`` and merges metadata and context into each checkpoint's
``metadata`` column; so they are redacted in place, before anything is stored.
A run's input is also redacted knowing its thread's last message, so the rest of a
key whose first part came in the previous run goes too.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from langgraph_sdk import Auth

from core.context import Context
from core.limits import InputTooLarge, check_run_input
from stores.redaction.names import secret_in_names
from stores.redaction.saver import continue_conversation, server_last_said
from stores.redaction.scrub import redact_deep
from stores.redaction.secrets import contains_secret

CLIENT_FIELDS = ("metadata", "context", "config")  # what a client fills besides the input


def redact_fields(value: dict[str, Any]) -> None:
    """Secrets out of a request's metadata, context and config, changed in place."""
    if not Context().redact_input:
        return
    for key in CLIENT_FIELDS:
        field = value.get(key)
        if isinstance(field, dict):
            clean = redact_deep(field)
            if clean is not field:
                field.clear()
                field.update(clean)


def admit_run(kwargs: dict[str, Any]) -> None:
    """The server's limits on a run's input (nothing is stored yet), then its secrets out of the record.

    ``kwargs`` is the dict the server goes on to store and run, so it is changed in place.
    """
    server = Context()
    try:
        check_run_input(kwargs, server.max_message_chars)
    except InputTooLarge as err:
        raise Auth.exceptions.HTTPException(status_code=413, detail=str(err)) from None
    if (problem := webhook_problem(kwargs.get("webhook"))) is not None:
        raise Auth.exceptions.HTTPException(status_code=422, detail=problem)
    if server.redact_input:
        for key in ("input", "command"):
            if kwargs.get(key) is not None:
                kwargs[key] = redact_deep(kwargs[key])
        redact_fields(kwargs)


async def finish_split_key(thread_id: Any, kwargs: dict[str, Any]) -> None:
    """A run's input with the rest of a secret its thread's last message left open redacted, in place."""
    if Context().redact_input and kwargs.get("input") is not None and thread_id:
        kwargs["input"] = continue_conversation(kwargs["input"], await server_last_said(str(thread_id)))


def redact_open_put(action: str, namespace: tuple[str, ...], value: dict[str, Any]) -> str | None:
    """A put outside the users' gated namespaces (the operator's knowledge, an open server's own):
    why its key or a label must be refused, else None with its value redacted in place.
    """
    if action == "put" and isinstance(value.get("value"), dict):
        if (problem := secret_in_names(str(value.get("key")), namespace[1:])) is not None:
            return problem
        value["value"] = redact_deep(value["value"])
    return None


def webhook_problem(url: Any) -> str | None:
    """Why a run's webhook URL is refused, else None.

    The server stores the URL with the run and shows it to anyone who lists the runs,
    and redacting it would break the call; so a URL carrying a credential (``user:pass@``
    or a key in its path or query) is refused, and the receiver should check a signature instead.
    """
    if not url:
        return None
    text = str(url)
    try:
        has_userinfo = bool(urlsplit(text).password or urlsplit(text).username)
    except ValueError:
        return "webhook: not a valid URL"
    if has_userinfo or contains_secret(text):
        return "webhook: the URL carries a credential, which would be stored with the run in plain text"
    return None
