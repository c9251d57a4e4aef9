"""Where the assistant's own past replies may enter a prompt, and how they are marked.

A reply is the assistant's words, not the user's: shown as a memory of its own it reads
as something the user said or something true ("Pizza Margherita … made with coconut
milk"), and a filler reply ("I don't have anything remembered about you yet.") says
nothing at all. So the message log's recall (``own_turns``) keeps the user's messages
and leaves the assistant's out (its own replies: a named speaker of an imported dialogue
is a person, and stays), with two exceptions:

- the reply right after a recalled user message comes with it, as its context, on a
  line of its own marked as the assistant's ("[3 May 2026] assistant replied: …");
- a message that asks what the assistant said ("what did you tell me about…") gets the
  assistant's messages as results of their own.

Either way only a reply's ``substance`` is shown: greetings, apologies, "I'm not sure"
and having nothing remembered never are (memory/chatter.py). ``search`` (what the
benchmarks measure) is not changed: it still ranks every message.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from langgraph.store.base import GetOp, Item

from memory.chatter import substance
from memory.clock import parse_time
from memory.layers.base import LayerEnv, Recalled
from memory.layers.message_text import message_head, speaker_of, spoken_date
from stores.namespaces import MESSAGES

ASSISTANT = "assistant"
REPLY_CHARS = 300  # of a reply shown as a user message's context: the gist, not a second copy
ASKS_ASSISTANT = re.compile(
    r"\b(?:what (?:did|have|had) you (?:just )?(?:say|tell|suggest|recommend|answer|reply|mention|write|propose|advise)"
    r"|(?:did|have) you (?:tell|told|say|said|suggest|recommend|mention)"
    r"|you (?:said|told me|suggested|recommended|mentioned|answered|replied|wrote|proposed|advised)"
    r"|your (?:answer|reply|suggestion|recommendation|advice|last message))\b",
    re.IGNORECASE,
)


def asks_assistant(query: str) -> bool:
    """Whether ``query`` asks what the assistant said ("What did you tell me about pasta?")."""
    return ASKS_ASSISTANT.search(query) is not None


def is_reply(item: Recalled) -> bool:
    """Whether a recalled message is the assistant's (``_agents``)."""
    return _agents(item.meta)


def _agents(value: dict) -> bool:
    """Whether a logged message is the assistant's own reply: role assistant and no speaker name.
    An imported dialogue between two people (LoCoMo) logs its second speaker as a named
    "assistant": a person, whose messages are memories like the user's.
    """
    return value.get("role") == ASSISTANT and not value.get("name")


def own_turns(found: Sequence[Recalled], query: str) -> list[Recalled]:
    """``found`` without the assistant's messages, unless ``query`` asks what it said; a reply
    kept shows its substance only, and one with none (filler, a refusal) is dropped.
    """
    asked = asks_assistant(query)
    out: list[Recalled] = []
    for item in found:
        if not is_reply(item):
            out.append(item)
            continue
        head = message_head(item.text)
        said = substance(item.text.strip()[len(head):])
        if asked and said:
            out.append(dataclasses.replace(item, text=f"{head}{said}"))
    return out


def with_replies(env: LayerEnv, results: Sequence[Recalled]) -> list[Recalled]:
    """Each user message of ``results`` with the substance of the assistant's reply right after it
    (same thread) on a marked line below it; a reply already among ``results`` is not shown twice.
    """
    wanted = [(n, r.meta.get("next")) for n, r in enumerate(results) if not is_reply(r) and r.meta.get("next")]
    if not wanted:
        return list(results)
    shown = {r.key for r in results}
    found = env.store.batch([GetOp(env.scope.ns(MESSAGES), str(key)) for _, key in wanted])
    out = list(results)
    for (n, key), item in zip(wanted, found):
        if not isinstance(item, Item) or key in shown or not _agents(item.value):
            continue
        if item.value.get("thread") != results[n].meta.get("thread"):
            continue
        said = substance(item.value.get("text", ""))
        if not said:
            continue
        if len(said) > REPLY_CHARS:
            said = said[:REPLY_CHARS].rstrip() + " […]"
        when = parse_time(item.value.get("time"))
        head = f"[{spoken_date(when)}] " if when else ""
        line = f"{head}{speaker_of(item.value)} replied: {said}"
        out[n] = dataclasses.replace(results[n], text=f"{results[n].text}\n{line}",
                                     meta={**results[n].meta, "reply": item.key})
    return out
