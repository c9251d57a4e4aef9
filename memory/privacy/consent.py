"""The per-user memory switch: may the agent keep long-term memories of this user?

Stored in the user's own SETTINGS namespace, so it follows the user across
threads, processes and stores, and ``delete_user`` removes it with the rest.
Default on: a missing setting means the user never turned memory off. Turning
it off stops new long-term writes (``memory/write_policy/gate.py`` enforces that) and
recall; it does not delete anything (that is what forget and delete-user are for).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from langgraph.store.base import BaseStore

from memory import clock
from stores.namespaces import SETTINGS, UserScope

MEMORY_SWITCH_KEY = "memory"


@runtime_checkable
class KnowsSwitch(Protocol):
    """A store that answers the switch for one user itself (the write gate, from its cache).

    Declared here, so this module needs nothing from the gate that builds on it.
    """

    scope: UserScope

    def memory_enabled(self) -> bool:
        """The user's switch as the store knows it."""
        ...


def switch_value(value: dict[str, Any] | None) -> bool:
    """The switch as stored (None: never set, so on)."""
    return True if value is None else bool(value.get("enabled", True))


def is_memory_enabled(store: BaseStore, scope: UserScope) -> bool:
    """True unless the user switched long-term memory off (a write gate answers from its cache)."""
    if isinstance(store, KnowsSwitch) and store.scope == scope:
        return store.memory_enabled()
    item = store.get(scope.ns(SETTINGS), MEMORY_SWITCH_KEY)
    return switch_value(item.value if item is not None else None)


def set_memory_enabled(store: BaseStore, scope: UserScope, on: bool) -> None:
    """Persist the switch, with the time it was flipped (shown in the export)."""
    if not isinstance(on, bool):
        raise TypeError(f"on must be True or False, got {on!r}")
    value = {"enabled": on, "updated_at": clock.now().isoformat()}
    store.put(scope.ns(SETTINGS), MEMORY_SWITCH_KEY, value, index=False)
