"""Step 2: promote a habit seen in several sessions into one fact linked to its evidence.

The rule extractor stores what the user states ("I'm vegetarian"); it rightly
ignores one-off observations ("I ordered the vegetarian lasagna"). Seen in
``upkeep_promote_min`` separate sessions, an observation becomes a fact ("The
user is vegetarian."), written through the write policy's last stages
(``memory/write_policy/pipeline.write_facts``: secret screen, grounding, dedup) with the evidence
messages as its sources. Questions and requests are no evidence
(memory/chatter.py). Promotion only fills gaps: a profile slot the user
filled themselves is never overwritten by an inference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from memory.chatter import is_request
from memory.clock import parse_time
from memory.layers.base import LayerEnv, LoggedMessage
from memory.text import statements
from memory.upkeep.items import all_items, pause
from memory.upkeep.report import StepReport
from memory.write_policy.base import CandidateFact, slot_for
from memory.write_policy.pipeline import write_facts
from stores.namespaces import FACTS, MESSAGES, PROFILE, PROFILE_HISTORY

_NEGATED = re.compile(r"\b(?:not|never|no|didn't|don't|won't|wasn't|isn't|without)\b|n't\b", re.IGNORECASE)


@dataclass(frozen=True)
class Observation:
    """A habit a sentence shows without stating it; ``template`` renders the fact from the value."""

    pattern: re.Pattern[str]
    template: str
    category: str
    key: str | None = None
    importance: int = 6


OBSERVATIONS: tuple[Observation, ...] = (
    Observation(
        re.compile(r"\b(?:order(?:ed|ing)?|ate|eat(?:ing)?|had|having|cook(?:ed|ing)?|made|chose|picked|got)\b"
                   r"[^.!?]*?\b(?P<v>vegetarian|vegan|pescatarian)\b", re.IGNORECASE),
        "The user is {v}.", "diet", key="diet"),
    Observation(
        re.compile(r"\b(?:went|go|going|been)\s+(?P<v>climbing|bouldering|hiking|running|swimming|cycling|surfing|"
                   r"skiing|sailing|kayaking)\b", re.IGNORECASE),
        "The user regularly goes {v}.", "hobby"),
)


def promote_step(env: LayerEnv, *, dry_run: bool) -> StepReport:
    """Find repeated observations in the user's logged messages and promote the ones seen often enough."""
    report = StepReport("promote")
    threshold = max(int(env.context.upkeep_promote_min), 1)
    evidence: dict[tuple[Observation, str], list[LoggedMessage]] = {}
    for item in all_items(env, MESSAGES):
        value = item.value
        if value.get("role") != "user":
            continue
        for sentence in statements(value["text"]):
            if _NEGATED.search(sentence) or is_request(sentence):  # "Where did I go hiking?" is not a hike
                continue
            for obs in OBSERVATIONS:
                match = obs.pattern.search(sentence)
                if match:
                    evidence.setdefault((obs, match["v"].lower()), []).append(_message(value))
    ended = _slot_ends(env)
    for (obs, v), found in sorted(evidence.items(), key=lambda kv: (kv[0][0].template, kv[0][1])):
        since = ended.get(obs.key or "")
        messages = [m for m in found if since is None or m.time > since]  # habits from before a change don't count
        sessions = {m.thread for m in messages}
        if len(sessions) < threshold:
            continue
        fact = CandidateFact(text=obs.template.format(v=v), category=obs.category, key=obs.key, value=v,
                             importance=obs.importance, sources=[m.id for m in messages],
                             stated_at=max(m.time for m in messages))
        if _known(env, fact):
            continue
        report.add("facts promoted")
        if not dry_run:
            write_facts(env, [fact], messages)
            pause()
    return report


def _message(value: dict) -> LoggedMessage:
    time = parse_time(value["time"])
    assert time is not None
    return LoggedMessage(id=value["id"], thread=value["thread"], time=time, role="user", text=value["text"])


def _slot_ends(env: LayerEnv) -> dict[str, datetime]:
    """When each profile slot last had a value replaced or ended (its newest history entry)."""
    ends: dict[str, datetime] = {}
    for item in all_items(env, PROFILE_HISTORY):
        value = item.value
        when = parse_time(value.get("valid_to"))
        if value.get("archived_from") == "profile" and value.get("key") and when is not None:
            ends[value["key"]] = max(when, ends.get(value["key"], when))
    return ends


def _known(env: LayerEnv, fact: CandidateFact) -> bool:
    """A filled slot (whatever its value) or a stored fact with this text: nothing to promote."""
    if slot_for(fact.key) is not None:
        return env.store.get(env.scope.ns(PROFILE), str(fact.key)) is not None
    return any(i.value["text"] == fact.text for i in env.store.search(env.scope.ns(FACTS), query=fact.text, limit=10))
