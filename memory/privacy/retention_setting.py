"""How long a user's words are kept: the operator's limit, and a user's shorter one.

The operator sets ``retention_days`` (``MEMORY_RETENTION_DAYS``, 0 = off). A user
may ask for less ("only keep the last 30 days", ``memory-agent retention``),
never for more: the limit that applies is the shorter of the two. The user's
choice lives in their own SETTINGS namespace, like the memory switch, so it
follows them across threads and processes and ``delete_user`` removes it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from langgraph.store.base import BaseStore

from memory import clock
from stores.namespaces import SETTINGS, UserScope

RETENTION_KEY = "retention"
MAX_DAYS = 36500


def check_days(days: Any) -> int:
    """A retention the user may ask for: a whole number of days from 1 to ``MAX_DAYS``."""
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ValueError(f"retention must be a whole number of days from 1 to {MAX_DAYS}, got {days!r}")
    return days


def user_days(store: BaseStore, scope: UserScope) -> int | None:
    """The user's own retention in days, or None when they never asked for one."""
    item = store.get(scope.ns(SETTINGS), RETENTION_KEY)
    days = item.value.get("days") if item is not None else None
    return int(days) if isinstance(days, int | float) and days > 0 else None


def set_user_days(store: BaseStore, scope: UserScope, days: int | None) -> None:
    """Store the user's retention (None: back to the operator's), with when it was asked for."""
    if days is None:
        store.delete(scope.ns(SETTINGS), RETENTION_KEY)
        return
    value = {"days": check_days(days), "updated_at": clock.now().isoformat()}
    store.put(scope.ns(SETTINGS), RETENTION_KEY, value, index=False)


def effective_days(operator_days: float, user: int | None) -> float | None:
    """The limit that applies: the shorter of the operator's (0 = none) and the user's; None = keep all."""
    limits = [d for d in (float(operator_days or 0), float(user or 0)) if d > 0]
    return min(limits) if limits else None


def cutoff_for(store: BaseStore, scope: UserScope, operator_days: float, now: datetime) -> datetime | None:
    """What the user said before this time must go (None: retention is off for this user)."""
    days = effective_days(operator_days, user_days(store, scope))
    return None if days is None else now - timedelta(days=days)


def describe(operator_days: float, user: int | None) -> str:
    """One line saying which limit applies and why."""
    days = effective_days(operator_days, user)
    if days is None:
        return "retention: off (everything is kept until it expires or is forgotten)"
    who = "your own limit" if user is not None and float(user) == days else "the operator's limit"
    return f"retention: {days:g} days ({who}); older messages, summaries and threads are deleted"
