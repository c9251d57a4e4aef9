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
from memory.layers.base import LoggedMessage, Recalled
from memory.layers.message_query import terms
from memory.text import sentences
from stores.redaction.secrets import redact

_HEAD = re.compile(r"^\[[^\]]*\]\s*[^:]{1,60}:\s*")  # "[3 May 2024] user: " on a recalled message


def spoken_date(dt: datetime) -> str:
    """The date a message was said, as its indexed and recalled text writes it ("3 May 2024")."""
    return f"{dt.day} {dt:%B %Y}"


def speaker_of(value: dict[str, Any]) -> str:
    """Who said a stored message: its name, else its role."""
    return value.get("name") or value.get("role") or "someone"


INDEXED_FIELD = "search_text"  # the message, its date and its neighbours: the lexical text
SENTENCE_FIELD = "search_sentences"  # that text once per sentence, led by the sentence: the vectors
MIN_SENTENCE_WORDS = 3  # "Thanks, Mel!" leads no vector of its own
MAX_SENTENCE_VECTORS = 12  # of one message: a long reply's later sentences lead none
LED_CONTEXT_CHARS = 1_200  # of the indexed text after a sentence (but the first): about what MiniLM's 256 tokens read
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


def stored_record(msg: LoggedMessage) -> dict[str, Any]:
    """What the log stores of one message (before its indexed texts): secrets redacted, ``kept_text``."""
    return {"id": msg.id, "thread": msg.thread, "time": msg.time.isoformat(), "role": msg.role, "name": msg.name,
            "text": kept_text(redact(msg.text))}


def logged_message(value: dict[str, Any], said: datetime) -> LoggedMessage:
    """A stored record back as the message the extractors read."""
    return LoggedMessage(id=value["id"], thread=value["thread"], time=said, role=value["role"],
                         text=value.get("text", ""), name=value.get("name"))


def search_text(
    value: dict[str, Any], prev: dict[str, Any] | None, nxt: dict[str, Any] | None, with_date: bool = True
) -> str:
    """The text the store indexes for one message: header, message, then its neighbours (clipped)."""
    when = f" on {spoken_date(parse_time(value['time']))}" if with_date else ""  # type: ignore[arg-type]
    head = f"{speaker_of(value)}{when}: {value['text']}"
    around = [f"{speaker_of(v)}: {v['text'][:NEIGHBOUR_CHARS]}" for v in (prev, nxt) if v is not None]
    return "\n".join([head, *around])


def sentence_led(value: dict[str, Any], indexed: str) -> list[str]:
    """One text per sentence of the message: the sentence, then the message's indexed text.

    A message's single vector averages every sentence in it and its neighbours, so a
    question about one clause of a long turn ("a short trip to Rome" inside news about
    work) scores low. With one vector per sentence, each led by that sentence and still
    holding its context, the store's max over an item's vectors finds the clause; on
    LoCoMo dev the dense side alone goes from R@10 0.605 to 0.676 (bench/README.md). A
    message with no sentence of ``MIN_SENTENCE_WORDS`` words keeps one vector, of ``indexed``.
    The first copy holds all of ``indexed`` and the others its start: the store's lexical
    text joins them, and an encoder reads only the start of each (so a sentence is clipped
    too, and no copy outgrows the write gate's string limit).
    """
    name = speaker_of(value)
    own = [s for s in dict.fromkeys(sentences(value["text"])) if len(s.split()) >= MIN_SENTENCE_WORDS]
    led = [f"{name}: {s[:LED_CONTEXT_CHARS]}\n{indexed if i == 0 else indexed[:LED_CONTEXT_CHARS]}"
           for i, s in enumerate(own[:MAX_SENTENCE_VECTORS])]
    return led or [indexed]


def index_value(value: dict[str, Any], indexed: str, by_sentence: bool) -> list[str]:
    """Write a logged message's indexed texts into ``value``; the paths to put it with.

    Every writer of a logged message (the log, forget's re-index of neighbours, usage
    counts, retention cuts) goes through here or ``index_paths``, so a neighbour quoted
    in the sentence-led copies is rewritten wherever ``search_text`` is.
    """
    value[INDEXED_FIELD] = indexed
    if by_sentence:
        value[SENTENCE_FIELD] = sentence_led(value, indexed)
    else:
        value.pop(SENTENCE_FIELD, None)
    return index_paths(value)


def index_paths(value: dict[str, Any]) -> list[str]:
    """The store paths a logged message is indexed by: its sentence-led copies where it has them."""
    return [f"{SENTENCE_FIELD}[*]"] if value.get(SENTENCE_FIELD) else [INDEXED_FIELD]


def own_text(value: dict[str, Any]) -> dict[str, Any]:
    """A logged message without its indexed texts, which also quote its neighbours."""
    return {k: v for k, v in value.items() if k not in (INDEXED_FIELD, SENTENCE_FIELD)}


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


def message_head(text: str) -> str:
    """The "[date] speaker: " head of a recalled message ("" when it has none)."""
    match = _HEAD.match(text.strip())
    return match.group(0) if match else ""


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
        meta={"thread": v.get("thread"), "time": v.get("time"), "role": v.get("role"), "name": v.get("name"),
              "next": v.get("next")},
    )
