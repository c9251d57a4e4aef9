"""Standing rules a chat model proposes at session end, and the check that the user said them.

The fact extractor's one session-end call (``llm.py``) also asks for rules: how the
user wants to be answered from now on. A false rule changes every later answer,
so a proposal is kept only when its ``quote`` is the user's own words: found,
whitespace and case aside, in a user message's secret-free sentences, and long
enough to mean something. The rule is then attributed to that message (never to
an id the model names) and goes through the procedural layer like any rule
(reconciled by topic, reviewed when ``review_rules`` is on, written through the gate).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from memory.layers.base import LoggedMessage
from memory.write_policy.base import safe_sentences, user_messages
from stores.redaction.secrets import contains_secret

log = logging.getLogger(__name__)
MIN_QUOTE_LETTERS = 8  # "be brief" and up: a word or two could be found in anything
MAX_RULE_CHARS = 200  # one imperative sentence, as the per-turn rules write them
_SPACE = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")


class ExtractedRule(BaseModel):
    """One standing rule as the model reports it."""

    rule: str = Field(min_length=1, description="Short imperative sentence, e.g. 'Keep answers concise.'")
    topic: str = Field(default="custom", description="What it is about: length, format, tone, language, ...")
    quote: str = Field(min_length=1, description="The user's exact words that state the rule.")
    source_id: str | None = Field(default=None, description="Id of the message that states it.")


@dataclass(frozen=True)
class ProposedRule:
    """A model's rule grounded in the user's words: ``message_id`` is the message that holds ``quote``."""

    rule: str
    topic: str
    message_id: str


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text).strip().strip(" \"'.!").lower()


def grounded_rules(rules: Sequence[ExtractedRule], messages: Sequence[LoggedMessage]) -> list[ProposedRule]:
    """The proposals whose quote a user message holds; the others are logged and dropped."""
    said = [(m.id, _plain(" ".join(safe_sentences(m.text)))) for m in user_messages(messages)]
    kept: list[ProposedRule] = []
    for proposal in rules:
        quote, text = _plain(proposal.quote), _SPACE.sub(" ", proposal.rule).strip()
        if len(_LETTER.findall(quote)) < MIN_QUOTE_LETTERS or not _LETTER.search(text) or len(text) > MAX_RULE_CHARS:
            log.info("dropped a proposed rule with no usable quote or text: %r", proposal.rule[:80])
            continue
        if contains_secret(text):
            log.info("dropped a proposed rule that holds a secret")
            continue
        holders = [mid for mid, words in said if quote in words]
        if not holders:
            log.info("dropped a proposed rule the user never said: %r", proposal.rule[:80])
            continue
        source = proposal.source_id if proposal.source_id in holders else holders[0]
        if not text.endswith((".", "!")):
            text += "."
        kept.append(ProposedRule(text[0].upper() + text[1:], proposal.topic.strip().lower(), source))
    return kept
