"""Upkeep's retention step: what the user said before the retention limit leaves every copy.

Runs after the roll-ups and pruning, so a roll-up written in this very pass
loses its lines older than the limit before the pass ends; it deletes and
scrubs through ``memory/privacy/retention.py`` (the same code as the expiry
sweep), with the gate's consent rule off: retention must work with memory off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memory.layers.base import LayerEnv
from memory.layers.scoring import parse_time
from memory.privacy.export import iter_items
from memory.privacy.forget import UserData
from memory.privacy.retention import enforce_retention
from memory.privacy.retention_setting import cutoff_for
from memory.upkeep.report import StepReport
from stores.namespaces import MESSAGES


def retention_step(env: LayerEnv, *, dry_run: bool, checkpointer: Any = None) -> StepReport:
    """Enforce the user's retention limit (a dry run counts the messages it would remove)."""
    report = StepReport("retention")
    days = float(getattr(env.context, "retention_days", 0) or 0)
    if dry_run:
        cutoff = cutoff_for(env.store, env.scope, days, env.now)
        if cutoff is not None:
            old = [i for i in iter_items(env.store, env.scope.ns(MESSAGES))
                   if (parse_time(i.value.get("time")) or env.now) < cutoff]
            report.add("messages", len(old))
        return report
    data_dir = getattr(env.context, "data_dir", None)
    where = UserData(env.gate.forgetting(), env.scope, Path(data_dir) if data_dir else None, checkpointer)
    for kind, n in enforce_retention(where, days, env.now).counts.items():
        report.add(kind, n)
    return report
