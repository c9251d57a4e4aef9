"""One upkeep pass for one user: the seven steps in order, each reported with counts.

Order matters: merging first means later steps see one copy of each memory;
roll-ups are written before pruning and expiry, so an episode is summed up
before it goes; pruning comes before expiry, whose scrub removes the bytes of both;
retention (memory/upkeep/retain.py) comes after the roll-ups, so no line they
write outlives the retention limit.
Each step is safe to interrupt (see the steps' docstrings), so the pass is too.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel

from memory.layers.base import LayerEnv
from memory.upkeep.expire import expire_step
from memory.upkeep.history import pass_record
from memory.upkeep.items import pause, write_state
from memory.upkeep.merge import merge_step
from memory.upkeep.promote import promote_step
from memory.upkeep.prune import prune_step
from memory.upkeep.reflect import reflect_step
from memory.upkeep.report import StepReport, UpkeepReport
from memory.upkeep.retain import retention_step
from memory.upkeep.rollup import rollup_step

Step = Callable[..., StepReport]
STEPS: tuple[tuple[str, Step], ...] = (
    ("merge", merge_step),
    ("promote", promote_step),
    ("roll-up", rollup_step),
    ("prune", prune_step),
    ("expire", expire_step),
)


def run_upkeep(
    env: LayerEnv,
    *,
    dry_run: bool = False,
    progress: bool = False,
    model: BaseChatModel | None = None,
    on_step: Callable[[StepReport], None] | None = None,
    checkpointer: Any = None,
) -> UpkeepReport:
    """Run every step for ``env``'s user at ``env.now``; ``dry_run`` counts without writing.

    ``on_step`` sees each step's report as it finishes; ``progress`` shows a bar on stderr.
    ``model`` is the capable chat model reflection needs (else the context's spec decides).
    ``checkpointer`` lets the retention step delete threads past the retention limit.
    """
    started = time.perf_counter()
    report = UpkeepReport(user_id=env.scope.user_id, now=env.now.isoformat(), dry_run=dry_run)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(STEPS) + 2, desc="upkeep", file=sys.stderr, leave=False)

    def retain(e: LayerEnv, dry_run: bool) -> StepReport:
        return retention_step(e, dry_run=dry_run, checkpointer=checkpointer)

    def reflect(e: LayerEnv, dry_run: bool) -> StepReport:
        return reflect_step(e, dry_run=dry_run, model=model)

    steps: list[tuple[str, Step]] = [*STEPS[:-1], ("retention", retain), STEPS[-1], ("reflect", reflect)]
    if not env.gate.memory_enabled():
        # Memory off: no new writes, but what is past its TTL still goes (deletes always pass the gate).
        steps = [("retention", retain), ("expire", lambda e, dry_run: expire_step(e, dry_run=dry_run, review=False))]
    for name, step in steps:
        if bar is not None:
            bar.set_postfix_str(name)
        done = step(env, dry_run=dry_run)
        report.steps.append(done)
        if on_step is not None:
            on_step(done)
        if bar is not None:
            bar.update()
        pause()
    if bar is not None:
        bar.close()
    report.seconds = time.perf_counter() - started
    if not dry_run and env.gate.memory_enabled():
        write_state(env, last_pass=env.now.isoformat(), **pass_record(env, report))
    return report
