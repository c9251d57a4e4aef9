"""How a logged message reads as text: what the store indexes, and the words under a recalled message's head.

Kept apart from ``message_log`` because the prompt and usage tracking read recalled messages
too, and need these renderings without the layer's write and read policies.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from langgraph.store.base import SearchItem

from memory.clock import parse_time
from memory.layers.base import Recalled
from memory.layers.message_query import terms

_HEAD = re.compile(r"^\[[^\]]*\]\s*[^:]{1,60}:\s*")  # "[3 May 2024] user: " on a recalled message


def spoken_date(dt: datetime) -> str:
    """The date a message was said, as its indexed and recalled text writes it ("3 May 2024")."""
    return f"{dt.day} {dt:%B %Y}"


def speaker_of(value: dict[str, Any]) -> str:
    """Who said a stored message: its name, else its role."""
    return value.get("name") or value.get("role") or "someone"


KEPT_CHARS = 32_000  # of one logged message: 4× the longest user message (Context.max_message_chars)
NEIGHBOUR_CHARS = 2_000  # of a neighbour in the index: context for the search, not a second copy


def kept_text(text: str) -> str:
    """What the log keeps of one message's text: all of it up to ``KEPT_CHARS``, else its start
    and a marker. A model's reply has no length limit, and one long reply must not make the
    turn's write fail (the write gate refuses a string over 64k); the thread keeps it whole.
    """
    if len(text) <= KEPT_CHARS:
        return text
    return f"{text[:KEPT_CHARS]} […{len(text) - KEPT_CHARS} more characters not kept in the log]"


def search_text(
    value: dict[str, Any], prev: dict[str, Any] | None, nxt: dict[str, Any] | None, with_date: bool = True
) -> str:
    """The text the store indexes for one message: header, message, then its neighbours (clipped)."""
    when = f" on {spoken_date(parse_time(value['time']))}" if with_date else ""  # type: ignore[arg-type]
    head = f"{speaker_of(value)}{when}: {value['text']}"
    around = [f"{speaker_of(v)}: {v['text'][:NEIGHBOUR_CHARS]}" for v in (prev, nxt) if v is not None]
    return "\n".join([head, *around])


def repeats_question(message: str, query: str) -> bool:
    """Whether a recalled past message is a question ``query`` asks again: every content word of
    it is in ``query``. An earlier "Where do I live?" holds no answer to "Where do I live?", and a
    user who asks the same thing every week would otherwise fill the block with their own questions.
    """
    body = _HEAD.sub("", message).strip()
    own = terms(body)
    return body.endswith("?") and bool(own) and own <= terms(query)


def message_body(text: str) -> str:
    """A recalled message's words without its "[date] speaker: " head, lower-cased: the key that tells
    the same words said on two days, or quoted by a summary, apart from their rendering.
    """
    return _HEAD.sub("", text.strip()).strip().lower()


def recalled_message(hit: SearchItem, score: float) -> Recalled:
    """A found message as the prompt shows it: "[date] speaker: text", its own id as its only source."""
    v = hit.value
    said = parse_time(v.get("time"))
    when = f"[{spoken_date(said)}] " if said else ""
    return Recalled(
        kind="message",
        text=f"{when}{speaker_of(v)}: {v.get('text', '')}",
        score=round(score, 6),
        sources=(hit.key,),  # the key is the message id
        key=hit.key,
        meta={"thread": v.get("thread"), "time": v.get("time"), "role": v.get("role"), "name": v.get("name")},
    )
