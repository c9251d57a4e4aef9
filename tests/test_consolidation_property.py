"""Property (issue 25, item 1): whatever the timing, background consolidation stores what the synchronous path stores.

Hypothesis draws a script of turns, plain-words listings, flushes and pauses;
the worker (a small delay) runs whenever a thread goes quiet, so its runs land
before, between and during turns, on the real clock and on a simulated one.
The same script on the synchronous path (delay 0) is the reference: every
listing must read the same, and so must the profile, its history and the facts
at the end. Turns go to one chat thread, because what the synchronous path does
across threads depends on their order, and the worker consolidates a thread at
a time; listings come from that thread and from another.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.runtime import MemoryAgent
from core.context import Context
from stores.namespaces import FACTS, PROFILE, PROFILE_HISTORY

DELAY = 0.02
SAID = [
    "I'm vegetarian.", "I live in Lisbon.", "I moved to Porto.", "I work as a baker.", "I work as a pastry chef now.",
    "My sister Ana works at Siemens.", "Actually I'm not vegetarian anymore.", "I prefer short answers.",
]
SHOW = "What do you remember about me?"
STEP = st.one_of(
    st.tuples(st.just("say"), st.sampled_from(SAID)),
    st.tuples(st.just("show"), st.sampled_from(["t1", "t2"])),
    st.tuples(st.just("flush"), st.sampled_from([None, "t1"])),
    st.tuples(st.just("pause"), st.floats(0.0, 3 * DELAY)),
)


def run(ctx: Context, delay: float, script: list[tuple[str, Any]]) -> tuple[list[list[str]], dict[str, list[str]]]:
    """The listings the script's "show" steps got, and the store's semantic memory once the agent closed.

    Use counts are left out: a reply uses only the memories its turn recalled,
    and a turn recalls the facts that earlier turns stored, which on the deferred
    path may still wait in the queue (recall does not wait; reads do).
    """
    listings = []
    with MemoryAgent(replace(ctx, consolidation_delay_s=delay)) as agent:
        for op, arg in script:
            if op == "say":
                agent.say(arg, "t1")
            elif op == "show":
                listings.append(sorted(agent.say(SHOW, arg).reply.splitlines()))  # the order follows use counts
            elif op == "flush":
                agent.flush(arg)
            elif delay:
                time.sleep(arg)
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as again:
        scope = again._env().scope
        stored = {kind: sorted(i.value["text"] for i in again.store.search(scope.ns(kind), limit=200))
                  for kind in (PROFILE, PROFILE_HISTORY, FACTS)}
    return listings, stored


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=st.lists(STEP, min_size=1, max_size=8), simulated=st.booleans())
def test_deferred_consolidation_stores_what_the_synchronous_path_stores(
    ctx: Context, tmp_path: Path, script: list[tuple[str, Any]], simulated: bool
) -> None:
    case = uuid.uuid4().hex  # fresh data dirs for every example, replays included
    clock = {"MEMORY_NOW": "2025-03-10T10:00:00Z"} if simulated else {}
    with mock.patch.dict(os.environ, clock):
        if not simulated:
            os.environ.pop("MEMORY_NOW", None)
        sync = run(replace(ctx, data_dir=str(tmp_path / f"{case}-sync")), 0, script)
        deferred = run(replace(ctx, data_dir=str(tmp_path / f"{case}-deferred")), DELAY, script)
    assert deferred == sync
