"""Step 4: prune episodes that add nothing, so recall is not filled with small talk and repeats.

An episode stays worth recalling for what it alone holds. Once it is older than
``upkeep_prune_days`` and no answer ever used it (``use_count`` 0, see
nodes/usage.py), it is forgotten when every line that tells something is
carried, word for word, by a roll-up that cites it (rollup.py) — a restated
"My partner is Alex." lives on in the week's summary — and the rest is questions
and requests to the assistant (memory/chatter.py), which the message log
still keeps verbatim. A session of small talk only is forgotten at the first pass,
whatever its age and without a roll-up: it holds nothing recall could answer with.
Roll-ups themselves, used episodes and anything holding a line no roll-up carries
(an assistant's detail, a sentence cut by the summary's length) stay until their
TTL, trimmed to what they tell: their questions and requests leave the summary
(shown, they only crowd the prompt), their sources stay. Deletes go through the
gate; the expire step that follows scrubs the bytes (``scrub_owed``), so a pass
killed in between still scrubs (a trim's old text included).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memory.chatter import told_lines
from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.upkeep.items import all_items, expired, pause, write_state
from memory.upkeep.report import StepReport
from stores.namespaces import EPISODES


def prune_step(env: LayerEnv, *, dry_run: bool) -> StepReport:
    """Delete the unused old episodes whose every telling line a citing roll-up carries."""
    report = StepReport("prune")
    items = all_items(env, EPISODES)
    carried: dict[str, set[str]] = {}  # episode key -> the lines of the roll-ups that cite it
    for item in items:
        if item.value.get("level"):
            lines = {line.lower() for line in told_lines(str(item.value["text"]))}
            for key in item.value.get("cites", ()):
                carried.setdefault(str(key), set()).update(lines)
    cutoff = env.now - timedelta(days=float(env.context.upkeep_prune_days))
    gone = [i for i in items if prunable(i.value, carried.get(i.key, set()), cutoff) and not expired(i.value,
                                                                                                     env.now)]
    report.add("episodes forgotten", len(gone))
    ns = env.scope.ns(EPISODES)
    if gone and not dry_run:
        write_state(env, scrub_owed=True)  # the expire step scrubs, on this pass or a rerun
        for item in gone:
            env.store.delete(ns, item.key)
            pause()
    gone_keys = {i.key for i in gone}
    trims = [(i.key, t) for i in items if i.key not in gone_keys and not expired(i.value, env.now)
             and (t := trim(i.value)) is not None]
    report.add("episodes trimmed to what they tell", len(trims))
    if trims and not dry_run:
        write_state(env, scrub_owed=True)  # the old texts' bytes go with the scrub too
        for key, value in trims:
            env.store.put(ns, key, value)
            pause()
    return report


def trim(value: dict[str, Any]) -> dict[str, Any] | None:
    """The episode without its questions and requests to the assistant; None when it has none
    (or is a roll-up, which never holds them). Sources stay: the session is still its evidence.
    """
    if value.get("level"):
        return None
    text = str(value["text"])
    told = told_lines(text)
    if not told or "\n".join(told) == text.strip():
        return None
    return {**value, "text": "\n".join(told)}


def prunable(value: dict[str, Any], carried: set[str], cutoff: Any) -> bool:
    """An episode (not a roll-up), unused, that tells nothing: small talk only (at any age), or from
    before ``cutoff`` with every telling line in ``carried``.
    """
    if value.get("level") or int(value.get("use_count", 0)):
        return False
    told = told_lines(str(value["text"]))
    if not told:
        return True
    when = parse_time(value.get("time"))
    return when is not None and when <= cutoff and all(line.lower() in carried for line in told)
