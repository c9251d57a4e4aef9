"""Asking the user to re-confirm an important fact once its review date has passed.

Upkeep (memory/upkeep/expire.py) gives changeable profile slots a ``review_at``.
When it has passed (and the user has not restated the fact since), recall adds
a review item to the prompt, "I have you down as vegetarian — is that still
right?", so the model asks. Coordination is through the store only: the turn
that showed the question marks the record (``review_asked_in``: that turn's
message id); the user's next message is read as the answer, grounded in their
own words:

- a new value ("No, I'm vegan now") was already stored by the turn's extractor,
  which superseded the record, so nothing is left to do;
- a yes ("Yes, still am") confirms it: ``updated_at`` moves to now, the message
  joins its sources, and the next review date follows;
- a plain no ("Not anymore") ends it: the record moves to history.

Anything else leaves the question pending.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from memory.clock import parse_time
from memory.layers.base import LayerEnv, LoggedMessage, Recalled
from memory.layers.semantic_records import archive_record
from stores.namespaces import PROFILE

YES = re.compile(r"^\W*(?:yes|yep|yeah|yup|correct|right|that's right|that is right|still|i still|i'm still|"
                 r"i am still|sure|absolutely|indeed|of course|it is|i do)\b", re.IGNORECASE)
NO = re.compile(r"^\W*(?:no|nope|nah|not anymore|not any more|no longer|i'm not|i am not|i don't|wrong|"
                r"not really|that's wrong)\b", re.IGNORECASE)
DEFAULT_REVIEW_DAYS = 120.0
_VERB = {"is": "are", "has": "have", "was": "were"}


def due(env: LayerEnv) -> list[dict[str, Any]]:
    """Profile records whose review date has passed and that were not restated since."""
    out = []
    for item in env.store.search(env.scope.ns(PROFILE), limit=200):
        at, said = parse_time(item.value.get("review_at")), parse_time(item.value.get("updated_at"))
        if at is not None and at <= env.now and (said is None or said < at):
            out.append(item.value)
    return sorted(out, key=lambda r: r["id"])


def second_person(text: str) -> str:
    """'The user lives in Paris.' -> 'you live in Paris' (for the question)."""
    body = text.strip().rstrip(".")
    if body.lower().startswith("the user's "):
        return "your " + body[11:]
    if not body.lower().startswith("the user "):
        return body
    verb, _, rest = body[9:].partition(" ")
    verb = _VERB.get(verb, verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb)
    return f"you {verb} {rest}".strip()


def question(record: dict[str, Any]) -> str:
    """The review question the model should ask, in its own words or these."""
    return (f"Ask the user to confirm this before relying on it: \"I have it that {second_person(record['text'])}"
            " — is that still right?\"")


def review_items(env: LayerEnv) -> list[Recalled]:
    """One recalled item per due review, scored to stay in the prompt."""
    return [
        Recalled(kind="fact", text=question(r), score=1.0, sources=tuple(r["sources"]), key=f"review:{r['id']}",
                 meta={"review": r["id"], "category": r["category"], "importance": 10, "updated_at": r["updated_at"]})
        for r in due(env)
    ]


def answer_reviews(env: LayerEnv, users: Sequence[LoggedMessage]) -> dict[str, int]:
    """Mark questions shown this turn; read the user's reply to questions shown before."""
    counts = {"asked": 0, "confirmed": 0, "removed": 0}
    if not users:
        return counts
    last = users[-1]
    days = float(getattr(env.context, "upkeep_review_days", DEFAULT_REVIEW_DAYS))
    ns = env.scope.ns(PROFILE)
    for record in due(env):
        asked_in = record.get("review_asked_in")
        if asked_in is None:
            counts["asked"] += 1
            env.gate.atomic_update(ns, record["id"], lambda cur: _marked(cur, last.id))
        elif asked_in != last.id and YES.search(last.text):
            counts["confirmed"] += 1
            env.gate.atomic_update(ns, record["id"], lambda cur: _confirmed(cur, env, last, days))
        elif asked_in != last.id and NO.search(last.text):
            counts["removed"] += 1
            archive_record(env, PROFILE, record, env.now.isoformat(), superseded_by=None)
    return counts


def _marked(current: dict[str, Any] | None, message_id: str) -> dict[str, Any] | None:
    return current if current is None or current.get("review_asked_in") else {**current,
                                                                              "review_asked_in": message_id}


def _confirmed(current: dict[str, Any] | None, env: LayerEnv, msg: LoggedMessage, days: float) -> dict | None:
    if current is None:
        return None
    confirmed = {k: v for k, v in current.items() if k != "review_asked_in"}
    confirmed.update(updated_at=env.now.isoformat(), review_at=(env.now + timedelta(days=days)).isoformat(),
                     sources=list(dict.fromkeys([*current["sources"], msg.id])))
    return confirmed
