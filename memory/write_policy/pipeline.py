"""The write policy, declared in order: normalise → propose → screen → ground → store.

Every fact the agent keeps about a user passes these five stages, whichever
extractor proposed it (the semantic layer per turn and at session end, upkeep's
promotion of episode facts):

1. **normalise**: only the user's own messages are read (``base.user_messages``);
   the rules then normalise each sentence before any pattern runs (``voices.py``:
   captions, other voices, contractions, chat forms).
2. **propose**: candidate facts from the rules (``patterns.py``, ``phrasings.py``),
   the dependency parse (``blend.py``, ``parse_policy.py``) or an LLM (``llm.py``).
3. **screen**: a candidate that holds a secret is dropped (``stores/redaction``).
4. **ground**: a candidate is kept only when the user's words support it
   (``grounding.py``); its sources narrow to those messages.
5. **store**: deduplicated, superseding an old slot value, or new
   (``memory/layers/semantic_records.py``).

Screening looks only at a fact's text and value, which grounding never changes,
so the two may run in either order; screening first keeps a secret out of the
grounding log.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.semantic_records import Record, store_fact
from memory.write_policy.base import CandidateFact, FactExtractor, user_messages
from memory.write_policy.grounding import ground
from stores.redaction.secrets import contains_secret

log = logging.getLogger(__name__)
STAGES = ("normalise", "propose", "screen", "ground", "store")


def normalise(messages: Sequence[LoggedMessage]) -> list[LoggedMessage]:
    """The user's messages: nothing the assistant or a tool said becomes a fact about the user."""
    return user_messages(messages)


def propose(extractor: FactExtractor, messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
    """The extractor's candidates (rules and parse, or an LLM)."""
    return extractor.extract(messages)


def screen(candidates: Sequence[CandidateFact]) -> list[CandidateFact]:
    """The candidates that hold no secret."""
    kept = []
    for fact in candidates:
        if contains_secret(fact.text) or contains_secret(fact.value or ""):
            log.info("skipped a fact that contains a secret (sources %s)", fact.sources)
            continue
        kept.append(fact)
    return kept


def store(env: LayerEnv, candidates: Sequence[CandidateFact]) -> list[Record]:
    """Each candidate stored (deduplicated or superseding); returns the records written."""
    return [record for fact in candidates if (record := store_fact(env, fact)) is not None]


def write_facts(env: LayerEnv, candidates: Sequence[CandidateFact], messages: Sequence[LoggedMessage]) -> list[Record]:
    """Screen, ground and store candidates already proposed (upkeep's promotion enters here)."""
    return store(env, ground(screen(candidates), messages))


def write(env: LayerEnv, extractor: FactExtractor, messages: Sequence[LoggedMessage]) -> list[Record]:
    """The whole pipeline on some messages: every stage, in order."""
    users = normalise(messages)
    if not users:
        return []
    return write_facts(env, propose(extractor, users), users)
