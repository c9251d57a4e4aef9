"""Where retention is enforced from: the expiry sweep (``memory-agent expire``, the
Studio server's timer, a CLI start) and a user's own request for a shorter limit.

Each sweep opens its own checkpointer on the data dir (or Postgres), so the
threads past the limit go with the rest, and closes it when done.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore

from memory import clock
from memory.privacy.forget import UserData
from memory.privacy.retention import RetentionReport, enforce_everyone, enforce_retention
from memory.privacy.retention_setting import check_days, describe, set_user_days, user_days
from stores.checkpointer import open_checkpointer
from stores.namespaces import stored_users


def sweep_retention(store: BaseStore, context: Any, now: datetime | None = None) -> list[RetentionReport]:
    """Every user's retention enforced at ``now`` (the clock's), threads included; the reports that removed
    something.
    """
    operator_days = float(context.retention_days or 0)
    if operator_days <= 0 and not any(user_days(store, scope) for scope in stored_users(store)):
        return []  # retention off for everyone: nothing is opened, nothing changes
    saver = open_checkpointer(context.data_dir, redact=context.redact_input)
    try:
        reports = enforce_everyone(store, operator_days, now or clock.now(),
                                   data_dir=Path(context.data_dir), checkpointer=saver)
    finally:
        saver.conn.close()
    return [r for r in reports if r.total()]


def check_request(days: int, operator_days: float) -> int:
    """A user's asked-for limit, refused when it is longer than the operator's (a one-line reason)."""
    check_days(days)
    if operator_days and days > operator_days:
        raise ValueError(f"the operator keeps what you say for {operator_days:g} days at most; "
                         f"ask for {operator_days:g} days or fewer (nothing was changed)")
    return days


def change_retention(where: UserData, operator_days: float, days: int | None, *, now: datetime | None = None,
                     change: bool = True) -> str:
    """Set (or with None clear) the user's own limit and enforce it now; the line to show them."""
    if change:
        if days is not None:
            check_request(days, operator_days)
        set_user_days(where.store, where.scope, days)
        report = enforce_retention(where, operator_days, now or clock.now())
        line = describe(operator_days, user_days(where.store, where.scope))
        return f"{line}. Removed now: {', '.join(f'{n} {k}' for k, n in report.counts.items()) or 'nothing'}."
    return describe(operator_days, user_days(where.store, where.scope))


def set_retention(agent: Any, days: int | None, *, change: bool = True) -> str:
    """``change_retention`` for a ``MemoryAgent``'s user (the CLI's ``retention`` command)."""
    env = agent.env()
    where = UserData(env.gate.forgetting(), env.scope, Path(agent.data_dir), agent.checkpointer)
    return change_retention(where, float(agent.context.retention_days or 0), days, now=env.now, change=change)
