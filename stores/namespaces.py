"""The one place where store namespaces are built.

Every reader and writer of long-term memory gets its namespace from here, from a
user id that came from config (never from the model). Building namespaces in two
places is how one template ended up reading from a different namespace than it
wrote to; keeping it here makes isolation a property of one small function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "users"

# The kinds of long-term memory kept per user. Each layer owns one or more.
FACTS = "facts"
PROFILE = "profile"
PROFILE_HISTORY = "profile_history"
EPISODES = "episodes"
RULES = "rules"
MESSAGES = "messages"
THREADS = "threads"
SETTINGS = "settings"

ALL_KINDS = (FACTS, PROFILE, PROFILE_HISTORY, EPISODES, RULES, MESSAGES, THREADS, SETTINGS)

_USER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-@+]{0,127}$")


class InvalidUserId(ValueError):
    """Raised when a user id could not be a safe namespace label."""


def validate_user_id(user_id: str) -> str:
    """Return the id unchanged, or raise with a message that says what is allowed."""
    if not isinstance(user_id, str) or not _USER_ID.match(user_id):
        raise InvalidUserId(
            f"invalid user id {user_id!r}: use 1-128 characters from letters, digits, "
            "'_', '-', '@' and '+', starting with a letter or digit (no dots or slashes)"
        )
    return user_id


@dataclass(frozen=True)
class UserScope:
    """All namespaces of one user. Construct it only from configuration."""

    user_id: str

    def __post_init__(self) -> None:
        validate_user_id(self.user_id)

    @property
    def root(self) -> tuple[str, ...]:
        return (ROOT, self.user_id)

    def ns(self, kind: str) -> tuple[str, ...]:
        if kind not in ALL_KINDS:
            raise ValueError(f"unknown memory kind {kind!r}; expected one of {ALL_KINDS}")
        return (ROOT, self.user_id, kind)

    def owns(self, namespace: tuple[str, ...]) -> bool:
        return tuple(namespace[:2]) == self.root
