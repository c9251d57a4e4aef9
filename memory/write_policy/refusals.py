"""Why the write gate (memory/write_policy/gate.py) refused a write; nothing of the batch was stored."""

from __future__ import annotations


class WriteRefused(ValueError):
    """A write the gate refused; nothing of the batch was stored."""


class OutsideScope(WriteRefused):
    """An op named a namespace outside the gate's user."""


class KnowledgeReadOnly(OutsideScope):
    """A put or delete in the shared knowledge base, which only the operator writes."""


class MemoryOff(WriteRefused):
    """The user switched long-term memory off."""

    def __init__(self, user_id: str) -> None:
        super().__init__("long-term memory is off for this user; nothing was saved")
        self.user_id = user_id


class MissingProvenance(WriteRefused):
    """A memory without the message ids it came from."""


class TooLarge(WriteRefused):
    """A value or string over the gate's size limits."""
