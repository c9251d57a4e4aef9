"""Server limits: what one request may cost, fixed by the server's environment.

A limit a client could raise is no limit: a server run's context used to carry
``max_message_chars``, so a client raised it and sent a megabyte that was
checkpointed before the graph refused it. The limits below are server settings
(``core/context.py`` keeps them out of ``RunContext``; their values are the
``Context`` fields, read from ``MEMORY_<FIELD>``), and the server's auth checks a
run's input against them when the run is created (``graph/auth.py``), before
anything is stored. The graph checks the message again (``nodes/input_check.py``)
for the CLI and the notebooks, which have no auth step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stores.redaction.scrub import strings_in

# Context fields that bound what a turn may cost: the message read, the reply
# written (and the session-end extraction's answer), the regenerations the answer check may ask for.
LIMIT_FIELDS = frozenset({"max_message_chars", "max_new_tokens", "extraction_max_tokens", "check_retries"})
# A run's input is one message and a few flags; all its text together may be this many messages long.
INPUT_MESSAGES_ALLOWED = 4


class InputTooLarge(ValueError):
    """A run's input is over the server's limits; nothing of it was stored."""


def check_run_input(kwargs: Mapping[str, Any], max_message_chars: int) -> None:
    """Refuse a run whose ``input`` or ``command`` holds a text over the limits.

    ``kwargs`` is the run as the server records it (``input``, ``command``, ...).
    """
    longest = total = 0
    for text in strings_in([kwargs.get("input"), kwargs.get("command")]):
        longest, total = max(longest, len(text)), total + len(text)
    if longest > max_message_chars:
        raise InputTooLarge(
            f"message too long: {longest} characters, the limit is {max_message_chars} "
            "(the server's MEMORY_MAX_MESSAGE_CHARS); nothing was stored"
        )
    if total > INPUT_MESSAGES_ALLOWED * max_message_chars:
        raise InputTooLarge(
            f"run input too large: {total} characters in all, the limit is "
            f"{INPUT_MESSAGES_ALLOWED * max_message_chars}; nothing was stored"
        )
