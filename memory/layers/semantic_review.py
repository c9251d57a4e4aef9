"""Asking the user to re-confirm an important fact once its review date has passed.

Upkeep (memory/upkeep/expire.py) gives changeable profile slots a ``review_at``.
When it has passed (and the user has not restated the fact since), recall adds
a review item, "I have it that you are vegetarian — is that still right?", which the
prompt shows as an instruction, outside the quoted memory blocks (memory/prompt.py),
so the model asks. At most one per turn, and only for a slot the message touches
(``review_topics``): a cooking question asks about the diet, never the city or the job.
Coordination is through the store only: the turn that showed the question marks its
record (``review_asked_in``: that turn's message id); the user's next message is read
as the answer, grounded in their own words:

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
from memory.layers.review_topics import touches
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
    return f"I have it that {second_person(record['text'])} — is that still right?"


def to_ask(records: Sequence[dict[str, Any]], message: str) -> dict[str, Any] | None:
    """The one due record a turn saying ``message`` asks about: the most important the message
    touches (``review_topics``), the earliest due first among equals; None when it touches none.
    """
    touched = [r for r in records if touches(r, message)]
    return min(touched, key=lambda r: (-int(r.get("importance") or 0), str(r.get("review_at")), r["id"]),
               default=None)


def review_items(env: LayerEnv, query: str) -> list[Recalled]:
    """The review this turn asks (``to_ask``), as a ``review`` item; none when nothing due bears on ``query``."""
    record = to_ask(due(env), query) if query else None
    if record is None:
        return []
    return [Recalled(kind="review", text=question(record), score=1.0, sources=tuple(record["sources"]),
                     key=f"review:{record['id']}",
                     meta={"review": record["id"], "category": record["category"], "updated_at": record["updated_at"]})]


def answer_reviews(env: LayerEnv, users: Sequence[LoggedMessage]) -> dict[str, int]:
    """Mark questions shown this turn; read the user's reply to questions shown before."""
    counts = {"asked": 0, "confirmed": 0, "removed": 0}
    if not users:
        return counts
    last = users[-1]
    days = float(getattr(env.context, "upkeep_review_days", DEFAULT_REVIEW_DAYS))
    ns = env.scope.ns(PROFILE)
    records = due(env)
    shown = to_ask(records, last.text)  # what this turn's recall showed (the same pick)
    for record in records:
        asked_in = record.get("review_asked_in")
        if asked_in is None:
            if shown is not None and record["id"] == shown["id"]:
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
