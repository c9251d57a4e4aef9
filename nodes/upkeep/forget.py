"""Step 4: forget episodes that add nothing, so recall is not filled with small talk and repeats.

An episode stays worth recalling for what it alone holds. Once it is older than
``upkeep_forget_days`` and no answer ever used it (``use_count`` 0, see
nodes/usage.py), it is forgotten when every line that tells something is
carried, word for word, by a roll-up that cites it (rollup.py) — a restated
"My partner is Alex." lives on in the week's summary — and the rest is questions
and requests to the assistant (nodes/upkeep/chatter.py), which the message log
still keeps verbatim. A session of small talk only is forgotten even without a
roll-up. Roll-ups themselves, used episodes and anything holding a line no
roll-up carries (an assistant's detail, a sentence cut by the summary's length)
stay until their TTL. Deletes go through the gate; the expire step that follows
scrubs the bytes (``scrub_owed``), so a pass killed in between still scrubs.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from nodes.layers.base import LayerEnv
from nodes.layers.scoring import parse_time
from nodes.upkeep.chatter import told_lines
from nodes.upkeep.items import all_items, expired, pause, write_state
from nodes.upkeep.report import StepReport
from stores.namespaces import EPISODES


def forget_step(env: LayerEnv, *, dry_run: bool) -> StepReport:
    """Delete the unused old episodes whose every telling line a citing roll-up carries."""
    report = StepReport("forget")
    items = all_items(env, EPISODES)
    carried: dict[str, set[str]] = {}  # episode key -> the lines of the roll-ups that cite it
    for item in items:
        if item.value.get("level"):
            lines = {line.lower() for line in told_lines(str(item.value["text"]))}
            for key in item.value.get("cites", ()):
                carried.setdefault(str(key), set()).update(lines)
    cutoff = env.now - timedelta(days=float(env.context.upkeep_forget_days))
    gone = [i for i in items if forgettable(i.value, carried.get(i.key, set()), cutoff) and not expired(i.value,
                                                                                                     env.now)]
    report.add("episodes forgotten", len(gone))
    if gone and not dry_run:
        write_state(env, scrub_owed=True)  # the expire step scrubs, on this pass or a rerun
        ns = env.scope.ns(EPISODES)
        for item in gone:
            env.store.delete(ns, item.key)
            pause()
    return report


def forgettable(value: dict[str, Any], carried: set[str], cutoff: Any) -> bool:
    """An episode (not a roll-up), unused, from before ``cutoff``, telling nothing ``carried`` lacks."""
    when = parse_time(value.get("time"))
    if value.get("level") or int(value.get("use_count", 0)) or when is None or when > cutoff:
        return False
    return all(line.lower() in carried for line in told_lines(str(value["text"])))
