"""What each upkeep pass leaves behind for the memory page: its report and a point on the trend.

Kept in the user's upkeep bookkeeping (``items.write_state``), so delete-user
removes it with the rest. A point is the pass's time, how many memories the
user has (profile, facts, episodes, rules) and how many tokens the part of the
prompt every turn carries (persona, rules, profile) takes.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.messages.utils import count_tokens_approximately

from memory.layers.base import LayerEnv
from memory.layers.procedural import ProceduralLayer
from memory.layers.semantic import recall_profile
from memory.prompt import stable_prefix
from memory.upkeep.items import read_state
from memory.upkeep.report import UpkeepReport
from stores.namespaces import EPISODES, FACTS, PROFILE, RULES

KEPT_POINTS = 60
_COUNTED = (PROFILE, FACTS, EPISODES, RULES)
_PAGE = 500


def _count(env: LayerEnv, kind: str) -> int:
    n = 0
    while True:
        page = env.store.search(env.scope.ns(kind), limit=_PAGE, offset=n, refresh_ttl=False)
        n += len(page)
        if len(page) < _PAGE:
            return n


def pass_record(env: LayerEnv, report: UpkeepReport) -> dict[str, Any]:
    """The fields a finished pass adds to the bookkeeping: ``last_report`` and ``trend``."""
    fixed = [r.as_dict() for r in [*ProceduralLayer().recall(env, ""), *recall_profile(env)]]
    tokens = count_tokens_approximately([SystemMessage(content=stable_prefix(env.context.persona, fixed))])
    point = {"at": report.now, "memories": sum(_count(env, k) for k in _COUNTED), "prompt_tokens": tokens}
    trend = [*read_state(env).get("trend", []), point][-KEPT_POINTS:]
    return {"last_report": report.as_dict(), "trend": trend}
