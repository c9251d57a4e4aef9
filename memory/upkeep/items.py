"""Reading a user's stored items whole, and the small helpers every step shares."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from langgraph.store.base import Item

import settings
from memory.clock import parse_time
from memory.layers.base import LayerEnv
from stores.namespaces import SETTINGS

PAGE = 500
PAUSE_ENV = settings.UPKEEP_TEST_PAUSE.name  # test hook: seconds to sleep between writes, so a test can kill mid-pass


def all_items(env: LayerEnv, kind: str) -> list[Item]:
    """Every item of ``kind`` for the user, in the store's order, page by page."""
    out: list[Item] = []
    while True:
        page = env.store.search(env.scope.ns(kind), limit=PAGE, offset=len(out))
        out.extend(page)
        if len(page) < PAGE:
            return out


def expired(value: dict[str, Any], now: datetime) -> bool:
    """Whether ``value`` carries an ``expires_at`` that has passed."""
    at = parse_time(value.get("expires_at"))
    return at is not None and at <= now


def union(*groups: Iterable[str]) -> list[str]:
    """The union of ``groups`` in first-seen order (sources stay in the order they were cited)."""
    return list(dict.fromkeys(s for g in groups for s in g))


def pause() -> None:
    """Sleep ``MEMORY_UPKEEP_TEST_PAUSE`` seconds when set (kill -9 tests); a no-op otherwise."""
    seconds = float(settings.UPKEEP_TEST_PAUSE.read() or 0)
    if seconds > 0:
        time.sleep(seconds)


STATE_KEY = "upkeep"  # in SETTINGS (bookkeeping): scrub owed, reflection watermark, last pass


def read_state(env: LayerEnv) -> dict[str, Any]:
    """The user's upkeep bookkeeping (empty before the first pass)."""
    item = env.store.get(env.scope.ns(SETTINGS), STATE_KEY)
    return dict(item.value) if item is not None else {}


def write_state(env: LayerEnv, **fields: Any) -> None:
    """Update the user's upkeep bookkeeping with ``fields``."""
    env.store.put(env.scope.ns(SETTINGS), STATE_KEY, {**read_state(env), **fields}, index=False)
