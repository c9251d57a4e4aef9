"""Reject bad user input before it touches any memory.

One rule set for every way a message comes in: the chat (CLI, Studio, the SDK)
and ``memory-agent import`` (nodes/importer.py), so an import cannot store what
the chat would refuse.
"""

from __future__ import annotations

import unicodedata

from stores.redaction.names import check_identifier as check_secret_in

EMPTY = "empty message"


class InvalidInput(ValueError):
    """A user message the agent refuses; nothing is stored for it."""


def _invisible(text: str) -> bool:
    """Whether ``text`` holds nothing but control, format or unassigned characters (and whitespace)."""
    return all(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in text)


def check_encoding(text: str, what: str = "message") -> str:
    """``text`` unless it holds lone surrogates: bytes that were not UTF-8 (a terminal's stdin
    decodes them to U+DC80..U+DCFF), which no store, JSON or model can take.
    """
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise InvalidInput(f"{what} is not valid UTF-8 text (it holds undecodable bytes); nothing was stored")
    return text


MAX_ID_CHARS = 200


def check_identifier(value: object, what: str) -> str:
    """A thread or conversation id a client chose: 1-200 visible characters, valid text, no secret.

    It names a checkpoint thread and a store record; a 100k-character id used to
    fail deep in a tool with no word of why.
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{what} must be a non-empty string")
    if len(value) > MAX_ID_CHARS:
        raise InvalidInput(f"{what} too long: {len(value)} characters, the limit is {MAX_ID_CHARS}")
    check_encoding(value, what)
    if any(unicodedata.category(ch).startswith("C") for ch in value):
        raise InvalidInput(f"{what} must not contain control characters")
    return check_secret_in(value, what)  # it is stored as it is: one holding a secret is refused too


def check_text(text: str, max_chars: int) -> str:
    """Return ``text`` if it is an acceptable message, else raise ``InvalidInput`` saying why."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(EMPTY)
    check_encoding(text)
    if len(text) > max_chars:
        raise InvalidInput(
            f"message too long: {len(text)} characters, the limit is {max_chars} (MEMORY_MAX_MESSAGE_CHARS)"
        )
    if "\x00" in text:
        raise InvalidInput("message contains a NUL byte")
    if _invisible(text):
        raise InvalidInput("message has no visible text, only control characters")
    return text


def check_user_text(text: str, max_chars: int) -> str:
    """``check_text`` for a chat message: an empty one is told how to go on."""
    try:
        return check_text(text, max_chars)
    except InvalidInput as err:
        if str(err) == EMPTY:
            raise InvalidInput(f"{EMPTY}: type something, or /quit to leave") from None
        raise
