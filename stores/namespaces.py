"""The one place where store namespaces are built.

Every reader and writer of long-term memory gets its namespace from here, from a
user id that came from config or the server's auth (never from the model). The
id itself may be anything an identity provider issues; its label in a namespace
is ``user_label(id)``, an injective encoding into characters that are safe in a
namespace, a file name and a LIKE pattern, so two ids never share a namespace. Building namespaces in two
places is how one template ended up reading from a different namespace than it
wrote to; keeping it here makes isolation a property of one small function.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from stores.redaction.secrets import contains_secret

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
TASKS = "tasks"  # task episodes: how a task went (memory/layers/task_episodes.py)
PEOPLE = "people"  # one record per person or pet in the user's life (memory/layers/people.py)

ALL_KINDS = (FACTS, PROFILE, PROFILE_HISTORY, EPISODES, RULES, MESSAGES, THREADS, SETTINGS, TASKS, PEOPLE)

# Knowledge: documents the operator shared with every user (memory/knowledge/). Its root is
# outside ``ROOT``, so no user's scope, export, forget or delete-user can reach it; every
# user reads it, and only the operator's ``memory-agent knowledge`` command writes it.
KNOWLEDGE_ROOT = "knowledge"
KNOWLEDGE_CHUNKS = (KNOWLEDGE_ROOT, "chunks")  # indexed passages, one item per chunk
KNOWLEDGE_DOCS = (KNOWLEDGE_ROOT, "docs")  # one unindexed record per document: its hash and chunk keys
# The shared pool of task episodes the operator published (memory/tasks/pool.py): read by every
# user when ``task_pool`` is on, written like the documents, by the operator only.
TASK_POOL = (KNOWLEDGE_ROOT, "tasks")


def is_knowledge(namespace: tuple[str, ...]) -> bool:
    """Whether ``namespace`` (or prefix) lies in the shared knowledge base."""
    return tuple(namespace[:1]) == (KNOWLEDGE_ROOT,)

MAX_USER_ID_CHARS = 256
# Characters a label keeps as they are. Every other character (and a leading one
# outside letters and digits) becomes ``~`` and two hex digits per UTF-8 byte.
# ``~`` is not in the set, so the encoding is injective; it is also no wildcard
# in SQL LIKE or globs, and no namespace separator ('.') or path separator.
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-@+")
_ESCAPE = "~"
_ESCAPED = re.compile(r"~([0-9A-F]{2})")


class InvalidUserId(ValueError):
    """Raised when a string cannot be a user id (empty, too long, not a string, a credential)."""


def validate_user_id(user_id: str) -> str:
    """Return the id unchanged, or raise with a message that says what is allowed.

    Any identity provider's id is accepted (``auth0|abc123``, an e-mail): the
    namespace label is built from it by ``user_label``, never used raw.
    """
    if not isinstance(user_id, str) or not 0 < len(user_id) <= MAX_USER_ID_CHARS or not user_id.strip():
        raise InvalidUserId(
            f"invalid user id {str(user_id)[:40]!r}: use 1-{MAX_USER_ID_CHARS} characters, not all blank"
        )
    if contains_secret(user_id):  # an id becomes a label, a directory name and log text: never a key
        raise InvalidUserId("invalid user id: it looks like a credential (an API key or token); use an account id")
    return user_id


def user_label(user_id: str) -> str:
    """The namespace label (and directory name) of ``user_id``: injective, safe anywhere.

    Ids made of letters, digits, ``_ - @ +`` that start with a letter or digit
    (all the ids accepted before) are their own label, so existing data stays put.
    """
    validate_user_id(user_id)
    out = []
    for i, ch in enumerate(user_id):
        if ch in _SAFE and (i > 0 or ch.isalnum()):
            out.append(ch)
        else:
            out.extend(f"{_ESCAPE}{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def user_of_label(label: str) -> str:
    """The user id whose label is ``label``; ``InvalidUserId`` for a label ``user_label`` never makes."""
    parts = _ESCAPED.split(label)  # text, hex, text, hex, ...
    raw = b"".join(bytes([int(p, 16)]) if i % 2 else p.encode("utf-8") for i, p in enumerate(parts))
    try:
        user = raw.decode("utf-8")
        if user_label(user) == label:
            return user
    except (UnicodeDecodeError, InvalidUserId):
        pass
    raise InvalidUserId(f"{label[:40]!r} is not a user label")


@dataclass(frozen=True)
class UserScope:
    """All namespaces of one user. Construct it only from configuration."""

    user_id: str

    def __post_init__(self) -> None:
        validate_user_id(self.user_id)

    @property
    def label(self) -> str:
        """The user's label in namespaces, directory names and CLI thread ids."""
        return user_label(self.user_id)

    @property
    def root(self) -> tuple[str, ...]:
        return (ROOT, self.label)

    def ns(self, kind: str) -> tuple[str, ...]:
        if kind not in ALL_KINDS:
            raise ValueError(f"unknown memory kind {kind!r}; expected one of {ALL_KINDS}")
        return (*self.root, kind)

    def owns(self, namespace: tuple[str, ...]) -> bool:
        return tuple(namespace[:2]) == self.root


USERS_PAGE = 500  # namespaces read per call when walking every user (a store lists 100 by default)


def stored_users(store: Any) -> Iterator[UserScope]:
    """The scope of every user with something in ``store``: the one walk over users every command uses.

    Each label is decoded with ``user_of_label`` (``first.last@example.com`` is
    stored as ``first~2Elast@example.com``; a long CJK id's label runs past the
    256 characters an id may have), and every page of namespaces is read, not only
    the store's first 100. A label no user id makes is named on stderr and
    skipped, so one stray namespace cannot stop expiry or retention for everyone.
    """
    offset = 0
    while True:
        page = store.list_namespaces(prefix=(ROOT,), max_depth=2, limit=USERS_PAGE, offset=offset)
        for namespace in page:
            if len(namespace) < 2:
                continue
            try:
                yield UserScope(user_of_label(namespace[1]))
            except InvalidUserId:
                print(f"warning: skipped namespace {namespace[1][:60]!r}: not a user label", file=sys.stderr)
        if len(page) < USERS_PAGE:
            return
        offset += USERS_PAGE
