"""Reject bad user input before it touches any memory."""

from __future__ import annotations


class InvalidInput(ValueError):
    """A user message the agent refuses; nothing is stored for it."""


def check_user_text(text: str, max_chars: int) -> str:
    """Return ``text`` if it is an acceptable user message, else raise ``InvalidInput``."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("empty message: type something, or /quit to leave")
    if len(text) > max_chars:
        raise InvalidInput(
            f"message too long: {len(text)} characters, the limit is {max_chars} (MEMORY_MAX_MESSAGE_CHARS)"
        )
    if "\x00" in text:
        raise InvalidInput("message contains a NUL byte")
    return text
