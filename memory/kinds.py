"""The one vocabulary of memory kinds: what every surface calls a memory and filters by.

The CLI (``recall``, ``memories --json``), the MCP tools (``recall``, ``what_do_you_remember``
and the ``kinds`` filter), the chat's ``search_memory`` tool, the memory page and the export
all print a memory's ``kind`` with these names, so one memory has one kind everywhere. A
store namespace is where a kind is kept (``facts``, ``profile``...), not its name.

``summary`` (a thread's running summary), ``history`` (ended profile and fact values) and
``review`` (a question asking the user to confirm an old value) are parts of a turn's prompt
only: no surface lists or filters by them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, get_args

from stores.namespaces import EPISODES, FACTS, MESSAGES, PEOPLE, PROFILE, PROFILE_HISTORY, RULES, TASKS

MemoryKind = Literal["profile", "fact", "rule", "episode", "message", "knowledge", "person", "task"]
PromptKind = Literal["summary", "history", "review"]
RecalledKind = Literal[MemoryKind, PromptKind]  # what a layer's recall may return (memory/layers/base.py)

KINDS: tuple[str, ...] = get_args(MemoryKind)
PROMPT_ONLY: tuple[str, ...] = get_args(PromptKind)
# What a search covers unless a filter names more: the user's own memories. The operator's shared
# documents (knowledge) and how past tasks went (task) are searched only when asked for by kind.
SEARCHED_BY_DEFAULT: tuple[str, ...] = ("profile", "fact", "rule", "episode", "message", "person")

# Where each kind is kept in a user's store.
_KIND_OF_NAMESPACE: dict[str, str] = {
    PROFILE: "profile", FACTS: "fact", RULES: "rule", EPISODES: "episode", MESSAGES: "message", TASKS: "task",
    PEOPLE: "person",
}


class UnknownKind(ValueError):
    """A kind filter naming a kind outside the vocabulary; nothing was searched."""


def check_kinds(kinds: Iterable[Any] | None) -> tuple[str, ...] | None:
    """``kinds`` as a tuple when every one is in the vocabulary (None: no filter); else ``UnknownKind``."""
    if kinds is None:
        return None
    if isinstance(kinds, str):
        kinds = [kinds]
    checked = tuple(kinds)
    for kind in checked:
        if kind not in KINDS:
            raise UnknownKind(f"unknown kind {str(kind)[:40]!r}; valid kinds: {', '.join(KINDS)}")
    return checked


def kind_of_item(namespace_kind: str, value: dict[str, Any]) -> str | None:
    """The kind of a stored item from its namespace's last part; an ended value keeps the kind it had.

    None for what is not a memory (threads, settings) and for namespaces this vocabulary does not know.
    """
    if namespace_kind == PROFILE_HISTORY:
        was = value.get("archived_from")
        return was if was in ("profile", "fact") else None
    return _KIND_OF_NAMESPACE.get(namespace_kind)


def namespace_of(kind: str) -> str | None:
    """The namespace a kind is kept under in a user's store; None for a kind kept elsewhere."""
    return next((ns for ns, k in _KIND_OF_NAMESPACE.items() if k == kind), None)
